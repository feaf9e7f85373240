package checker

import (
	"math/rand/v2"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// A random walk draws the partitions enabled as one choice among the other
// events, and any partition within that choice.
func TestPickCountsPartitionsAsOne(t *testing.T) {
	evs := []sim.Event{{Kind: sim.Deliver, Node: 1}, {Kind: sim.Crash, Node: 0}}
	for a := 1; a < 10; a++ {
		evs = append(evs, sim.Event{Kind: sim.Partition, Node: model.NodeID(a), From: model.NodeID(a)})
	}
	evs = append(evs, sim.Event{Kind: sim.Heal})
	rng := rand.New(rand.NewPCG(1, 2))
	byKind := map[sim.EventKind]int{}
	arcs := map[model.NodeID]int{}
	const draws = 40000
	for range draws {
		e := pick(rng, evs)
		byKind[e.Kind]++
		if e.Kind == sim.Partition {
			arcs[e.Node]++
		}
	}
	// four choices: deliver, crash, some partition, heal
	for _, k := range []sim.EventKind{sim.Deliver, sim.Crash, sim.Partition, sim.Heal} {
		require.InDelta(t, draws/4, byKind[k], draws/40, "%v", k)
	}
	require.Len(t, arcs, 9, "every partition can be drawn")

	// without partitions, a uniform draw
	plain := evs[:2]
	require.Contains(t, plain, pick(rng, plain))
}

// Losses and duplications, one per message in flight, are drawn as one
// choice each, like the partitions.
func TestPickCountsMessageFaultsAsOne(t *testing.T) {
	evs := []sim.Event{{Kind: sim.Deliver, Node: 1}, {Kind: sim.Timeout, Node: 0}}
	for a := 1; a < 5; a++ {
		evs = append(evs, sim.Event{Kind: sim.Partition, Node: model.NodeID(a), From: model.NodeID(a)})
	}
	for m := range uint32(7) {
		evs = append(evs, sim.Event{Kind: sim.Lose, Node: 1, Arg: m})
	}
	evs = append(evs, sim.Event{Kind: sim.Crash, Node: 0})
	for m := range uint32(3) {
		evs = append(evs, sim.Event{Kind: sim.Duplicate, Node: 1, Arg: m})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	byKind := map[sim.EventKind]int{}
	lost := map[uint32]int{}
	const draws = 60000
	for range draws {
		e := pick(rng, evs)
		byKind[e.Kind]++
		if e.Kind == sim.Lose {
			lost[e.Arg]++
		}
	}
	// six choices: deliver, timeout, some partition, some loss, crash, some duplication
	for _, k := range []sim.EventKind{sim.Deliver, sim.Timeout, sim.Partition, sim.Lose, sim.Crash, sim.Duplicate} {
		require.InDelta(t, draws/6, byKind[k], draws/60, "%v", k)
	}
	require.Len(t, lost, 7, "every loss can be drawn")
}
