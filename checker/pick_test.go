package checker

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/invitation"
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

// A walk depends on its seed alone: on a Machine that met messages and
// timers in another order (after other walks), the walk of a seed takes
// the same steps. Unordered channels list messages by interned id, so this
// needs the canonical order.
func TestWalkDependsOnItsSeedAlone(t *testing.T) {
	cfg := model.Config{N: 5, Channels: model.Unordered, Partitions: 2}
	props := properties.Family("election")
	compile := func() *sim.Machine {
		m, err := sim.Compile("election/invitation", invitation.Protocol{}, cfg, properties.Monitors(props)...)
		require.NoError(t, err)
		return m
	}
	warm := compile()
	for seed := uint64(100); seed < 160; seed++ {
		walk(context.Background(), warm.NewStepper(), props, seed, 2000, false, nil, false, Scheduler{})
	}
	steps := func(m *sim.Machine, seed uint64) []string {
		r := walk(context.Background(), m.NewStepper(), props, seed, 2000, false, nil, false, Scheduler{})
		var out []string
		for _, s := range buildTrace(m, r.events).Events {
			out = append(out, s.key())
		}
		return out
	}
	total := 0
	for seed := uint64(1); seed <= 30; seed++ {
		fresh := steps(compile(), seed)
		total += len(fresh)
		require.Equal(t, fresh, steps(warm, seed), "seed %d", seed)
	}
	require.Greater(t, total, 300, "the walks must go somewhere")
}
