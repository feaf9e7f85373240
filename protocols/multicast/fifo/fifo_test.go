package fifo

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

func msgOf(p model.NodeID, k int) Msg { return Msg{Value: value(p, k)} }

func delivered(p model.NodeID, k int) model.Obs {
	return model.Delivered(model.MsgID{Sender: p, Seq: k})
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(p model.NodeID, k int) multicast.Item[Msg] {
	return multicast.Item[Msg]{To: model.None, Value: value(p, k)}
}

func held(vs ...multicast.Value) []multicast.Value { return vs }

// roomy gives s's slices spare capacity; whole copies s with it, so that a
// handler writing to its input's backing arrays shows.
func roomy(s State) State {
	if s.Work != nil {
		s.Work = append(make([]multicast.Item[Msg], 0, len(s.Work)+3), s.Work...)
	}
	if s.R != nil {
		s.R = append(make([]int, 0, len(s.R)+3), s.R...)
	}
	if s.HoldBack != nil {
		s.HoldBack = append(make([]multicast.Value, 0, len(s.HoldBack)+3), s.HoldBack...)
	}
	return s
}

func whole(s State) State {
	if s.Work != nil {
		s.Work = slices.Clone(s.Work[:cap(s.Work)])
	}
	if s.R != nil {
		s.R = slices.Clone(s.R[:cap(s.R)])
	}
	if s.HoldBack != nil {
		s.HoldBack = slices.Clone(s.HoldBack[:cap(s.HoldBack)])
	}
	return s
}

// Vlassov and Montelius's FIFO rule, one B-deliver(<m, S>) each: S = R_q + 1 is
// delivered, with the held-back messages of q next in turn; S > R_q + 1 is
// held back; S ≤ R_q was delivered already.
func TestReceive(t *testing.T) {
	cases := []struct {
		name     string
		crashes  int
		in       State
		m        Msg
		want     State
		observed []model.Obs
	}{
		{"in turn: delivered", 0, State{R: []int{0, 0, 0}}, msgOf(1, 1),
			State{R: []int{0, 1, 0}}, []model.Obs{delivered(1, 1)}},
		{"in turn, the next one", 0, State{R: []int{2, 1, 0}}, msgOf(1, 2),
			State{R: []int{2, 2, 0}}, []model.Obs{delivered(1, 2)}},
		{"its own message, in turn", 0, State{R: []int{0, 0, 0}}, msgOf(0, 1),
			State{R: []int{1, 0, 0}}, []model.Obs{delivered(0, 1)}},
		{"early: held back", 0, State{R: []int{0, 0, 0}}, msgOf(1, 2),
			State{R: []int{0, 0, 0}, HoldBack: held(value(1, 2))}, nil},
		{"early: held back, the queue sorted", 0, State{R: []int{0, 0, 0}, HoldBack: held(value(0, 3), value(1, 4), value(2, 2))}, msgOf(1, 3),
			State{R: []int{0, 0, 0}, HoldBack: held(value(0, 3), value(1, 3), value(1, 4), value(2, 2))}, nil},
		{"in turn, nothing of its sender held: the others stay", 0, State{R: []int{0, 0, 0}, HoldBack: held(value(2, 2))}, msgOf(1, 1),
			State{R: []int{0, 1, 0}, HoldBack: held(value(2, 2))}, []model.Obs{delivered(1, 1)}},
		{"the gap fills: the held-back messages next in turn, in order", 0,
			State{R: []int{1, 0, 0}, HoldBack: held(value(0, 3), value(1, 2), value(1, 3), value(2, 2))}, msgOf(1, 1),
			State{R: []int{1, 3, 0}, HoldBack: held(value(0, 3), value(2, 2))},
			[]model.Obs{delivered(1, 1), delivered(1, 2), delivered(1, 3)}},
		{"the gap fills: release stops at the next gap", 0,
			State{R: []int{0, 1, 0}, HoldBack: held(value(1, 3), value(1, 5), value(1, 6))}, msgOf(1, 2),
			State{R: []int{0, 3, 0}, HoldBack: held(value(1, 5), value(1, 6))},
			[]model.Obs{delivered(1, 2), delivered(1, 3)}},
		{"delivered already (S = R_q): dropped", 0, State{R: []int{0, 2, 0}, HoldBack: held(value(1, 4))}, msgOf(1, 2),
			State{R: []int{0, 2, 0}, HoldBack: held(value(1, 4))}, nil},
		{"delivered already (S < R_q): dropped", 0, State{R: []int{0, 2, 0}}, msgOf(1, 1),
			State{R: []int{0, 2, 0}}, nil},
		{"crashes, its loop under way: the deliveries wait behind it", 1,
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{sendTo(2, msgOf(0, 1))}},
				R: []int{0, 0, 0}, HoldBack: held(value(1, 2))}, msgOf(1, 1),
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{sendTo(2, msgOf(0, 1)), deliverOf(1, 1), deliverOf(1, 2)}},
				R: []int{0, 2, 0}}, nil},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, 0)
		got := Protocol{}.Receive(ctx, in, c.m.Value.ID.Sender, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Nil(t, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

// FO-multicast(g, m): S_p := S_p + 1; B-multicast(g, <m, S_p>), the sender
// included; it delivers its own message when it arrives.
func TestDo(t *testing.T) {
	all := func(m Msg) []model.Sent[Msg] {
		return []model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}
	}
	cases := []struct {
		name     string
		crashes  int
		in       State
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"the first", 0, State{R: []int{0, 0, 0}},
			State{Process: multicast.Process[Msg]{Issued: 1}, R: []int{0, 0, 0}}, all(msgOf(2, 1)), []model.Obs{model.Multicast(value(2, 1).ID)}},
		{"the third: S = 3", 0, State{Process: multicast.Process[Msg]{Issued: 2}, R: []int{0, 0, 1}},
			State{Process: multicast.Process[Msg]{Issued: 3}, R: []int{0, 0, 1}}, all(msgOf(2, 3)), []model.Obs{model.Multicast(value(2, 3).ID)}},
		{"crashes: queued", 1, State{R: []int{0, 0, 0}},
			State{Process: multicast.Process[Msg]{Issued: 1, Work: []multicast.Item[Msg]{sendTo(0, msgOf(2, 1)), sendTo(1, msgOf(2, 1)), sendTo(2, msgOf(2, 1))}},
				R: []int{0, 0, 0}}, nil, []model.Obs{model.Multicast(value(2, 1).ID)}},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes, Params: map[string]int{"msgs": 3}}, 2)
		got := Protocol{}.Do(ctx, in, multicast.MulticastOp)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

// R starts at 0 for every sender.
func TestInit(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: 1}, 1)
	require.Equal(t, State{R: []int{0, 0, 0}}, Protocol{}.Init(ctx))
}
