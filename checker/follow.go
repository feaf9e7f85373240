package checker

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/properties"
)

// Follower follows a run of a Machine one event at a time, as it is told
// them: the run of a real system, whose events arrive as it takes them
// (package checker/validate replays logs so). It keeps the world the run
// has reached and the trace that leads there, and judges the properties
// in that world on demand, so that a run of many thousands of events costs
// one step each rather than a replay of its whole prefix. A Follower is
// used from one goroutine at a time.
type Follower struct {
	m     *Machine
	st    *sim.Stepper
	w     sim.World
	spare sim.World // the world before the last step, reused for the next
	// the events enabled in w, those that stutter with them (stut), and
	// how many are the protocol's; listed: they are w's
	evs    []sim.Event
	stut   []bool
	nproto int
	listed bool
	trace  *Trace
}

// Follow starts following a run of m in its initial world, every node
// started. A handler or monitor that faults at start-up is an error
// wrapping the *Fault.
func Follow(m *Machine) (*Follower, error) {
	st := m.m.NewStepper()
	w, steps := st.Init()
	if f := st.TakeFault(); f != nil {
		return nil, fmt.Errorf("the run faults at start-up: %w", faultOf(f, &Trace{Fault: f.Error()}))
	}
	t := &Trace{}
	for i := range m.m.Config().N {
		t.Initial = append(t.Initial, nodeState(st, w, i))
	}
	startUp(t, m.m, steps)
	return &Follower{m: m, st: st, w: w, trace: t}, nil
}

// list lists the events enabled in the current world, stutters included,
// once per world.
func (f *Follower) list() error {
	if f.listed {
		return nil
	}
	f.evs, f.nproto, f.stut = f.st.EnabledAll(f.w, f.evs[:0], f.stut[:0])
	if fault := f.st.TakeFault(); fault != nil {
		// listing runs the handlers of the timeouts and actions enabled:
		// the one that failed ends the trace
		t := f.traceSoFar()
		if e, ok := fault.Event(); ok {
			t.Events, t.FaultInStep = append(t.Events, describe(f.st, f.w, e)), true
		}
		t.Fault = fault.Error()
		return fmt.Errorf("the run faults listing the events enabled after step %d: %w", len(f.trace.Events), faultOf(fault, t))
	}
	f.listed = true
	return nil
}

// Step takes event s, which must be enabled in the current world: it is
// found among those enabled as Replay finds a trace's events, by kind,
// node, sender, message, timer and action. A timeout, action or
// redelivery that would leave the world as it is, a stutter, is no step
// of the model's runs: Step takes it, returns stutter true, and leaves the
// world and the trace as they were. An event not enabled is an error; so
// is a handler or monitor that faults, wrapping the *Fault with the trace
// to it.
func (f *Follower) Step(s TraceStep) (stutter bool, err error) {
	if err := f.list(); err != nil {
		return false, err
	}
	want := s.key()
	for i, ev := range f.evs {
		if ev.Kind.String() != s.Kind || int(ev.Node) != s.Node || describe(f.st, f.w, ev).key() != want {
			continue
		}
		if f.stut[i] {
			return true, nil
		}
		next, step := f.st.Apply(f.w, ev, f.spare)
		if fault := f.st.TakeFault(); fault != nil {
			t := f.traceSoFar()
			t.Events, t.FaultInStep = append(t.Events, describe(f.st, f.w, ev)), true
			t.Fault = fault.Error()
			return false, fmt.Errorf("the run faults at step %d (%s): %w", len(t.Events), s, faultOf(fault, t))
		}
		f.trace.Events = append(f.trace.Events, traceStep(f.st, f.w, next, ev, step))
		f.w, f.spare = next, f.w
		f.listed = false
		return false, nil
	}
	return false, fmt.Errorf("%s is not enabled at that point of the run", s)
}

// Quiescent reports whether the current world is the end of a complete
// run: no delivery, timeout or action is enabled (faults may be). Listing
// the events runs the handlers of timeouts and actions, and one that
// faults is an error wrapping the *Fault.
func (f *Follower) Quiescent() (bool, error) {
	if err := f.list(); err != nil {
		return false, err
	}
	return f.nproto == 0, nil
}

// Judge judges the properties in the current world: the invariants, and
// where the world is quiescent the quiescence and eventually-properties
// too (a complete run ends there, as the searches judge it). It returns
// the first property violated and what is wrong, or "" "".
// Sometimes-properties, which a world reaches rather than violates, are
// not judged. A property, monitor or handler that faults is an error
// wrapping the *Fault.
func (f *Follower) Judge() (property, detail string, err error) {
	quiescent, err := f.Quiescent()
	if err != nil {
		return "", "", err
	}
	view := f.st.View(f.w)
	for _, p := range f.m.props {
		if p.When == properties.Possibly {
			continue
		}
		d, fault := judgeSafely(p, view, quiescent)
		if fault != nil {
			t := f.Trace()
			t.Fault = fault.Error()
			return "", "", fmt.Errorf("the run faults judging %s after step %d: %w", p.Name, len(t.Events), faultOf(fault, t))
		}
		if d != "" {
			return p.Name, d, nil
		}
	}
	return "", "", nil
}

// Trace is the run so far: the initial world, what the nodes did at
// start-up, and each step taken, with the nodes it changed; Quiescent
// when its world is (a world whose events fault when listed is not). It
// is the caller's.
func (f *Follower) Trace() *Trace {
	t := f.traceSoFar()
	if f.list() == nil {
		t.Quiescent = f.nproto == 0
	}
	return t
}

// traceSoFar is a copy of the trace of the steps taken.
func (f *Follower) traceSoFar() *Trace {
	t := *f.trace
	t.Initial, t.Start, t.Events = slices.Clone(t.Initial), slices.Clone(t.Start), slices.Clone(t.Events)
	t.StartObserved = slices.Clone(t.StartObserved)
	return &t
}
