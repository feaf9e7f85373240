package properties_test

import (
	"fmt"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// TestPartitionProperties judges group-leader and healed-leader on settled
// worlds of four believers, cut by arcs of the ring of ids.
func TestPartitionProperties(t *testing.T) {
	cases := []struct {
		name    string
		beliefs []model.NodeID
		cuts    [][2]model.NodeID // arcs cut away, in order
		crash   []model.NodeID
		group   string // group-leader's verdict
		healed  string // healed-leader's verdict
	}{
		{name: "whole, one coordinator", beliefs: []model.NodeID{3, 3, 3, 3}},
		{name: "whole, two coordinators", beliefs: []model.NodeID{1, 1, 3, 3},
			group:  "n0 and n2 are connected but follow n1 and n3",
			healed: "the network is whole and the run has settled, but n0 follows n1 and n2 follows n3"},
		{name: "split, one coordinator per group", beliefs: []model.NodeID{1, 1, 3, 3}, cuts: [][2]model.NodeID{{2, 3}}},
		{name: "split, a group follows across the cut", beliefs: []model.NodeID{3, 3, 3, 3}, cuts: [][2]model.NodeID{{2, 3}},
			group: "the run has settled but n0 follows n3, which it cannot reach"},
		{name: "split three ways", beliefs: []model.NodeID{0, 1, 0, 3}, cuts: [][2]model.NodeID{{1, 1}, {3, 3}}},
		{name: "a follower of a follower", beliefs: []model.NodeID{1, 2, 2, 2},
			group:  "n0 follows n1, which follows n2",
			healed: "the network is whole and the run has settled, but n0 follows n1 and n1 follows n2"},
		{name: "undecided", beliefs: []model.NodeID{3, none, 3, 3},
			group:  "the run has settled but n1 follows no coordinator",
			healed: "the network is whole and the run has settled, but n1 follows no live coordinator"},
		{name: "crashed nodes do not count", beliefs: []model.NodeID{3, 3, 2, 3}, crash: []model.NodeID{2}},
		{name: "a crashed coordinator", beliefs: []model.NodeID{3, 3, 3, 3}, crash: []model.NodeID{3},
			group:  "the run has settled but n0 follows n3, which it cannot reach",
			healed: "the network is whole and the run has settled, but n0 follows no live coordinator"},
	}
	for _, c := range cases {
		cfg := model.Config{N: len(c.beliefs), Crashes: len(c.crash), Partitions: max(1, len(c.cuts)), Params: beliefParams(c.beliefs)}
		m, err := sim.Compile("believer", believer{}, cfg, properties.Leaders)
		require.NoError(t, err)
		st := m.NewStepper()
		w, _ := st.Init()
		for _, arc := range c.cuts {
			w, _ = st.Apply(w, sim.Event{Kind: sim.Partition, Node: arc[0], From: arc[1]}, nil)
		}
		v := st.View(withFaults(st, w, sim.Crash, c.crash))
		require.Equal(t, len(c.cuts) > 0, v.Split(), c.name)
		require.Equal(t, c.group, properties.GroupLeader.Check(v), c.name)
		require.Equal(t, c.healed, properties.HealedLeader.Check(v), c.name)
	}
}

// former forms group (g<i>, i) at start-up and, when its timer fires, group
// (r<i>, i).
type former struct{ believer }

func (former) Init(ctx *model.Ctx[believerMsg]) believerState {
	ctx.Observe(model.NewGroup(ctx.Param(fmt.Sprintf("g%d", ctx.Self()), 1)))
	ctx.SetTimer("reform")
	return believerState{}
}

func (former) Timeout(ctx *model.Ctx[believerMsg], s believerState, _ model.Timer) believerState {
	ctx.Observe(model.NewGroup(ctx.Param(fmt.Sprintf("r%d", ctx.Self()), 0)))
	return s
}

// The group-number monitor flags a node that forms a group with a sequence
// number it used before, and keeps the first such reuse.
func TestGroupNumbersUnique(t *testing.T) {
	cases := []struct {
		params map[string]int
		fire   []model.NodeID // nodes whose timer fires, in order
		want   string
	}{
		{params: map[string]int{"g0": 1, "g1": 1}, want: ""}, // (1, n0) and (1, n1) differ
		{params: map[string]int{"r0": 2}, fire: []model.NodeID{0}, want: ""},
		{params: map[string]int{"r0": 1}, fire: []model.NodeID{0}, want: "n0 formed group (1, n0) again"},
		{params: map[string]int{"g0": 3, "r0": 2}, fire: []model.NodeID{0}, want: "n0 formed group (2, n0) again"},
		{params: map[string]int{"r0": 1, "r1": 1}, fire: []model.NodeID{1, 0}, want: "n1 formed group (1, n1) again"},
	}
	for _, c := range cases {
		m, err := sim.Compile("former", former{}, model.Config{N: 2, Params: c.params}, properties.GroupNumbers)
		require.NoError(t, err)
		st := m.NewStepper()
		w, _ := st.Init()
		require.Empty(t, properties.GroupNumbersUnique.Check(st.View(w)))
		for _, i := range c.fire {
			w, _ = st.Apply(w, sim.Event{Kind: sim.Timeout, Node: i, Arg: 0}, nil)
		}
		require.Equal(t, c.want, properties.GroupNumbersUnique.Check(st.View(w)), "%v", c.params)
	}
}
