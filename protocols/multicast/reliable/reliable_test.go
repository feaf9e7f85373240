package reliable_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast/reliable"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

type step = checktest.Step[State, Msg]

var (
	// with spare capacity in the inputs' lists: no handler appends to them in place
	handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3}, SpareCapacity: true}
	crashes  = model.Config{N: 3, Crashes: 1}
)

func value(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

func msgOf(p model.NodeID, k int) Msg { return Msg{Value: value(p, k)} }

func delivered(p model.NodeID, k int) model.Obs {
	return model.Delivered(model.MsgID{Sender: p, Seq: k})
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: model.None, Value: m.Value} }

// toAll is B-multicast(g, m) in a run of 3 with no crash.
func toAll(m Msg) []model.Sent[Msg] {
	return checktest.SentTo(m, 0, 1, 2)
}

// queuedToAll is B-multicast(g, m) in a run with crashes.
func queuedToAll(m Msg) []multicast.Item[Msg] {
	return []multicast.Item[Msg]{sendTo(0, m), sendTo(1, m), sendTo(2, m)}
}

func state(issued int, work []multicast.Item[Msg], received ...multicast.Value) State {
	return State{Process: multicast.Process[Msg]{Issued: issued, Work: work}, Received: received}
}

// Vlassov and Montelius's "On B-deliver(m) at process q", one call each.
func TestReceive(t *testing.T) {
	m := msgOf(0, 1)
	handlers.Receive(t, []step{
		{Name: "first receipt: relay to the group, then deliver", Self: 1, In: State{}, From: 0, Msg: m,
			Want: state(0, nil, value(0, 1)), Sent: toAll(m), Observed: []model.Obs{delivered(0, 1)}},
		{Name: "first receipt of a relayed copy: relay too", Self: 2, In: State{}, From: 1, Msg: m,
			Want: state(0, nil, value(0, 1)), Sent: toAll(m), Observed: []model.Obs{delivered(0, 1)}},
		{Name: "first receipt at the original sender: deliver, no relay", Self: 0, In: state(1, nil), From: 0, Msg: m,
			Want: state(1, nil, value(0, 1)), Observed: []model.Obs{delivered(0, 1)}},
		{Name: "the sender's own copy back from a relay: deliver, no relay", Self: 0, In: state(1, nil), From: 2, Msg: m,
			Want: state(1, nil, value(0, 1)), Observed: []model.Obs{delivered(0, 1)}},
		{Name: "a duplicate: nothing", Self: 1, In: state(0, nil, value(0, 1)), From: 2, Msg: m,
			Want: state(0, nil, value(0, 1))},
		{Name: "a duplicate at the sender: nothing", Self: 0, In: state(1, nil, value(0, 1)), From: 1, Msg: m,
			Want: state(1, nil, value(0, 1))},
		{Name: "Received stays sorted", Self: 0, In: state(0, nil, value(0, 2), value(2, 1)), From: 1, Msg: msgOf(1, 1),
			Want: state(0, nil, value(0, 2), value(1, 1), value(2, 1)), Sent: toAll(msgOf(1, 1)), Observed: []model.Obs{delivered(1, 1)}},
		{Name: "another message of a seen sender is not a duplicate", Self: 2, In: state(0, nil, value(0, 1)), From: 0, Msg: msgOf(0, 2),
			Want: state(0, nil, value(0, 1), value(0, 2)), Sent: toAll(msgOf(0, 2)), Observed: []model.Obs{delivered(0, 2)}},
		{Name: "crashes: the relay is queued, the delivery waits behind it", Config: crashes, Self: 1, In: State{}, From: 0, Msg: m,
			Want: state(0, append(queuedToAll(m), deliverOf(m)), value(0, 1))},
		{Name: "crashes, at the sender, nothing queued: delivered at once", Config: crashes, Self: 0, In: state(1, nil), From: 0, Msg: m,
			Want: state(1, nil, value(0, 1)), Observed: []model.Obs{delivered(0, 1)}},
		{Name: "crashes, at the sender, its loop under way: behind it", Config: crashes, Self: 0, In: state(1, []multicast.Item[Msg]{sendTo(2, m)}),
			From: 0, Msg: m,
			Want: state(1, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1))},
		{Name: "crashes, a relay under way: the next relay behind it", Config: model.Config{N: 3, Crashes: 2}, Self: 1,
			In: state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1)), From: 2, Msg: msgOf(2, 1),
			Want: state(0, append([]multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, append(queuedToAll(msgOf(2, 1)), deliverOf(msgOf(2, 1)))...),
				value(0, 1), value(2, 1))},
		{Name: "crashes, a duplicate: nothing", Config: crashes, Self: 1, In: state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1)),
			From: 2, Msg: m,
			Want: state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1))},
	})
}

// R-multicast(g, m) is B-multicast(g, m), the sender included; the sender
// receives (and delivers) its message when it arrives back.
func TestDo(t *testing.T) {
	m := msgOf(1, 1)
	handlers.Do(t, []step{
		{Name: "multicast, no crash", Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: state(1, nil), Sent: toAll(m), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "multicast, crashes: queued", Config: crashes, Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: state(1, queuedToAll(m)), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "a step of a relay and the delivery behind it", Config: crashes, Self: 1,
			In: state(1, []multicast.Item[Msg]{sendTo(2, msgOf(0, 1)), deliverOf(msgOf(0, 1))}, value(0, 1)), Action: multicast.SendNext(2),
			Want: state(1, nil, value(0, 1)), Sent: checktest.SentTo(msgOf(0, 1), 2), Observed: []model.Obs{delivered(0, 1)}},
	})
}
