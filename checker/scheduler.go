package checker

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
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

// uniform reports whether s draws uniformly among the events enabled.
func (s Scheduler) uniform() bool { return s.Kind == "" || s.Kind == "uniform" }

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
	// choose takes one of the events enabled at step (from 0), listed in
	// canonical order as runs of one kind and node each, and returns its
	// position among them; false where only faults are enabled (the run
	// is over) and the scheduler injects no more. It reads an event's
	// kind, node and position alone, however the list is cut into runs,
	// so that a Walker's runs (see sim.Walker.Moves) draw as a Stepper's
	// events do (see runsOf).
	choose(runs []sim.Run, step int) (int, bool)
	// byNode reports whether choose reads which node each delivery is
	// to. If not, the deliveries may come as one run that names no node;
	// if so, they may come in any order but each node's own: choose
	// depends on the order of each node's events alone (see
	// sim.Walker.Moves).
	byNode() bool
}

func (s Scheduler) start(rng *rand.Rand, n int, faults int) chooser {
	switch s.Kind {
	case "pct":
		return newPCT(rng, n, s.Depth)
	case "swarm":
		return newSwarm(rng, faults)
	}
	return &uniform{rng: rng}
}

type uniform struct {
	rng    *rand.Rand
	groups [][2]int // scratch (see pickRun)
}

func (*uniform) byNode() bool { return false }

func (u *uniform) choose(runs []sim.Run, _ int) (int, bool) {
	return pickRun(u.rng, runs, &u.groups), true
}

// pct: prio[i] is node i's priority (the environment's at index n);
// higher goes first.
type pct struct {
	rng     *rand.Rand
	prio    []int
	changes []int // the steps after which the last actor drops, sorted
	lowest  int
	// scratch: the chosen node's runs, where each starts among the
	// events enabled, and pickRun's groups
	sub
}

// sub is the runs of events a chooser keeps of those enabled, and where
// each starts among them.
type sub struct {
	runs   []sim.Run
	at     []int
	groups [][2]int
}

// keep keeps the runs of runs that ok accepts.
func (s *sub) keep(runs []sim.Run, ok func(sim.Run) bool) []sim.Run {
	s.runs, s.at = s.runs[:0], s.at[:0]
	at := 0
	for _, r := range runs {
		if ok(r) {
			s.runs, s.at = append(s.runs, r), append(s.at, at)
		}
		at += r.N
	}
	return s.runs
}

// pick draws one of the events kept, as pickRun does, and returns its
// position among those enabled.
func (s *sub) pick(rng *rand.Rand) int {
	k := pickRun(rng, s.runs, &s.groups)
	for i, r := range s.runs {
		if k < r.N {
			return s.at[i] + k
		}
		k -= r.N
	}
	panic("pick: event out of range")
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

// actor is the node that acts in events of kind k at node i; n, the
// environment, partitions, heals, loses and duplicates (and lets time
// pass).
func actor(k sim.EventKind, i model.NodeID, n int) int {
	switch k {
	case sim.Partition, sim.Heal, sim.Lose, sim.Duplicate, sim.Tick:
		return n
	}
	return int(i)
}

// byNode: PCT chooses the node first, then one of its events.
func (*pct) byNode() bool { return true }

func (p *pct) choose(runs []sim.Run, step int) (int, bool) {
	n := len(p.prio) - 1
	best := -1
	for _, r := range runs {
		if a := actor(r.Kind, r.Node, n); best < 0 || p.prio[a] > p.prio[best] {
			best = a
		}
	}
	p.keep(runs, func(r sim.Run) bool { return actor(r.Kind, r.Node, n) == best })
	k := p.pick(p.rng)
	for len(p.changes) > 0 && p.changes[0] <= step {
		p.changes = p.changes[1:]
		p.prio[best] = p.lowest
		p.lowest--
	}
	return k, true
}

// swarm: the kinds of events a walk leaves out, and its fault budget.
type swarm struct {
	rng    *rand.Rand
	off    [sim.Traitor + 1]bool
	budget int // faults left to inject
	sub        // scratch: the events the walk may choose
}

func newSwarm(rng *rand.Rand, faults int) *swarm {
	s := &swarm{rng: rng, budget: rng.IntN(faults + 1)}
	for _, k := range []sim.EventKind{sim.Timeout, sim.Act, sim.Crash, sim.Recover, sim.Partition, sim.Heal, sim.Lose, sim.Duplicate} {
		s.off[k] = rng.IntN(2) == 0
	}
	return s
}

func (*swarm) byNode() bool { return false }

func (s *swarm) choose(runs []sim.Run, _ int) (int, bool) {
	kept := s.keep(runs, func(r sim.Run) bool { return !s.off[r.Kind] && !(faultKind(r.Kind) && s.budget == 0) })
	if len(kept) == 0 {
		// no run is cut short by what a walk leaves out
		if kept = s.keep(runs, func(r sim.Run) bool { return !faultKind(r.Kind) }); len(kept) == 0 {
			return 0, false
		}
	}
	k := s.pick(s.rng)
	if faultKind(kindAt(runs, k)) {
		s.budget--
	}
	return k, true
}

// kindAt is the kind of the k-th event of runs.
func kindAt(runs []sim.Run, k int) sim.EventKind {
	for _, r := range runs {
		if k < r.N {
			return r.Kind
		}
		k -= r.N
	}
	panic("kindAt: event out of range")
}
