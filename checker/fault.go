package checker

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Fault is a protocol handler or monitor that failed during a search (see
// model.Fault: it panicked, misused its context, or mutated its input),
// with the run that leads to it. The search ends there: Result.Verdict is
// Error, properties without a counterexample are Unknown.
type Fault struct {
	model.Fault
	// Trace runs from the initial world to the faulting step, the event
	// whose handler or monitor failed last (Trace.Fault says so). A fault
	// while listing a world's events (a node's Actions) ends the trace in
	// that world; one at start-up (Init, a monitor's Start) has no events
	// and no initial states.
	Trace *Trace `json:"trace"`
}

// faultDetail is the detail of a property left Unknown by a fault.
const faultDetail = "not judged to the end: a handler or monitor faulted"

// faultRun replays events with a fresh Stepper of m to the first fault. It
// returns the events up to the one whose step faulted (included, inStep),
// or up to the world in which listing the enabled events faulted (a node's
// Actions), and the fault; nil when the run does not fault. Past the
// events, it tries every event enabled in the last world, in order: an
// engine that met a fault while expanding a world gives the run to that
// world. Handlers are pure and faulting calls are not memoised, so the
// fault comes back.
func faultRun(m *model.Machine, events []model.Event) (run []model.Event, f *model.Fault, inStep bool) {
	st := m.NewStepper()
	w, _ := st.Init()
	if f := st.TakeFault(); f != nil {
		return nil, f, false
	}
	// listing the events of a world runs the handlers of its timeouts and
	// actions (see model.Stepper.Enabled): the one that faulted is last
	listFault := func(run []model.Event, f *model.Fault) ([]model.Event, *model.Fault, bool) {
		if e, ok := f.Event(); ok {
			return append(slices.Clip(run), e), f, true
		}
		return run, f, false
	}
	var next model.World
	for i, ev := range events {
		st.Enabled(w, nil)
		if f := st.TakeFault(); f != nil {
			return listFault(events[:i], f)
		}
		next, _ = st.Apply(w, ev, next)
		if f := st.TakeFault(); f != nil {
			return slices.Clip(events[:i+1]), f, true
		}
		w, next = next, w
	}
	evs, _ := st.Enabled(w, nil)
	if f := st.TakeFault(); f != nil {
		return listFault(events, f)
	}
	for _, ev := range evs {
		next, _ = st.Apply(w, ev, next)
		if f := st.TakeFault(); f != nil {
			return append(slices.Clip(events), ev), f, true
		}
	}
	return events, nil, false
}

// newFault locates the fault f that an engine met past events (see
// faultRun) and returns it with its trace; seed is the random walk's, or
// nil.
func newFault(m *model.Machine, events []model.Event, f *model.Fault, seed *uint64) *Fault {
	run, again, inStep := faultRun(m, events)
	if again != nil {
		f = again
	} else {
		run, inStep = events, false // not met again: the run to the world
	}
	t := faultTrace(m, run, inStep)
	t.Fault, t.Seed = f.Error(), seed
	return &Fault{Fault: *f, Trace: t}
}

// faultTrace is the trace of run, which ends in a fault: in its last
// event's step (inStep), shown without changes since nothing came of it,
// or in its last world. A fault at start-up leaves no initial world.
func faultTrace(m *model.Machine, run []model.Event, inStep bool) *Trace {
	st := m.NewStepper()
	w, _ := st.Init()
	t := &Trace{}
	if st.TakeFault() != nil {
		return t
	}
	last := len(run)
	if inStep {
		last--
	}
	t, w = replayEvents(st, w, run[:last])
	if inStep {
		t.Events = append(t.Events, describe(st, w, run[last]))
		t.FaultInStep = true
	}
	st.TakeFault()
	return t
}
