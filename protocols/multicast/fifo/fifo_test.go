package fifo_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast/fifo"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	. "github.com/vigil-check/vigil/protocols/multicast/multicasttest"
)

type step = checktest.Step[State, Msg]

var handlers = Handlers(Protocol{})

func deliverOf(p model.NodeID, k int) multicast.Item[Msg] { return DeliverOf[Msg](ValueOf(p, k)) }

func held(vs ...multicast.Value) []multicast.Value { return vs }

// receive is the receipt of m at p_0, from its sender.
func receive(name string, crashes int, in State, m Msg, want State, observed ...model.Obs) step {
	return step{Name: name, Config: model.Config{N: 3, Crashes: crashes}, Self: 0, In: in, From: m.Value.ID.Sender, Msg: m,
		Want: want, Observed: observed}
}

// Vlassov and Montelius's FIFO rule, one B-deliver(<m, S>) each: S = R_q + 1 is
// delivered, with the held-back messages of q next in turn; S > R_q + 1 is
// held back; S ≤ R_q was delivered already.
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		receive("in turn: delivered", 0, State{R: []int{0, 0, 0}}, MsgOf(1, 1),
			State{R: []int{0, 1, 0}}, Delivered(1, 1)),
		receive("in turn, the next one", 0, State{R: []int{2, 1, 0}}, MsgOf(1, 2),
			State{R: []int{2, 2, 0}}, Delivered(1, 2)),
		receive("its own message, in turn", 0, State{R: []int{0, 0, 0}}, MsgOf(0, 1),
			State{R: []int{1, 0, 0}}, Delivered(0, 1)),
		receive("early: held back", 0, State{R: []int{0, 0, 0}}, MsgOf(1, 2),
			State{R: []int{0, 0, 0}, HoldBack: held(ValueOf(1, 2))}),
		receive("early: held back, the queue sorted", 0, State{R: []int{0, 0, 0}, HoldBack: held(ValueOf(0, 3), ValueOf(1, 4), ValueOf(2, 2))}, MsgOf(1, 3),
			State{R: []int{0, 0, 0}, HoldBack: held(ValueOf(0, 3), ValueOf(1, 3), ValueOf(1, 4), ValueOf(2, 2))}),
		receive("in turn, nothing of its sender held: the others stay", 0, State{R: []int{0, 0, 0}, HoldBack: held(ValueOf(2, 2))}, MsgOf(1, 1),
			State{R: []int{0, 1, 0}, HoldBack: held(ValueOf(2, 2))}, Delivered(1, 1)),
		receive("the gap fills: the held-back messages next in turn, in order", 0,
			State{R: []int{1, 0, 0}, HoldBack: held(ValueOf(0, 3), ValueOf(1, 2), ValueOf(1, 3), ValueOf(2, 2))}, MsgOf(1, 1),
			State{R: []int{1, 3, 0}, HoldBack: held(ValueOf(0, 3), ValueOf(2, 2))},
			Delivered(1, 1), Delivered(1, 2), Delivered(1, 3)),
		receive("the gap fills: release stops at the next gap", 0,
			State{R: []int{0, 1, 0}, HoldBack: held(ValueOf(1, 3), ValueOf(1, 5), ValueOf(1, 6))}, MsgOf(1, 2),
			State{R: []int{0, 3, 0}, HoldBack: held(ValueOf(1, 5), ValueOf(1, 6))},
			Delivered(1, 2), Delivered(1, 3)),
		receive("delivered already (S = R_q): dropped", 0, State{R: []int{0, 2, 0}, HoldBack: held(ValueOf(1, 4))}, MsgOf(1, 2),
			State{R: []int{0, 2, 0}, HoldBack: held(ValueOf(1, 4))}),
		receive("delivered already (S < R_q): dropped", 0, State{R: []int{0, 2, 0}}, MsgOf(1, 1),
			State{R: []int{0, 2, 0}}),
		receive("crashes, its loop under way: the deliveries wait behind it", 1,
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{SendTo(2, MsgOf(0, 1))}},
				R: []int{0, 0, 0}, HoldBack: held(ValueOf(1, 2))}, MsgOf(1, 1),
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{SendTo(2, MsgOf(0, 1)), deliverOf(1, 1), deliverOf(1, 2)}},
				R: []int{0, 2, 0}}),
	})
}

// FO-multicast(g, m): S_p := S_p + 1; B-multicast(g, <m, S_p>), the sender
// included; it delivers its own message when it arrives.
func TestDo(t *testing.T) {
	three := model.Config{N: 3, Params: map[string]int{"msgs": 3}}
	crashes := model.Config{N: 3, Crashes: 1, Params: map[string]int{"msgs": 3}}
	handlers.Do(t, []step{
		{Name: "the first", Config: three, Self: 2, In: State{R: []int{0, 0, 0}}, Action: multicast.MulticastOp,
			Want: State{Process: multicast.Process[Msg]{Issued: 1}, R: []int{0, 0, 0}},
			Sent: ToAll(MsgOf(2, 1)), Observed: []model.Obs{model.Multicast(ValueOf(2, 1).ID)}},
		{Name: "the third: S = 3", Config: three, Self: 2, In: State{Process: multicast.Process[Msg]{Issued: 2}, R: []int{0, 0, 1}},
			Action: multicast.MulticastOp, Want: State{Process: multicast.Process[Msg]{Issued: 3}, R: []int{0, 0, 1}},
			Sent: ToAll(MsgOf(2, 3)), Observed: []model.Obs{model.Multicast(ValueOf(2, 3).ID)}},
		{Name: "crashes: queued", Config: crashes, Self: 2, In: State{R: []int{0, 0, 0}}, Action: multicast.MulticastOp,
			Want: State{Process: multicast.Process[Msg]{Issued: 1, Work: QueuedToAll(MsgOf(2, 1))},
				R: []int{0, 0, 0}},
			Observed: []model.Obs{model.Multicast(ValueOf(2, 1).ID)}},
	})
}

// R starts at 0 for every sender.
func TestInit(t *testing.T) {
	handlers.Init(t, []step{{Name: "R = 0", Config: model.Config{N: 3, Crashes: 1}, Self: 1, Want: State{R: []int{0, 0, 0}}}})
}
