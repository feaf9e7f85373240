package properties

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// ev is one observation of a hand-made run: node Node observes Obs.
type ev struct {
	node model.NodeID
	obs  model.Obs
}

func mc(p model.NodeID, k int) ev {
	return ev{p, model.Multicast(model.MsgID{Sender: p, Seq: k})}
}
func dl(q, p model.NodeID, k int) ev {
	return ev{q, model.Delivered(model.MsgID{Sender: p, Seq: k})}
}
func crash(q model.NodeID) ev { return ev{q, model.Obs{Kind: model.ObsCrash}} }

// feed runs a monitor over a hand-made run of 3 nodes, 2 messages each.
func feed(mon model.Monitor, run ...ev) any {
	cfg := &model.Config{N: 3, Params: map[string]int{"msgs": 2}}
	st := mon.Start(cfg)
	for _, e := range run {
		st = mon.Observe(cfg, st, e.node, e.obs)
	}
	return st
}

func id(p model.NodeID, k int) model.MsgID { return model.MsgID{Sender: p, Seq: k} }

// The ordering monitors on runs whose verdict is known: the first
// violation they record, or none.
func TestOrderingMonitors(t *testing.T) {
	none := noViolation
	cases := []struct {
		name string
		mon  model.Monitor
		run  []ev
		want badDelivery
	}{
		{"fifo: in order", FIFOLog, []ev{mc(0, 1), mc(0, 2), dl(1, 0, 1), dl(1, 0, 2)}, none},
		{"fifo: the second before the first", FIFOLog, []ev{mc(0, 1), mc(0, 2), dl(1, 0, 2)},
			badDelivery{Node: 1, Msg: id(0, 2), Other: id(0, 1), Peer: model.None}},
		{"fifo: the sender crashed, no longer bound", FIFOLog, []ev{mc(0, 1), mc(0, 2), crash(0), dl(1, 0, 2)}, none},
		{"fifo: the deliverer crashed, no longer bound", FIFOLog, []ev{mc(0, 1), mc(0, 2), crash(1), dl(1, 0, 2)}, none},
		{"fifo: other senders do not count", FIFOLog, []ev{mc(0, 1), mc(1, 1), dl(2, 1, 1), dl(2, 0, 1)}, none},
		{"causal: a reply before its cause", CausalLog, []ev{mc(0, 1), dl(1, 0, 1), mc(1, 1), dl(2, 1, 1)},
			badDelivery{Node: 2, Msg: id(1, 1), Other: id(0, 1), Peer: model.None}},
		{"causal: cause first", CausalLog, []ev{mc(0, 1), dl(1, 0, 1), mc(1, 1), dl(2, 0, 1), dl(2, 1, 1)}, none},
		{"causal: concurrent messages in any order", CausalLog, []ev{mc(0, 1), mc(1, 1), dl(2, 1, 1), dl(2, 0, 1)}, none},
		{"causal: a sender's own order is causal", CausalLog, []ev{mc(0, 1), mc(0, 2), dl(2, 0, 2)},
			badDelivery{Node: 2, Msg: id(0, 2), Other: id(0, 1), Peer: model.None}},
		{"causal: transitively", CausalLog, []ev{mc(0, 1), dl(1, 0, 1), mc(1, 1), dl(2, 1, 1)},
			badDelivery{Node: 2, Msg: id(1, 1), Other: id(0, 1), Peer: model.None}},
		{"total: the same order", DeliveryOrder, []ev{dl(0, 0, 1), dl(0, 1, 1), dl(1, 0, 1), dl(1, 1, 1)}, none},
		{"total: opposite orders", DeliveryOrder, []ev{dl(0, 0, 1), dl(0, 1, 1), dl(1, 1, 1)},
			badDelivery{Node: 1, Msg: id(1, 1), Other: id(0, 1), Peer: 0}},
		{"total: the later deliverer had it first", DeliveryOrder, []ev{dl(1, 1, 1), dl(0, 0, 1), dl(0, 1, 1)},
			badDelivery{Node: 0, Msg: id(1, 1), Other: id(0, 1), Peer: 1, Mine: true}},
		{"total: disjoint deliveries", DeliveryOrder, []ev{dl(0, 0, 1), dl(1, 1, 1)}, none},
		{"total: a crashed process is no longer bound", DeliveryOrder, []ev{dl(0, 0, 1), dl(0, 1, 1), crash(0), dl(1, 1, 1)}, none},
	}
	for _, c := range cases {
		var got badDelivery
		switch st := feed(c.mon, c.run...).(type) {
		case OrderLog:
			got = st.Bad
		case SequenceLog:
			got = st.Bad
		}
		require.Equal(t, c.want, got, c.name)
	}

	// a violation, once seen, stays the first one
	st := feed(DeliveryOrder, dl(0, 0, 1), dl(0, 1, 1), dl(1, 1, 1), dl(1, 0, 1), dl(2, 0, 2), dl(1, 0, 2)).(SequenceLog)
	require.Equal(t, id(1, 1), st.Bad.Msg)
}

// The deliveries monitor: integrity's first duplicate and forgery, and the
// sets the agreement properties read.
func TestDeliveriesMonitor(t *testing.T) {
	st := feed(Deliveries, mc(0, 1), dl(0, 0, 1), dl(1, 0, 1), crash(1)).(DeliveryState)
	require.False(t, st.Twice.seen() || st.Forged.seen())
	require.Equal(t, []bool{false, true, false}, st.Crashed)
	n01, _ := msgNumber(&model.Config{N: 3, Params: map[string]int{"msgs": 2}}, id(0, 1))
	require.True(t, st.Anywhere.has(n01))
	require.True(t, st.Delivered[1].has(n01))
	require.False(t, st.Delivered[2].has(n01))

	st = feed(Deliveries, mc(0, 1), dl(1, 0, 1), dl(1, 0, 1), dl(2, 1, 1), dl(2, 2, 3)).(DeliveryState)
	require.Equal(t, badDelivery{Node: 1, Msg: id(0, 1), Peer: model.None}, st.Twice)
	require.Equal(t, badDelivery{Node: 2, Msg: id(1, 1), Peer: model.None}, st.Forged, "n1#1 was never multicast")

	// a recovered node starts a new incarnation, which may deliver again
	st = feed(Deliveries, mc(0, 1), dl(1, 0, 1), crash(1), ev{1, model.Obs{Kind: model.ObsRecover}}, dl(1, 0, 1)).(DeliveryState)
	require.False(t, st.Twice.seen())

	// out of range: sequence number above msgs, or no such sender
	st = feed(Deliveries, dl(0, 0, 3)).(DeliveryState)
	require.Equal(t, id(0, 3), st.Forged.Msg)
	st = feed(Deliveries, ev{0, model.Delivered(id(5, 1))}).(DeliveryState)
	require.Equal(t, id(5, 1), st.Forged.Msg)
}

// Message sets beyond one word.
func TestMsgSet(t *testing.T) {
	var s msgSet
	s = s.with(3).with(70).with(130)
	require.Equal(t, []int{3, 70, 130}, s.members())
	require.True(t, s.has(70))
	require.False(t, s.has(71))
	require.False(t, s.has(500))
	u := msgSet(nil).with(1).union(s)
	require.Equal(t, []int{1, 3, 70, 130}, u.members())
	require.Equal(t, []int{3, 70, 130}, s.members(), "union leaves its operands alone")
	require.Equal(t, msgSet(nil).with(64), msgSet(nil).with(64).union(nil))

	cfg := &model.Config{N: 40, Params: map[string]int{"msgs": 3}}
	i, ok := msgNumber(cfg, id(39, 3))
	require.True(t, ok)
	require.Equal(t, 119, i)
	require.Equal(t, id(39, 3), msgOf(cfg, i))
}
