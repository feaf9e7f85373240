package properties_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// resultsView is a world of n nodes as the work properties see it: which
// are alive, and the Results monitor's state.
type resultsView struct {
	properties.View // not used beyond the methods below
	cfg             model.Config
	alive           []bool
	st              any
}

func (v resultsView) N() int                           { return v.cfg.N }
func (v resultsView) Config() *model.Config            { return &v.cfg }
func (v resultsView) Alive(i model.NodeID) bool        { return v.alive[i] }
func (v resultsView) Monitor(model.Monitor) any        { return v.st }
func (v resultsView) Rank(i model.NodeID) int          { return int(i) }
func (v resultsView) State(model.NodeID) any           { return nil }
func (v resultsView) Connected(_, _ model.NodeID) bool { return true }

// The Results monitor: what each node counted, the first task counted
// twice, and a crash or recovery forgets a node's results.
func TestResultsMonitor(t *testing.T) {
	cfg := &model.Config{N: 3}
	mon := properties.Results
	st := mon.Start(cfg)
	require.Equal(t, properties.ResultsState{Counted: []uint64{0, 0, 0}, TwiceNode: model.None}, st)
	st1 := mon.Observe(cfg, st, 0, properties.CountedResult(1))
	require.Equal(t, []uint64{2, 0, 0}, st1.(properties.ResultsState).Counted)
	require.Equal(t, []uint64{0, 0, 0}, st.(properties.ResultsState).Counted, "the old state is not mutated")
	require.Equal(t, st1, mon.Observe(cfg, st1, 0, model.Leader(2)), "other observations change nothing")
	twice := mon.Observe(cfg, st1, 0, properties.CountedResult(1)).(properties.ResultsState)
	require.Equal(t, model.NodeID(0), twice.TwiceNode)
	require.Equal(t, 1, twice.TwiceTask)
	require.Equal(t, "n0 counted the result of t1 twice", properties.ResultsOnce.Check(resultsView{cfg: *cfg, st: twice}))
	require.Empty(t, properties.ResultsOnce.Check(resultsView{cfg: *cfg, st: st1}))
	require.Equal(t, []uint64{0, 0, 0}, mon.Observe(cfg, st1, 0, model.Obs{Kind: model.ObsCrash}).(properties.ResultsState).Counted)
	require.Equal(t, []uint64{0, 0, 0}, mon.Observe(cfg, st1, 0, model.Obs{Kind: model.ObsRecover}).(properties.ResultsState).Counted)
	require.Equal(t, "counted=t1", properties.CountedResult(1).String())
}

// all-results where runs end, with the default number of tasks (N-1) and
// with the parameter.
func TestAllResults(t *testing.T) {
	cases := []struct {
		name    string
		tasks   int // 0: the default
		counted []uint64
		alive   []bool
		want    string
	}{
		{name: "the analyser holds both", counted: []uint64{3, 0, 0}},
		{name: "another live node holds all", counted: []uint64{1, 3, 0}},
		{name: "one missing", counted: []uint64{1, 0, 0},
			want: "the run is over and no live node holds all 2 results: the most, n0, holds t0, without t1"},
		{name: "the one holding all crashed", counted: []uint64{3, 2, 0}, alive: []bool{false, true, true},
			want: "the run is over and no live node holds all 2 results: the most, n1, holds t1, without t0"},
		{name: "none", counted: []uint64{0, 0, 0}, want: "the run is over and no live node holds any of the 2 results"},
		{name: "no live node", counted: []uint64{3, 0, 0}, alive: []bool{false, false, false},
			want: "the run is over and no live node remains to analyse the 2 results"},
		{name: "four tasks", tasks: 4, counted: []uint64{0b1011, 0, 0},
			want: "the run is over and no live node holds all 4 results: the most, n0, holds t0, t1, t3, without t2"},
		{name: "four tasks, all held", tasks: 4, counted: []uint64{0, 0b1111, 0}},
	}
	for _, c := range cases {
		cfg := model.Config{N: 3}
		if c.tasks > 0 {
			cfg.Params = map[string]int{properties.TasksParam: c.tasks}
		}
		alive := c.alive
		if alive == nil {
			alive = []bool{true, true, true}
		}
		v := resultsView{cfg: cfg, alive: alive, st: properties.ResultsState{Counted: c.counted, TwiceNode: model.None}}
		require.Equal(t, c.want, properties.AllResults.Check(v), c.name)
	}
	require.Equal(t, []*properties.Property{properties.AllResults, properties.ResultsOnce}, properties.Family("work"))
	require.Equal(t, properties.AtQuiescence, properties.AllResults.When)
	require.Equal(t, properties.Always, properties.ResultsOnce.When)
	require.Equal(t, 2, properties.Tasks(&model.Config{N: 3}))
	require.Equal(t, 5, properties.Tasks(&model.Config{N: 3, Params: map[string]int{properties.TasksParam: 5}}))
}
