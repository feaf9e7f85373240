package checktest

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"testing"

	"github.com/vigil-check/vigil/model"
)

// Step is one call of a protocol's handler, as a row of a table: the
// node and its state, what it handles, and everything the call must
// return and do. An effect left nil is one the call must not have.
type Step[S, M any] struct {
	Name   string
	Config model.Config // the table's (Handlers.Config) when N is 0
	Self   model.NodeID
	In     S // the node's state (not Init's)

	From   model.NodeID // Receive: the sender
	Msg    M            // Receive: the message
	Timer  model.Timer  // Timeout: the timer that fired
	Action model.Action // Do: the action taken

	Want     S               // the state the handler returns
	Sent     []model.Sent[M] // the messages it sends, in order
	Timers   []TimerEffect   // the timers it arms and cancels, in order
	Observed []model.Obs     // what it observes, in order
	Enabled  []model.Action  // Actions: the actions it lists for In
}

// Handlers runs tables of Steps through a protocol's handlers, the unit
// tests of a protocol: each step calls the handler on a fresh context
// (model.NewCtx) and fails the test, naming the step, where the returned
// state or an effect is not the one the step wants, where the handler
// wrote into its input state or message (it must build a new state, see
// model.Protocol), or where it panics. A step's mismatches are all
// reported, and the table goes on.
type Handlers[S, M any] struct {
	Protocol model.Protocol[S, M]
	Config   model.Config // every step's, unless the step sets its own
	// SpareCapacity gives the slices of each input state and message
	// room to grow, and compares them up to their capacity after the
	// call: a handler that appends to its input in place fails. The
	// checker's engines hand a handler slices without spare capacity,
	// where an append copies, so it needs this only where states are
	// shared otherwise (by a protocol that embeds another, or a
	// simulation of one's own).
	SpareCapacity bool
}

// Init checks steps of Protocol.Init (In is not read).
func (h Handlers[S, M]) Init(t testing.TB, steps []Step[S, M]) {
	t.Helper()
	h.run(t, "Init", steps, func(ctx *model.Ctx[M], c *Step[S, M]) S { return h.Protocol.Init(ctx) })
}

// Receive checks steps of Protocol.Receive of Msg from From.
func (h Handlers[S, M]) Receive(t testing.TB, steps []Step[S, M]) {
	t.Helper()
	h.run(t, "Receive", steps, func(ctx *model.Ctx[M], c *Step[S, M]) S { return h.Protocol.Receive(ctx, c.In, c.From, c.Msg) })
}

// Timeout checks steps of the protocol's Timeout of Timer (model.Timed).
func (h Handlers[S, M]) Timeout(t testing.TB, steps []Step[S, M]) {
	t.Helper()
	p := implements[model.Timed[S, M]](t, h.Protocol, "Timeout")
	h.run(t, "Timeout", steps, func(ctx *model.Ctx[M], c *Step[S, M]) S { return p.Timeout(ctx, c.In, c.Timer) })
}

// Recover checks steps of the protocol's Recover (model.Recoverer).
func (h Handlers[S, M]) Recover(t testing.TB, steps []Step[S, M]) {
	t.Helper()
	p := implements[model.Recoverer[S, M]](t, h.Protocol, "Recover")
	h.run(t, "Recover", steps, func(ctx *model.Ctx[M], c *Step[S, M]) S { return p.Recover(ctx, c.In) })
}

// Do checks steps of the protocol's Do of Action (model.Actor).
func (h Handlers[S, M]) Do(t testing.TB, steps []Step[S, M]) {
	t.Helper()
	p := implements[model.Actor[S, M]](t, h.Protocol, "Do")
	h.run(t, "Do", steps, func(ctx *model.Ctx[M], c *Step[S, M]) S { return p.Do(ctx, c.In, c.Action) })
}

// Actions checks that the protocol's Actions lists Enabled for In; Want
// and the effects are not read.
func (h Handlers[S, M]) Actions(t testing.TB, steps []Step[S, M]) {
	t.Helper()
	p := implements[model.Actor[S, M]](t, h.Protocol, "Actions")
	for _, c := range steps {
		in := spare(c.In, h.room())
		before := reach(in)
		got := p.Actions(&model.NewCtx[M](h.config(t, &c), c.Self).Env, in)
		where := fmt.Sprintf("Actions %q", c.Name)
		expect(t, where, "the actions it lists", c.Enabled, got)
		h.unchanged(t, where, "state", before, reach(in))
	}
}

// SentTo is m sent to each node of to, in order, as Ctx.SendAll sends
// it: a step's Sent (nil for no node, as Sent has it).
func SentTo[M any](m M, to ...model.NodeID) []model.Sent[M] {
	if len(to) == 0 {
		return nil
	}
	out := make([]model.Sent[M], len(to))
	for k, j := range to {
		out[k] = model.Sent[M]{To: j, Msg: m}
	}
	return out
}

// Armed is timer t armed to wait on the nodes of waitOn (Ctx.SetTimer):
// one of a step's Timers.
func Armed(t model.Timer, waitOn ...model.NodeID) TimerEffect {
	return TimerEffect{Timer: t, Armed: true, WaitOn: waitOn}
}

// Cancelled is timer t cancelled (Ctx.CancelTimer); see Armed.
func Cancelled(t model.Timer) TimerEffect { return TimerEffect{Timer: t} }

// implements is p as the interface P of the handler a table calls, or
// fails the test where p has no such handler.
func implements[P any](t testing.TB, p any, handler string) P {
	t.Helper()
	q, ok := p.(P)
	if !ok {
		t.Fatalf("checktest: protocol %T has no %s handler", p, handler)
	}
	return q
}

// room is the spare capacity of the inputs' slices (see SpareCapacity).
func (h Handlers[S, M]) room() int {
	if h.SpareCapacity {
		return 3
	}
	return 0
}

// config is the configuration step c runs under: its own, or the table's.
func (h Handlers[S, M]) config(t testing.TB, c *Step[S, M]) model.Config {
	t.Helper()
	if c.Config.N > 0 {
		return c.Config
	}
	if h.Config.N == 0 {
		t.Fatalf("checktest: step %q: no configuration (set Handlers.Config or the step's Config)", c.Name)
	}
	return h.Config
}

// run calls handler (its name) on each step through call, with a fresh
// context and a copy of the step's inputs, and reports what is not as the
// step wants.
func (h Handlers[S, M]) run(t testing.TB, handler string, steps []Step[S, M], call func(*model.Ctx[M], *Step[S, M]) S) {
	t.Helper()
	if h.Protocol == nil {
		t.Fatalf("checktest: Handlers has no Protocol")
	}
	for _, c := range steps {
		ctx := model.NewCtx[M](h.config(t, &c), c.Self)
		c.In, c.Msg = spare(c.In, h.room()), spare(c.Msg, h.room())
		in, msg := reach(c.In), reach(c.Msg)
		where := fmt.Sprintf("%s %q", handler, c.Name)
		got := guard(t, where, func() S { return call(ctx, &c) })
		expect(t, where, "the state it returned", c.Want, got)
		expect(t, where, "the messages it sent", c.Sent, Sent(ctx))
		expect(t, where, "the timers it set", c.Timers, Timers(ctx))
		expect(t, where, "what it observed", c.Observed, Observed(ctx))
		h.unchanged(t, where, "state", in, reach(c.In))
		h.unchanged(t, where, "message", msg, reach(c.Msg))
	}
}

// guard calls call, failing the test with the step and the stack where
// the handler panics.
func guard[S any](t testing.TB, where string, call func() S) S {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panicked: %v\n%s", where, r, debug.Stack())
		}
	}()
	return call()
}

// expect reports, naming the step (where), what of its outcome is not
// the one it wants, and where the two first differ.
func expect(t testing.TB, where, what string, want, got any) {
	t.Helper()
	if d := compare(want, got, "want", "got"); d != "" {
		t.Errorf("%s: %s%s", where, what, d)
	}
}

// unchanged reports a handler that wrote into its input state or message
// (what), which it must only read.
func (h Handlers[S, M]) unchanged(t testing.TB, where, what string, before, after any) {
	t.Helper()
	d := compare(before, after, "before", "after")
	if d == "" {
		return
	}
	why := "a handler must build a new value"
	if h.SpareCapacity {
		why += "; slices are compared up to their capacity, where an append in place writes"
	}
	t.Errorf("%s wrote into its input %s%s\n\t(%s)", where, what, d, why)
}

// compare returns "" when a and b are deeply equal, or else where they
// first differ and what each (named an and bn) holds there and as a whole.
func compare(a, b any, an, bn string) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	at, x, y := firstDifference("", av, bv)
	if at == "" {
		return fmt.Sprintf(": %s %s, %s %s", an, x, bn, y)
	}
	return fmt.Sprintf(" at %s: %s %s, %s %s\n\t%-7s %s\n\t%-7s %s", at, an, x, bn, y, an+":", show(av), bn+":", show(bv))
}
