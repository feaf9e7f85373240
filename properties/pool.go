package properties

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
)

// PoolMinParam and PoolMaxParam are the run parameters that bound a standby
// pool (defaults 1 and 2), read by PoolSize and by the protocols with one.
const (
	PoolMinParam = "pool-min"
	PoolMaxParam = "pool-max"
)

// Pool is the monitor of standby pools (model.InPool): for each node,
// whether it is in the pool, as last reported. A node that crashes or
// recovers is out of the pool until it reports joining again. Its state is
// N flags.
var Pool model.Monitor = poolMonitor{}

type poolMonitor struct{}

func (poolMonitor) Name() string { return "pool" }

func (poolMonitor) Start(cfg *model.Config) any { return make([]bool, cfg.N) }

func (poolMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return setAt(st, node, inPoolAfter(st.([]bool)[node], o), false)
}

// ObserveInPlace is Observe on a state of the walk's own (see
// NewInPlaceMonitor).
func (poolMonitor) ObserveInPlace(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return setAt(st, node, inPoolAfter(st.([]bool)[node], o), true)
}

// inPoolAfter is whether a node is in the pool after o, where it was was.
func inPoolAfter(was bool, o model.Obs) bool {
	switch o.Kind {
	case model.ObsPool:
		return o.Arg != 0
	case model.ObsCrash, model.ObsRecover:
		return false
	}
	return was
}

// PoolSize: in every quiescent world the pool of live nodes is within its
// limits, the run parameters "pool-min" (default 1) and "pool-max" (default
// 2): at most pool-max, and at least pool-min unless fewer live nodes than
// that are left besides one (the master, which is not in the pool).
var PoolSize = &Property{
	Name: "pool-size", Family: "election", When: AtQuiescence, Monitor: Pool, MonitorOnly: true,
	Doc: "in every quiescent world the live nodes in the pool number at most pool-max and at least min(pool-min, live nodes - 1)",
	Check: func(v View) string {
		in := v.Monitor(Pool).([]bool)
		cfg := v.Config()
		lo, hi := cfg.Param(PoolMinParam, 1), cfg.Param(PoolMaxParam, 2)
		live, pool := 0, 0
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) {
				live++
				if in[i] {
					pool++
				}
			}
		}
		if pool > hi {
			return fmt.Sprintf("the run is over with %d live nodes in the pool, more than pool-max %d", pool, hi)
		}
		if want := min(lo, live-1); pool < want {
			return fmt.Sprintf("the run is over with %d live nodes in the pool, fewer than %d (pool-min %d, %d live nodes)", pool, want, lo, live)
		}
		return ""
	},
}

func init() { register(PoolSize) }
