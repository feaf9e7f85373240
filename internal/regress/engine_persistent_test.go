package regress

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// TestPersistentSetsArePersistent checks the sets partial order explores
// alone against the definition, on the worlds of every naive configuration
// it applies to: from a world w and a set S of nodes it names, along every
// run of up to persistDepth steps of nodes outside S, the nodes of S keep
// exactly the events they had at w, and each of those commutes with the
// next step of the run (Godefroid's persistent sets), where the worlds
// compared hold the monitors' states too. As in the search, a set with a
// step that observes something is not explored alone (such a step may not
// commute with another observation). The verdict cross-checks cannot see a
// set that is too small where the protocols never send what would tell;
// this test sees it wherever one could be.
func TestPersistentSetsArePersistent(t *testing.T) {
	t.Parallel()
	const (
		worldsPerCase = 3_000 // the first worlds reached, breadth-first
		persistDepth  = 3
	)
	checked, multi := 0, 0 // sets checked; of them, sets of several nodes
	for _, p := range protocols.All() {
		for _, tc := range naiveCases(t, p) {
			cfg := tc.cfg
			if cfg.Channels == model.Unordered || cfg.Timing == model.Bounded {
				continue // partial order does not apply
			}
			t.Run(p.Name+"/"+tc.name, func(t *testing.T) {
				st := persistentStepper(t, p, cfg)
				w0, _ := st.Init()
				seen := map[string]bool{testhook.WorldKey(w0): true}
				queue := []sim.World{w0}
				var sets []uint64
				for len(queue) > 0 && len(seen) <= worldsPerCase {
					w := queue[0]
					queue = queue[1:]
					evs, nproto := st.Enabled(w, nil)
					sets = st.PersistentSets(w, evs, nproto, sets[:0])
					for _, set := range sets {
						if !checkPersistent(t, st, w, set, persistDepth) {
							continue
						}
						checked++
						if bits.OnesCount64(set) > 1 {
							multi++
						}
					}
					for _, ev := range evs {
						succ, _ := st.Apply(w, ev, nil)
						if k := testhook.WorldKey(succ); !seen[k] {
							seen[k] = true
							queue = append(queue, succ)
						}
					}
				}
			})
		}
	}
	t.Logf("%d sets checked, %d of several nodes", checked, multi)
	require.Positive(t, multi, "no set of several nodes was checked")
}

func persistentStepper(t *testing.T, p *suite.Protocol, cfg model.Config) *sim.Stepper {
	return testhook.Model(claimsMachine(t, p, cfg)).NewStepper()
}

// checkPersistent requires the events of set's nodes at w to be those of
// every world reached from w by up to depth steps of the other nodes, and
// to commute with each of those steps. It checks nothing, and returns
// false, where one of those events observes something.
func checkPersistent(t *testing.T, st *sim.Stepper, w sim.World, set uint64, depth int) bool {
	in := func(ev sim.Event) bool { return set&(1<<ev.Node) != 0 }
	split := func(v sim.World) (own, others []sim.Event) {
		evs, _ := st.Enabled(v, nil)
		for _, ev := range evs {
			if in(ev) {
				own = append(own, ev)
			} else {
				others = append(others, ev)
			}
		}
		return own, others
	}
	want, _ := split(w)
	require.NotEmpty(t, want, "a persistent set with no event")
	for _, e := range want {
		if _, step := st.Apply(w, e, nil); step != nil && len(step.Obs) > 0 {
			return false
		}
	}
	var walk func(v sim.World, run []sim.Event)
	walk = func(v sim.World, run []sim.Event) {
		own, others := split(v)
		require.ElementsMatch(t, want, own, "set %s, in flight %s, after %v: its events changed", nodeSet(set), channels(st, w), run)
		if len(run) == depth {
			return
		}
		for _, u := range others {
			vu, _ := st.Apply(v, u, nil)
			for _, e := range want {
				ve, _ := st.Apply(v, e, nil)
				_, after := split(ve)
				require.Contains(t, after, u, "set %s: %v turns %v off", nodeSet(set), e, u)
				veu, _ := st.Apply(ve, u, nil)
				vue, _ := st.Apply(vu, e, nil)
				require.Equal(t, testhook.WorldKey(vue), testhook.WorldKey(veu), "set %s after %v: %v and %v do not commute", nodeSet(set), run, e, u)
			}
			walk(vu, append(slices.Clip(run), u))
		}
	}
	walk(w, nil)
	return true
}

func nodeSet(set uint64) string {
	var nodes []int
	for ; set != 0; set &= set - 1 {
		nodes = append(nodes, bits.TrailingZeros64(set))
	}
	return fmt.Sprint(nodes)
}

// channels names the channel of each message in flight in w.
func channels(st *sim.Stepper, w sim.World) string {
	var out []string
	for _, mw := range st.Msgs(w) {
		out = append(out, fmt.Sprintf("n%d→n%d", mw>>48, mw>>32&0xffff))
	}
	return fmt.Sprint(out)
}

// pingBoth: each of two nodes sends the other a message as it starts and
// reports, on receiving it, that it heard (model.Leader of the sender, as
// any observation would do).
type pingBoth struct{}

type pingState struct{ Heard bool }
type pingMsg struct{}

func (pingBoth) Init(ctx *model.Ctx[pingMsg]) pingState {
	ctx.Send(1-ctx.Self(), pingMsg{})
	return pingState{}
}

func (pingBoth) Receive(ctx *model.Ctx[pingMsg], s pingState, from model.NodeID, _ pingMsg) pingState {
	ctx.Observe(model.Leader(from))
	return pingState{Heard: true}
}

func (pingBoth) Timeout(_ *model.Ctx[pingMsg], s pingState, _ model.Timer) pingState { return s }
func (pingBoth) Recover(_ *model.Ctx[pingMsg], s pingState) pingState                { return s }

// TestPartialOrderKeepsObservationOrder: where the worlds hold a monitor,
// partial order must not put one observation before another for the
// monitor's sake, even where only the ends of runs are judged. Each node
// of pingBoth may take its one step alone (the other's message is in
// flight to it), but a monitor that records who heard first tells the two
// orders apart, and each of two properties judged at quiescence fails in
// one of them.
func TestPartialOrderKeepsObservationOrder(t *testing.T) {
	t.Parallel()
	order := properties.NewMonitor("order",
		func(*model.Config) string { return "" },
		func(_ *model.Config, st string, node model.NodeID, _ model.Obs) string {
			return st + fmt.Sprint(int(node))
		})
	first := func(n string) *properties.Property {
		p := properties.Quiescent("n"+n+"-first", "n"+n+" hears first", func(v properties.View) string {
			if st := properties.MonitorState[string](v, order); st[:1] != n {
				return "heard in the order " + st
			}
			return ""
		})
		p.Monitor = order
		return p
	}
	for _, reduce := range []checker.Reduction{checker.ReduceAll, checker.ReduceNone} {
		m, err := checker.Compile("ping", pingBoth{}, model.Config{N: 2}, first("0"), first("1"))
		require.NoError(t, err)
		r := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: reduce})
		for _, p := range r.Properties {
			require.Equal(t, checker.Fail, p.Verdict, "reduce=%v: %s: %s", reduce, p.Name, r.PartialOrder)
		}
		require.Equal(t, int64(2), r.Stats.Quiescent, "reduce=%v", reduce)
	}
}
