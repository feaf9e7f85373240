package basic_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast/basic"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	. "github.com/vigil-check/vigil/protocols/multicast/multicasttest"
)

type step = checktest.Step[State, Msg]

var handlers = Handlers(Protocol{})

func deliverOf(m Msg) multicast.Item[Msg] { return DeliverOf[Msg](m.Value) }

func busy(issued int, w ...multicast.Item[Msg]) State {
	return State{multicast.Process[Msg]{Issued: issued, Work: w}}
}

// "A multicast is a for loop of send", to every node, the sender included.
func TestDo(t *testing.T) {
	m := MsgOf(1, 1)
	handlers.Do(t, []step{
		{Name: "multicast, no crash: the loop at once", Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: busy(1), Sent: ToAll(m), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "the second multicast", Self: 1, In: busy(1), Action: multicast.MulticastOp,
			Want: busy(2), Sent: ToAll(MsgOf(1, 2)), Observed: []model.Obs{model.Multicast(MsgOf(1, 2).Value.ID)}},
		{Name: "multicast, crashes: the loop queued", Config: Crashes, Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: busy(1, QueuedToAll(m)...), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "a step of the loop", Config: Crashes, Self: 1, In: busy(1, SendTo(1, m), SendTo(2, m)), Action: multicast.SendNext(1),
			Want: busy(1, SendTo(2, m)), Sent: checktest.SentTo(m, 1)},
		{Name: "the last step, and the delivery behind it", Config: Crashes, Self: 1,
			In: busy(1, SendTo(2, m), deliverOf(MsgOf(0, 1))), Action: multicast.SendNext(2),
			Want: busy(1), Sent: checktest.SentTo(m, 2), Observed: []model.Obs{Delivered(0, 1)}},
	})
}

// "A received message is delivered."
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "another's message: delivered", Self: 0, In: State{}, From: 2, Msg: MsgOf(2, 1),
			Want: State{}, Observed: []model.Obs{Delivered(2, 1)}},
		{Name: "its own message: delivered", Self: 2, In: busy(1), From: 2, Msg: MsgOf(2, 1),
			Want: busy(1), Observed: []model.Obs{Delivered(2, 1)}},
		{Name: "crashes, nothing queued: delivered", Config: Crashes, Self: 0, In: State{}, From: 1, Msg: MsgOf(1, 1),
			Want: State{}, Observed: []model.Obs{Delivered(1, 1)}},
		{Name: "crashes, its loop under way: after it", Config: Crashes, Self: 0, In: busy(1, SendTo(2, MsgOf(0, 1))), From: 1, Msg: MsgOf(1, 1),
			Want: busy(1, SendTo(2, MsgOf(0, 1)), deliverOf(MsgOf(1, 1)))},
	})
}

func TestActions(t *testing.T) {
	two := model.Config{N: 3, Params: map[string]int{"msgs": 2}}
	handlers.Actions(t, []step{
		{Name: "a message left to multicast", Config: two, Self: 1, In: busy(1), Enabled: []model.Action{multicast.MulticastOp}},
		{Name: "every message multicast", Config: two, Self: 1, In: busy(2)},
		{Name: "a loop under way: its next send", Config: two, Self: 1, In: busy(1, SendTo(0, MsgOf(1, 1))),
			Enabled: []model.Action{multicast.SendNext(0)}},
	})
}
