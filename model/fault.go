package model

import (
	"fmt"
	"strings"
)

// Fault is a bug of a protocol's handler, of a monitor, or of a property's
// code, met while the checker ran it: it panicked, misused its context (a
// send to no node or to a non-neighbour, a timer that is no plain
// comparable value), wrote into an input it must only read, or returned
// different outcomes from two calls on equal inputs (it read a clock,
// randomness or Go's map order). The checker does not crash on one: it
// ends the search and reports the fault with the run that leads to it
// (checker.Fault, which is a Fault and its run).
type Fault struct {
	Protocol string `json:"protocol"`
	// Property names the property whose Check or Pending panicked, for a
	// fault of a property rather than of the protocol.
	Property string `json:"property,omitempty"`
	// Handler is the protocol handler that failed (Init, Receive, Timeout,
	// Recover, Do, Actions) or, for a monitor, Start or Observe.
	Handler string `json:"handler"`
	// Monitor names the monitor, for a monitor's fault.
	Monitor string `json:"monitor,omitempty"`
	// Node is the node whose handler ran, or whose observation the
	// monitor was fed (None for Start).
	Node NodeID `json:"node"`
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
	// Nondeterministic names the part of the outcome in which two calls on
	// equal inputs disagreed: "state", "sends", "timers", "observations"
	// or "actions"; Input names what the handler was given besides its
	// state ("prepare from n1", a timer, an action), if anything.
	Nondeterministic string `json:"nondeterministic,omitempty"`
	Input            string `json:"input,omitempty"`
	// Path is where the two values of a mutation (before and after the
	// call) or of a nondeterministic outcome (the first call's and the
	// second's) first differ, as a Go selector (".Votes[2]"; "" for the
	// values themselves), and Values render what each holds there.
	Path   string   `json:"path,omitempty"`
	Values []string `json:"values,omitempty"`
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

// Where returns the function and file:line that raised a panic, from
// Stack: the first frame below the panic outside the runtime ("" when the
// fault is no panic).
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
