package sim

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// Fault is a bug in a protocol's handler or in a monitor, met while
// stepping: it panicked, broke the contract of Ctx (a send to no node or to a non-neighbour, a
// timer that is no plain comparable value), or mutated an input it must
// only read. A Stepper does not let it escape as a panic: it records the
// fault (see Stepper.TakeFault), leaves the Machine usable and its tables
// as they were, and goes on as if the step had changed nothing, so that
// the engine can stop and report the fault with the run that led to it.
// Nothing of a faulting call is memoised: the same call faults again.
type Fault struct {
	Protocol string `json:"protocol"`
	// Property names the property, for a fault of its Check or Pending.
	Property string `json:"property,omitempty"`
	// Handler is the protocol handler that failed (Init, Receive, Timeout,
	// Recover, Do, Actions) or, for a monitor, Start or Observe.
	Handler string `json:"handler"`
	// Monitor names the monitor, for a monitor's fault.
	Monitor string `json:"monitor,omitempty"`
	// Node is the node whose handler ran, or whose observation the
	// monitor was fed (None for Start).
	Node model.NodeID `json:"node"`
	// Obs is the observation a monitor was fed.
	Obs string `json:"observation,omitempty"`
	// Panic is the panic's value, as text, and Stack where it was raised.
	Panic string `json:"panic,omitempty"`
	Stack string `json:"stack,omitempty"`
	// Misuse says how a handler broke the contract of Ctx.
	Misuse string `json:"misuse,omitempty"`
	// Mutated names the input a handler or monitor wrote into: "state"
	// (its input state) or "message" (the message it received); Before and
	// After render it (%+v) before and after the call.
	Mutated string `json:"mutated,omitempty"`
	Before  string `json:"before,omitempty"`
	After   string `json:"after,omitempty"`

	// in is the handler's input as the step cache keys it (see input),
	// 0 when no event names the call (Init, Actions, a monitor).
	in uint64
}

// Error says in one line what failed, where and how.
func (f *Fault) Error() string {
	where := fmt.Sprintf("protocol %s: %s on %v", f.Protocol, f.Handler, f.Node)
	if f.Property != "" {
		where = fmt.Sprintf("property %s: %s", f.Property, f.Handler)
	}
	if f.Monitor != "" {
		where = fmt.Sprintf("monitor %s: %s", f.Monitor, f.Handler)
		if f.Obs != "" {
			where += fmt.Sprintf(" of %v's %s", f.Node, f.Obs)
		}
	}
	switch {
	case f.Panic != "":
		return where + " panicked: " + f.Panic
	case f.Misuse != "":
		return where + " " + f.Misuse
	case f.Mutated == "message":
		return fmt.Sprintf("%s mutated the message it received (before %s, after %s); messages are read-only", where, f.Before, f.After)
	}
	return fmt.Sprintf("%s mutated its input state (before %s, after %s); it must return a new state", where, f.Before, f.After)
}

// Where returns the function and file:line that raised a panic, from
// Stack: the first frame below the panic outside the runtime ("" when not
// a panic).
func (f *Fault) Where() string {
	lines := strings.Split(f.Stack, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "panic(") {
			continue
		}
		for j := i + 2; j+1 < len(lines); j += 2 {
			if fn := lines[j]; !strings.HasPrefix(fn, "runtime.") {
				if k := strings.LastIndex(fn, "("); k > 0 {
					fn = fn[:k]
				}
				loc := strings.TrimSpace(lines[j+1])
				if k := strings.LastIndex(loc, " +0x"); k > 0 {
					loc = loc[:k]
				}
				return fn + " at " + loc
			}
		}
	}
	return ""
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
		return &Fault{Misuse: string(v)}
	}
	return &Fault{Panic: fmt.Sprint(r), Stack: string(debug.Stack())}
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
