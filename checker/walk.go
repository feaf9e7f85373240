package checker

import (
	"fmt"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// Position is a world reached by events chosen by hand, as a person
// stepping through a protocol does (vigil explore): the run to it, what
// can happen next, and how each property stands there.
type Position struct {
	// Run is the run from the initial world; its Property and Detail are
	// empty (Walk judges the world in Judged).
	Run *Trace `json:"run"`
	// Enabled are the events enabled in the world, in the order a choice
	// of Walk numbers them.
	Enabled []TraceStep `json:"enabled"`
	// States: every node's state in the world.
	States []NodeState `json:"states"`
	// Quiescent: nothing but faults can happen, so the run is over.
	Quiescent bool        `json:"quiescent"`
	Judged    []Judgement `json:"judged"`
}

// Judgement is how a property stands in one world.
type Judgement struct {
	Property string `json:"property"`
	When     string `json:"when"`
	// Verdict is "holds", "violated", "pending" (an Eventually property
	// with obligations outstanding, which a run that ends here would
	// violate) or "judged at the end" (an AtQuiescence property in a world
	// where the run goes on); for a sometimes-property, "reached" or "not
	// reached" (its goal, in this world).
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

// Walk replays a run given as choices, from the initial world: choice k is
// the index, among the events enabled after k steps, of the event taken.
// It returns the world the run reaches. A choice out of range is an error
// that names it; so is a handler or monitor that fails on the way.
func (m *Machine) Walk(choices []int) (*Position, error) {
	st := m.m.NewStepper()
	w, _ := st.Init()
	if f := st.TakeFault(); f != nil {
		return nil, fmt.Errorf("the run faults at start-up: %w", faultOf(f, nil))
	}
	var events []sim.Event
	for k, c := range choices {
		evs, _ := st.Enabled(w, nil)
		if f := st.TakeFault(); f != nil {
			return nil, fmt.Errorf("the run faults listing the events after step %d: %w", k, faultOf(f, nil))
		}
		if c < 0 || c >= len(evs) {
			return nil, fmt.Errorf("step %d chooses event %d, but %d are enabled", k+1, c, len(evs))
		}
		events = append(events, evs[c])
		w, _ = st.Apply(w, evs[c], nil)
		if f := st.TakeFault(); f != nil {
			return nil, fmt.Errorf("the run faults at step %d: %w", k+1, faultOf(f, nil))
		}
	}
	evs, nproto := st.Enabled(w, nil)
	if f := st.TakeFault(); f != nil {
		return nil, fmt.Errorf("the run faults listing the events after step %d: %w", len(choices), faultOf(f, nil))
	}
	pos := &Position{Run: buildTrace(m.m, events), Quiescent: nproto == 0, Enabled: []TraceStep{}}
	for _, ev := range evs {
		pos.Enabled = append(pos.Enabled, describe(st, w, ev))
	}
	for i := range m.m.Config().N {
		pos.States = append(pos.States, nodeState(st, w, i))
	}
	view := st.View(w)
	for _, p := range m.props[:m.shown] { // (the triggers not asked for are no verdict of their own)
		j := Judgement{Property: p.Name, When: p.When.String(), Verdict: "holds"}
		d, f := judgeSafely(p, view, pos.Quiescent)
		switch {
		case f != nil:
		case p.When == properties.Possibly && d != "":
			j.Verdict, j.Detail = "reached", d
		case p.When == properties.Possibly:
			j.Verdict = "not reached"
		case d != "":
			j.Verdict, j.Detail = "violated", d
		case pos.Quiescent || p.When == properties.Always:
		case p.When == properties.AtQuiescence:
			j.Verdict = "judged at the end"
		default: // Eventually: the obligations outstanding, were the run to end here
			if d, f = judgeSafely(p, view, true); d != "" {
				j.Verdict, j.Detail = "pending", strings.TrimPrefix(d, "the run ends while ")
			}
		}
		if f != nil {
			return nil, fmt.Errorf("judging %s after step %d: %w", p.Name, len(choices), faultOf(f, pos.Run))
		}
		pos.Judged = append(pos.Judged, j)
	}
	return pos, nil
}

// Choices returns the choices that Walk takes to replay t, a run of m
// (a counterexample, say), or an error naming the first step of t that is
// not enabled where the run has got to.
func (m *Machine) Choices(t *Trace) ([]int, error) {
	st := m.m.NewStepper()
	w, _ := st.Init()
	var choices []int
	for k, want := range t.Events {
		evs, _ := st.Enabled(w, nil)
		at := -1
		for i, ev := range evs {
			if describe(st, w, ev).key() == want.key() {
				at = i
				break
			}
		}
		if at < 0 {
			return nil, fmt.Errorf("step %d (%s) is not enabled at that point of the run", k+1, want)
		}
		choices = append(choices, at)
		w, _ = st.Apply(w, evs[at], nil)
	}
	if f := st.TakeFault(); f != nil {
		return nil, fmt.Errorf("the run faults: %w", faultOf(f, nil))
	}
	return choices, nil
}
