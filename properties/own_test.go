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

// Judge judges an invariant in every world and the others only where the
// run ends, where AtEnd words an eventually-property's outstanding
// obligations as the run ending with them.
func TestJudge(t *testing.T) {
	says := func(d string) func(properties.View) string { return func(properties.View) string { return d } }
	eventually := &properties.Property{Name: "served", When: properties.Eventually, Check: says("n1 waits")}
	met := &properties.Property{Name: "served", When: properties.Eventually, Check: says("")}
	cases := []struct {
		name      string
		p         *properties.Property
		quiescent bool
		want      string
	}{
		{"an invariant, mid-run", properties.Invariant("inv", "doc", says("broken")), false, "broken"},
		{"an invariant, at the end", properties.Invariant("inv", "doc", says("broken")), true, "broken"},
		{"an invariant that holds", properties.Invariant("inv", "doc", says("")), true, ""},
		{"at quiescence, mid-run", properties.Quiescent("q", "doc", says("stuck")), false, ""},
		{"at quiescence, at the end", properties.Quiescent("q", "doc", says("stuck")), true, "stuck"},
		{"eventually, mid-run", eventually, false, ""},
		{"eventually, at the end", eventually, true, "the run ends while n1 waits"},
		{"eventually, met", met, true, ""},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.p.Judge(nil, c.quiescent), c.name)
	}
	require.Equal(t, properties.Always, properties.Invariant("inv", "doc", says("")).When)
	require.Equal(t, properties.AtQuiescence, properties.Quiescent("q", "doc", says("")).When)
	require.Equal(t, "", eventually.AtEnd(""), "nothing outstanding, nothing to word")
}

// NewMonitor's and NewSymmetricMonitor's monitors hand their functions the
// typed state; RenameNodes renames it.
func TestNewMonitor(t *testing.T) {
	start := func(cfg *model.Config) []model.NodeID { return make([]model.NodeID, cfg.N) }
	last := func(_ *model.Config, st []model.NodeID, node model.NodeID, o model.Obs) []model.NodeID {
		st = slices.Clone(st)
		st[node] = model.NodeID(o.Arg)
		return st
	}
	rename := func(_ *model.Config, st []model.NodeID, to func(model.NodeID) model.NodeID) []model.NodeID {
		out := make([]model.NodeID, len(st))
		for i, l := range st {
			out[to(model.NodeID(i))] = to(l)
		}
		return out
	}
	cfg := &model.Config{N: 2}
	plain := properties.NewMonitor("last", start, last)
	require.Equal(t, "last", plain.Name())
	require.Equal(t, []model.NodeID{0, 1}, plain.Observe(cfg, plain.Start(cfg), 1, model.Leader(1)))

	sym := properties.NewSymmetricMonitor("last", start, last, rename)
	st := sym.Observe(cfg, sym.Start(cfg), 1, model.Leader(1))
	swap := func(i model.NodeID) model.NodeID { return 1 - i }
	require.Equal(t, []model.NodeID{0, 1}, st)
	require.Equal(t, []model.NodeID{0, 1}, sym.RenameNodes(cfg, st, swap), "n1 believing n1 is n0 believing n0")
	require.Equal(t, []model.NodeID{1, 1}, sym.RenameNodes(cfg, []model.NodeID{0, 0}, swap), "both believing n0 is both believing n1")
}
