package reliable

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

func deliverOf(m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: model.None, Value: m.Value} }

// toAll is B-multicast(g, m) in a run of 3 with no crash.
func toAll(m Msg) []model.Sent[Msg] {
	return []model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}
}

// queuedToAll is B-multicast(g, m) in a run with crashes.
func queuedToAll(m Msg) []multicast.Item[Msg] {
	return []multicast.Item[Msg]{sendTo(0, m), sendTo(1, m), sendTo(2, m)}
}

func state(issued int, work []multicast.Item[Msg], received ...multicast.Value) State {
	return State{Process: multicast.Process[Msg]{Issued: issued, Work: work}, Received: received}
}

// roomy gives s's slices spare capacity; whole copies s with it, so that a
// handler writing to its input's backing arrays shows.
func roomy(s State) State {
	if s.Work != nil {
		s.Work = append(make([]multicast.Item[Msg], 0, len(s.Work)+3), s.Work...)
	}
	if s.Received != nil {
		s.Received = append(make([]multicast.Value, 0, len(s.Received)+3), s.Received...)
	}
	return s
}

func whole(s State) State {
	if s.Work != nil {
		s.Work = slices.Clone(s.Work[:cap(s.Work)])
	}
	if s.Received != nil {
		s.Received = slices.Clone(s.Received[:cap(s.Received)])
	}
	return s
}

// Vlassov and Montelius's "On B-deliver(m) at process q", one call each.
func TestReceive(t *testing.T) {
	m := msgOf(0, 1)
	cases := []struct {
		name     string
		crashes  int
		self     model.NodeID
		in       State
		from     model.NodeID
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"first receipt: relay to the group, then deliver", 0, 1, State{}, 0, m,
			state(0, nil, value(0, 1)), toAll(m), []model.Obs{delivered(0, 1)}},
		{"first receipt of a relayed copy: relay too", 0, 2, State{}, 1, m,
			state(0, nil, value(0, 1)), toAll(m), []model.Obs{delivered(0, 1)}},
		{"first receipt at the original sender: deliver, no relay", 0, 0, state(1, nil), 0, m,
			state(1, nil, value(0, 1)), nil, []model.Obs{delivered(0, 1)}},
		{"the sender's own copy back from a relay: deliver, no relay", 0, 0, state(1, nil), 2, m,
			state(1, nil, value(0, 1)), nil, []model.Obs{delivered(0, 1)}},
		{"a duplicate: nothing", 0, 1, state(0, nil, value(0, 1)), 2, m,
			state(0, nil, value(0, 1)), nil, nil},
		{"a duplicate at the sender: nothing", 0, 0, state(1, nil, value(0, 1)), 1, m,
			state(1, nil, value(0, 1)), nil, nil},
		{"Received stays sorted", 0, 0, state(0, nil, value(0, 2), value(2, 1)), 1, msgOf(1, 1),
			state(0, nil, value(0, 2), value(1, 1), value(2, 1)), toAll(msgOf(1, 1)), []model.Obs{delivered(1, 1)}},
		{"another message of a seen sender is not a duplicate", 0, 2, state(0, nil, value(0, 1)), 0, msgOf(0, 2),
			state(0, nil, value(0, 1), value(0, 2)), toAll(msgOf(0, 2)), []model.Obs{delivered(0, 2)}},
		{"crashes: the relay is queued, the delivery waits behind it", 1, 1, State{}, 0, m,
			state(0, append(queuedToAll(m), deliverOf(m)), value(0, 1)), nil, nil},
		{"crashes, at the sender, nothing queued: delivered at once", 1, 0, state(1, nil), 0, m,
			state(1, nil, value(0, 1)), nil, []model.Obs{delivered(0, 1)}},
		{"crashes, at the sender, its loop under way: behind it", 1, 0, state(1, []multicast.Item[Msg]{sendTo(2, m)}), 0, m,
			state(1, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1)), nil, nil},
		{"crashes, a relay under way: the next relay behind it", 2, 1,
			state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1)), 2, msgOf(2, 1),
			state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m), sendTo(0, msgOf(2, 1)), sendTo(1, msgOf(2, 1)), sendTo(2, msgOf(2, 1)), deliverOf(msgOf(2, 1))},
				value(0, 1), value(2, 1)), nil, nil},
		{"crashes, a duplicate: nothing", 1, 1, state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1)), 2, m,
			state(0, []multicast.Item[Msg]{sendTo(2, m), deliverOf(m)}, value(0, 1)), nil, nil},
	}
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, c.self)
		got := Protocol{}.Receive(ctx, in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

// R-multicast(g, m) is B-multicast(g, m), the sender included; the sender
// receives (and delivers) its message when it arrives back.
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
		{"multicast, no crash", 0, State{}, multicast.MulticastOp, state(1, nil), toAll(m), []model.Obs{model.Multicast(m.Value.ID)}},
		{"multicast, crashes: queued", 1, State{}, multicast.MulticastOp, state(1, queuedToAll(m)), nil, []model.Obs{model.Multicast(m.Value.ID)}},
		{"a step of a relay and the delivery behind it", 1,
			state(1, []multicast.Item[Msg]{sendTo(2, msgOf(0, 1)), deliverOf(msgOf(0, 1))}, value(0, 1)), multicast.SendNext(2),
			state(1, nil, value(0, 1)), []model.Sent[Msg]{{To: 2, Msg: msgOf(0, 1)}}, []model.Obs{delivered(0, 1)}},
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
