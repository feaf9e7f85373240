package reliable

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func v(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

// The seed's "On B-deliver(m)", one call each: relay to the group unless
// the receiver sent m, then deliver; a message seen before is dropped.
func TestHandlersReceive(t *testing.T) {
	m := Msg{Value: v(0, 1)}
	all := func(m Msg) []model.Sent[Msg] {
		return []model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}
	}
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"first receipt: relay, then deliver", 1, State{}, State{Received: []multicast.Value{v(0, 1)}},
			all(m), []model.Obs{model.Delivered(v(0, 1).ID)}},
		{"the sender's own message: deliver, no relay", 0, State{}, State{Received: []multicast.Value{v(0, 1)}},
			nil, []model.Obs{model.Delivered(v(0, 1).ID)}},
		{"a duplicate: nothing", 2, State{Received: []multicast.Value{v(0, 1)}}, State{Received: []multicast.Value{v(0, 1)}}, nil, nil},
		{"received kept sorted", 1, State{Received: []multicast.Value{v(2, 1)}}, State{Received: []multicast.Value{v(0, 1), v(2, 1)}},
			all(m), []model.Obs{model.Delivered(v(0, 1).ID)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](model.Config{N: 3}, c.self)
		before := append([]multicast.Value(nil), c.in.Received...)
		got := Protocol{}.Receive(ctx, c.in, 0, m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, c.in.Received, "%s: the input changed", c.name)
	}

	// with crashes the relay is a loop of steps, and the delivery waits
	// behind it
	ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: 1}, 1)
	got := Protocol{}.Receive(ctx, State{}, 0, m)
	require.Nil(t, ctx.Sent())
	require.Nil(t, ctx.Observed())
	require.Len(t, got.Work, 4)
	require.Equal(t, model.None, got.Work[3].To, "the delivery comes last")
}
