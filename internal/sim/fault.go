package sim

import (
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/vigil-check/vigil/model"
)

// Fault is a fault of a handler or a monitor (see model.Fault) met while
// stepping. A Stepper does not let it escape as a panic: it records the
// fault (see Stepper.TakeFault), leaves the Machine usable and its tables
// as they were, and goes on as if the step had changed nothing, so that
// the engine can stop and report the fault with the run that led to it.
// Nothing of a faulting call is memoised: the same call faults again
// (a nondeterministic one, unless its two calls happen to agree).
type Fault struct {
	model.Fault
	// in is the handler's input as the step cache keys it (see input),
	// 0 when no event names the call (Init, Actions, a monitor).
	in uint64
}

// nondeterministic is the Fault of two calls on equal inputs whose
// outcomes, a and b, differ in part (see Fault.Nondeterministic); the
// caller names the handler.
func nondeterministic(part string, a, b any) *Fault {
	f := &Fault{Fault: model.Fault{Nondeterministic: part}}
	d, _ := firstDifference(a, b)
	f.Path, f.Values = d.Path, []string{d.A, d.B}
	if d.A == "" && d.B == "" {
		// equal as Go values, apart in their encodings: show them whole
		f.Values = []string{truncate(fmt.Sprintf("%+v", a)), truncate(fmt.Sprintf("%+v", b))}
	}
	return f
}

// mutated is the Fault of a handler or monitor that wrote into its input
// (what: "state" or "message"): before is the input as it was, rebuilt
// from its key, after as the call left it.
func mutated(what string, before, after any) *Fault {
	f := &Fault{Fault: model.Fault{Mutated: what, Before: fmt.Sprintf("%+v", before), After: fmt.Sprintf("%+v", after)}}
	if d, ok := firstDifference(before, after); ok {
		f.Path, f.Values = d.Path, []string{d.A, d.B}
	}
	return f
}

// Event returns the event whose handler call failed, when an event names
// it: a delivery, a timeout, an action or a recovery at f.Node. Init,
// Actions and monitors are not named by one.
func (f *Fault) Event() (Event, bool) {
	e := Event{Node: f.Node, Arg: uint32(f.in)}
	switch f.in >> 56 {
	case inReceive:
		e.Kind, e.From = Deliver, model.NodeID(f.in>>32&0xffff)
	case inTimeout:
		e.Kind = Timeout
	case inAction:
		e.Kind = Act
	case inRecover:
		e.Kind, e.Arg = Recover, 0
	default:
		return Event{}, false
	}
	return e, true
}

// misuse is a panic value for a contract violation the Machine detects
// inside a handler's call: it becomes a Fault with Misuse, not Panic.
type misuse string

// catch runs call and turns a panic into a Fault: a *Fault raised as is,
// a misuse as Misuse, anything else as Panic with the stack where it was
// raised (deferred calls run before the stack unwinds).
func catch(call func()) (f *Fault) {
	defer func() {
		if r := recover(); r != nil {
			f = panicFault(r)
		}
	}()
	call()
	return nil
}

// panicFault is the Fault of a recovered panic r (see catch); called in
// the deferred function, it gives the stack where r was raised.
func panicFault(r any) *Fault {
	switch v := r.(type) {
	case *Fault:
		return v
	case misuse:
		return &Fault{Fault: model.Fault{Misuse: string(v)}}
	}
	return &Fault{Fault: model.Fault{Panic: fmt.Sprint(r), Stack: string(debug.Stack())}}
}

// handlerName names the handler that input in runs.
func handlerName(in uint64) string {
	switch in >> 56 {
	case inInit:
		return "Init"
	case inReceive:
		return "Receive"
	case inTimeout:
		return "Timeout"
	case inRecover:
		return "Recover"
	case inAction:
		return "Do"
	}
	return "?"
}

// writable reports whether a value of type t can be written through by
// one who holds a copy of it: it holds a slice or a map. A plain value
// passed by value cannot be mutated, and is not checked.
func writable(t reflect.Type) bool { return t != nil && needsClone(t) }
