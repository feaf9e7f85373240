package properties_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// believer is a protocol that sends nothing: at start-up node i reports the
// leader given by parameter "b<i>" (none when unset) and then never acts,
// so every world it reaches is quiescent. A recovered node reports nothing.
type believer struct{}

type believerState struct{ B model.NodeID }

type believerMsg struct{}

func (believer) Init(ctx *model.Ctx[believerMsg]) believerState {
	b := model.NodeID(ctx.Param(fmt.Sprintf("b%d", ctx.Self()), int(model.None)))
	if b != model.None {
		ctx.Observe(model.Leader(b))
	}
	return believerState{B: b}
}

func (believer) Receive(_ *model.Ctx[believerMsg], s believerState, _ model.NodeID, _ believerMsg) believerState {
	return s
}
func (believer) Timeout(_ *model.Ctx[believerMsg], s believerState, _ model.Timer) believerState {
	return s
}
func (believer) Recover(_ *model.Ctx[believerMsg], s believerState) believerState { return s }

// beliefParams are the parameters under which believer's node i reports
// beliefs[i].
func beliefParams(beliefs []model.NodeID) map[string]int {
	params := map[string]int{}
	for i, b := range beliefs {
		params[fmt.Sprintf("b%d", i)] = int(b)
	}
	return params
}

// withFaults is w after an event of kind (a crash, a recovery) at each of
// nodes in turn.
func withFaults(st *sim.Stepper, w sim.World, kind sim.EventKind, nodes []model.NodeID) sim.World {
	for _, i := range nodes {
		w, _ = st.Apply(w, sim.Event{Kind: kind, Node: i}, nil)
	}
	return w
}

const none = model.None

// deadBit marks a crashed node's record in a World (see sim.World).
const deadBit = uint64(1) << 63

type situation struct {
	name    string
	ranks   []int // nil: sorted
	beliefs []model.NodeID
	// crash: nodes crashed by Crash events (the monitor then forgets their
	// beliefs); recover: nodes recovered after that; down: nodes marked
	// crashed in the World by hand, their beliefs kept, to exercise the
	// properties' own liveness tests.
	crash, recover, down []model.NodeID
	// want: the detail each property reports, "" when it holds; live-leader
	// reports what termination does (it implies it), unless a live node
	// believes in a crashed leader before any is undecided: live says so.
	unique, agreement, highest, termination, live string
}

var situations = []situation{
	{name: "two live self-leaders", beliefs: []model.NodeID{0, 1, none},
		unique:      "n0 and n1 both believe they are the leader",
		agreement:   "n0 believes n0 leads, n1 believes n1",
		highest:     "n0 believes n0 leads, but the live node of highest rank is n2",
		termination: "the run is over but n2 has not decided"},
	{name: "self-leaders n0 and n1 both live", ranks: []int{5, 3, 1}, beliefs: []model.NodeID{0, 1, 1},
		unique:    "n0 and n1 both believe they are the leader",
		agreement: "n0 believes n0 leads, n1 believes n1",
		highest:   "n1 believes n1 leads, but the live node of highest rank is n0"},
	{name: "self-leader n0 crashed, n1 leads", ranks: []int{5, 3, 1}, beliefs: []model.NodeID{0, 1, 1},
		crash: []model.NodeID{0}},
	{name: "self-leader n0 down with its belief kept, n1 leads", ranks: []int{5, 3, 1}, beliefs: []model.NodeID{0, 1, 1},
		down: []model.NodeID{0}},
	{name: "every node follows n2", beliefs: []model.NodeID{2, 2, 2}},
	{name: "stale belief in a crashed leader", beliefs: []model.NodeID{2, 1, 2}, crash: []model.NodeID{2},
		// stale beliefs are no disagreement, but a run that ends with one
		// has not elected the highest live node, nor a live one
		highest: "n0 believes n2 leads, but the live node of highest rank is n1",
		live:    "the run is over but n0 believes n2 leads, which has crashed"},
	{name: "stale belief in a leader down with its belief kept", beliefs: []model.NodeID{2, 1, 2}, down: []model.NodeID{2},
		highest: "n0 believes n2 leads, but the live node of highest rank is n1",
		live:    "the run is over but n0 believes n2 leads, which has crashed"},
	{name: "the same beliefs with the leader live", beliefs: []model.NodeID{2, 1, 2},
		unique:    "n1 and n2 both believe they are the leader",
		agreement: "n0 believes n2 leads, n1 believes n1",
		highest:   "n1 believes n1 leads, but the live node of highest rank is n2"},
	{name: "two live leaders believed, no self-leader", beliefs: []model.NodeID{1, 2, none},
		agreement:   "n0 believes n1 leads, n1 believes n2",
		highest:     "n0 believes n1 leads, but the live node of highest rank is n2",
		termination: "the run is over but n2 has not decided"},
	{name: "undecided nodes neither agree nor disagree", beliefs: []model.NodeID{none, 2, 2},
		termination: "the run is over but n0 has not decided"},
	{name: "undecided node crashed", beliefs: []model.NodeID{none, 2, 2}, crash: []model.NodeID{0}},
	{name: "ranks not sorted: all follow the highest", ranks: []int{2, 0, 1}, beliefs: []model.NodeID{0, 0, 0}},
	{name: "ranks not sorted: all follow the highest id", ranks: []int{2, 0, 1}, beliefs: []model.NodeID{2, 2, 2},
		highest: "n0 believes n2 leads, but the live node of highest rank is n0"},
	{name: "highest crashed, the survivors follow the next", ranks: []int{2, 0, 1}, beliefs: []model.NodeID{0, 2, 2},
		crash: []model.NodeID{0}},
	{name: "highest crashed, a survivor still follows it", ranks: []int{2, 0, 1}, beliefs: []model.NodeID{0, 0, 2},
		crash:   []model.NodeID{0},
		highest: "n1 believes n0 leads, but the live node of highest rank is n2",
		live:    "the run is over but n1 believes n0 leads, which has crashed"},
	{name: "a recovered node believes nothing until it says so", beliefs: []model.NodeID{2, 2, 2},
		crash: []model.NodeID{0}, recover: []model.NodeID{0},
		termination: "the run is over but n0 has not decided"},
	{name: "a single node leading", beliefs: []model.NodeID{0}},
	{name: "a single node undecided", beliefs: []model.NodeID{none},
		termination: "the run is over but n0 has not decided"},
	{name: "four nodes, disagreement past the first pair", beliefs: []model.NodeID{3, 3, none, 2},
		unique:      "",
		agreement:   "n0 believes n3 leads, n3 believes n2",
		highest:     "n3 believes n2 leads, but the live node of highest rank is n3",
		termination: "the run is over but n2 has not decided"},
}

// view builds the World of a situation.
func (s situation) view(t *testing.T) properties.View {
	t.Helper()
	n := len(s.beliefs)
	cfg := model.Config{N: n, Ranks: s.ranks, Crashes: len(s.crash), Recoveries: len(s.recover), Params: beliefParams(s.beliefs)}
	m, err := sim.Compile("believer", believer{}, cfg, properties.Monitors(properties.Family("election"))...)
	require.NoError(t, err)
	st := m.NewStepper()
	w, _ := st.Init()
	w = withFaults(st, withFaults(st, w, sim.Crash, s.crash), sim.Recover, s.recover)
	for _, i := range s.down {
		w[1+int(i)] |= deadBit
	}
	_, nproto := st.Enabled(w, nil)
	require.Zero(t, nproto, "the world must be quiescent for quiescence properties to apply")
	v := st.View(w)
	for i := range model.NodeID(n) {
		crashed := slices.Contains(s.crash, i) && !slices.Contains(s.recover, i)
		require.Equal(t, !crashed && !slices.Contains(s.down, i), v.Alive(i), "n%d alive", i)
	}
	return v
}

func TestElectionProperties(t *testing.T) {
	for _, s := range situations {
		t.Run(s.name, func(t *testing.T) {
			v := s.view(t)
			require.Equal(t, s.unique, properties.UniqueLeader.Check(v), "unique-leader")
			require.Equal(t, s.agreement, properties.Agreement.Check(v), "agreement")
			require.Equal(t, s.highest, properties.HighestLeader.Check(v), "highest-leader")
			require.Equal(t, s.termination, properties.Termination.Check(v), "termination")
			live := s.live
			if live == "" {
				live = s.termination
			}
			require.Equal(t, live, properties.LiveLeader.Check(v), "live-leader")
		})
	}
}

// The Leaders monitor holds each node's last reported leader, and forgets
// it when the node crashes or recovers.
func TestLeadersMonitor(t *testing.T) {
	cases := []struct {
		s    situation
		want []model.NodeID
	}{
		{situation{beliefs: []model.NodeID{2, none, 0}}, []model.NodeID{2, none, 0}},
		{situation{beliefs: []model.NodeID{2, 2, 2}, crash: []model.NodeID{1}}, []model.NodeID{2, none, 2}},
		{situation{beliefs: []model.NodeID{2, 2, 2}, crash: []model.NodeID{2}, recover: []model.NodeID{2}}, []model.NodeID{2, 2, none}},
		{situation{beliefs: []model.NodeID{2, 2, 2}, down: []model.NodeID{2}}, []model.NodeID{2, 2, 2}},
	}
	for _, c := range cases {
		v := c.s.view(t)
		require.Equal(t, c.want, v.Monitor(properties.Leaders), "%+v", c.s)
	}
}

func TestElectionFamily(t *testing.T) {
	fam := properties.Family("election")
	var names []string
	for _, p := range fam {
		names = append(names, p.Name)
		require.Equal(t, "election", p.Family)
		require.NotEmpty(t, p.Doc)
		got, err := properties.Lookup("election", p.Name)
		require.NoError(t, err)
		require.Same(t, p, got)
	}
	for _, p := range []*properties.Property{properties.UniqueLeader, properties.Agreement, properties.HighestLeader,
		properties.Termination, properties.LiveLeader, properties.GroupLeader, properties.HealedLeader} {
		require.Contains(t, names, p.Name)
		require.Equal(t, properties.Leaders, p.Monitor, p.Name)
	}
	require.Contains(t, names, properties.GroupNumbersUnique.Name)
	require.Equal(t, properties.GroupNumbers, properties.GroupNumbersUnique.Monitor)
	require.Equal(t, properties.Always, properties.UniqueLeader.When)
	require.Equal(t, properties.Always, properties.Agreement.When)
	require.Equal(t, properties.AtQuiescence, properties.HighestLeader.When)
	require.Equal(t, properties.AtQuiescence, properties.Termination.When)
	require.Equal(t, properties.AtQuiescence, properties.LiveLeader.When)
	four := []*properties.Property{properties.UniqueLeader, properties.Agreement, properties.HighestLeader, properties.Termination}
	require.Equal(t, []model.Monitor{properties.Leaders}, properties.Monitors(four), "one monitor for the four")

	// sorted, whatever order the registry's map gives them in
	sorted := []string{"agreement", "group-leader", "group-numbers-unique", "healed-leader", "highest-leader",
		"live-leader", "pool-size", "termination", "unique-leader"}
	for range 20 {
		require.Equal(t, sorted, properties.Names("election"))
	}
	require.Equal(t, sorted, names, "the family in the order of its names")

	_, err := properties.Lookup("election", "leader")
	require.ErrorContains(t, err, `unknown property "leader" (known for election: `)
	require.ErrorContains(t, err, "unique-leader")
}

// A property whose monitor the Machine does not carry cannot be judged.
func TestViewWithoutMonitorPanics(t *testing.T) {
	m, err := sim.Compile("believer", believer{}, model.Config{N: 2})
	require.NoError(t, err)
	st := m.NewStepper()
	w, _ := st.Init()
	require.PanicsWithValue(t, "monitor leaders is not attached to this machine: compile with a property that reads it", func() {
		properties.UniqueLeader.Check(st.View(w))
	})
}
