package checker

import (
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Fault is a fault of a protocol handler, monitor or property's code (see
// model.Fault) that ended a search, with the run that leads to it. The
// search ends there: Result.Verdict is Error, properties without a
// counterexample are Unknown. JSON shows the fault's fields and its run
// (trace) side by side.
type Fault struct {
	model.Fault
	// Trace runs from the initial world to the faulting step, the event
	// whose handler or monitor failed last (Trace.Fault says so). A fault
	// while listing a world's events (a node's Actions) ends the trace in
	// that world; one at start-up (Init, a monitor's Start) has no events
	// and no initial states.
	Trace *Trace `json:"trace"`
}

// faultOf is the fault f an engine met, with its run t.
func faultOf(f *sim.Fault, t *Trace) *Fault { return &Fault{Fault: f.Fault, Trace: t} }

// judgeSafely judges prop in v (see properties.Property.Judge), and turns a
// panic of its Check into a fault of the property: a bug of the property's
// code, which ends the search like a handler's.
func judgeSafely(prop *properties.Property, v properties.View, quiescent bool) (d string, f *sim.Fault) {
	defer func() {
		if r := recover(); r != nil {
			f = propertyFault(prop, "Check", r)
		}
	}()
	return prop.Judge(v, quiescent), nil
}

// pending is prop.Pending(v), a panic turned into a fault as by judgeSafely.
func pending(prop *properties.Property, v properties.View) (p uint64, f *sim.Fault) {
	defer func() {
		if r := recover(); r != nil {
			f = propertyFault(prop, "Pending", r)
		}
	}()
	return prop.Pending(v), nil
}

func propertyFault(prop *properties.Property, call string, r any) *sim.Fault {
	return &sim.Fault{Fault: model.Fault{Property: prop.Name, Handler: call, Node: model.None, Panic: fmt.Sprint(r), Stack: string(debug.Stack())}}
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
func faultRun(m *sim.Machine, events []sim.Event) (run []sim.Event, f *sim.Fault, inStep bool) {
	st := m.NewStepper()
	w, _ := st.Init()
	if f := st.TakeFault(); f != nil {
		return nil, f, false
	}
	// listing the events of a world runs the handlers of its timeouts and
	// actions (see sim.Stepper.Enabled): the one that faulted is last
	listFault := func(run []sim.Event, f *sim.Fault) ([]sim.Event, *sim.Fault, bool) {
		if e, ok := f.Event(); ok {
			return append(slices.Clip(run), e), f, true
		}
		return run, f, false
	}
	var next sim.World
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
func newFault(m *sim.Machine, events []sim.Event, f *sim.Fault, seed *uint64) *Fault {
	run, again, inStep := faultRun(m, events)
	if again != nil {
		f = again
	} else {
		run, inStep = events, false // not met again: the run to the world
	}
	t := faultTrace(m, run, inStep)
	t.Fault, t.Seed = f.Error(), seed
	return faultOf(f, t)
}

// faultTrace is the trace of run, which ends in a fault: in its last
// event's step (inStep), shown without changes since nothing came of it,
// or in its last world. A fault at start-up leaves no initial world.
func faultTrace(m *sim.Machine, run []sim.Event, inStep bool) *Trace {
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
