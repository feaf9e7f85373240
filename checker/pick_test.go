package checker

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// A random walk draws the partitions enabled as one choice among the other
// events, and any partition within that choice.
func TestPickCountsPartitionsAsOne(t *testing.T) {
	evs := []model.Event{{Kind: model.Deliver, Node: 1}, {Kind: model.Crash, Node: 0}}
	for a := 1; a < 10; a++ {
		evs = append(evs, model.Event{Kind: model.Partition, Node: model.NodeID(a), From: model.NodeID(a)})
	}
	evs = append(evs, model.Event{Kind: model.Heal})
	rng := rand.New(rand.NewPCG(1, 2))
	byKind := map[model.EventKind]int{}
	arcs := map[model.NodeID]int{}
	const draws = 40000
	for range draws {
		e := pick(rng, evs)
		byKind[e.Kind]++
		if e.Kind == model.Partition {
			arcs[e.Node]++
		}
	}
	// four choices: deliver, crash, some partition, heal
	for _, k := range []model.EventKind{model.Deliver, model.Crash, model.Partition, model.Heal} {
		require.InDelta(t, draws/4, byKind[k], draws/40, "%v", k)
	}
	require.Len(t, arcs, 9, "every partition can be drawn")

	// without partitions, a uniform draw
	plain := evs[:2]
	require.Contains(t, plain, pick(rng, plain))
}
