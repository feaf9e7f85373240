package checktest_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

// Sent, Timers and Observed read back, in order, what a handler did
// through a context from model.NewCtx, and nil where it did nothing.
func TestEffectsReadBackWhatAHandlerDid(t *testing.T) {
	cases := []struct {
		name     string
		handler  func(ctx *model.Ctx[string])
		sent     []model.Sent[string]
		timers   []checktest.TimerEffect
		observed []model.Obs
	}{
		{"nothing", func(*model.Ctx[string]) {}, nil, nil, nil},
		{"sends", func(ctx *model.Ctx[string]) {
			ctx.Send(1, "a")
			ctx.SendAll([]model.NodeID{2, 0}, "b")
		}, []model.Sent[string]{{To: 1, Msg: "a"}, {To: 2, Msg: "b"}, {To: 0, Msg: "b"}}, nil, nil},
		{"timers", func(ctx *model.Ctx[string]) {
			ctx.SetTimer("t", 2, 1)
			ctx.CancelTimer("u")
			ctx.SetTimerAfter("v", 4)
		}, nil, []checktest.TimerEffect{
			checktest.Armed("t", 2, 1), checktest.Cancelled("u"), {Timer: "v", Armed: true, Ticks: 4},
		}, nil},
		{"observations", func(ctx *model.Ctx[string]) {
			ctx.Observe(model.Leader(2))
			ctx.Observe(model.ExitCS())
		}, nil, nil, []model.Obs{model.Leader(2), model.ExitCS()}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[string](model.Config{N: 3}, 0)
		c.handler(ctx)
		require.Equal(t, c.sent, checktest.Sent(ctx), c.name)
		require.Equal(t, c.timers, checktest.Timers(ctx), c.name)
		require.Equal(t, c.observed, checktest.Observed(ctx), c.name)
	}
}

// What Sent, Timers and Observed return is the caller's: changing it
// changes no later read.
func TestEffectsAreTheCallers(t *testing.T) {
	ctx := model.NewCtx[string](model.Config{N: 3}, 0)
	ctx.Send(1, "a")
	ctx.SetTimer("t", 2)
	ctx.Observe(model.EnterCS())
	checktest.Sent(ctx)[0].To = 2
	checktest.Timers(ctx)[0].WaitOn[0] = 0
	checktest.Observed(ctx)[0] = model.ExitCS()
	require.Equal(t, []model.Sent[string]{{To: 1, Msg: "a"}}, checktest.Sent(ctx))
	require.Equal(t, []checktest.TimerEffect{checktest.Armed("t", 2)}, checktest.Timers(ctx))
	require.Equal(t, []model.Obs{model.EnterCS()}, checktest.Observed(ctx))
}
