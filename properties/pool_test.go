package properties_test

import (
	"fmt"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

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
