package checker

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"
)

// Scheduler is how a random walk chooses among the events enabled at each
// step. The zero Scheduler draws uniformly (see Random).
//
// PCT is the probabilistic concurrency testing of S. Burckhardt, P.
// Kothari, M. Musuvathi and S. Nagarakatte, A Randomized Scheduler with
// Probabilistic Guarantees of Finding Bugs (ASPLOS 2010), over nodes
// rather than threads: each walk gives the nodes (and the environment,
// which partitions, heals, loses and duplicates) distinct random
// priorities, and each step takes an event of the enabled node of highest
// priority, uniformly among its events (a delivery is its receiver's). At
// Depth-1 steps drawn at random among the first 4N² of the walk, the node
// that just acted drops below every other: a bug that needs Depth ordering
// constraints is found with a probability the paper bounds from below.
//
// Swarm is the swarm testing of A. Groce, C. Zhang, E. Eide, Y. Chen and
// J. Regehr, Swarm Testing (ISSTA 2012): each walk leaves out a random
// subset of the kinds of events it could choose (timeouts, local actions,
// and each kind of fault) and draws its own fault budget, up to the
// configuration's; deliveries are never left out, and when every enabled
// event is left out the walk takes one anyway, so no run is cut short.
type Scheduler struct {
	Kind  string // "", "uniform", "pct" or "swarm"
	Depth int    // PCT: the bug depth d, at least 1
}

// ParseScheduler reads uniform, pct:D or swarm.
func ParseScheduler(s string) (Scheduler, error) {
	switch {
	case s == "" || s == "uniform":
		return Scheduler{}, nil
	case s == "swarm":
		return Scheduler{Kind: "swarm"}, nil
	case strings.HasPrefix(s, "pct:"):
		d, err := strconv.Atoi(s[len("pct:"):])
		if err != nil || d < 1 || d > 100 {
			return Scheduler{}, fmt.Errorf("scheduler %q: the depth of pct:D is a whole number from 1 to 100", s)
		}
		return Scheduler{Kind: "pct", Depth: d}, nil
	}
	return Scheduler{}, fmt.Errorf("unknown scheduler %q (uniform, pct:D or swarm)", s)
}

func (s Scheduler) String() string {
	switch s.Kind {
	case "pct":
		return fmt.Sprintf("pct:%d", s.Depth)
	case "swarm":
		return "swarm"
	}
	return "uniform"
}

// chooser is a Scheduler at work in one walk.
type chooser interface {
	// choose takes one of evs, the events enabled at step (from 0), in
	// canonical order; false where only faults are enabled (the run is
	// over) and the scheduler injects no more.
	choose(evs []sim.Event, step int) (sim.Event, bool)
}

func (s Scheduler) start(rng *rand.Rand, n int, faults int) chooser {
	switch s.Kind {
	case "pct":
		return newPCT(rng, n, s.Depth)
	case "swarm":
		return newSwarm(rng, faults)
	}
	return uniform{rng}
}

type uniform struct{ rng *rand.Rand }

func (u uniform) choose(evs []sim.Event, _ int) (sim.Event, bool) { return pick(u.rng, evs), true }

// pct: prio[i] is node i's priority (the environment's at index n);
// higher goes first.
type pct struct {
	rng     *rand.Rand
	prio    []int
	changes []int // the steps after which the last actor drops, sorted
	lowest  int
	mine    []sim.Event // scratch: the chosen node's events
}

func newPCT(rng *rand.Rand, n, depth int) *pct {
	p := &pct{rng: rng, prio: make([]int, n+1)}
	for i, r := range rng.Perm(n + 1) {
		p.prio[i] = depth + r // above every priority a change gives
	}
	k := max(1, 4*n*n)
	for range depth - 1 {
		p.changes = append(p.changes, rng.IntN(k))
	}
	slices.Sort(p.changes)
	p.lowest = depth - 1
	return p
}

func actor(ev sim.Event, n int) int {
	switch ev.Kind {
	case sim.Partition, sim.Heal, sim.Lose, sim.Duplicate, sim.Tick:
		return n
	}
	return int(ev.Node)
}

func (p *pct) choose(evs []sim.Event, step int) (sim.Event, bool) {
	n := len(p.prio) - 1
	best := -1
	for _, ev := range evs {
		if a := actor(ev, n); best < 0 || p.prio[a] > p.prio[best] {
			best = a
		}
	}
	p.mine = p.mine[:0]
	for _, ev := range evs {
		if actor(ev, n) == best {
			p.mine = append(p.mine, ev)
		}
	}
	ev := pick(p.rng, p.mine)
	for len(p.changes) > 0 && p.changes[0] <= step {
		p.changes = p.changes[1:]
		p.prio[best] = p.lowest
		p.lowest--
	}
	return ev, true
}

// swarm: the kinds of events a walk leaves out, and its fault budget.
type swarm struct {
	rng    *rand.Rand
	off    [sim.Traitor + 1]bool
	budget int         // faults left to inject
	kept   []sim.Event // scratch: the events the walk may choose
}

func newSwarm(rng *rand.Rand, faults int) *swarm {
	s := &swarm{rng: rng, budget: rng.IntN(faults + 1)}
	for _, k := range []sim.EventKind{sim.Timeout, sim.Act, sim.Crash, sim.Recover, sim.Partition, sim.Heal, sim.Lose, sim.Duplicate} {
		s.off[k] = rng.IntN(2) == 0
	}
	return s
}

func (s *swarm) choose(evs []sim.Event, _ int) (sim.Event, bool) {
	keep := func(ok func(sim.Event) bool) []sim.Event {
		s.kept = s.kept[:0]
		for _, ev := range evs {
			if ok(ev) {
				s.kept = append(s.kept, ev)
			}
		}
		return s.kept
	}
	kept := keep(func(ev sim.Event) bool { return !s.off[ev.Kind] && !(faultKind(ev.Kind) && s.budget == 0) })
	if len(kept) == 0 {
		// no run is cut short by what a walk leaves out
		if kept = keep(func(ev sim.Event) bool { return !faultKind(ev.Kind) }); len(kept) == 0 {
			return sim.Event{}, false
		}
	}
	ev := pick(s.rng, kept)
	if faultKind(ev.Kind) {
		s.budget--
	}
	return ev, true
}
