package checktest

import (
	"slices"

	"github.com/vigil-check/vigil/internal/effects"
	"github.com/vigil-check/vigil/model"
)

// TimerEffect is a timer a handler armed (with the nodes it waits on, or
// the ticks it waits for) or cancelled: one of a Step's Timers, as Armed
// and Cancelled build them and Timers reads them.
type TimerEffect struct {
	Timer  model.Timer
	Armed  bool
	WaitOn []model.NodeID
	Ticks  int // SetTimerAfter's delay; 0 for SetTimer and CancelTimer
}

// Sent returns the messages sent through ctx, a context from model.NewCtx,
// in order (nil when none): what a handler called with ctx sent.
func Sent[M any](ctx *model.Ctx[M]) []model.Sent[M] {
	return own(bufferOf(ctx).Sends)
}

// Timers returns the timers armed and cancelled through ctx, in order (nil
// when none), each WaitOn a slice of its own.
func Timers[M any](ctx *model.Ctx[M]) []TimerEffect {
	ops := bufferOf(ctx).Timers
	if len(ops) == 0 {
		return nil
	}
	out := make([]TimerEffect, len(ops))
	for k, op := range ops {
		out[k] = TimerEffect{Timer: op.Timer, Armed: op.Armed, WaitOn: own(op.WaitOn), Ticks: op.Ticks}
	}
	return out
}

// Observed returns the observations reported through ctx, in order (nil
// when none).
func Observed[M any](ctx *model.Ctx[M]) []model.Obs {
	return own(bufferOf(ctx).Obs)
}

// own is a copy of s, nil when s is empty: a step wants nil for none.
func own[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// bufferOf is the effect buffer ctx keeps (see package internal/effects).
func bufferOf[M any](ctx *model.Ctx[M]) *effects.Buffer[model.Sent[M], model.NodeID, model.Obs] {
	return effects.Of(ctx).(*effects.Buffer[model.Sent[M], model.NodeID, model.Obs])
}
