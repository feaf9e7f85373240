package causal

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

// msgOf is <V, m> for message k of p.
func msgOf(p model.NodeID, k int, v ...int32) Msg { return Msg{Value: value(p, k), V: v} }

func delivered(p model.NodeID, k int) model.Obs {
	return model.Delivered(model.MsgID{Sender: p, Seq: k})
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(p model.NodeID, k int) multicast.Item[Msg] {
	return multicast.Item[Msg]{To: model.None, Value: value(p, k)}
}

func held(ms ...Msg) []Msg { return ms }

func work(issued int, items ...multicast.Item[Msg]) multicast.Process[Msg] {
	return multicast.Process[Msg]{Issued: issued, Work: items}
}

func cloneMsg(m Msg) Msg {
	m.V = slices.Clone(m.V)
	return m
}

// roomy gives s's slices spare capacity; whole is a deep copy of s with
// it, so that a handler writing to its input's backing arrays shows.
func roomy(s State) State {
	if s.Work != nil {
		s.Work = append(make([]multicast.Item[Msg], 0, len(s.Work)+3), s.Work...)
	}
	if s.V != nil {
		s.V = append(make([]int32, 0, len(s.V)+3), s.V...)
	}
	if s.HoldBack != nil {
		s.HoldBack = append(make([]Msg, 0, len(s.HoldBack)+3), s.HoldBack...)
	}
	return s
}

func whole(s State) State {
	if s.Work != nil {
		s.Work = slices.Clone(s.Work[:cap(s.Work)])
		for i := range s.Work {
			s.Work[i].Msg = cloneMsg(s.Work[i].Msg)
		}
	}
	if s.V != nil {
		s.V = slices.Clone(s.V[:cap(s.V)])
	}
	if s.HoldBack != nil {
		s.HoldBack = slices.Clone(s.HoldBack[:cap(s.HoldBack)])
		for i := range s.HoldBack {
			s.HoldBack[i] = cloneMsg(s.HoldBack[i])
		}
	}
	return s
}

// CO-multicast(g, m) at p_i: V_i[i] := V_i[i] + 1; p_i delivers m at once
// and sends <V_i, m> to the others only.
func TestDo(t *testing.T) {
	cases := []struct {
		name     string
		crashes  int
		in       State
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"the first: V_i[i] + 1, delivered, sent to the others", 0, State{V: []int32{2, 0, 0}},
			State{Process: work(1), V: []int32{2, 1, 0}},
			[]model.Sent[Msg]{{To: 0, Msg: msgOf(1, 1, 2, 1, 0)}, {To: 2, Msg: msgOf(1, 1, 2, 1, 0)}},
			[]model.Obs{model.Multicast(value(1, 1).ID), delivered(1, 1)}},
		{"the second", 0, State{Process: work(1), V: []int32{0, 1, 3}},
			State{Process: work(2), V: []int32{0, 2, 3}},
			[]model.Sent[Msg]{{To: 0, Msg: msgOf(1, 2, 0, 2, 3)}, {To: 2, Msg: msgOf(1, 2, 0, 2, 3)}},
			[]model.Obs{model.Multicast(value(1, 2).ID), delivered(1, 2)}},
		{"crashes: delivered at once, the sends queued", 1, State{V: []int32{0, 0, 1}},
			State{Process: work(1, sendTo(0, msgOf(1, 1, 0, 1, 1)), sendTo(2, msgOf(1, 1, 0, 1, 1))), V: []int32{0, 1, 1}},
			nil, []model.Obs{model.Multicast(value(1, 1).ID), delivered(1, 1)}},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes, Params: map[string]int{"msgs": 2}}, 1)
		got := Protocol{}.Do(ctx, in, multicast.MulticastOp)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
		// the timestamp sent is a copy: the state's V may change later
		got.V[0] = 99
		for _, s := range ctx.Sent() {
			require.NotEqual(t, 99, s.Msg.V[0], "%s: the message shares V with the state", c.name)
		}
		for _, it := range got.Work {
			require.NotEqual(t, 99, it.Msg.V[0], "%s: the queued message shares V with the state", c.name)
		}
	}
}

// On B-deliver(<V_j, m>) from p_j at p_i (here p_2): hold back, wait until
// V_j[j] = V_i[j] + 1 and V_j[k] ≤ V_i[k] (k ≠ j), CO-deliver m,
// V_i[j] := V_i[j] + 1.
func TestReceive(t *testing.T) {
	cases := []struct {
		name     string
		crashes  int
		in       State
		m        Msg
		want     State
		observed []model.Obs
	}{
		{"nothing to wait for: delivered", 0, State{V: []int32{0, 0, 0}}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{1, 0, 0}}, []model.Obs{delivered(0, 1)}},
		{"its sender's next, after what was delivered here", 0, State{V: []int32{1, 2, 1}}, msgOf(1, 3, 1, 3, 1),
			State{V: []int32{1, 3, 1}}, []model.Obs{delivered(1, 3)}},
		{"after the receiver's own message, which it delivered at once", 0, State{V: []int32{0, 0, 1}}, msgOf(0, 1, 1, 0, 1),
			State{V: []int32{1, 0, 1}}, []model.Obs{delivered(0, 1)}},
		{"a causal predecessor missing: held back", 0, State{V: []int32{0, 0, 0}}, msgOf(1, 1, 1, 1, 0),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0))}, nil},
		{"the receiver's own message not counted yet: held back", 0, State{V: []int32{0, 0, 0}}, msgOf(0, 1, 1, 0, 1),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(0, 1, 1, 0, 1))}, nil},
		{"its sender's previous missing: held back", 0, State{V: []int32{0, 0, 0}}, msgOf(0, 2, 2, 0, 0),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(0, 2, 2, 0, 0))}, nil},
		{"held back behind others, in arrival order", 0, State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0))}, msgOf(0, 2, 2, 0, 0),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0), msgOf(0, 2, 2, 0, 0))}, nil},
		{"the predecessor arrives: it, then the message that waited for it", 0,
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0))}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{1, 1, 0}}, []model.Obs{delivered(0, 1), delivered(1, 1)}},
		{"a chain released in causal order, not arrival order", 0,
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(0, 2, 2, 1, 0), msgOf(1, 1, 1, 1, 0))}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{2, 1, 0}}, []model.Obs{delivered(0, 1), delivered(1, 1), delivered(0, 2)}},
		{"what still waits stays held", 0,
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0), msgOf(0, 3, 3, 0, 0))}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{1, 1, 0}, HoldBack: held(msgOf(0, 3, 3, 0, 0))}, []model.Obs{delivered(0, 1), delivered(1, 1)}},
		{"crashes, its loop under way: V counts, the deliveries wait", 1,
			State{Process: work(1, sendTo(1, msgOf(2, 1, 0, 0, 1))), V: []int32{0, 0, 1}, HoldBack: held(msgOf(1, 1, 1, 1, 1))},
			msgOf(0, 1, 1, 0, 0),
			State{Process: work(1, sendTo(1, msgOf(2, 1, 0, 0, 1)), deliverOf(0, 1), deliverOf(1, 1)), V: []int32{1, 1, 1}}, nil},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before, m := whole(in), cloneMsg(c.m)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, 2)
		got := Protocol{}.Receive(ctx, in, c.m.Value.ID.Sender, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Nil(t, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
		require.Equal(t, m, c.m, "%s: the message changed", c.name)
	}
}

// Vlassov and Montelius's wait condition on its own.
func TestDeliverable(t *testing.T) {
	cases := []struct {
		name string
		v    []int32
		m    Msg
		want bool
	}{
		{"next of its sender, nothing else", []int32{0, 0, 0}, msgOf(0, 1, 1, 0, 0), true},
		{"next of its sender, its past delivered", []int32{2, 1, 0}, msgOf(1, 2, 1, 2, 0), true},
		{"next of its sender, less past than here", []int32{3, 1, 2}, msgOf(1, 2, 1, 2, 0), true},
		{"delivered already", []int32{1, 0, 0}, msgOf(0, 1, 1, 0, 0), false},
		{"a gap in its sender's", []int32{0, 0, 0}, msgOf(0, 2, 2, 0, 0), false},
		{"V_j[k] > V_i[k]", []int32{0, 0, 0}, msgOf(1, 1, 0, 1, 1), false},
		{"V_j[k] = V_i[k] + 1 is not enough for k ≠ j", []int32{1, 0, 0}, msgOf(1, 1, 2, 1, 0), false},
	}
	for _, c := range cases {
		require.Equal(t, c.want, deliverable(c.v, c.m), c.name)
	}
}

// V starts at 0.
func TestInit(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: 1}, 1)
	require.Equal(t, State{V: []int32{0, 0, 0}}, Protocol{}.Init(ctx))
}
