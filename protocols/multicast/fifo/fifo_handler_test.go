package fifo

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

// The FIFO rule, one receipt each: deliver in turn, hold back what is
// early, release it when the gap fills, drop what was delivered.
func TestHandlersReceive(t *testing.T) {
	cases := []struct {
		name     string
		in       State
		m        multicast.Value
		want     State
		observed []model.Obs
	}{
		{"in turn", State{R: []int{0, 0}}, v(1, 1), State{R: []int{0, 1}}, []model.Obs{d(1, 1)}},
		{"early: held back", State{R: []int{0, 0}}, v(1, 2), State{R: []int{0, 0}, HoldBack: []multicast.Value{v(1, 2)}}, nil},
		{"the gap fills: both, in order", State{R: []int{0, 0}, HoldBack: []multicast.Value{v(0, 2), v(1, 2), v(1, 3)}}, v(1, 1),
			State{R: []int{0, 3}, HoldBack: []multicast.Value{v(0, 2)}}, []model.Obs{d(1, 1), d(1, 2), d(1, 3)}},
		{"delivered already: dropped", State{R: []int{0, 2}}, v(1, 1), State{R: []int{0, 2}}, nil},
	}
	for _, c := range cases {
		r, held := append([]int(nil), c.in.R...), append([]multicast.Value(nil), c.in.HoldBack...)
		ctx := model.NewCtx[Msg](model.Config{N: 2}, 0)
		got := Protocol{}.Receive(ctx, c.in, c.m.ID.Sender, Msg{Value: c.m})
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, r, c.in.R, "%s: the input changed", c.name)
		require.Equal(t, held, c.in.HoldBack, "%s: the input changed", c.name)
	}
}
