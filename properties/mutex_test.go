package properties_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// The CS monitor's phases and its first out-of-order entry, on hand-made
// observation sequences of three nodes.
func TestCSMonitor(t *testing.T) {
	type obs struct {
		node model.NodeID
		o    model.Obs
	}
	req := model.RequestCS
	enter, exit := model.EnterCS(), model.ExitCS()
	w, i, c := properties.Waiting, properties.Idle, properties.InCS
	cases := []struct {
		name              string
		run               []obs
		phases            []properties.Phase
		entered, overtook model.NodeID
	}{
		{"in timestamp order", []obs{{0, req(1)}, {1, req(2)}, {0, enter}, {0, exit}, {1, enter}},
			[]properties.Phase{i, c, i}, model.None, model.None},
		{"a later timestamp first", []obs{{0, req(2)}, {1, req(1)}, {0, enter}},
			[]properties.Phase{c, w, i}, 0, 1},
		{"equal timestamps: the smaller id first", []obs{{2, req(1)}, {1, req(1)}, {2, enter}},
			[]properties.Phase{i, w, c}, 2, 1},
		{"equal timestamps, smaller id enters", []obs{{2, req(1)}, {1, req(1)}, {1, enter}},
			[]properties.Phase{i, c, w}, model.None, model.None},
		{"the first overtaking is kept", []obs{{0, req(2)}, {1, req(1)}, {0, enter}, {0, exit}, {2, req(0)}, {1, enter}},
			[]properties.Phase{i, c, w}, 0, 1},
		{"a crash makes a node idle", []obs{{0, req(2)}, {1, req(1)}, {1, model.Obs{Kind: model.ObsCrash}}, {0, enter}},
			[]properties.Phase{c, i, i}, model.None, model.None},
	}
	cfg := &model.Config{N: 3}
	for _, tc := range cases {
		st, order := properties.CS.Start(cfg), properties.EntryOrder.Start(cfg)
		for _, o := range tc.run {
			st = properties.CS.Observe(cfg, st, o.node, o.o)
			order = properties.EntryOrder.Observe(cfg, order, o.node, o.o)
		}
		s, e := st.(properties.CSState), order.(properties.EntryOrderState)
		var phases []properties.Phase
		for _, n := range s.Nodes {
			phases = append(phases, n.Phase)
		}
		require.Equal(t, tc.phases, phases, tc.name)
		require.Equal(t, s, e.CSState, "%s: the entry-order monitor's standing is the CS monitor's", tc.name)
		require.Equal(t, tc.entered, e.Entered, tc.name)
		require.Equal(t, tc.overtook, e.Overtaken, tc.name)
	}
}
