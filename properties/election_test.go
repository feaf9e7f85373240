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
	sorted := []string{"agreement", "elected", "group-leader", "group-numbers-unique", "healed-leader", "highest-leader",
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

// TestPartitionProperties judges group-leader and healed-leader on settled
// worlds of four believers, cut by arcs of the ring of ids.
func TestPartitionProperties(t *testing.T) {
	cases := []struct {
		name    string
		beliefs []model.NodeID
		cuts    [][2]model.NodeID // arcs cut away, in order
		crash   []model.NodeID
		group   string // group-leader's verdict
		healed  string // healed-leader's verdict
	}{
		{name: "whole, one coordinator", beliefs: []model.NodeID{3, 3, 3, 3}},
		{name: "whole, two coordinators", beliefs: []model.NodeID{1, 1, 3, 3},
			group:  "n0 and n2 are connected but follow n1 and n3",
			healed: "the network is whole and the run has settled, but n0 follows n1 and n2 follows n3"},
		{name: "split, one coordinator per group", beliefs: []model.NodeID{1, 1, 3, 3}, cuts: [][2]model.NodeID{{2, 3}}},
		{name: "split, a group follows across the cut", beliefs: []model.NodeID{3, 3, 3, 3}, cuts: [][2]model.NodeID{{2, 3}},
			group: "the run has settled but n0 follows n3, which it cannot reach"},
		{name: "split three ways", beliefs: []model.NodeID{0, 1, 0, 3}, cuts: [][2]model.NodeID{{1, 1}, {3, 3}}},
		{name: "a follower of a follower", beliefs: []model.NodeID{1, 2, 2, 2},
			group:  "n0 follows n1, which follows n2",
			healed: "the network is whole and the run has settled, but n0 follows n1 and n1 follows n2"},
		{name: "undecided", beliefs: []model.NodeID{3, none, 3, 3},
			group:  "the run has settled but n1 follows no coordinator",
			healed: "the network is whole and the run has settled, but n1 follows no live coordinator"},
		{name: "crashed nodes do not count", beliefs: []model.NodeID{3, 3, 2, 3}, crash: []model.NodeID{2}},
		{name: "a crashed coordinator", beliefs: []model.NodeID{3, 3, 3, 3}, crash: []model.NodeID{3},
			group:  "the run has settled but n0 follows n3, which it cannot reach",
			healed: "the network is whole and the run has settled, but n0 follows no live coordinator"},
	}
	for _, c := range cases {
		cfg := model.Config{N: len(c.beliefs), Crashes: len(c.crash), Partitions: max(1, len(c.cuts)), Params: beliefParams(c.beliefs)}
		m, err := sim.Compile("believer", believer{}, cfg, properties.Leaders)
		require.NoError(t, err)
		st := m.NewStepper()
		w, _ := st.Init()
		for _, arc := range c.cuts {
			w, _ = st.Apply(w, sim.Event{Kind: sim.Partition, Node: arc[0], From: arc[1]}, nil)
		}
		v := st.View(withFaults(st, w, sim.Crash, c.crash))
		require.Equal(t, len(c.cuts) > 0, v.Split(), c.name)
		require.Equal(t, c.group, properties.GroupLeader.Check(v), c.name)
		require.Equal(t, c.healed, properties.HealedLeader.Check(v), c.name)
	}
}

// former forms group (g<i>, i) at start-up and, when its timer fires, group
// (r<i>, i).
type former struct{ believer }

func (former) Init(ctx *model.Ctx[believerMsg]) believerState {
	ctx.Observe(model.NewGroup(ctx.Param(fmt.Sprintf("g%d", ctx.Self()), 1)))
	ctx.SetTimer("reform")
	return believerState{}
}

func (former) Timeout(ctx *model.Ctx[believerMsg], s believerState, _ model.Timer) believerState {
	ctx.Observe(model.NewGroup(ctx.Param(fmt.Sprintf("r%d", ctx.Self()), 0)))
	return s
}

// The group-number monitor flags a node that forms a group with a sequence
// number it used before, and keeps the first such reuse.
func TestGroupNumbersUnique(t *testing.T) {
	cases := []struct {
		params map[string]int
		fire   []model.NodeID // nodes whose timer fires, in order
		want   string
	}{
		{params: map[string]int{"g0": 1, "g1": 1}, want: ""}, // (1, n0) and (1, n1) differ
		{params: map[string]int{"r0": 2}, fire: []model.NodeID{0}, want: ""},
		{params: map[string]int{"r0": 1}, fire: []model.NodeID{0}, want: "n0 formed group (1, n0) again"},
		{params: map[string]int{"g0": 3, "r0": 2}, fire: []model.NodeID{0}, want: "n0 formed group (2, n0) again"},
		{params: map[string]int{"r0": 1, "r1": 1}, fire: []model.NodeID{1, 0}, want: "n1 formed group (1, n1) again"},
	}
	for _, c := range cases {
		m, err := sim.Compile("former", former{}, model.Config{N: 2, Params: c.params}, properties.GroupNumbers)
		require.NoError(t, err)
		st := m.NewStepper()
		w, _ := st.Init()
		require.Empty(t, properties.GroupNumbersUnique.Check(st.View(w)))
		for _, i := range c.fire {
			w, _ = st.Apply(w, sim.Event{Kind: sim.Timeout, Node: i, Arg: 0}, nil)
		}
		require.Equal(t, c.want, properties.GroupNumbersUnique.Check(st.View(w)), "%v", c.params)
	}
}

// pooler reports at start-up that node i is in the pool when parameter
// "p<i>" is 1, and then never acts. A recovered node reports nothing.
type pooler struct{ believer }

func (pooler) Init(ctx *model.Ctx[believerMsg]) believerState {
	if ctx.Param(fmt.Sprintf("p%d", ctx.Self()), 0) == 1 {
		ctx.Observe(model.InPool(true))
	}
	return believerState{B: none}
}

// The pool monitor follows InPool observations and forgets a node that
// crashes or recovers.
func TestPoolMonitor(t *testing.T) {
	cfg := &model.Config{N: 3}
	mon := properties.Pool
	st := mon.Start(cfg)
	require.Equal(t, []bool{false, false, false}, st)
	st1 := mon.Observe(cfg, st, 1, model.InPool(true))
	require.Equal(t, []bool{false, true, false}, st1)
	require.Equal(t, []bool{false, false, false}, st, "the old state is not mutated")
	require.Equal(t, []bool{false, true, false}, mon.Observe(cfg, st1, 1, model.InPool(true)))
	require.Equal(t, []bool{false, true, false}, mon.Observe(cfg, st1, 0, model.Leader(2)), "other observations change nothing")
	require.Equal(t, []bool{false, false, false}, mon.Observe(cfg, st1, 1, model.InPool(false)))
	require.Equal(t, []bool{false, false, false}, mon.Observe(cfg, st1, 1, model.Obs{Kind: model.ObsCrash}))
	require.Equal(t, []bool{false, false, false}, mon.Observe(cfg, st1, 1, model.Obs{Kind: model.ObsRecover}))
}

// pool-size on worlds of five poolers, with the default limits (1, 2) and
// with others given as parameters.
func TestPoolSize(t *testing.T) {
	cases := []struct {
		name     string
		in       []model.NodeID // nodes in the pool at start-up
		crash    []model.NodeID
		recover  []model.NodeID
		min, max int // 0: the default
		want     string
	}{
		{name: "one slave", in: []model.NodeID{3}},
		{name: "two slaves", in: []model.NodeID{1, 3}},
		{name: "three slaves", in: []model.NodeID{0, 1, 3},
			want: "the run is over with 3 live nodes in the pool, more than pool-max 2"},
		{name: "no slave", want: "the run is over with 0 live nodes in the pool, fewer than 1 (pool-min 1, 5 live nodes)"},
		{name: "a crashed slave is not counted", in: []model.NodeID{1, 3}, crash: []model.NodeID{3}},
		{name: "three slaves, one crashed", in: []model.NodeID{0, 1, 3}, crash: []model.NodeID{0}},
		{name: "the only slave crashed", in: []model.NodeID{3}, crash: []model.NodeID{3},
			want: "the run is over with 0 live nodes in the pool, fewer than 1 (pool-min 1, 4 live nodes)"},
		{name: "a recovered slave is out until it says otherwise", in: []model.NodeID{3}, crash: []model.NodeID{3}, recover: []model.NodeID{3},
			want: "the run is over with 0 live nodes in the pool, fewer than 1 (pool-min 1, 5 live nodes)"},
		{name: "one node left, the master: no pool needed", crash: []model.NodeID{0, 1, 2, 3}},
		{name: "pool-min 3 with two live nodes besides the master", in: []model.NodeID{1, 3}, crash: []model.NodeID{0, 2}, min: 3, max: 3},
		{name: "pool-min 3", in: []model.NodeID{1, 3}, min: 3, max: 4,
			want: "the run is over with 2 live nodes in the pool, fewer than 3 (pool-min 3, 5 live nodes)"},
		{name: "pool-max 3", in: []model.NodeID{0, 1, 3}, min: 2, max: 3},
	}
	for _, c := range cases {
		params := map[string]int{}
		for _, i := range c.in {
			params[fmt.Sprintf("p%d", i)] = 1
		}
		if c.min > 0 {
			params["pool-min"], params["pool-max"] = c.min, c.max
		}
		cfg := model.Config{N: 5, Crashes: len(c.crash), Recoveries: len(c.recover), Params: params}
		m, err := sim.Compile("pooler", pooler{}, cfg, properties.Pool)
		require.NoError(t, err)
		st := m.NewStepper()
		w, _ := st.Init()
		w = withFaults(st, withFaults(st, w, sim.Crash, c.crash), sim.Recover, c.recover)
		require.Equal(t, c.want, properties.PoolSize.Check(st.View(w)), c.name)
	}
	p, err := properties.Lookup("election", "pool-size")
	require.NoError(t, err)
	require.Same(t, properties.PoolSize, p)
	require.Equal(t, properties.AtQuiescence, p.When)
	require.Contains(t, properties.Family("election"), p)
}
