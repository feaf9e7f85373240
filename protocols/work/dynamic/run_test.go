package dynamic_test

import (
	"context"
	. "github.com/vigil-check/vigil/protocols/work/dynamic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/work"
)

// playCrash plays a run of four nodes and three tasks in which node crashed
// crashes first, then the protocol's first enabled event is taken until
// the run ends; it returns the run, every property checked on the way.
func playCrash(t *testing.T, crashed int) *checker.Run {
	cfg := model.Config{N: 4, Crashes: 1, Params: map[string]int{properties.TasksParam: 3}}
	m, err := checker.Compile("work/dynamic", Protocol{}, cfg,
		properties.AllResults, properties.ResultsOnce, properties.UniqueLeader)
	require.NoError(t, err)
	r := m.Start()
	for i, e := range r.Events() {
		if e.Kind == "crash" && e.Node == crashed {
			r.Take(i)
			break
		}
	}
	require.Equal(t, 1, r.Steps())
	for !r.Quiescent() {
		r.Take(0)
		p, detail := r.Violation()
		require.Nil(t, p, detail)
		require.Less(t, r.Steps(), 200)
	}
	p, detail := r.Violation()
	require.Nil(t, p, detail)
	require.Empty(t, properties.AllResults.Check(r.View()))
	return r
}

// The coordinator fails: the bully algorithm elects n2, which asks the
// analyser what it holds and hands out the rest.
func TestCoordinatorCrash(t *testing.T) {
	v := playCrash(t, 3).View()
	c := properties.StateOf[State](v, 2)
	require.True(t, c.Coordinating)
	require.Equal(t, model.NodeID(2), c.Election.Leader)
	require.Equal(t, model.NodeID(0), c.Analyser)
	require.Equal(t, work.All(3), c.Done)
	require.Equal(t, model.NodeID(2), properties.StateOf[State](v, 0).Election.Leader)
	require.Equal(t, work.All(3), properties.StateOf[State](v, 0).Results)
}

// The analyser fails: the coordinator appoints n1, and every result is
// computed again for it.
func TestAnalyserCrash(t *testing.T) {
	v := playCrash(t, 0).View()
	c := properties.StateOf[State](v, 3)
	require.Equal(t, model.NodeID(1), c.Analyser)
	require.Equal(t, []model.NodeID{0}, c.Dead)
	require.Equal(t, work.All(3), properties.StateOf[State](v, 1).Results)
}

// A worker fails: its task goes to another machine.
func TestWorkerCrash(t *testing.T) {
	v := playCrash(t, 2).View()
	require.Equal(t, []model.NodeID{2}, properties.StateOf[State](v, 3).Dead)
	require.Equal(t, work.All(3), properties.StateOf[State](v, 0).Results)
}

// Under Async timing the slow worker's task is computed twice; with dedup
// (the default) the analyser still counts it once, as deep as the search
// goes (the state space of async runs has no end); without, it counts it
// twice within seven steps.
func TestSlowWorkerDedup(t *testing.T) {
	for dedup, want := range []checker.Verdict{checker.Fail, checker.Unknown} {
		cfg := model.Config{N: 3, Timing: model.Async, Params: map[string]int{properties.TasksParam: 1, DedupParam: dedup}}
		m, err := checker.Compile("work/dynamic", Protocol{}, cfg, properties.ResultsOnce)
		require.NoError(t, err)
		r := checker.Exhaustive(context.Background(), m, checker.Options{MaxDepth: 9})
		require.Equal(t, want, r.Properties[0].Verdict, "dedup %d", dedup)
	}
}
