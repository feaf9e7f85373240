package model

import "slices"

// NewCtx returns a context for calling a protocol's handler directly, as a
// unit test does: node self of a run configured by cfg. Read the handler's
// effects with Sent, Timers and Observed. The context reads cfg's
// parameters once, here.
func NewCtx[M any](cfg Config, self NodeID) *Ctx[M] {
	c := &Ctx[M]{}
	c.reset(&cfg, self)
	return c
}

// Sent is a message a handler sent.
type Sent[M any] struct {
	To  NodeID
	Msg M
}

// Sent returns the messages sent through c, in order (nil when none).
func (c *Ctx[M]) Sent() []Sent[M] {
	if len(c.sends) == 0 {
		return nil
	}
	return c.AppendSent(make([]Sent[M], 0, len(c.sends)))
}

// AppendSent appends the messages sent through c to dst, in order, and
// returns the extended slice: Sent for a caller that reuses one buffer
// from call to call, as an engine does.
func (c *Ctx[M]) AppendSent(dst []Sent[M]) []Sent[M] {
	for _, s := range c.sends {
		dst = append(dst, Sent[M]{s.to, s.msg})
	}
	return dst
}

// TimerEffect is a timer armed (with the nodes it waits on, or the ticks
// it waits for) or cancelled.
type TimerEffect struct {
	Timer  Timer
	Armed  bool
	WaitOn []NodeID
	Ticks  int // SetTimerAfter's delay; 0 for SetTimer and CancelTimer
}

// Timers returns the timers armed and cancelled through c, in order (nil
// when none).
func (c *Ctx[M]) Timers() []TimerEffect {
	if len(c.timers) == 0 {
		return nil
	}
	out := make([]TimerEffect, len(c.timers))
	waits := 0
	for _, t := range c.timers {
		waits += len(t.waitOn)
	}
	wait := make([]NodeID, 0, waits) // every WaitOn's, one after another
	for k, t := range c.timers {
		var on []NodeID
		if len(t.waitOn) > 0 {
			wait = append(wait, t.waitOn...)
			on = slices.Clip(wait[len(wait)-len(t.waitOn):])
		}
		out[k] = TimerEffect{t.timer, t.arm, on, t.ticks}
	}
	return out
}

// Observed returns the observations reported through c, in order.
func (c *Ctx[M]) Observed() []Obs { return c.AppendObserved(nil) } // nil when none

// AppendObserved appends the observations reported through c to dst, in
// order, and returns the extended slice (see AppendSent).
func (c *Ctx[M]) AppendObserved(dst []Obs) []Obs { return append(dst, c.obs...) }

// AppendTimers appends the timers armed and cancelled through c to dst, in
// order, and returns the extended slice (see AppendSent). Unlike Timers'
// copies, each WaitOn is c's own, until Reset: read it, never change it.
func (c *Ctx[M]) AppendTimers(dst []TimerEffect) []TimerEffect {
	for _, t := range c.timers {
		dst = append(dst, TimerEffect{t.timer, t.arm, slices.Clip(t.waitOn), t.ticks})
	}
	return dst
}

// Reset forgets the effects reported through c so far, so that one
// context serves handler calls one after another, as an engine calls
// them. What Sent, Timers and Observed returned before stays as it was.
func (c *Ctx[M]) Reset() {
	c.sends, c.timers, c.waits, c.obs = c.sends[:0], c.timers[:0], c.waits[:0], c.obs[:0]
}
