package checker

import (
	"slices"
	"time"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/properties"
)

// shrink makes a counterexample shorter by delta debugging: it removes runs
// of events, halving their length down to single events, and keeps every
// removal after which the run still replays (each event enabled in turn)
// and still violates prop, cut at the first violating world. It stops after
// budget; the result is always a valid counterexample.
func shrink(m *sim.Machine, prop *properties.Property, events []sim.Event, budget time.Duration) ([]sim.Event, string) {
	st := m.NewStepper()
	deadline := time.Now().Add(budget)
	best, detail := violates(st, prop, events)
	if best < 0 {
		return events, "" // not a counterexample: leave it alone
	}
	events = events[:best]
	for size := max(1, len(events)/2); ; {
		removed := false
		for at := 0; at+size <= len(events) && time.Now().Before(deadline); {
			try := slices.Concat(events[:at], events[at+size:])
			if n, d := violates(st, prop, try); n >= 0 {
				events, detail, removed = try[:n], d, true
				continue // the same position now holds later events
			}
			at += size
		}
		if time.Now().After(deadline) || (size == 1 && !removed) {
			return events, detail
		}
		if !removed {
			size = max(1, size/2)
		}
	}
}

// violates replays events and returns the length of the shortest prefix
// whose last world violates prop (an invariant, or a quiescence property in
// a quiescent world), or -1 if none does or an event is not enabled. A
// shorter run can reach worlds no walk did: one where a handler or monitor
// faults is no counterexample either.
func violates(st *sim.Stepper, prop *properties.Property, events []sim.Event) (int, string) {
	w, _ := st.Init()
	faulted := func() bool { return st.TakeFault() != nil }
	// judge returns the violation in w, or bad when the step to w or
	// listing its events met a fault
	judge := func() (string, bool) {
		quiescent := true
		if prop.When != properties.Always {
			_, nproto := st.Enabled(w, nil)
			quiescent = nproto == 0
		}
		if faulted() {
			return "", true
		}
		d, f := judgeSafely(prop, st.View(w), quiescent)
		return d, f != nil // a property that panics here shows nothing
	}
	if faulted() {
		return -1, ""
	}
	if d, bad := judge(); bad {
		return -1, ""
	} else if d != "" {
		return 0, d
	}
	var evs []sim.Event
	var next sim.World
	for i, ev := range events {
		evs, _ = st.Enabled(w, evs[:0])
		if faulted() || !slices.Contains(evs, ev) {
			return -1, ""
		}
		next, _ = st.Apply(w, ev, next)
		w, next = next, w
		d, bad := judge()
		if bad {
			return -1, ""
		}
		if d != "" {
			return i + 1, d
		}
	}
	return -1, ""
}
