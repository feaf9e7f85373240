package checker

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/properties"
)

// replayCycleWords bounds the 8-byte words of the worlds a replay keeps
// (those of the run's cycle): 1 GiB.
var replayCycleWords = 1 << 27

// Replay re-runs a trace's events on m, checking that each is enabled in
// turn, and returns the trace rebuilt with m's states and judged against
// m's properties: the first property the run violates (invariants in its
// last world, quiescence properties when the run is over, Eventually
// properties on its cycle, if it has one) is named in the result. A trace
// with a cycle must return to the world the cycle starts from, and the
// cycle must be fair under the trace's fairness. A handler or monitor that
// fails on the way ends the replay: Replay returns the trace to the fault,
// with Trace.Fault set, and an error wrapping the *Fault. Replay keeps the
// worlds of the run's cycle alone, and refuses a cycle whose worlds take
// more than 1 GiB.
func Replay(m *Machine, in *Trace) (*Trace, error) {
	return replay(m.m, m.props, in)
}

// replay re-runs a trace's events on m, checking that each is enabled in
// turn, and returns the trace rebuilt with m's states, judged against props:
// the first property the run violates (invariants in its last world,
// quiescence properties when the run is over, Eventually properties on its
// cycle, if it has one) is named in the result. A trace with a cycle must
// return to the world the cycle starts from, and the cycle must be fair
// under the trace's fairness. A handler or monitor that fails on the way
// ends the replay: replay returns the trace to the fault, with
// Trace.Fault set, and an error wrapping the *Fault.
func replay(m *sim.Machine, props []*properties.Property, in *Trace) (*Trace, error) {
	if in.Cycle < 0 || in.Cycle > len(in.Events) {
		return nil, fmt.Errorf("the cycle of %d steps is longer than the run's %d", in.Cycle, len(in.Events))
	}
	if err := in.validHot(); err != nil {
		return nil, err
	}
	r := &replayer{m: m, in: in, st: m.NewStepper(), loop: len(in.Events) - in.Cycle - in.Hot}
	if t, err := r.run(); err != nil {
		return t, err
	}
	t := buildTrace(m, r.events)
	if in.Cycle > 0 {
		if out, done, err := r.judgeCycle(t, props); done {
			return out, err
		}
	}
	if in.Hot > 0 {
		if out, done, err := r.judgeHot(t, props); done {
			return out, err
		}
	}
	return r.judgeLast(t, props)
}

// replayer is a replay under way (see replay).
type replayer struct {
	m      *sim.Machine
	in     *Trace
	st     *sim.Stepper
	events []sim.Event // the run's events so far
	w      sim.World   // the world they lead to, once run is done
	// startedUp: the initial world was built without fault
	startedUp bool
	// Only the worlds of the cycle are kept, to see that it returns and
	// is fair: a long run of large worlds replays in the memory of a few,
	// and a cycle whose worlds outgrow replayCycleWords is refused. loop:
	// the steps before the cycle; worlds: those after steps loop,
	// loop+1, ...; kept: their words.
	loop   int
	worlds []sim.World
	kept   int
}

// run takes the trace's events in turn from the initial world, each
// found among the events enabled by its description. It returns an error
// for an event that is not enabled or a cycle too large to keep, or, at a
// fault, the trace to it and the fault as the error.
func (r *replayer) run() (*Trace, error) {
	st := r.st
	w, _ := st.Init()
	if f := st.TakeFault(); f != nil {
		return r.fault(0, f, false)
	}
	r.startedUp = true
	if err := r.keep(0, w); err != nil {
		return nil, err
	}
	for k, want := range r.in.Events {
		evs, _ := st.Enabled(w, nil)
		if f := st.TakeFault(); f != nil {
			return r.fault(k, f, false)
		}
		i := slices.IndexFunc(evs, func(ev sim.Event) bool { return describe(st, w, ev).key() == want.key() })
		if i < 0 {
			return nil, fmt.Errorf("step %d (%s) is not enabled at that point of the run", k+1, want)
		}
		r.events = append(r.events, evs[i])
		w, _ = st.Apply(w, evs[i], nil)
		if f := st.TakeFault(); f != nil {
			return r.fault(k, f, true)
		}
		if err := r.keep(k+1, w); err != nil {
			return nil, err
		}
	}
	st.Enabled(w, nil)
	if f := st.TakeFault(); f != nil {
		return r.fault(len(r.in.Events), f, false)
	}
	r.w = w
	return nil, nil
}

// keep keeps w, the world after k steps, if it is one of the cycle's.
func (r *replayer) keep(k int, w sim.World) error {
	if k < r.loop {
		return nil
	}
	if r.kept += len(w); r.kept > replayCycleWords {
		return fmt.Errorf("the worlds of the run's cycle of %d steps take more than %d MiB: too large to replay", r.in.Cycle, replayCycleWords>>17)
	}
	r.worlds = append(r.worlds, w)
	return nil
}

// fault reports a handler's or monitor's fault f met before step at (at
// start-up, or while listing the events of a world) or in it (inStep):
// the trace to it, and the fault as the error.
func (r *replayer) fault(at int, f *sim.Fault, inStep bool) (*Trace, error) {
	run := r.events
	var where string
	switch {
	case inStep:
		where = fmt.Sprintf("at step %d (%s)", at+1, r.in.Events[at])
	case !r.startedUp:
		where = "at start-up"
	default:
		// listing the events of a world runs the handlers of its
		// timeouts and actions: the one that failed ends the trace
		where = "listing the events enabled in the initial world"
		if at > 0 {
			where = fmt.Sprintf("listing the events enabled after step %d", at)
		}
		if e, ok := f.Event(); ok {
			run, inStep = append(slices.Clip(run), e), true
		}
	}
	t := faultTrace(r.m, run, inStep)
	t.Fault = f.Error()
	return t, fmt.Errorf("the run faults %s: %w", where, faultOf(f, t))
}

// judgeCycle checks that the run's cycle returns to the world it starts
// from and is fair, and judges the Eventually properties of props on it,
// naming in t the first that the cycle leaves pending for ever. done: the
// replay ends with out and err (an unfair or open cycle, a fault, a
// property stuck).
func (r *replayer) judgeCycle(t *Trace, props []*properties.Property) (out *Trace, done bool, err error) {
	in, st := r.in, r.st
	if !slices.Equal(r.worlds[0], r.w) {
		return nil, true, fmt.Errorf("the cycle (steps %d to %d) does not return to the world it starts from", r.loop+1, len(r.events))
	}
	fair := WeakFairness
	if in.Fairness != "" {
		if fair, err = ParseFairness(in.Fairness); err != nil {
			return nil, true, err
		}
	}
	if unmet := unfairOn(st, r.worlds[:in.Cycle], r.events[r.loop:], fair); unmet != "" {
		return nil, true, fmt.Errorf("the cycle is not fair (%v fairness): %s", fair, unmet)
	}
	t.Cycle, t.Fairness = in.Cycle, fair.String()
	for _, p := range props {
		if p.When != properties.Eventually {
			continue
		}
		stuck := ^uint64(0)
		for _, cw := range r.worlds {
			pend, f := pending(p, st.View(cw))
			if f != nil {
				t.Fault = f.Error()
				return t, true, fmt.Errorf("the run faults on its cycle: %w", faultOf(f, t))
			}
			stuck &= pend
		}
		if stuck != 0 {
			t.Property, t.Detail = p.Name, cycleDetail(p, bits.TrailingZeros64(stuck), fair)
			return t, true, nil
		}
	}
	return t, false, nil
}

// judgeLast judges props in the run's last world, naming in t the first
// it violates.
//
// A run that violates none but reaches the goal of a sometimes-property
// is that property's witness (Trace.Witness): the one the trace replayed
// names, if it reaches it, else the first.
func (r *replayer) judgeLast(t *Trace, props []*properties.Property) (*Trace, error) {
	view := r.st.View(r.w)
	var reached, reachedDetail string
	for _, p := range props {
		d, f := judgeSafely(p, view, t.Quiescent)
		if f != nil {
			t.Fault = f.Error()
			return t, fmt.Errorf("the run faults in its last world: %w", faultOf(f, t))
		}
		switch {
		case d == "":
		case p.When != properties.Possibly:
			t.Property, t.Detail = p.Name, d
			return t, nil
		case reached == "" || p.Name == r.in.Property:
			reached, reachedDetail = p.Name, d
		}
	}
	if reached != "" {
		t.Property, t.Detail, t.Witness = reached, reachedDetail, true
	}
	return t, nil
}

// unfairOn describes an event that the cycle of worlds (each left by the
// event of the same index) owes under fairness f and never takes, or
// returns "".
func unfairOn(st *sim.Stepper, worlds []sim.World, events []sim.Event, f Fairness) string {
	if f == NoFairness {
		return ""
	}
	taken := map[uint64]bool{}
	for i, ev := range events {
		taken[st.Identity(worlds[i], ev)] = true
	}
	count := map[uint64]int{} // worlds of the cycle enabling each event
	first := map[uint64]sim.Event{}
	var order []uint64
	for _, w := range worlds {
		evs, _ := st.Enabled(w, nil)
		seen := map[uint64]bool{}
		for _, ev := range evs {
			id := st.Identity(w, ev)
			if isFault(id) || seen[id] {
				continue
			}
			seen[id] = true
			if count[id] == 0 {
				first[id] = ev
				order = append(order, id)
			}
			count[id]++
		}
	}
	for _, id := range order {
		if !taken[id] && (f == StrongFairness || count[id] == len(worlds)) {
			return fmt.Sprintf("%s stays enabled and is never taken", describe(st, worlds[0], first[id]))
		}
	}
	return ""
}
