package checker

import (
	"fmt"

	"github.com/vigil-check/vigil/properties"
)

// Sometimes-properties (properties.Possibly) are judged by the engines as
// the invariant "the goal is never reached": a world that breaks it is the
// property's witness, found and recorded as a counterexample is. Two
// things set them apart: a witness stops nothing (settled, anyViolation),
// and the public engines (Exhaustive, Random, MergeShards; Auto through
// its parts) turn the verdicts round as they return (settleSometimes);
// the searches an engine runs inside for its own ends (for traces,
// faults, rounds) keep them as they are.

// settled reports whether a search judging props has nothing left to find,
// found(p) saying whether property p has a violation (a witness, for a
// sometimes-property): every property that is not a sometimes-property has
// one, or, where all are, every one was reached. A witness alone never
// stops a search that has other properties to judge, so that adding a
// sometimes-property does not change what it explores.
func settled(props []*properties.Property, found func(p int) bool) bool {
	others, reached, some := 0, 0, 0
	for p, prop := range props {
		switch {
		case prop.When != properties.Possibly && !found(p):
			return false
		case prop.When != properties.Possibly:
			others++
		case found(p):
			reached++
			some++
		default:
			some++
		}
	}
	return others > 0 || (some > 0 && reached == some)
}

// anyViolation reports whether a property that is not a sometimes-property
// has a violation: what stops a search asked to stop at the first one.
func anyViolation(props []*properties.Property, found func(p int) bool) bool {
	for p, prop := range props {
		if prop.When != properties.Possibly && found(p) {
			return true
		}
	}
	return false
}

// settleSometimes turns the engines' verdicts on sometimes-properties
// into theirs: a property "failed" where its goal was reached, which is
// its pass, with that run as its witness; one never reached fails where
// the search explored every reachable world, and is unknown otherwise (a
// bound cut the search, it stopped early, or it was random). Then r's
// verdict is made again from its properties'.
func (r *Result) settleSometimes() {
	defer func() {
		if r.Refused == "" {
			r.decide()
		} // (a refused search's verdict is Error, whatever its properties')
	}()
	exhausted := r.Mode == ModeExhaustive && r.Cut == CutNone && r.Fault == nil && !r.Stopped && !r.StoppedFirst
	for i := range r.Properties {
		pr := &r.Properties[i]
		if !pr.Sometimes {
			continue
		}
		switch pr.Verdict {
		case Fail:
			pr.Verdict, pr.Witness, pr.Counterexample = Pass, pr.Counterexample, nil
			if pr.Witness != nil {
				pr.Witness.Witness = true
			}
		case Pass, Unknown:
			if pr.Verdict == Unknown && pr.Detail != "" {
				break // (not judged to the end, or a fault ended the search: it says so)
			}
			pr.Verdict, pr.Detail = Unknown, notReached(r)
			if exhausted {
				pr.Verdict, pr.Detail = Fail, fmt.Sprintf("no reachable world reaches it (%d states searched)", r.Stats.States)
			}
		}
	}
}

// notReached says why a sometimes-property that no run of r reached is
// unknown.
func notReached(r *Result) string {
	switch {
	case r.Mode != ModeExhaustive:
		return fmt.Sprintf("no walk reached it (%d walks): a random search is not a proof", r.Stats.Walks)
	case r.Cut != CutNone:
		return fmt.Sprintf("no world reached it in the %d states searched before the %s bound cut the search", r.Stats.States, r.Cut)
	}
	return fmt.Sprintf("no world reached it in the %d states searched before the search stopped", r.Stats.States)
}

// Vacuity is a pass that may be vacuous: Property passed, but no run the
// search explored reached its trigger (Property.Trigger), whose verdict
// was fail or unknown (Detail says why).
type Vacuity struct {
	Property string `json:"property"`
	Trigger  string `json:"trigger"`
	Doc      string `json:"trigger_doc"` // the trigger's goal: "some node is told a leader"
	Detail   string `json:"detail"`
}

func (v Vacuity) String() string {
	return fmt.Sprintf("%s passed, but no run reached %s (%s): the pass may be vacuous", v.Property, v.Trigger, v.Doc)
}

// report makes res, a search of all m's properties, the result of those
// asked for: a pass whose trigger no run reached is recorded
// (Result.Vacuous), and the triggers not asked for are dropped, with what
// their verdicts added to res's. It returns res.
func (m *Machine) report(res *Result) *Result {
	for _, p := range m.props[:m.shown] {
		pr, tr := res.Property(p.Name), (*PropertyResult)(nil)
		if p.Trigger != nil {
			tr = res.Property(p.Trigger.Name)
		}
		if pr != nil && tr != nil && pr.Verdict == Pass && tr.Verdict != Pass {
			res.Vacuous = append(res.Vacuous, Vacuity{Property: p.Name, Trigger: tr.Name, Doc: p.Trigger.Doc, Detail: tr.Detail})
		}
	}
	if len(res.Properties) > m.shown {
		res.Properties = res.Properties[:m.shown]
		if res.Refused == "" {
			res.decide()
		}
	}
	return res
}
