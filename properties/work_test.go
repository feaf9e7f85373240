package properties_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// monitorView is a world of n nodes as the properties that read monitors
// alone see it: which nodes are alive (nil: all), and the monitors' states.
type monitorView struct {
	properties.View // not used beyond the methods below
	cfg             model.Config
	alive           []bool
	states          map[model.Monitor]any
}

func (v monitorView) N() int                           { return v.cfg.N }
func (v monitorView) Config() *model.Config            { return &v.cfg }
func (v monitorView) Alive(i model.NodeID) bool        { return v.alive == nil || v.alive[i] }
func (v monitorView) Monitor(m model.Monitor) any      { return v.states[m] }
func (v monitorView) Rank(i model.NodeID) int          { return int(i) }
func (v monitorView) State(model.NodeID) any           { return nil }
func (v monitorView) Connected(_, _ model.NodeID) bool { return true }

// counts is the observation "node i counts the result of task k".
func counts(i model.NodeID, k int) obsStep { return obsStep{i, properties.CountedResult(k)} }

// The Results monitor and the work properties on runs of three nodes (two
// tasks). The lecture's work schedule (the Elections notes: "a crashed
// machine will mean missing results", "a crashed analysis machine means all
// results are lost") and the properties' definitions name the clause each
// reject row breaks.
func TestResultsRuns(t *testing.T) {
	cases := []struct {
		name    string
		run     []obsStep
		alive   []bool // where the run ends; nil: all
		counted []uint64
		// once: what results-once reports (whose double count), all: what
		// all-results reports where the run ends ("" where it holds)
		once, all string
	}{
		{name: "accept: the analyser counts every task once",
			run: []obsStep{counts(0, 0), counts(0, 1)}, counted: []uint64{0b11, 0, 0}},
		{name: "accept: each node holds its own results, and two may count one task",
			run: []obsStep{counts(1, 1), counts(0, 0), counts(2, 0), counts(1, 0)}, counted: []uint64{0b01, 0b11, 0b01}},
		{name: "accept: a recovered node is a new incarnation, which counts afresh",
			run:     []obsStep{counts(0, 0), crashes(0), recovers(0), counts(0, 0), counts(0, 1)},
			counted: []uint64{0b11, 0, 0}},
		{name: "accept: a crash of a node that holds nothing, and other observations, change nothing",
			run:     []obsStep{counts(0, 0), crashes(1), {0, model.Leader(2)}, counts(0, 1)},
			alive:   []bool{true, false, true},
			counted: []uint64{0b11, 0, 0}},
		{name: "results-once (no node counts a task twice): n0 counts t1 again",
			run: []obsStep{counts(0, 1), counts(0, 0), counts(0, 1)}, counted: []uint64{0b11, 0, 0},
			once: "n0 counted the result of t1 twice"},
		{name: "results-once: the first double count is the one named",
			run:     []obsStep{counts(2, 1), counts(2, 1), counts(0, 0), counts(0, 0), counts(0, 1)},
			counted: []uint64{0b11, 0, 0b10},
			once:    "n2 counted the result of t1 twice"},
		{name: "all-results (a live node holds every result): a crashed analyser's results are lost",
			run: []obsStep{counts(0, 0), counts(0, 1), crashes(0)}, alive: []bool{false, true, true},
			counted: []uint64{0, 0, 0},
			all:     "the run is over and no live node holds any of the 2 results"},
		{name: "all-results: a result missing",
			run: []obsStep{counts(1, 1), counts(2, 1)}, counted: []uint64{0, 0b10, 0b10},
			all: "the run is over and no live node holds all 2 results: the most, n1, holds t1, without t0"},
	}
	cfg := model.Config{N: 3}
	mon := properties.Results
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := mon.Start(&cfg)
			require.Equal(t, properties.ResultsState{Counted: []uint64{0, 0, 0}, TwiceNode: model.None}, st)
			for k, o := range c.run {
				before := st.(properties.ResultsState)
				snapshot := slices.Clone(before.Counted)
				next := mon.Observe(&cfg, st, o.node, o.o)
				require.Equal(t, snapshot, before.Counted, "step %d: Observe changed the state it was given", k)
				if reflect.DeepEqual(st, next) {
					require.Same(t, &before.Counted[0], &next.(properties.ResultsState).Counted[0], "step %d changes nothing, yet copies the state", k)
				}
				st = next
			}
			require.Equal(t, c.counted, st.(properties.ResultsState).Counted)
			v := monitorView{cfg: cfg, alive: c.alive, states: map[model.Monitor]any{mon: st}}
			require.Equal(t, c.once, properties.ResultsOnce.Check(v), "results-once")
			require.Equal(t, c.once, properties.ResultsOnce.Judge(v, false), "results-once is judged in every world")
			require.Equal(t, c.all, properties.AllResults.Check(v), "all-results")
			require.Empty(t, properties.AllResults.Judge(v, false), "all-results is judged where runs end")
			require.Equal(t, c.all, properties.AllResults.Judge(v, true), "all-results where the run ends")
		})
	}
	require.Equal(t, "counted=t1", properties.CountedResult(1).String())
}

// all-results where runs end, on the Results monitor's state as given,
// with the default number of tasks (N-1) and with the parameter.
func TestAllResults(t *testing.T) {
	cases := []struct {
		name    string
		tasks   int // 0: the default
		counted []uint64
		alive   []bool
		want    string
	}{
		{name: "accept: the analyser holds both", counted: []uint64{3, 0, 0}},
		{name: "accept: another live node holds all", counted: []uint64{1, 3, 0}},
		{name: "accept: four tasks, all held", tasks: 4, counted: []uint64{0, 0b1111, 0}},
		{name: "every task: one missing", counted: []uint64{1, 0, 0},
			want: "the run is over and no live node holds all 2 results: the most, n0, holds t0, without t1"},
		{name: "every task: four tasks, one missing", tasks: 4, counted: []uint64{0b1011, 0, 0},
			want: "the run is over and no live node holds all 4 results: the most, n0, holds t0, t1, t3, without t2"},
		{name: "every task: the node holding the most is named, not the first", tasks: 3, counted: []uint64{0b001, 0b011, 0},
			want: "the run is over and no live node holds all 3 results: the most, n1, holds t0, t1, without t2"},
		{name: "every task: of two holding as many, the first is named", counted: []uint64{0b01, 0b10, 0},
			want: "the run is over and no live node holds all 2 results: the most, n0, holds t0, without t1"},
		{name: "every task: none held", counted: []uint64{0, 0, 0}, want: "the run is over and no live node holds any of the 2 results"},
		{name: "a live node: the one holding all is down", counted: []uint64{3, 2, 0}, alive: []bool{false, true, true},
			want: "the run is over and no live node holds all 2 results: the most, n1, holds t1, without t0"},
		{name: "a live node: none remains", counted: []uint64{3, 0, 0}, alive: []bool{false, false, false},
			want: "the run is over and no live node remains to analyse the 2 results"},
	}
	for _, c := range cases {
		cfg := model.Config{N: 3}
		if c.tasks > 0 {
			cfg.Params = map[string]int{properties.TasksParam: c.tasks}
		}
		v := monitorView{cfg: cfg, alive: c.alive, states: map[model.Monitor]any{
			properties.Results: properties.ResultsState{Counted: c.counted, TwiceNode: model.None}}}
		require.Equal(t, c.want, properties.AllResults.Check(v), c.name)
	}
	require.Equal(t, []*properties.Property{properties.AllResults, properties.Result, properties.ResultsOnce}, properties.Family("work"))
	require.Equal(t, properties.AtQuiescence, properties.AllResults.When)
	require.Equal(t, properties.Always, properties.ResultsOnce.When)
	require.Equal(t, 2, properties.Tasks(&model.Config{N: 3}))
	require.Equal(t, 5, properties.Tasks(&model.Config{N: 3, Params: map[string]int{properties.TasksParam: 5}}))
}
