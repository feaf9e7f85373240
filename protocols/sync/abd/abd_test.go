package abd_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/abd"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// The ABD synchronizer's steps, as the notes give them: start the clock
// for 2d ticks after pulse 0, keep what arrives, and when the clock fires
// simulate the next pulse on the last pulse's messages, send, and start the
// clock again until the last pulse.
func TestABD(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line", Timing: model.Bounded, Delay: 1, Params: map[string]int{abd.DelayParam: 2}}
	require.NoError(t, cfg.Validate())
	p := abd.Over(bfs.Round{})

	ctx := model.NewCtx[abd.Msg[bfs.Msg]](cfg, 0)
	p.Init(ctx)
	require.Equal(t, []model.Sent[abd.Msg[bfs.Msg]]{{To: 1, Msg: abd.Msg[bfs.Msg]{Pulse: 0, Payload: bfs.Msg{Level: 1}}}}, ctx.Sent(),
		"the root invites its neighbour in pulse 0")
	require.Equal(t, []model.TimerEffect{{Timer: abd.Clock{}, Armed: true, Ticks: 4}}, ctx.Timers(), "the clock: 2d ticks")

	ctx = model.NewCtx[abd.Msg[bfs.Msg]](cfg, 1)
	s1 := p.Init(ctx)
	require.Nil(t, ctx.Sent())
	s1 = p.Receive(model.NewCtx[abd.Msg[bfs.Msg]](cfg, 1), s1, 0, abd.Msg[bfs.Msg]{Pulse: 0, Payload: bfs.Msg{Level: 1}})
	require.Len(t, s1.Buf, 1, "kept until the clock fires")

	ctx = model.NewCtx[abd.Msg[bfs.Msg]](cfg, 1)
	s1 = p.Timeout(ctx, s1, abd.Clock{})
	require.Equal(t, 1, s1.Pulse)
	require.Empty(t, s1.Buf)
	require.Equal(t, []model.Sent[abd.Msg[bfs.Msg]]{{To: 2, Msg: abd.Msg[bfs.Msg]{Pulse: 1, Payload: bfs.Msg{Level: 2}}}}, ctx.Sent(),
		"pulse 1 takes the invite and passes it on")
	require.Equal(t, []model.TimerEffect{{Timer: abd.Clock{}, Armed: true, Ticks: 4}}, ctx.Timers())

	require.ErrorContains(t, abd.Validate(model.Config{N: 2}), "needs bounded timing")
}
