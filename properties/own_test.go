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

// MonitorState and StateOf hand back the state of the type asked for, and
// name the type they found otherwise.
func TestStateOfTheWrongType(t *testing.T) {
	v := situation{beliefs: []model.NodeID{1, 1}}.view(t)
	require.Equal(t, []model.NodeID{1, 1}, properties.MonitorState[[]model.NodeID](v, properties.Leaders))
	require.PanicsWithValue(t, "properties.MonitorState: monitor leaders keeps []model.NodeID, not []int", func() {
		properties.MonitorState[[]int](v, properties.Leaders)
	})
	require.Equal(t, believerState{B: 1}, properties.StateOf[believerState](v, 0))
	require.PanicsWithValue(t, "properties.StateOf: node states are properties_test.believerState, not int", func() {
		properties.StateOf[int](v, 0)
	})
}
