package checker

import (
	"fmt"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Partial-order reduction. Where the steps of a set of nodes cannot be
// preceded by anything that would change them or give those nodes another
// step (see sim.Stepper.PersistentSets), the search explores their steps
// alone: the other nodes' steps are taken from the successors, in every
// order that matters. Two more conditions make it sound:
//
//   - invisibility: none of the set's steps observes anything, where the
//     worlds hold a monitor (the order of two observations is what a
//     monitor may tell apart, mid-run or where the run ends);
//   - the cycle proviso: where one of the set's steps leads back to a
//     level already reached (a cycle may close there), every step is
//     explored, so that no step is put off for ever round a cycle.
//
// What the reduced graph keeps (P. Godefroid, Partial-Order Methods for
// the Verification of Concurrent Systems, LNCS 1032, ch. 4 and 6). A run
// is a sequence of steps; two runs that differ only in the order of
// independent steps are one trace (A. Mazurkiewicz), and end in the same
// world having taken the same multiset of steps. From every world it
// reaches, the reduced search reaches every quiescent world the full one
// does, by a run of the same trace: the first step of the full run that
// belongs to the persistent set commutes to the front, and the rest
// follows by induction on the run's length. So:
//
//   - the quiescent worlds, and the verdicts judged in them, are kept;
//   - the message figures are kept: the messages of each kind a step sends
//     depend on its node's state and input alone, so a complete run sends
//     as many of each kind as any run of its trace, and the least and most
//     over complete runs, taken on the reduced graph, are the full
//     graph's. The full graph's most is unbounded where its complete runs
//     send ever more messages; the runs of their traces in the reduced
//     graph send as many, which a finite graph allows only round a cycle
//     that sends some: an unbounded most is kept too;
//   - whether the graph has a cycle: if the reduced graph has none, each
//     run of the full graph is a prefix, up to the order of independent
//     steps, of a run of the reduced one (the same induction on the height
//     of the world in the reduced graph, which is finite), so the full
//     graph's runs are as bounded as the reduced one's (the sweep and the
//     time in rounds rely on it);
//   - not fairness: on a reduced graph with a cycle, a step put off at some
//     worlds of the cycle is an edge at others only, so weak fairness,
//     which owes a step enabled at every world of the cycle, would judge
//     fair a cycle that the full graph shows unfair (TestPartialOrderLeaves
//     FairCyclesToTheFullSearch). A search that judges eventually-properties
//     and whose reduced graph has a cycle searches again without the
//     reduction (see search.end); where the reduced graph has none, runs
//     all end, and eventually-properties are judged where they end.
//
// Its runs to a violation need not be the shortest: the search for traces
// takes every step again (searchForTraces).

// partialOrder reports whether a search of m judging props with opt may
// reduce by partial order, and what Result.PartialOrder says of it.
func partialOrder(m *sim.Machine, props []*properties.Property, opt Options, sym *sim.Symmetry) (bool, string) {
	if opt.clocked { // (worlds with clocks, measuring rounds only)
		return false, ""
	}
	cfg := m.Config()
	live := false
	for _, p := range props {
		if p.EveryWorld() && !p.MonitorOnly {
			kind := "invariant "
			if p.When == properties.Possibly {
				kind = "sometimes-property "
			}
			return false, "none: " + kind + p.Name + " reads node states, which every step may change"
		}
		live = live || p.When == properties.Eventually
	}
	switch {
	case opt.Reduce == ReduceNone:
		return false, "none: as asked"
	case sym != nil:
		return false, "none: the search is reduced by symmetry"
	case opt.Sweep && opt.Window > 0:
		return false, "none: a sweep's window may close a cycle that the reduction could go round for ever"
	case cfg.Channels != model.FIFO:
		return false, "none: " + cfg.Channels.String() + " channels (a message sent later may be received first)"
	case cfg.Timing == model.Bounded:
		return false, "none: bounded timing (a tick ages every message)"
	case cfg.N > 64:
		return false, "none: more than 64 nodes"
	case live && opt.Fairness == NoFairness:
		return false, "none: eventually-properties judged without fairness"
	case opt.unreduced:
		return false, "none: eventually-properties are judged on cycles, and the reduced graph has one, so every world is searched"
	}
	return true, ""
}

// partialOrderSummary is Result.PartialOrder of a reduced search.
func partialOrderSummary(reduced, states int64) string {
	return fmt.Sprintf("partial order: some nodes' steps alone from %d of %d states", reduced, states)
}

// persistent narrows x.evs, x.fps and x.succs, the events enabled in w
// (nproto of them protocol events) and their successors, to the steps of
// some nodes where partial order allows it, and records their positions in
// x.narrowed.
func (x *expander) persistent(w sim.World, nproto int) bool {
	x.sets = x.st.PersistentSets(w, x.evs, nproto, x.sets[:0])
next:
	for _, set := range x.sets {
		x.narrowed = x.narrowed[:0]
		for pos, ev := range x.evs[:nproto] {
			if set&(1<<ev.Node) == 0 {
				continue
			}
			if st := x.succs[pos].Step; x.e.observed && st != nil && len(st.Obs) > 0 {
				continue next // visible
			}
			if x.e.reachedBefore(x.fps[pos]) {
				continue next // the cycle proviso
			}
			x.narrowed = append(x.narrowed, pos)
		}
		for k, pos := range x.narrowed {
			x.evs[k], x.fps[k], x.succs[k] = x.evs[pos], x.fps[pos], x.succs[pos]
		}
		n := len(x.narrowed)
		x.evs, x.fps, x.succs = x.evs[:n], x.fps[:n], x.succs[:n]
		return true
	}
	x.narrowed = x.narrowed[:0]
	return false
}

// enabledAt is the position in Enabled's order of the k-th event expanded.
func (x *expander) enabledAt(k int) int {
	if len(x.narrowed) > 0 {
		return x.narrowed[k]
	}
	return k
}

// reachedBefore reports whether fp is a state of a level already reached,
// the one being expanded included: an edge to it may close a cycle. A
// search with sets per level finds it in its window; one that keeps the
// graph keeps every state in one set, numbered breadth first, so the
// states reached are those numbered below the next level's first.
func (e *search) reachedBefore(fp uint64) bool {
	if e.seen.perLevel {
		_, _, earlier := e.seen.find(fp)
		return earlier
	}
	num, found := e.seen.next.lookup(fp)
	return found && num < e.levelEnd
}
