package properties_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// NewInPlaceMonitor's monitor starts, observes with the copying function
// and observes in place with the other, each handed the typed state.
func TestNewInPlaceMonitor(t *testing.T) {
	count := func(cfg *model.Config, st []int, node model.NodeID, _ model.Obs) []int {
		st = slices.Clone(st)
		st[node]++
		return st
	}
	countInPlace := func(cfg *model.Config, st []int, node model.NodeID, _ model.Obs) []int {
		st[node] += 10 // (a different step, to tell which one ran)
		return st
	}
	mon := properties.NewInPlaceMonitor("count", func(cfg *model.Config) []int { return make([]int, cfg.N) }, count, countInPlace)
	cfg := &model.Config{N: 2}
	require.Equal(t, "count", mon.Name())
	st := mon.Start(cfg).([]int)
	require.Equal(t, []int{0, 0}, st)

	next := mon.Observe(cfg, st, 1, model.Obs{}).([]int)
	require.Equal(t, []int{0, 1}, next)
	require.Equal(t, []int{0, 0}, st, "Observe copies")

	same := mon.ObserveInPlace(cfg, st, 0, model.Obs{}).([]int)
	require.Equal(t, []int{10, 0}, same)
	require.Equal(t, []int{10, 0}, st, "ObserveInPlace writes into its input")
}
