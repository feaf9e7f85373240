package regress

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/invitation"
)

// A walk depends on its seed alone: on a Machine that met messages and
// timers in another order (after other walks), the walk of a seed takes
// the same steps. Unordered channels list messages by interned id, so this
// needs the canonical order.
func TestWalkDependsOnItsSeedAlone(t *testing.T) {
	t.Parallel()
	cfg := model.Config{N: 5, Channels: model.Unordered, Partitions: 2}
	props := properties.Family("election")
	compile := func() *sim.Machine {
		m, err := sim.Compile("election/invitation", invitation.Protocol{}, cfg, properties.Monitors(props)...)
		require.NoError(t, err)
		return m
	}
	warm := compile()
	for seed := uint64(100); seed < 160; seed++ {
		testhook.WalkSteps(warm, props, seed, 2000)
	}
	total := 0
	for seed := uint64(1); seed <= 30; seed++ {
		fresh := testhook.WalkSteps(compile(), props, seed, 2000)
		total += len(fresh)
		require.Equal(t, fresh, testhook.WalkSteps(warm, props, seed, 2000), "seed %d", seed)
	}
	require.Greater(t, total, 300, "the walks must go somewhere")
}
