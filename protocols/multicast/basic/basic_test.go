package basic

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func msgOf(p model.NodeID, k int) Msg {
	return Msg{Value: multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}}
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: model.None, Value: m.Value} }

func busy(issued int, w ...multicast.Item[Msg]) State {
	return State{multicast.Process[Msg]{Issued: issued, Work: w}}
}

// roomy gives s's Work spare capacity; whole copies s with it, so that a
// handler writing to its input's backing array shows.
func roomy(s State) State {
	if s.Work != nil {
		s.Work = append(make([]multicast.Item[Msg], 0, len(s.Work)+3), s.Work...)
	}
	return s
}

func whole(s State) State {
	if s.Work != nil {
		s.Work = slices.Clone(s.Work[:cap(s.Work)])
	}
	return s
}

// "A multicast is a for loop of send", to every node, the sender included.
func TestDo(t *testing.T) {
	m := msgOf(1, 1)
	cases := []struct {
		name     string
		crashes  int
		in       State
		a        model.Action
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"multicast, no crash: the loop at once", 0, State{}, multicast.MulticastOp, busy(1),
			[]model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}, []model.Obs{model.Multicast(m.Value.ID)}},
		{"the second multicast", 0, busy(1), multicast.MulticastOp, busy(2),
			[]model.Sent[Msg]{{To: 0, Msg: msgOf(1, 2)}, {To: 1, Msg: msgOf(1, 2)}, {To: 2, Msg: msgOf(1, 2)}},
			[]model.Obs{model.Multicast(msgOf(1, 2).Value.ID)}},
		{"multicast, crashes: the loop queued", 1, State{}, multicast.MulticastOp, busy(1, sendTo(0, m), sendTo(1, m), sendTo(2, m)),
			nil, []model.Obs{model.Multicast(m.Value.ID)}},
		{"a step of the loop", 1, busy(1, sendTo(1, m), sendTo(2, m)), multicast.SendNext(1), busy(1, sendTo(2, m)),
			[]model.Sent[Msg]{{To: 1, Msg: m}}, nil},
		{"the last step, and the delivery behind it", 1, busy(1, sendTo(2, m), deliverOf(msgOf(0, 1))), multicast.SendNext(2), busy(1),
			[]model.Sent[Msg]{{To: 2, Msg: m}}, []model.Obs{model.Delivered(msgOf(0, 1).Value.ID)}},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, 1)
		got := Protocol{}.Do(ctx, in, c.a)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

// "A received message is delivered."
func TestReceive(t *testing.T) {
	cases := []struct {
		name     string
		crashes  int
		self     model.NodeID
		in       State
		from     model.NodeID
		m        Msg
		want     State
		observed []model.Obs
	}{
		{"another's message: delivered", 0, 0, State{}, 2, msgOf(2, 1), State{}, []model.Obs{model.Delivered(msgOf(2, 1).Value.ID)}},
		{"its own message: delivered", 0, 2, busy(1), 2, msgOf(2, 1), busy(1), []model.Obs{model.Delivered(msgOf(2, 1).Value.ID)}},
		{"crashes, nothing queued: delivered", 1, 0, State{}, 1, msgOf(1, 1), State{}, []model.Obs{model.Delivered(msgOf(1, 1).Value.ID)}},
		{"crashes, its loop under way: after it", 1, 0, busy(1, sendTo(2, msgOf(0, 1))), 1, msgOf(1, 1),
			busy(1, sendTo(2, msgOf(0, 1)), deliverOf(msgOf(1, 1))), nil},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, c.self)
		got := Protocol{}.Receive(ctx, in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Nil(t, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

func TestActions(t *testing.T) {
	env := &model.NewCtx[Msg](model.Config{N: 3, Params: map[string]int{"msgs": 2}}, 1).Env
	require.Equal(t, []model.Action{multicast.MulticastOp}, Protocol{}.Actions(env, busy(1)))
	require.Nil(t, Protocol{}.Actions(env, busy(2)))
	require.Equal(t, []model.Action{multicast.SendNext(0)}, Protocol{}.Actions(env, busy(1, sendTo(0, msgOf(1, 1)))))
}
