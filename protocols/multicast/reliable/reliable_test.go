package reliable_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast/reliable"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	. "github.com/vigil-check/vigil/protocols/multicast/multicasttest"
)

type step = checktest.Step[State, Msg]

var handlers = Handlers(Protocol{})

func deliverOf(m Msg) multicast.Item[Msg] { return DeliverOf[Msg](m.Value) }

func state(issued int, work []multicast.Item[Msg], received ...multicast.Value) State {
	return State{Process: multicast.Process[Msg]{Issued: issued, Work: work}, Received: received}
}

// Vlassov and Montelius's "On B-deliver(m) at process q", one call each.
func TestReceive(t *testing.T) {
	m := MsgOf(0, 1)
	handlers.Receive(t, []step{
		{Name: "first receipt: relay to the group, then deliver", Self: 1, In: State{}, From: 0, Msg: m,
			Want: state(0, nil, ValueOf(0, 1)), Sent: ToAll(m), Observed: []model.Obs{Delivered(0, 1)}},
		{Name: "first receipt of a relayed copy: relay too", Self: 2, In: State{}, From: 1, Msg: m,
			Want: state(0, nil, ValueOf(0, 1)), Sent: ToAll(m), Observed: []model.Obs{Delivered(0, 1)}},
		{Name: "first receipt at the original sender: deliver, no relay", Self: 0, In: state(1, nil), From: 0, Msg: m,
			Want: state(1, nil, ValueOf(0, 1)), Observed: []model.Obs{Delivered(0, 1)}},
		{Name: "the sender's own copy back from a relay: deliver, no relay", Self: 0, In: state(1, nil), From: 2, Msg: m,
			Want: state(1, nil, ValueOf(0, 1)), Observed: []model.Obs{Delivered(0, 1)}},
		{Name: "a duplicate: nothing", Self: 1, In: state(0, nil, ValueOf(0, 1)), From: 2, Msg: m,
			Want: state(0, nil, ValueOf(0, 1))},
		{Name: "a duplicate at the sender: nothing", Self: 0, In: state(1, nil, ValueOf(0, 1)), From: 1, Msg: m,
			Want: state(1, nil, ValueOf(0, 1))},
		{Name: "Received stays sorted", Self: 0, In: state(0, nil, ValueOf(0, 2), ValueOf(2, 1)), From: 1, Msg: MsgOf(1, 1),
			Want: state(0, nil, ValueOf(0, 2), ValueOf(1, 1), ValueOf(2, 1)), Sent: ToAll(MsgOf(1, 1)), Observed: []model.Obs{Delivered(1, 1)}},
		{Name: "another message of a seen sender is not a duplicate", Self: 2, In: state(0, nil, ValueOf(0, 1)), From: 0, Msg: MsgOf(0, 2),
			Want: state(0, nil, ValueOf(0, 1), ValueOf(0, 2)), Sent: ToAll(MsgOf(0, 2)), Observed: []model.Obs{Delivered(0, 2)}},
		{Name: "crashes: the relay is queued, the delivery waits behind it", Config: Crashes, Self: 1, In: State{}, From: 0, Msg: m,
			Want: state(0, append(QueuedToAll(m), deliverOf(m)), ValueOf(0, 1))},
		{Name: "crashes, at the sender, nothing queued: delivered at once", Config: Crashes, Self: 0, In: state(1, nil), From: 0, Msg: m,
			Want: state(1, nil, ValueOf(0, 1)), Observed: []model.Obs{Delivered(0, 1)}},
		{Name: "crashes, at the sender, its loop under way: behind it", Config: Crashes, Self: 0, In: state(1, []multicast.Item[Msg]{SendTo(2, m)}),
			From: 0, Msg: m,
			Want: state(1, []multicast.Item[Msg]{SendTo(2, m), deliverOf(m)}, ValueOf(0, 1))},
		{Name: "crashes, a relay under way: the next relay behind it", Config: model.Config{N: 3, Crashes: 2}, Self: 1,
			In: state(0, []multicast.Item[Msg]{SendTo(2, m), deliverOf(m)}, ValueOf(0, 1)), From: 2, Msg: MsgOf(2, 1),
			Want: state(0, append([]multicast.Item[Msg]{SendTo(2, m), deliverOf(m)}, append(QueuedToAll(MsgOf(2, 1)), deliverOf(MsgOf(2, 1)))...),
				ValueOf(0, 1), ValueOf(2, 1))},
		{Name: "crashes, a duplicate: nothing", Config: Crashes, Self: 1, In: state(0, []multicast.Item[Msg]{SendTo(2, m), deliverOf(m)}, ValueOf(0, 1)),
			From: 2, Msg: m,
			Want: state(0, []multicast.Item[Msg]{SendTo(2, m), deliverOf(m)}, ValueOf(0, 1))},
	})
}

// R-multicast(g, m) is B-multicast(g, m), the sender included; the sender
// receives (and delivers) its message when it arrives back.
func TestDo(t *testing.T) {
	m := MsgOf(1, 1)
	handlers.Do(t, []step{
		{Name: "multicast, no crash", Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: state(1, nil), Sent: ToAll(m), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "multicast, crashes: queued", Config: Crashes, Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: state(1, QueuedToAll(m)), Observed: []model.Obs{model.Multicast(m.Value.ID)}},
		{Name: "a step of a relay and the delivery behind it", Config: Crashes, Self: 1,
			In: state(1, []multicast.Item[Msg]{SendTo(2, MsgOf(0, 1)), deliverOf(MsgOf(0, 1))}, ValueOf(0, 1)), Action: multicast.SendNext(2),
			Want: state(1, nil, ValueOf(0, 1)), Sent: checktest.SentTo(MsgOf(0, 1), 2), Observed: []model.Obs{Delivered(0, 1)}},
	})
}
