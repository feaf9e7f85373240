package checker_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/shardtest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// countRelay passes a count round the ring: node 0 starts it at 1, and each
// node that receives m keeps it and sends m+1 on, up to limit. Its only
// run has limit deliveries, and the world after k of them is the first
// where a node holds k: limit+1 worlds in all, counted by hand. Where it
// elects, the node that receives limit is told it leads.
type countRelay struct {
	limit  int
	elects bool
}

func (countRelay) Init(ctx *model.Ctx[int]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, 1)
	}
	return 0
}

func (r countRelay) Receive(ctx *model.Ctx[int], _ int, _ model.NodeID, m int) int {
	if m < r.limit {
		ctx.Send((ctx.Self()+1)%model.NodeID(ctx.N()), m+1)
	}
	if m == r.limit && r.elects {
		ctx.Observe(model.Leader(ctx.Self()))
	}
	return m
}

func (countRelay) Timeout(_ *model.Ctx[int], s int, _ model.Timer) int { return s }
func (countRelay) Recover(_ *model.Ctx[int], s int) int                { return s }

// holds is the sometimes-property "some node holds k".
func holds(k int) *properties.Property {
	return properties.Sometimes(fmt.Sprintf("holds-%d", k), "test", fmt.Sprintf("a node holds %d", k), func(v properties.View) bool {
		for i := range v.N() {
			if properties.StateOf[int](v, model.NodeID(i)) == k {
				return true
			}
		}
		return false
	})
}

// below is the invariant "no node holds k or more".
func below(k int) *properties.Property {
	return properties.Invariant(fmt.Sprintf("below-%d", k), "no node holds k or more", func(v properties.View) string {
		for i := range v.N() {
			if s := properties.StateOf[int](v, model.NodeID(i)); s >= k {
				return fmt.Sprintf("n%d holds %d", i, s)
			}
		}
		return ""
	})
}

func countMachine(t *testing.T, props ...*properties.Property) *checker.Machine {
	t.Helper()
	m, err := checker.Compile("count-relay", countRelay{limit: 5}, model.Config{N: 3}, props...)
	require.NoError(t, err)
	return m
}

// A sometimes-property passes with the shortest run that reaches its goal
// (k deliveries to hold k), fails only where an exhaustive search explored
// every world, and is unknown where a bound cut it or walks searched:
// whichever engine and however split, never a fail without a proof.
func TestSometimesVerdicts(t *testing.T) {
	random := checker.RandomOptions{Walks: 20, Seed: 1}
	for _, c := range []struct {
		name   string
		goal   int
		search func(*checker.Machine) *checker.Result
		want   checker.Verdict
		detail string
	}{
		{"exhaustive reaches", 3, exhaustive(checker.Options{}), checker.Pass, "reached: a node holds 3"},
		{"exhaustive reaches the start", 0, exhaustive(checker.Options{}), checker.Pass, "reached: a node holds 0"},
		{"exhaustive complete, none", 7, exhaustive(checker.Options{}), checker.Fail, "no reachable world reaches it (6 states searched)"},
		{"exhaustive cut by depth", 4, exhaustive(checker.Options{MaxDepth: 2}), checker.Unknown, "no world reached it in the 3 states searched before the depth bound cut the search"},
		{"exhaustive cut by states", 5, exhaustive(checker.Options{MaxStates: 2}), checker.Unknown, "no world reached it in the 2 states searched before the states bound cut the search"},
		{"sweep reaches", 2, exhaustive(checker.Options{Sweep: true}), checker.Pass, "reached: a node holds 2"},
		{"random reaches", 3, func(m *checker.Machine) *checker.Result { return checker.Random(context.Background(), m, random) }, checker.Pass, "reached: a node holds 3"},
		{"random, none", 7, func(m *checker.Machine) *checker.Result { return checker.Random(context.Background(), m, random) }, checker.Unknown, "no walk reached it (20 walks): a random search is not a proof"},
		{"auto reaches", 3, func(m *checker.Machine) *checker.Result {
			return checker.Auto(context.Background(), m, checker.AutoOptions{Random: random})
		}, checker.Pass, "reached: a node holds 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := c.search(countMachine(t, holds(c.goal)))
			pr := res.Properties[0]
			require.True(t, pr.Sometimes)
			require.Equal(t, c.want, pr.Verdict, pr.Detail)
			require.Equal(t, c.detail, pr.Detail)
			require.Nil(t, pr.Counterexample, "a sometimes-property has no counterexample")
			require.Equal(t, c.want, res.Verdict)
			if c.want != checker.Pass {
				require.Nil(t, pr.Witness)
				return
			}
			require.NotNil(t, pr.Witness)
			require.True(t, pr.Witness.Witness)
			require.Len(t, pr.Witness.Events, c.goal, "the witness is the run of %d deliveries", c.goal)
		})
	}
}

func exhaustive(opt checker.Options) func(*checker.Machine) *checker.Result {
	return func(m *checker.Machine) *checker.Result { return checker.Exhaustive(context.Background(), m, opt) }
}

// A random walk's witness replays from its seed, as a counterexample does:
// the walk of that seed alone finds it again; and replaying the witness
// names the property as reached, not violated.
func TestSometimesWitnessReplays(t *testing.T) {
	m := countMachine(t, holds(4))
	res := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 5, Seed: 9})
	w := res.Properties[0].Witness
	require.NotNil(t, w)
	require.NotNil(t, w.Seed)
	again := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 1, Seed: *w.Seed})
	require.Equal(t, w.Events, again.Properties[0].Witness.Events)
	replayed, err := checker.Replay(countMachine(t, below(9), holds(4)), w)
	require.NoError(t, err)
	require.True(t, replayed.Witness)
	require.Equal(t, "holds-4", replayed.Property)
}

// Shards merge as the search on one machine: a pass where any shard's
// walks reached the goal, with the witness of the lowest seed; never a
// fail, since no shard's search is complete.
func TestSometimesShardsMerge(t *testing.T) {
	opt := checker.RandomOptions{Walks: 6, Seed: 3}
	for _, c := range []struct {
		goal int
		want checker.Verdict
	}{{3, checker.Pass}, {7, checker.Unknown}} {
		m := countMachine(t, below(9), holds(c.goal))
		merged := shardtest.Merged(t, m, opt, 3)
		whole := checker.Random(context.Background(), m, opt)
		require.Equal(t, c.want, merged.Property(holds(c.goal).Name).Verdict, "goal %d", c.goal)
		require.Equal(t, whole.Properties, merged.Properties, "goal %d", c.goal)
	}
}

// A sometimes-property changes nothing of what a search explores: its
// witness does not stop the search while other properties are judged, and
// is not a violation (no -first stop, no violation told); the search that
// stops once the others fail leaves it unknown if not reached by then.
func TestSometimesExploresTheSame(t *testing.T) {
	for _, c := range []struct {
		name      string
		goal, bad int
		opt       checker.Options
		want      checker.Verdict
	}{
		{"reached before the violation", 1, 4, checker.Options{}, checker.Pass},
		{"reached before the first violation", 1, 4, checker.Options{First: true}, checker.Pass},
		{"not reached before every property failed", 5, 2, checker.Options{}, checker.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			var told []string
			c.opt.OnViolation = func(v checker.FirstViolation) { told = append(told, v.Property) }
			alone := checker.Exhaustive(context.Background(), countMachine(t, below(c.bad)), c.opt)
			told = nil
			with := checker.Exhaustive(context.Background(), countMachine(t, below(c.bad), holds(c.goal)), c.opt)
			require.Equal(t, alone.Stats.States, with.Stats.States)
			require.Equal(t, alone.Stats.Depth, with.Stats.Depth)
			require.Equal(t, []string{below(c.bad).Name}, told)
			require.Equal(t, checker.Fail, with.Properties[0].Verdict)
			require.Equal(t, c.want, with.Properties[1].Verdict)
			require.Equal(t, checker.Fail, with.Verdict)
		})
	}
}

// A search of sometimes-properties alone stops once every one is reached.
func TestSometimesAloneStopsWhenReached(t *testing.T) {
	res := checker.Exhaustive(context.Background(), countMachine(t, holds(1), holds(2)), checker.Options{})
	require.True(t, res.Stopped)
	require.Equal(t, checker.Pass, res.Verdict)
	require.Equal(t, int64(3), res.Stats.States)
}

// A pass whose trigger no run reached is recorded as maybe vacuous, the
// trigger judged though not asked for (and not reported then); a pass
// whose trigger was reached, or a verdict that is no pass, is not.
func TestVacuousPass(t *testing.T) {
	for _, c := range []struct {
		name    string
		elects  bool
		props   []*properties.Property
		opt     checker.Options
		shown   []string
		vacuous []checker.Vacuity
	}{
		{"never elects", false, []*properties.Property{properties.UniqueLeader, properties.Agreement}, checker.Options{},
			[]string{"unique-leader", "agreement"}, []checker.Vacuity{
				{Property: "unique-leader", Trigger: "elected", Doc: "some node is told a leader", Detail: "no reachable world reaches it (6 states searched)"},
				{Property: "agreement", Trigger: "elected", Doc: "some node is told a leader", Detail: "no reachable world reaches it (6 states searched)"}}},
		{"never elects, the trigger asked for", false, []*properties.Property{properties.Elected, properties.UniqueLeader}, checker.Options{},
			[]string{"elected", "unique-leader"}, []checker.Vacuity{
				{Property: "unique-leader", Trigger: "elected", Doc: "some node is told a leader", Detail: "no reachable world reaches it (6 states searched)"}}},
		{"elects", true, []*properties.Property{properties.UniqueLeader}, checker.Options{}, []string{"unique-leader"}, nil},
		{"cut before it elects", true, []*properties.Property{properties.HighestLeader}, checker.Options{MaxDepth: 3}, []string{"highest-leader"}, nil},
		{"no trigger", false, []*properties.Property{properties.Termination}, checker.Options{}, []string{"termination"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := checker.Compile("count-relay", countRelay{limit: 5, elects: c.elects}, model.Config{N: 3}, c.props...)
			require.NoError(t, err)
			require.Equal(t, c.props, m.Properties(), "the triggers are not among the properties asked for")
			res := checker.Exhaustive(context.Background(), m, c.opt)
			var names []string
			for _, pr := range res.Properties {
				names = append(names, pr.Name)
			}
			require.Equal(t, c.shown, names)
			require.Equal(t, c.vacuous, res.Vacuous)
		})
	}
}

// Random walks and their shards judge the triggers too: walks that never
// elect leave the trigger unknown, and the pass is told as maybe vacuous,
// by the merge as by the search on one machine; and by an auto search.
func TestVacuousPassOfWalks(t *testing.T) {
	m, err := checker.Compile("count-relay", countRelay{limit: 5}, model.Config{N: 3}, properties.UniqueLeader)
	require.NoError(t, err)
	opt := checker.RandomOptions{Walks: 6, Seed: 3}
	want := []checker.Vacuity{{Property: "unique-leader", Trigger: "elected", Doc: "some node is told a leader",
		Detail: "no walk reached it (6 walks): a random search is not a proof"}}
	whole := checker.Random(context.Background(), m, opt)
	require.Equal(t, want, whole.Vacuous)
	require.Len(t, whole.Properties, 1)
	merged := shardtest.Merged(t, m, opt, 2)
	require.Equal(t, whole.Properties, merged.Properties)
	require.Equal(t, want, merged.Vacuous)
	auto := checker.Auto(context.Background(), m, checker.AutoOptions{Random: opt})
	require.Len(t, auto.Properties, 1)
	require.Equal(t, "no reachable world reaches it (6 states searched)", auto.Vacuous[0].Detail)
}
