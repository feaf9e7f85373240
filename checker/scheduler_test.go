package checker

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// randomEnabled draws a list of events enabled over n nodes in the order
// a Stepper lists them: deliveries by channel, each node's timeouts then
// actions, a tick, cuts, heals, losses, duplications, crashes and
// recoveries; the protocol's are at least one where quiescent is false.
func randomEnabled(rng *rand.Rand, n int, quiescent bool) []sim.Event {
	var evs []sim.Event
	some := func(k sim.EventKind, node, from model.NodeID) {
		for range rng.IntN(3) {
			evs = append(evs, sim.Event{Kind: k, Node: node, From: from})
		}
	}
	if !quiescent {
		for from := range model.NodeID(n) {
			for to := range model.NodeID(n) {
				some(sim.Deliver, to, from)
			}
		}
		for i := range model.NodeID(n) {
			some(sim.Timeout, i, 0)
			some(sim.Act, i, 0)
		}
		if len(evs) == 0 || rng.IntN(4) == 0 {
			evs = append(evs, sim.Event{Kind: sim.Tick})
		}
	}
	for _, k := range []sim.EventKind{sim.Partition, sim.Heal, sim.Lose, sim.Duplicate} {
		for range rng.IntN(4) { // each its own nodes, as a Stepper names them
			evs = append(evs, sim.Event{Kind: k, Node: model.NodeID(rng.IntN(n)), From: model.NodeID(rng.IntN(n))})
		}
	}
	for i := range model.NodeID(n) {
		if rng.IntN(3) == 0 {
			evs = append(evs, sim.Event{Kind: []sim.EventKind{sim.Crash, sim.Recover}[rng.IntN(2)], Node: i})
		}
	}
	return evs
}

// walkerRuns cuts evs as a Walker's Moves does (see sim.Walker.Moves):
// with byNode, the deliveries one run per receiver, in node order; else
// all in one run naming no node; the network's and the messages' faults
// naming no node. It returns the runs and, for each position among them,
// the event's position in evs.
func walkerRuns(evs []sim.Event, byNode bool) ([]sim.Run, []int) {
	order := make([]int, len(evs))
	for k := range order {
		order[k] = k
	}
	if byNode { // the deliveries, listed first, by receiver
		d := 0
		for d < len(evs) && evs[d].Kind == sim.Deliver {
			d++
		}
		slices.SortStableFunc(order[:d], func(a, b int) int { return cmp.Compare(evs[a].Node, evs[b].Node) })
	}
	var runs []sim.Run
	for _, k := range order {
		e := evs[k]
		switch e.Kind {
		case sim.Partition, sim.Heal, sim.Lose, sim.Duplicate:
			e.Node = 0
		case sim.Deliver:
			if !byNode {
				e.Node = model.None
			}
		}
		if l := len(runs) - 1; l >= 0 && runs[l].Kind == e.Kind && runs[l].Node == e.Node {
			runs[l].N++
			continue
		}
		runs = append(runs, sim.Run{Kind: e.Kind, Node: e.Node, N: 1})
	}
	return runs, order
}

// Every chooser chooses the same event, step after step, whether it reads
// a Stepper's events cut into runs of one kind and node (runsOf), one run
// per event, or a Walker's runs, which cut and order them differently
// but keep the order of each node's events: the walks on either draw
// alike.
func TestChoosersReadRunsAlike(t *testing.T) {
	const n, steps = 5, 400
	for _, tc := range []struct {
		name  string
		sched Scheduler
	}{
		{"uniform", Scheduler{}},
		{"pct:1", Scheduler{Kind: "pct", Depth: 1}},
		{"pct:3", Scheduler{Kind: "pct", Depth: 3}},
		{"swarm", Scheduler{Kind: "swarm"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			injected := 0 // faults chosen, over the seeds
			for seed := range uint64(20) {
				start := func() chooser { return tc.sched.start(rand.New(rand.NewPCG(seed, 1)), n, 6) }
				byRuns, byEvent, byWalker := start(), start(), start()
				lists := rand.New(rand.NewPCG(seed, 2))
				for step := range steps {
					evs := randomEnabled(lists, n, step%7 == 6)
					if len(evs) == 0 {
						continue // a walk ends there
					}
					k, ok := byRuns.choose(runsOf(evs, nil), step)
					single := make([]sim.Run, len(evs))
					for i, e := range evs {
						single[i] = sim.Run{Kind: e.Kind, Node: e.Node, N: 1}
					}
					k1, ok1 := byEvent.choose(single, step)
					runs, order := walkerRuns(evs, byWalker.byNode())
					k2, ok2 := byWalker.choose(runs, step)
					require.Equal(t, ok, ok1, "seed %d step %d: one run per event", seed, step)
					require.Equal(t, ok, ok2, "seed %d step %d: a walker's runs", seed, step)
					if !ok {
						continue
					}
					require.Equal(t, k, k1, "seed %d step %d: one run per event", seed, step)
					require.Equal(t, k, order[k2], "seed %d step %d: a walker's runs", seed, step)
					if faultKind(evs[k].Kind) {
						injected++
					}
				}
			}
			require.Positive(t, injected, "faults chosen")
		})
	}
}
