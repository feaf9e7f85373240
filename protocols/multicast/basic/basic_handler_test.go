package basic

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// B-multicast is a loop of sends to every node, the sender included; a
// received message is delivered.
func TestHandlers(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3}, 2)
	s := Protocol{}.Do(ctx, State{}, "multicast")
	m := Msg{Value: multicast.Value{ID: model.MsgID{Sender: 2, Seq: 1}}}
	require.Equal(t, []model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}, ctx.Sent())
	require.Equal(t, 1, s.Issued)

	ctx = model.NewCtx[Msg](model.Config{N: 3}, 0)
	Protocol{}.Receive(ctx, State{}, 2, m)
	require.Equal(t, []model.Obs{model.Delivered(m.Value.ID)}, ctx.Observed())
	require.Nil(t, ctx.Sent())
}
