package regress

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

func TestParseScheduler(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]checker.Scheduler{
		"": {}, "uniform": {}, "swarm": {Kind: "swarm"}, "pct:1": {Kind: "pct", Depth: 1}, "pct:3": {Kind: "pct", Depth: 3},
	} {
		got, err := checker.ParseScheduler(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"pct", "pct:0", "pct:x", "pct:101", "random", "swarm:2"} {
		_, err := checker.ParseScheduler(bad)
		require.Error(t, err, bad)
	}
}

// PCT and swarm walks are runs like any other: their counterexamples
// replay to the violation, and a search's result does not depend on the
// number of workers. PCT finds the basic multicast's lost message after a
// sender crash at N = 10, which 100 uniform walks from the same seed miss.
func TestSchedulers(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("basic")
	require.NoError(t, err)
	i := slices.IndexFunc(p.Scenarios, func(s suite.Scenario) bool { return s.Name == "sender-crash" })
	require.GreaterOrEqual(t, i, 0)
	sc := p.Scenarios[i]
	sc.N, sc.Props = 10, []string{"agreement"}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	opt := checker.RandomOptions{Walks: 100, Seed: 1}
	require.Nil(t, checker.Random(context.Background(), m, opt).Property("agreement").Counterexample, "uniform walks")
	for _, name := range []string{"pct:3", "swarm"} {
		sched, err := checker.ParseScheduler(name)
		require.NoError(t, err)
		o := opt
		o.Scheduler = sched
		var base *checker.Result
		for _, workers := range []int{1, 2} {
			o.Workers = workers
			r := checker.Random(context.Background(), m, o)
			if base == nil {
				base = r
				continue
			}
			require.Equal(t, comparableResult(base), comparableResult(r), "%s, workers=%d", name, workers)
		}
		for _, pr := range base.Failed() {
			one, err := m.WithProperties(propertyNamed(t, m, pr.Name))
			require.NoError(t, err)
			again, err := checker.Replay(one, pr.Counterexample)
			require.NoError(t, err)
			require.Equal(t, pr.Name, again.Property, "%s: the counterexample replays to its violation", name)
		}
		if name == "pct:3" {
			require.NotNil(t, base.Property("agreement").Counterexample, "PCT finds the lost message")
		}
	}
}

func propertyNamed(t *testing.T, m *checker.Machine, name string) *properties.Property {
	for _, p := range m.Properties() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no property %s", name)
	return nil
}

// A walk whose run goes round a cycle for ever (the token ring once every
// request is served: one event enabled at every step, back to a world it
// met) ends there: the run has no end where a quiescence property could
// fail, and an eventually-property is left unknown, not judged on the
// cycle.
func TestRandomWalksEndOnForcedCycles(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("tokenring")
	require.NoError(t, err)
	sc := suite.Scenario{N: 5, Params: map[string]int{"requests": 1}}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 50, Seed: 1})
	require.Equal(t, 50, r.Stats.WalksCycled)
	require.Zero(t, r.Stats.WalksCut)
	require.Less(t, r.Stats.Transitions, int64(50*200), "the walks stopped on their cycles")
	require.Equal(t, checker.Pass, r.Property("no-deadlock").Verdict)
	ns := r.Property("no-starvation")
	require.Equal(t, checker.Unknown, ns.Verdict)
	require.Contains(t, ns.Detail, "50 of 50 on a cycle their runs go round for ever")
}
