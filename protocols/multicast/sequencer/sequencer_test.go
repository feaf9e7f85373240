package sequencer_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast/sequencer"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	. "github.com/vigil-check/vigil/protocols/multicast/multicasttest"
)

type step = checktest.Step[State, Msg]

var handlers = Handlers(Protocol{})

func dataOf(x multicast.Value) Msg { return Msg{Value: x} }

func orderOf(x multicast.Value, s int) Msg { return Msg{Order: true, Value: x, S: s} }

func deliverOf(x multicast.Value) multicast.Item[Msg] { return DeliverOf[Msg](x) }

func held(vs ...multicast.Value) []multicast.Value { return vs }

func orders(os ...Order) []Order { return os }

// Vlassov and Montelius's member and sequencer, one B-deliver each; node 0
// is both.
func TestReceive(t *testing.T) {
	a, b, c0 := ValueOf(2, 1), ValueOf(1, 1), ValueOf(0, 1)
	rd := multicast.Value{ID: b.ID, Read: true} // an ordered read of node 1
	orderedReads := model.Config{N: 3, Params: map[string]int{"reads": int(multicast.OrderedReads)}}
	handlers.Receive(t, []step{
		{Name: "member, <m, i>: held back", Self: 1, In: State{}, From: 2, Msg: dataOf(a),
			Want: State{HoldBack: held(a)}},
		{Name: "member, <m, i>: the hold-back queue sorted", Self: 1, In: State{HoldBack: held(c0, a)}, From: 1, Msg: dataOf(b),
			Want: State{HoldBack: held(c0, b, a)}},
		{Name: "sequencer, <m, i>: held back, and ordered to everyone with s_g", Self: 0, In: State{Seq: 3, Next: 2}, From: 2, Msg: dataOf(a),
			Want: State{HoldBack: held(a), Seq: 4, Next: 2}, Sent: ToAll(orderOf(a, 3))},
		{Name: "sequencer, its own <m, i>: ordered too", Self: 0, In: State{}, From: 0, Msg: dataOf(c0),
			Want: State{HoldBack: held(c0), Seq: 1}, Sent: ToAll(orderOf(c0, 0))},
		{Name: "sequencer, crashes: the order's sends queued", Config: Crashes, Self: 0, In: State{Seq: 1, HoldBack: held(b)}, From: 2, Msg: dataOf(a),
			Want: State{Process: multicast.Process[Msg]{Work: QueuedToAll(orderOf(a, 1))}, HoldBack: held(b, a), Seq: 2}},
		{Name: "order before its message: kept", Self: 1, In: State{}, From: 0, Msg: orderOf(a, 0),
			Want: State{Orders: orders(Order{S: 0, Value: a})}},
		{Name: "orders kept sorted by S", Self: 1, In: State{Next: 1, Orders: orders(Order{S: 3, Value: b})}, From: 0, Msg: orderOf(a, 2),
			Want: State{Next: 1, Orders: orders(Order{S: 2, Value: a}, Order{S: 3, Value: b})}},
		{Name: "order in turn, its message here: TO-deliver, r_g + 1", Self: 1, In: State{Next: 4, HoldBack: held(b, a)}, From: 0, Msg: orderOf(a, 4),
			Want: State{Next: 5, HoldBack: held(b)}, Observed: []model.Obs{Delivered(2, 1)}},
		{Name: "order out of turn, its message here: kept", Self: 1, In: State{HoldBack: held(a)}, From: 0, Msg: orderOf(a, 1),
			Want: State{HoldBack: held(a), Orders: orders(Order{S: 1, Value: a})}},
		{Name: "the order in turn fills the gap: delivery in r_g order", Self: 1, In: State{HoldBack: held(c0, a), Orders: orders(Order{S: 1, Value: c0})},
			From: 0, Msg: orderOf(a, 0),
			Want: State{Next: 2}, Observed: []model.Obs{Delivered(2, 1), Delivered(0, 1)}},
		{Name: "delivery in r_g order stops at a missing message", Self: 1,
			In: State{HoldBack: held(a), Orders: orders(Order{S: 1, Value: c0}, Order{S: 2, Value: b})}, From: 0, Msg: orderOf(a, 0),
			Want: State{Next: 1, Orders: orders(Order{S: 1, Value: c0}, Order{S: 2, Value: b})}, Observed: []model.Obs{Delivered(2, 1)}},
		{Name: "the message arrives after its order: delivered", Self: 2,
			In: State{Orders: orders(Order{S: 0, Value: a}, Order{S: 1, Value: b}), HoldBack: held(b)}, From: 2, Msg: dataOf(a),
			Want: State{Next: 2}, Observed: []model.Obs{Delivered(2, 1), Delivered(1, 1)}},
		{Name: "the message arrives, its order out of turn: held", Self: 2, In: State{Orders: orders(Order{S: 1, Value: a})}, From: 2, Msg: dataOf(a),
			Want: State{Orders: orders(Order{S: 1, Value: a}), HoldBack: held(a)}},
		{Name: "sequencer, the message after an order it sent: ordered and delivered", Self: 0,
			In: State{Seq: 1, Orders: orders(Order{S: 0, Value: b}), HoldBack: held(a)}, From: 1, Msg: dataOf(b),
			Want: State{Seq: 2, Next: 1, HoldBack: held(a)}, Sent: ToAll(orderOf(b, 1)), Observed: []model.Obs{Delivered(1, 1)}},
		{Name: "crashes, a loop under way: the deliveries wait behind it", Config: Crashes, Self: 1,
			In: State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{SendTo(2, dataOf(b))}}, HoldBack: held(b, a),
				Orders: orders(Order{S: 1, Value: b})},
			From: 0, Msg: orderOf(a, 0),
			Want: State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{SendTo(2, dataOf(b)), deliverOf(a), deliverOf(b)}}, Next: 2}},
		{Name: "register: a write, then the reader's ordered read returns it", Config: orderedReads, Self: 1,
			In: State{Process: multicast.Process[Msg]{Issued: 1, Waiting: true}, HoldBack: held(rd, a), Orders: orders(Order{S: 1, Value: rd})}, From: 0,
			Msg:  orderOf(a, 0),
			Want: State{Process: multicast.Process[Msg]{Issued: 1, Register: a.ID}, Next: 2}, Observed: []model.Obs{Delivered(2, 1), model.ReadReturn(a.ID)}},
	})
}

// TO-multicast(g, m): B-multicast(g ∪ {sequencer(g)}, <m, i>), the
// sequencer and the sender included.
func TestDo(t *testing.T) {
	m := dataOf(ValueOf(2, 1))
	handlers.Do(t, []step{
		{Name: "no crash", Self: 2, In: State{}, Action: multicast.MulticastOp,
			Want: State{Process: multicast.Process[Msg]{Issued: 1}}, Sent: ToAll(m), Observed: []model.Obs{model.Multicast(ValueOf(2, 1).ID)}},
		{Name: "crashes: queued", Config: Crashes, Self: 2, In: State{}, Action: multicast.MulticastOp,
			Want:     State{Process: multicast.Process[Msg]{Issued: 1, Work: QueuedToAll(m)}},
			Observed: []model.Obs{model.Multicast(ValueOf(2, 1).ID)}},
	})
}
