package basic_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast/basic"
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

func msgOf(p model.NodeID, k int) Msg {
	return Msg{Value: multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}}
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: model.None, Value: m.Value} }

func busy(issued int, w ...multicast.Item[Msg]) State {
	return State{multicast.Process[Msg]{Issued: issued, Work: w}}
}

// "A multicast is a for loop of send", to every node, the sender included.
func TestDo(t *testing.T) {
	m := msgOf(1, 1)
	handlers.Do(t, []step{
		{Name: "multicast, no crash: the loop at once", Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: busy(1), Sent: checktest.SentTo(m, 0, 1, 2), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "the second multicast", Self: 1, In: busy(1), Action: multicast.MulticastOp,
			Want: busy(2), Sent: checktest.SentTo(msgOf(1, 2), 0, 1, 2), Observed: []model.Obs{model.Multicast(msgOf(1, 2).Value.ID)}},
		{Name: "multicast, crashes: the loop queued", Config: crashes, Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: busy(1, sendTo(0, m), sendTo(1, m), sendTo(2, m)), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "a step of the loop", Config: crashes, Self: 1, In: busy(1, sendTo(1, m), sendTo(2, m)), Action: multicast.SendNext(1),
			Want: busy(1, sendTo(2, m)), Sent: checktest.SentTo(m, 1)},
		{Name: "the last step, and the delivery behind it", Config: crashes, Self: 1,
			In: busy(1, sendTo(2, m), deliverOf(msgOf(0, 1))), Action: multicast.SendNext(2),
			Want: busy(1), Sent: checktest.SentTo(m, 2), Observed: []model.Obs{model.Delivered(msgOf(0, 1).Value.ID)}},
	})
}

// "A received message is delivered."
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "another's message: delivered", Self: 0, In: State{}, From: 2, Msg: msgOf(2, 1),
			Want: State{}, Observed: []model.Obs{model.Delivered(msgOf(2, 1).Value.ID)}},
		{Name: "its own message: delivered", Self: 2, In: busy(1), From: 2, Msg: msgOf(2, 1),
			Want: busy(1), Observed: []model.Obs{model.Delivered(msgOf(2, 1).Value.ID)}},
		{Name: "crashes, nothing queued: delivered", Config: crashes, Self: 0, In: State{}, From: 1, Msg: msgOf(1, 1),
			Want: State{}, Observed: []model.Obs{model.Delivered(msgOf(1, 1).Value.ID)}},
		{Name: "crashes, its loop under way: after it", Config: crashes, Self: 0, In: busy(1, sendTo(2, msgOf(0, 1))), From: 1, Msg: msgOf(1, 1),
			Want: busy(1, sendTo(2, msgOf(0, 1)), deliverOf(msgOf(1, 1)))},
	})
}

func TestActions(t *testing.T) {
	two := model.Config{N: 3, Params: map[string]int{"msgs": 2}}
	handlers.Actions(t, []step{
		{Name: "a message left to multicast", Config: two, Self: 1, In: busy(1), Enabled: []model.Action{multicast.MulticastOp}},
		{Name: "every message multicast", Config: two, Self: 1, In: busy(2)},
		{Name: "a loop under way: its next send", Config: two, Self: 1, In: busy(1, sendTo(0, msgOf(1, 1))),
			Enabled: []model.Action{multicast.SendNext(0)}},
	})
}
