package checker

import (
	"math/rand/v2"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// requireChoices draws from evs with rng, draws times, and requires the
// draws to split evenly (within a tenth) among kinds, each one choice:
// it returns how often each event of kind within came up.
func requireChoices(t *testing.T, rng *rand.Rand, evs []sim.Event, draws int, kinds []sim.EventKind, within sim.EventKind) map[sim.Event]int {
	t.Helper()
	byKind := map[sim.EventKind]int{}
	drawn := map[sim.Event]int{}
	for range draws {
		e := pick(rng, evs)
		byKind[e.Kind]++
		if e.Kind == within {
			drawn[e]++
		}
	}
	for _, k := range kinds {
		require.InDelta(t, draws/len(kinds), byKind[k], float64(draws/(10*len(kinds))), "%v", k)
	}
	return drawn
}

// A random walk draws the partitions enabled as one choice among the other
// events, and any partition within that choice.
func TestPickCountsPartitionsAsOne(t *testing.T) {
	evs := []sim.Event{{Kind: sim.Deliver, Node: 1}, {Kind: sim.Crash, Node: 0}}
	for a := 1; a < 10; a++ {
		evs = append(evs, sim.Event{Kind: sim.Partition, Node: model.NodeID(a), From: model.NodeID(a)})
	}
	evs = append(evs, sim.Event{Kind: sim.Heal})
	rng := rand.New(rand.NewPCG(1, 2))
	// four choices: deliver, crash, some partition, heal
	arcs := requireChoices(t, rng, evs, 40000, []sim.EventKind{sim.Deliver, sim.Crash, sim.Partition, sim.Heal}, sim.Partition)
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
	// six choices: deliver, timeout, some partition, some loss, crash, some duplication
	kinds := []sim.EventKind{sim.Deliver, sim.Timeout, sim.Partition, sim.Lose, sim.Crash, sim.Duplicate}
	lost := requireChoices(t, rng, evs, 60000, kinds, sim.Lose)
	require.Len(t, lost, 7, "every loss can be drawn")
}
