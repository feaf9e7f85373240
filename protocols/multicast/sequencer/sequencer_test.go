package sequencer

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func value(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

func dataOf(x multicast.Value) Msg { return Msg{Value: x} }

func orderOf(x multicast.Value, s int) Msg { return Msg{Order: true, Value: x, S: s} }

func delivered(p model.NodeID, k int) model.Obs {
	return model.Delivered(model.MsgID{Sender: p, Seq: k})
}

func toAll(m Msg) []model.Sent[Msg] {
	return []model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(x multicast.Value) multicast.Item[Msg] {
	return multicast.Item[Msg]{To: model.None, Value: x}
}

func held(vs ...multicast.Value) []multicast.Value { return vs }

func orders(os ...Order) []Order { return os }

// roomy gives s's slices spare capacity; whole copies s with it, so that a
// handler writing to its input's backing arrays shows.
func roomy(s State) State {
	if s.Work != nil {
		s.Work = append(make([]multicast.Item[Msg], 0, len(s.Work)+3), s.Work...)
	}
	if s.HoldBack != nil {
		s.HoldBack = append(make([]multicast.Value, 0, len(s.HoldBack)+3), s.HoldBack...)
	}
	if s.Orders != nil {
		s.Orders = append(make([]Order, 0, len(s.Orders)+3), s.Orders...)
	}
	return s
}

func whole(s State) State {
	if s.Work != nil {
		s.Work = slices.Clone(s.Work[:cap(s.Work)])
	}
	if s.HoldBack != nil {
		s.HoldBack = slices.Clone(s.HoldBack[:cap(s.HoldBack)])
	}
	if s.Orders != nil {
		s.Orders = slices.Clone(s.Orders[:cap(s.Orders)])
	}
	return s
}

// Vlassov and Montelius's member and sequencer, one B-deliver each; node 0
// is both.
func TestReceive(t *testing.T) {
	a, b, c0 := value(2, 1), value(1, 1), value(0, 1)
	rd := multicast.Value{ID: b.ID, Read: true} // an ordered read of node 1
	cases := []struct {
		name     string
		crashes  int
		reads    multicast.Reads
		self     model.NodeID
		in       State
		from     model.NodeID
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"member, <m, i>: held back", 0, 0, 1, State{}, 2, dataOf(a),
			State{HoldBack: held(a)}, nil, nil},
		{"member, <m, i>: the hold-back queue sorted", 0, 0, 1, State{HoldBack: held(c0, a)}, 1, dataOf(b),
			State{HoldBack: held(c0, b, a)}, nil, nil},
		{"sequencer, <m, i>: held back, and ordered to everyone with s_g", 0, 0, 0, State{Seq: 3, Next: 2}, 2, dataOf(a),
			State{HoldBack: held(a), Seq: 4, Next: 2}, toAll(orderOf(a, 3)), nil},
		{"sequencer, its own <m, i>: ordered too", 0, 0, 0, State{}, 0, dataOf(c0),
			State{HoldBack: held(c0), Seq: 1}, toAll(orderOf(c0, 0)), nil},
		{"sequencer, crashes: the order's sends queued", 1, 0, 0, State{Seq: 1, HoldBack: held(b)}, 2, dataOf(a),
			State{Process: multicast.Process[Msg]{Work: []multicast.Item[Msg]{sendTo(0, orderOf(a, 1)), sendTo(1, orderOf(a, 1)), sendTo(2, orderOf(a, 1))}},
				HoldBack: held(b, a), Seq: 2}, nil, nil},
		{"order before its message: kept", 0, 0, 1, State{}, 0, orderOf(a, 0),
			State{Orders: orders(Order{S: 0, Value: a})}, nil, nil},
		{"orders kept sorted by S", 0, 0, 1, State{Next: 1, Orders: orders(Order{S: 3, Value: b})}, 0, orderOf(a, 2),
			State{Next: 1, Orders: orders(Order{S: 2, Value: a}, Order{S: 3, Value: b})}, nil, nil},
		{"order in turn, its message here: TO-deliver, r_g + 1", 0, 0, 1, State{Next: 4, HoldBack: held(b, a)}, 0, orderOf(a, 4),
			State{Next: 5, HoldBack: held(b)}, nil, []model.Obs{delivered(2, 1)}},
		{"order out of turn, its message here: kept", 0, 0, 1, State{HoldBack: held(a)}, 0, orderOf(a, 1),
			State{HoldBack: held(a), Orders: orders(Order{S: 1, Value: a})}, nil, nil},
		{"the order in turn fills the gap: delivery in r_g order", 0, 0, 1,
			State{HoldBack: held(c0, a), Orders: orders(Order{S: 1, Value: c0})}, 0, orderOf(a, 0),
			State{Next: 2}, nil, []model.Obs{delivered(2, 1), delivered(0, 1)}},
		{"delivery in r_g order stops at a missing message", 0, 0, 1,
			State{HoldBack: held(a), Orders: orders(Order{S: 1, Value: c0}, Order{S: 2, Value: b})}, 0, orderOf(a, 0),
			State{Next: 1, Orders: orders(Order{S: 1, Value: c0}, Order{S: 2, Value: b})}, nil, []model.Obs{delivered(2, 1)}},
		{"the message arrives after its order: delivered", 0, 0, 2,
			State{Orders: orders(Order{S: 0, Value: a}, Order{S: 1, Value: b}), HoldBack: held(b)}, 2, dataOf(a),
			State{Next: 2}, nil, []model.Obs{delivered(2, 1), delivered(1, 1)}},
		{"the message arrives, its order out of turn: held", 0, 0, 2,
			State{Orders: orders(Order{S: 1, Value: a})}, 2, dataOf(a),
			State{Orders: orders(Order{S: 1, Value: a}), HoldBack: held(a)}, nil, nil},
		{"sequencer, the message after an order it sent: ordered and delivered", 0, 0, 0,
			State{Seq: 1, Orders: orders(Order{S: 0, Value: b}), HoldBack: held(a)}, 1, dataOf(b),
			State{Seq: 2, Next: 1, HoldBack: held(a)}, toAll(orderOf(b, 1)), []model.Obs{delivered(1, 1)}},
		{"crashes, a loop under way: the deliveries wait behind it", 1, 0, 1,
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{sendTo(2, dataOf(b))}}, HoldBack: held(b, a),
				Orders: orders(Order{S: 1, Value: b})}, 0, orderOf(a, 0),
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{sendTo(2, dataOf(b)), deliverOf(a), deliverOf(b)}}, Next: 2},
			nil, nil},
		{"register: a write, then the reader's ordered read returns it", 0, multicast.OrderedReads, 1,
			State{Process: multicast.Process[Msg]{Issued: 1, Waiting: true}, HoldBack: held(rd, a), Orders: orders(Order{S: 1, Value: rd})},
			0, orderOf(a, 0),
			State{Process: multicast.Process[Msg]{Issued: 1, Register: a.ID}, Next: 2}, nil,
			[]model.Obs{delivered(2, 1), model.ReadReturn(a.ID)}},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes, Params: map[string]int{"reads": int(c.reads)}}, c.self)
		got := Protocol{}.Receive(ctx, in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

// TO-multicast(g, m): B-multicast(g ∪ {sequencer(g)}, <m, i>), the
// sequencer and the sender included.
func TestDo(t *testing.T) {
	for _, c := range []struct {
		name    string
		crashes int
		want    State
		sent    []model.Sent[Msg]
	}{
		{"no crash", 0, State{Process: multicast.Process[Msg]{Issued: 1}}, toAll(dataOf(value(2, 1)))},
		{"crashes: queued", 1, State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{
			sendTo(0, dataOf(value(2, 1))), sendTo(1, dataOf(value(2, 1))), sendTo(2, dataOf(value(2, 1)))}}}, nil},
	} {
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, 2)
		got := Protocol{}.Do(ctx, State{}, multicast.MulticastOp)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, []model.Obs{model.Multicast(value(2, 1).ID)}, ctx.Observed(), c.name)
	}
}
