package sim_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// TestWalkerTablesEstimateWhatNewWalkerMakes compares the estimate of a
// Walker's tables with what making one allocates: a table that grows with
// N and that the estimate leaves out (or counts twice) makes it fail.
func TestWalkerTablesEstimateWhatNewWalkerMakes(t *testing.T) {
	for _, cfg := range []model.Config{
		{N: 200, Channels: model.FIFO},
		{N: 300},
		{N: 300, Losses: 1, Duplicates: 1},
		{N: 301, Timing: model.Bounded, Delay: 2},
	} {
		m, err := sim.Compile("sized", script{}, cfg)
		require.NoError(t, err)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		lw := m.NewWalker()
		runtime.ReadMemStats(&after)
		made := float64(after.TotalAlloc - before.TotalAlloc)
		channels, nodes := m.WalkerTables(cfg.N)
		est := float64(channels + nodes)
		require.Greater(t, est, 0.8*made, "n=%d: estimated %.0f bytes, made %.0f", cfg.N, est, made)
		require.Less(t, est, 1.25*made, "n=%d: estimated %.0f bytes, made %.0f", cfg.N, est, made)
		runtime.KeepAlive(lw)
	}
}

// The channel tables are 12 to 16 bytes a pair: the record's index, the
// delivery count and the tree (2 to 4 bytes a pair, by where n² falls
// between powers of two).
func TestWalkerChannelTablesPerPair(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want uint64
	}{
		{1, 4 + 4 + 8},
		{2, 16 + 16 + 32},
		{3, 36 + 36 + 64},
		{1 << 10, 16 << 20},
		{5000, 25_000_000*8 + (1<<24)*8},
	} {
		require.Equal(t, tc.want, sim.ChannelTableBytes(tc.n), "n=%d", tc.n)
	}
}

// Start stops between nodes' Inits once stop says so, and reports it;
// without a stop it runs every Init.
func TestWalkerStartStops(t *testing.T) {
	sends := script{init: func(ctx *model.Ctx[tmsg]) tstate {
		ctx.Send(model.NodeID((int(ctx.Self())+1)%ctx.N()), tmsg{1})
		return tstate{}
	}}
	m, err := sim.Compile("ring", sends, model.Config{N: 200})
	require.NoError(t, err)
	lw := m.NewWalker()
	calls := 0
	require.False(t, lw.Start(func() bool { calls++; return calls > 1 }))
	require.Equal(t, 2, calls, "stop is asked between nodes, not once per walk")
	require.True(t, lw.Start(nil))
	require.Equal(t, 200, lw.InFlight())
	require.True(t, lw.Start(func() bool { return false }))
	require.Equal(t, 200, lw.InFlight())
}
