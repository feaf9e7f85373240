package properties_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// The register's linearizable property over its history monitor: a stale
// read fails, a read still pending at a live client fails, a crashed
// client's pending read is left out, and the monitor never changes a state
// it was given.
func TestRegisterLinearizable(t *testing.T) {
	prop := properties.Register.Linearizable()
	require.Same(t, prop, properties.Register.Linearizable(), "one property per object")
	cfg := &model.Config{N: 3}
	a := model.MsgID{Sender: 0, Seq: 1}
	crash := model.Obs{Kind: model.ObsCrash}
	type obs struct {
		node model.NodeID
		o    model.Obs
	}
	cases := []struct {
		name  string
		run   []obs
		alive []bool
		want  string
	}{
		{"a read after the write returned sees it", []obs{{0, model.Multicast(a)}, {0, model.Delivered(a)}, {1, model.ReadCall()}, {1, model.ReadReturn(a)}}, nil, ""},
		{"a stale read", []obs{{0, model.Multicast(a)}, {0, model.Delivered(a)}, {1, model.ReadCall()}, {1, model.ReadReturn(model.MsgID{})}}, nil,
			"no order of the calls fits a sequential register: n0 write n0#1 (called at 0, returned at 1); n1 read initial (called at 2, returned at 3)"},
		{"a read that never returns", []obs{{1, model.ReadCall()}}, nil, "the run is over and n1's read, called at 0, never returned"},
		{"the reader crashed", []obs{{1, model.ReadCall()}, {1, crash}}, []bool{true, false, true}, ""},
		{"the writer crashed: its write may have taken effect", []obs{{0, model.Multicast(a)}, {0, crash}, {1, model.ReadCall()}, {1, model.ReadReturn(a)}}, []bool{false, true, true}, ""},
	}
	for _, c := range cases {
		st := prop.Monitor.Start(cfg)
		for _, o := range c.run {
			before := st.(properties.History)
			snapshot := properties.History{Ops: append([]properties.HistoryOp(nil), before.Ops...), Clock: before.Clock}
			st = prop.Monitor.Observe(cfg, st, o.node, o.o)
			require.Equal(t, snapshot, before, "%s: the monitor changed the state it was given", c.name)
		}
		alive := c.alive
		if alive == nil {
			alive = []bool{true, true, true}
		}
		require.Equal(t, c.want, prop.Check(resultsView{cfg: *cfg, alive: alive, st: st}), c.name)
	}
}
