package regress

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/tier"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
)

// TestWalkerInLockstep takes the same events on a sim.Walker and on a
// Stepper, step by step, for every scenario that a Walker runs, at its own
// N and at N = 7: after every draw both must count the same events
// enabled (the protocol's among them, the cuts, and those that move, up
// to two), agree on whether the draw is taken, and after every step hold the same
// node states, liveness, connectivity and monitor states (which a
// Walker updates in place where a monitor can). TestLiveWalksAgainstStepper
// compares whole walks; this one names the first step where they part.
// The quick tier walks two seeds of each; -long, eight.
func TestWalkerInLockstep(t *testing.T) {
	t.Parallel()
	compared := 0
	eachScaledScenario(t, func(name string, _ *suite.Protocol, m *checker.Machine) {
		if sm := testhook.Model(m); sim.Supported(sm.Config()) {
			compared++
			_ = lockstep(t, name, sm)
		}
	})
	require.Greater(t, compared, 100, "configurations walked in lockstep")
}

// lockstep walks m on a Stepper and a Walker side by side (see
// TestWalkerInLockstep) and returns how many events of each kind the
// walks took.
func lockstep(t *testing.T, name string, m *sim.Machine) map[sim.EventKind]int {
	taken := map[sim.EventKind]int{}
	n := m.Config().N
	for seed := range tier.Pick[uint64](2, 8) {
		st, lw := m.Fresh().NewStepper(), m.NewWalker()
		rng := rand.New(rand.NewPCG(seed, 1))
		w, _ := st.Init()
		lw.Start(nil)
		view := st.View(nil)
		keys := map[sim.Event]string{}
		var evs []sim.Event
		var stut []bool
		var next sim.World
		var run []sim.Event
	walking:
		for step := 0; step < 300 && st.TakeFault() == nil && lw.Fault() == nil; step++ {
			var nproto int
			evs, nproto, stut = st.EnabledAll(w, evs[:0], stut[:0])
			at := fmt.Sprintf("%s seed %d after %v", name, seed, run)
			// draw as a uniform walk does: one that stutters is drawn
			// again, without it, and a fault while no step moves leaves
			// out every protocol event
			for {
				cuts, moving := 0, 0
				for k, e := range evs {
					if e.Kind == sim.Partition {
						cuts++
					}
					if k < nproto && !stut[k] {
						moving++
					}
				}
				total, nproto2 := lw.Enabled()
				require.Equal(t, [3]int{len(evs), nproto, cuts}, [3]int{total, nproto2, lw.Cuts()}, "events enabled, %s", at)
				require.Equal(t, min(moving, 2), min(lw.Moving(2), 2), "events that move, %s", at)
				if total == 0 {
					break walking
				}
				k := rng.IntN(total)
				ev := testhook.Canonical(st.Machine(), evs, evs[k], keys)
				i := slices.Index(evs, ev)
				stutters := i < nproto && stut[i]
				still := i >= nproto && moving == 0 && nproto > 0
				require.Equal(t, !stutters && !still, lw.Take(k), "%v taken, %s", ev, at)
				switch {
				case stutters:
					evs, stut = slices.Delete(evs, i, i+1), slices.Delete(stut, i, i+1)
					nproto--
				case still:
					evs, stut, nproto = evs[nproto:], stut[nproto:], 0
				default:
					run = append(run, ev)
					taken[ev.Kind]++
					next, _ = st.Apply(w, ev, next)
					w, next = next, w
				}
				if !stutters && !still {
					break
				}
			}
			at = fmt.Sprintf("%s seed %d after %v", name, seed, run)
			v := view.At(w)
			for i := range model.NodeID(n) {
				require.Equal(t, v.Alive(i), lw.Alive(i), "%v alive, %s", i, at)
				require.Equal(t, fmt.Sprintf("%+v", v.State(i)), fmt.Sprintf("%+v", lw.State(i)), "%v's state, %s", i, at)
				require.Equal(t, v.Connected(0, i), lw.Connected(0, i), "n0 and %v connected, %s", i, at)
			}
			for _, mon := range m.Monitors() {
				require.Equal(t, fmt.Sprintf("%+v", v.Monitor(mon)), fmt.Sprintf("%+v", lw.Monitor(mon)), "monitor %s, %s", mon.Name(), at)
			}
		}
		require.Equal(t, st.TakeFault() == nil, lw.Fault() == nil, "%s seed %d: a fault on one only", name, seed)
	}
	return taken
}
