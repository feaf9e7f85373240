package causal

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func v(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

// CO-multicast: V_i[i] + 1, delivered here at once, sent to the others.
func TestHandlersMulticast(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3}, 1)
	in := State{V: []int{2, 0, 0}}
	got := Protocol{}.Do(ctx, in, "multicast")
	require.Equal(t, []int{2, 1, 0}, got.V)
	require.Equal(t, []int{2, 0, 0}, in.V, "the input changed")
	m := Msg{Value: v(1, 1), V: []int{2, 1, 0}}
	require.Equal(t, []model.Sent[Msg]{{To: 0, Msg: m}, {To: 2, Msg: m}}, ctx.Sent())
	require.Equal(t, []model.Obs{model.Multicast(v(1, 1).ID), model.Delivered(v(1, 1).ID)}, ctx.Observed())
}

// The seed's wait: V_j[j] = V_i[j] + 1 and V_j[k] ≤ V_i[k] for k ≠ j.
func TestHandlersReceive(t *testing.T) {
	fromN1 := Msg{Value: v(1, 1), V: []int{1, 1, 0}} // n1 had delivered n0#1
	fromN0 := Msg{Value: v(0, 1), V: []int{1, 0, 0}}
	ctx := model.NewCtx[Msg](model.Config{N: 3}, 2)
	s := Protocol{}.Receive(ctx, State{V: []int{0, 0, 0}}, 1, fromN1)
	require.Nil(t, ctx.Observed(), "n1#1 waits for n0#1")
	require.Equal(t, []Msg{fromN1}, s.HoldBack)

	ctx = model.NewCtx[Msg](model.Config{N: 3}, 2)
	s = Protocol{}.Receive(ctx, s, 0, fromN0)
	require.Equal(t, []model.Obs{model.Delivered(v(0, 1).ID), model.Delivered(v(1, 1).ID)}, ctx.Observed())
	require.Equal(t, []int{1, 1, 0}, s.V)
	require.Nil(t, s.HoldBack)

	require.True(t, deliverable([]int{0, 0, 0}, fromN0))
	require.False(t, deliverable([]int{1, 0, 0}, fromN0), "delivered already")
	require.False(t, deliverable([]int{0, 0, 0}, Msg{Value: v(0, 2), V: []int{2, 0, 0}}), "its predecessor first")
}
