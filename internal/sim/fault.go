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
// timer that is no plain comparable value), mutated an input it must
// only read, or returned different outcomes from two calls on equal
// inputs. A Stepper does not let it escape as a panic: it records the
// fault (see Stepper.TakeFault), leaves the Machine usable and its tables
// as they were, and goes on as if the step had changed nothing, so that
// the engine can stop and report the fault with the run that led to it.
// Nothing of a faulting call is memoised: the same call faults again
// (a nondeterministic one, unless its two calls happen to agree).
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
	// Nondeterministic names the part of the outcome in which two calls
	// on equal inputs disagreed: "state", "sends", "timers",
	// "observations" or "actions". Input names what the handler was given
	// besides its state ("prepare from n1", a timer, an action), if
	// anything.
	Nondeterministic string `json:"nondeterministic,omitempty"`
	Input            string `json:"input,omitempty"`
	// Path is where the two values of a mutation (before and after) or of
	// a nondeterministic outcome (first call's and second's) first differ,
	// as a Go selector (".Votes[2]"; "" for the values themselves), and
	// Values render what each holds there.
	Path   string   `json:"path,omitempty"`
	Values []string `json:"values,omitempty"`

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
	case f.Nondeterministic != "":
		return f.nondeterminism(where)
	case f.Mutated == "message":
		return fmt.Sprintf("%s mutated the message it received%s; messages are read-only", where, f.change("before", "after"))
	}
	return fmt.Sprintf("%s mutated its input state%s; it must return a new state", where, f.change("before", "after"))
}

// change renders where two values differ and how: " at .Votes[2]:
// before 0, after 1", or, with no path, the whole values.
func (f *Fault) change(first, second string) string {
	if len(f.Values) != 2 {
		return fmt.Sprintf(" (%s %s, %s %s)", first, f.Before, second, f.After)
	}
	at := ""
	if f.Path != "" {
		at = " at " + f.Path
	}
	return fmt.Sprintf("%s: %s %s, %s %s", at, first, f.Values[0], second, f.Values[1])
}

// nondeterminism is the text of a Nondeterministic fault at where.
func (f *Fault) nondeterminism(where string) string {
	if f.Input != "" && f.Monitor == "" && f.Property == "" {
		where = fmt.Sprintf("protocol %s: %s of %s on %v", f.Protocol, f.Handler, f.Input, f.Node)
	}
	what := map[string]string{"state": "returned states", "sends": "sent messages", "timers": "set timers",
		"observations": "observed facts", "actions": "listed actions"}[f.Nondeterministic]
	at := ""
	if f.Path != "" {
		at = " at " + f.Path
	}
	var a, b string
	if len(f.Values) == 2 {
		a, b = f.Values[0], f.Values[1]
	}
	return fmt.Sprintf("%s is not deterministic: two calls on equal inputs %s that differ%s: %s vs %s; "+
		"a handler must not read clocks, randomness or map order", where, what, at, a, b)
}

// nondeterministic is the Fault of two calls on equal inputs whose
// outcomes, a and b, differ in part (see Fault.Nondeterministic); the
// caller names the handler.
func nondeterministic(part string, a, b any) *Fault {
	f := &Fault{Nondeterministic: part}
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
	f := &Fault{Mutated: what, Before: fmt.Sprintf("%+v", before), After: fmt.Sprintf("%+v", after)}
	if d, ok := firstDifference(before, after); ok {
		f.Path, f.Values = d.Path, []string{d.A, d.B}
	}
	return f
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
