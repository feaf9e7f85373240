// Package effects holds what a handler did through its context: the
// messages it sent, the timers it armed and cancelled and the observations
// it reported, in the buffer model.Ctx keeps them in. It is the engines'
// side of a context, kept out of package model so that a protocol author
// sees only the calls a handler makes.
//
// The package must not import model, which imports it: a Buffer is
// generic in the types model gives it (its send record, node id and
// observation), and model registers Of, through which an engine reaches
// the Buffer of a context it made.
package effects

// Buffer is the effects of the handler calls made through one context
// since it was last Reset, each kind in the order the handler made them.
// S is the record of one send (model.Sent[M]), N the node id type and O
// the observation type.
type Buffer[S, N, O any] struct {
	Sends  []S
	Timers []Timer[N]
	// waits holds the WaitOn of every timer of Timers, one after another,
	// so that SetTimer's variadic slice need not escape to the heap.
	waits []N
	Obs   []O
}

// Timer is a timer armed (with the nodes it waits on, or the ticks it
// waits for) or cancelled. Timer holds a model.Timer.
type Timer[N any] struct {
	Timer  any
	Armed  bool
	WaitOn []N
	Ticks  int // SetTimerAfter's delay; 0 for SetTimer and CancelTimer
}

// Send records one message sent.
func (b *Buffer[S, N, O]) Send(s S) { b.Sends = append(b.Sends, s) }

// Arm records timer t armed to wait on the nodes of waitOn, copied into
// b's own memory (the caller may keep waitOn on its stack); each WaitOn of
// Timers is b's until Reset: read it, never change it.
func (b *Buffer[S, N, O]) Arm(t any, waitOn []N) {
	var on []N
	if len(waitOn) > 0 {
		from := len(b.waits)
		b.waits = append(b.waits, waitOn...)
		on = b.waits[from:len(b.waits):len(b.waits)]
	}
	b.Timers = append(b.Timers, Timer[N]{Timer: t, Armed: true, WaitOn: on})
}

// ArmAfter records timer t armed to fire after ticks ticks.
func (b *Buffer[S, N, O]) ArmAfter(t any, ticks int) {
	b.Timers = append(b.Timers, Timer[N]{Timer: t, Armed: true, Ticks: ticks})
}

// Cancel records timer t cancelled.
func (b *Buffer[S, N, O]) Cancel(t any) { b.Timers = append(b.Timers, Timer[N]{Timer: t}) }

// Observe records one observation.
func (b *Buffer[S, N, O]) Observe(o O) { b.Obs = append(b.Obs, o) }

// Reset forgets every effect, keeping the memory, so that one context
// serves handler calls one after another, as an engine calls them. What
// was read out of b before (the slices' elements) is overwritten by the
// next calls: an engine copies what it keeps.
func (b *Buffer[S, N, O]) Reset() {
	b.Sends, b.Timers, b.waits, b.Obs = b.Sends[:0], b.Timers[:0], b.waits[:0], b.Obs[:0]
}

// Of returns the *Buffer of a context (a *model.Ctx[M]) as an any, for
// the engine to assert to the one Buffer type model instantiates for M.
// Package model sets it in an init function. An engine calls it once per
// context it makes, not once per handler call: it costs a call through a
// variable and two type assertions.
var Of func(ctx any) any
