package sequencer

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func v(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

func d(p model.NodeID, k int) model.Obs { return model.Delivered(model.MsgID{Sender: p, Seq: k}) }

// A member holds messages back and delivers them by the sequencer's
// numbers; the sequencer numbers each message it receives.
func TestHandlersReceive(t *testing.T) {
	data := func(x multicast.Value) Msg { return Msg{Value: x} }
	order := func(x multicast.Value, s int) Msg { return Msg{Order: true, Value: x, S: s} }
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"member: hold back", 1, State{}, data(v(2, 1)), State{HoldBack: []multicast.Value{v(2, 1)}}, nil, nil},
		{"sequencer: hold back and number it", 0, State{Seq: 3}, data(v(2, 1)), State{HoldBack: []multicast.Value{v(2, 1)}, Seq: 4},
			[]model.Sent[Msg]{{To: 0, Msg: order(v(2, 1), 3)}, {To: 1, Msg: order(v(2, 1), 3)}}, nil},
		{"order before its message: kept", 1, State{}, order(v(2, 1), 0), State{Orders: []Order{{S: 0, Value: v(2, 1)}}}, nil, nil},
		{"order out of turn: kept", 1, State{HoldBack: []multicast.Value{v(2, 1)}}, order(v(2, 1), 1),
			State{HoldBack: []multicast.Value{v(2, 1)}, Orders: []Order{{S: 1, Value: v(2, 1)}}}, nil, nil},
		{"order in turn: deliver, and the next in turn", 1,
			State{HoldBack: []multicast.Value{v(0, 1), v(2, 1)}, Orders: []Order{{S: 1, Value: v(0, 1)}}}, order(v(2, 1), 0),
			State{Next: 2}, nil, []model.Obs{d(2, 1), d(0, 1)}},
		{"the message arrives after its order", 1, State{Orders: []Order{{S: 0, Value: v(2, 1)}}}, data(v(2, 1)),
			State{Next: 1}, nil, []model.Obs{d(2, 1)}},
	}
	for _, c := range cases {
		held, orders := append([]multicast.Value(nil), c.in.HoldBack...), append([]Order(nil), c.in.Orders...)
		ctx := model.NewCtx[Msg](model.Config{N: 2}, c.self)
		got := Protocol{}.Receive(ctx, c.in, 2, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, held, c.in.HoldBack, "%s: the input changed", c.name)
		require.Equal(t, orders, c.in.Orders, "%s: the input changed", c.name)
	}
}
