package checker

import (
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// Run is one run of a Machine taken a step at a time, the choices left to
// the caller: a schedule that rapid draws (see checker/checktest), a
// person stepping through a protocol, a test that plays a scenario by hand.
// A Run serves one goroutine.
type Run struct {
	m      *Machine
	st     *sim.Stepper
	w      sim.World
	next   sim.World
	evs    []sim.Event
	nproto int
	events []sim.Event
	sent   map[string]int
	kinds  []string
	view   properties.View
	fault  *Fault
}

// Start begins a run of m in its initial world.
func (m *Machine) Start() *Run {
	r := &Run{m: m, st: m.m.NewStepper(), sent: map[string]int{}}
	w, steps := r.st.Init()
	if r.faulted() {
		return r
	}
	r.count(steps...)
	r.enter(w)
	return r
}

func (r *Run) enter(w sim.World) {
	r.w = w
	r.evs, r.nproto = r.st.Enabled(w, r.evs[:0])
	r.view = r.st.View(w) // a new one: a View handed out stays on its world
	if r.faulted() {
		r.evs, r.nproto = r.evs[:0], 0
	}
}

// faulted takes the fault a handler or monitor met in the last call, if
// any: the run ends there.
func (r *Run) faulted() bool {
	f := r.st.TakeFault()
	if f == nil {
		return false
	}
	r.fault = newFault(r.m.m, r.events, f, nil)
	return true
}

// Fault is the fault of a handler or monitor that ended the run, with the
// run to it, or nil. A run with a fault has no event enabled.
func (r *Run) Fault() *Fault { return r.fault }

func (r *Run) count(steps ...*sim.Step) {
	for _, s := range steps {
		if s == nil {
			continue // a fault runs no handler
		}
		for _, snd := range s.Sends {
			k := sim.SendKind(snd)
			if int(k) >= len(r.kinds) {
				r.kinds = r.m.m.Kinds()
			}
			r.sent[r.kinds[k]]++
		}
	}
}

// Events describes the events enabled in the current world: the protocol's
// (deliveries, timeouts, local actions) first, then the faults the run's
// budgets still allow (crash, recover, partition, heal). Take(i) takes
// the i-th.
func (r *Run) Events() []TraceStep {
	out := make([]TraceStep, len(r.evs))
	for i, ev := range r.evs {
		out[i] = describe(r.st, r.w, ev)
	}
	return out
}

// Enabled is how many events are enabled, and how many of them are the
// protocol's (the first ones); the rest are faults.
func (r *Run) Enabled() (events, protocol int) { return len(r.evs), r.nproto }

// Quiescent reports whether no delivery, timeout or local action is
// enabled: a complete run may end here, though faults may still happen.
func (r *Run) Quiescent() bool { return r.nproto == 0 }

// Take takes the i-th enabled event (see Events) and returns what it did.
func (r *Run) Take(i int) TraceStep {
	ev := r.evs[i]
	s := describe(r.st, r.w, ev)
	next, step := r.st.Apply(r.w, ev, r.next)
	r.events = append(r.events, ev)
	if r.faulted() {
		r.evs, r.nproto = r.evs[:0], 0
		return s
	}
	r.count(step)
	r.next = r.w
	r.enter(next)
	return s
}

// Steps is the number of events taken.
func (r *Run) Steps() int { return len(r.events) }

// View is what properties see of the current world.
func (r *Run) View() properties.View { return r.view }

// Sent counts the messages sent so far, by kind (see model.Kinder).
func (r *Run) Sent() map[string]int {
	out := make(map[string]int, len(r.sent))
	for k, n := range r.sent {
		out[k] = n
	}
	return out
}

// Violation judges the Machine's properties in the current world, as the
// engines do (invariants everywhere, the others where a run ends, which
// here means a quiescent world), and returns the first that fails with
// what is wrong, or nil and "". A sometimes-property reached is no
// violation, and is not judged here (see Position's judgements). A property
// whose code panics ends the run with a Fault.
func (r *Run) Violation() (*properties.Property, string) {
	if r.fault != nil {
		return nil, ""
	}
	for _, p := range r.m.props {
		if p.When == properties.Possibly {
			continue
		}
		d, f := judgeSafely(p, r.view, r.Quiescent())
		if f != nil {
			r.fault = newFault(r.m.m, r.events, f, nil)
			r.evs, r.nproto = r.evs[:0], 0
			return nil, ""
		}
		if d != "" {
			return p, d
		}
	}
	return nil, ""
}

// Trace is the run so far, as a trace that vigil replay and Replay read;
// property and detail name what it shows (empty for a plain run).
func (r *Run) Trace(property, detail string) *Trace {
	t := buildTrace(r.m.m, r.events)
	t.Property, t.Detail, t.Quiescent = property, detail, r.Quiescent()
	return t
}
