package checker

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// Searches run again after the first: for the runs to counterexamples and
// faults a search kept no parents for, and for the time in rounds.

// measureRounds gives res the time of complete runs in asynchronous
// rounds, measured by a second search over worlds with causal clocks
// (Options.Rounds), bounded by what is left of opt's bounds.
func measureRounds(ctx context.Context, m *sim.Machine, res *Result, opt Options, spent time.Duration) {
	clocked, err := m.Clocked()
	if err != nil {
		panic(fmt.Sprintf("checker: %s compiled, but not with causal clocks: %v", m.Name, err))
	}
	var ok bool
	if opt.Time, ok = timeLeft(opt.Time, spent); !ok {
		res.RoundsCut = CutTime
		return
	}
	opt.clocked, opt.Messages, opt.First = true, false, false
	r := exhaustive(ctx, clocked, nil, opt)
	switch {
	case r.Cut != CutNone:
		res.RoundsCut = r.Cut
	case r.Fault != nil: // the same handlers ran without fault: not expected
		res.RoundsCut = CutFault
	default:
		res.Rounds = r.Rounds
	}
}

// faultResult locates the fault met expanding state e.fault.src and gives
// the run to it. A search that kept no parents searches again, with
// them, to the fault's level, where the same fault comes back (the
// search is deterministic, and faulting calls are not memoised).
func (e *search) faultResult(m *sim.Machine, props []*properties.Property, opt Options) *Fault {
	if e.parents {
		path := e.pathTo(e.fault.src)
		if e.fault.pos >= 0 { // a property judging a successor: the run goes there
			path = append(path, uint32(e.fault.pos))
		}
		return newFault(m, e.events(path), e.fault.f, nil)
	}
	opt.traced, opt.MaxDepth, opt.Messages, opt.Progress, opt.Time = true, e.fault.depth+1, false, nil, 0
	opt.OnViolation = nil
	if again := exhaustive(context.Background(), m, props, opt); again.Fault != nil {
		return again.Fault
	}
	return faultOf(e.fault.f, &Trace{Fault: e.fault.f.Error()}) // not met again: no run to show
}

// searchForTraces searches again, keeping parents this time, down to the
// deepest of the first violations: only a search that keeps the graph
// keeps them on its first pass; in a passing run they would cost 8 bytes a
// state for nothing. The search is deterministic, so it meets the same
// first violations, unless a bound cuts it first (the memory of the
// parents, near a first pass cut by memory): then the runs it did not
// reach are left out.
//
// A search reduced by partial order met its violations on runs that need
// not be the shortest: the search for traces takes every step, down to the
// same depth, where a shortest run of each lies, and keeps what it finds
// there (another violation of the property, maybe, as short or shorter).
// Only if a bound cuts it are the reduced search's runs shown.
func (e *search) searchForTraces(m *sim.Machine, props []*properties.Property, opt Options) *Result {
	deepest := 0
	for _, v := range e.first {
		deepest = max(deepest, v.depth)
	}
	opt.traced, opt.MaxDepth, opt.Messages, opt.Progress, opt.Time = true, deepest, false, nil, 0
	opt.OnViolation = nil
	if e.por {
		full := opt
		full.Reduce = ReduceNone
		if again := exhaustive(context.Background(), m, props, full); again.Cut == CutNone || again.Cut == CutDepth {
			if metAll(e.first, again) {
				return again
			}
			// (a full search that misses one, where the memory bound
			// pressed it, gives way to the reduced search's own runs)
		}
	}
	again := exhaustive(context.Background(), m, props, opt)
	for p, v := range e.first {
		pr := again.Properties[p]
		if pr.Counterexample == nil && again.Cut != CutNone {
			continue
		}
		if pr.Counterexample == nil || pr.Detail != v.detail {
			panic(fmt.Sprintf("checker: the search for traces did not meet the violation of %s again", props[p].Name))
		}
	}
	return again
}

// metAll reports whether again holds a run of each violation of first.
func metAll(first map[int]violation, again *Result) bool {
	for p := range first {
		if again.Properties[p].Counterexample == nil {
			return false
		}
	}
	return true
}
