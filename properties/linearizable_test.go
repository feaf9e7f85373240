package properties_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// The linearizable property of each object, over its history monitor, on
// runs of three nodes. Its definition ("every live client's call has
// returned, and their history is linearizable", with the object's
// sequential model) names the clause each reject row breaks. The monitor
// never changes a state it was given.
func TestLinearizable(t *testing.T) {
	a, b := model.MsgID{Sender: 0, Seq: 1}, model.MsgID{Sender: 0, Seq: 2}
	writes := func(i model.NodeID, m model.MsgID) obsStep { return obsStep{i, model.Multicast(m)} }
	delivers := func(i model.NodeID, m model.MsgID) obsStep { return obsStep{i, model.Delivered(m)} }
	reads := func(i model.NodeID) obsStep { return obsStep{i, model.ReadCall()} }
	returns := func(i model.NodeID, m model.MsgID) obsStep { return obsStep{i, model.ReadReturn(m)} }
	cases := []struct {
		name  string
		obj   *properties.Object
		run   []obsStep
		alive []bool // where the run ends; nil: all
		want  string
	}{
		{name: "accept: a read after the write returned sees it", obj: properties.Register,
			run: []obsStep{writes(0, a), delivers(0, a), reads(1), returns(1, a)}},
		{name: "accept: a write returns when its writer delivers it, not another replica", obj: properties.Register,
			run: []obsStep{writes(0, a), delivers(1, a), reads(1), returns(1, model.MsgID{}), delivers(0, a)}},
		{name: "accept: a delivery returns no pending read", obj: properties.Register,
			run: []obsStep{writes(0, a), delivers(0, a), delivers(1, a), reads(1), writes(0, b), delivers(1, b), returns(1, b), delivers(0, b)}},
		{name: "accept: a crashed reader's pending read is left out", obj: properties.Register,
			run: []obsStep{reads(1), crashes(1)}, alive: []bool{true, false, true}},
		{name: "accept: a crashed writer's write may have taken effect", obj: properties.Register,
			run: []obsStep{writes(0, a), crashes(0), reads(1), returns(1, a)}, alive: []bool{false, true, true}},
		{name: "accept: lock acquired and released in turn", obj: properties.Lock,
			run: []obsStep{asks(0, 1), asks(1, 1), enters(0), exits(0), enters(1), exits(1)}},
		{name: "accept: a crashed client's pending acquire is left out", obj: properties.Lock,
			run: []obsStep{asks(0, 1), crashes(0), asks(1, 1), enters(1), exits(1)}, alive: []bool{false, true, true}},

		{name: "every live client's call has returned: a read", obj: properties.Register,
			run:  []obsStep{reads(1)},
			want: "the run is over and n1's read, called at 0, never returned"},
		{name: "every live client's call has returned: an acquire", obj: properties.Lock,
			run:  []obsStep{asks(0, 1), enters(0), asks(1, 1)},
			want: "the run is over and n1's acquire, called at 2, never returned"},
		{name: "linearizable (a read returns the last value written): a stale read", obj: properties.Register,
			run: []obsStep{writes(0, a), delivers(0, a), reads(1), returns(1, model.MsgID{})},
			want: "no order of the calls fits a sequential register: " +
				"n0 write n0#1 (called at 0, returned at 1); n1 read initial (called at 2, returned at 3)"},
		{name: "linearizable (acquire takes a free lock): two clients hold it", obj: properties.Lock,
			run: []obsStep{asks(0, 1), asks(1, 1), enters(0), enters(1), exits(0), exits(1)},
			want: "no order of the calls fits a sequential lock: n0 acquire (called at 0, returned at 2); " +
				"n1 acquire (called at 1, returned at 3); n0 release (called at 4, returned at 5); n1 release (called at 6, returned at 7)"},
		{name: "linearizable (release frees the lock its client holds): a release without the lock", obj: properties.Lock,
			run:  []obsStep{exits(2)},
			want: "no order of the calls fits a sequential lock: n2 release (called at 0, returned at 1)"},
	}
	cfg := &model.Config{N: 3}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prop := c.obj.Linearizable()
			require.Same(t, prop, c.obj.Linearizable(), "one property per object")
			require.Equal(t, "history-"+c.obj.Name, prop.Monitor.Name())
			st := prop.Monitor.Start(cfg)
			for k, o := range c.run {
				before := st.(properties.History)
				snapshot := properties.History{Ops: slices.Clone(before.Ops), Clock: before.Clock}
				st = prop.Monitor.Observe(cfg, st, o.node, o.o)
				require.Equal(t, snapshot, before, "step %d: the monitor changed the state it was given", k)
			}
			v := monitorView{cfg: *cfg, alive: c.alive, states: map[model.Monitor]any{prop.Monitor: st}}
			require.Equal(t, c.want, prop.Check(v))
			require.Empty(t, prop.Judge(v, false), "judged where runs end")
			require.Equal(t, c.want, prop.Judge(v, true), "where the run ends")
		})
	}
}
