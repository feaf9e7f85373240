package checker

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/properties"
)

// Fairness says which infinite runs count against an Eventually property:
// a run violates it when it keeps an obligation outstanding forever and is
// fair. Events are named by what they are, in every world (this message
// on this channel, this node's timer, this node's action); faults (crash,
// recover, partition, heal) are never owed.
type Fairness uint8

const (
	// WeakFairness (the default): no event stays enabled forever without
	// being taken. A message cannot stay deliverable forever, nor a timer
	// armed and fireable, nor a local action enabled.
	WeakFairness Fairness = iota
	// StrongFairness: no event is enabled again and again, yet never taken.
	StrongFairness
	// NoFairness: every infinite run counts, however unfair its scheduling.
	NoFairness
)

func (f Fairness) String() string { return [...]string{"weak", "strong", "none"}[f] }

// ParseFairness reads "weak", "strong" or "none".
func ParseFairness(s string) (Fairness, error) {
	for f := WeakFairness; f <= NoFairness; f++ {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown fairness %q (weak, strong or none)", s)
}

func isFault(id uint64) bool { return faultKind(sim.EventKind(id >> 60)) }

// addLabel names the event of the edge just added by its identity.
func (g *graph) addLabel(id uint64) {
	if g.labelOf == nil {
		g.labelOf = map[uint64]uint32{}
	}
	l, ok := g.labelOf[id]
	if !ok {
		l = uint32(len(g.ids))
		g.labelOf[id] = l
		g.ids = append(g.ids, id)
	}
	g.label = append(g.label, l)
}

// fairComponent finds, in the subgraph of the expanded states v with
// in(v), a set of states a fair run can visit forever, and returns the one
// whose first state (the one found first, so closest to the initial world)
// comes first; nil if there is none.
//
// A run that stays in a strongly connected set C of states forever, taking
// every edge inside C again and again, is as fair as any run confined to C
// can be: it takes every event some edge of C takes. Under weak fairness C
// is fair iff every event enabled in all of C's states is taken inside C;
// when it is not, no run inside C is fair either (that event stays enabled
// on all of them), so C is dropped whole. Under strong fairness every event
// enabled anywhere in C must be taken inside C; when one is not, the states
// enabling it are dropped and what is left of C is split again (the
// Emerson-Lei refinement).
func (g *graph) fairComponent(in func(v uint32) bool, f Fairness) []uint32 {
	n := g.n()
	alive := make([]bool, n)
	left := 0
	for v := range n {
		if in(uint32(v)) {
			alive[v] = true
			left++
		}
	}
	count := make([]int32, len(g.ids)) // states of the component enabling each label
	stamp := make([]uint32, len(g.ids))
	taken := make([]bool, len(g.ids))
	var touched []uint32
	var best []uint32
	for left > 0 {
		comp, ncomp := tarjanIn(n, g.edges, g.to, func(v uint32) bool { return alive[v] })
		members := make([][]uint32, ncomp)
		for v, c := range comp {
			if c != noComp {
				members[c] = append(members[c], uint32(v)) // in ascending order
			}
		}
		for c, ms := range members {
			internal := false
			for _, v := range ms {
				lo, hi := g.edges(int(v))
				for e := lo; e < hi; e++ {
					l := g.label[e]
					if stamp[l] == 0 && count[l] == 0 && !taken[l] {
						touched = append(touched, l)
					}
					if t := g.to[e]; int(t) < n && comp[t] == uint32(c) {
						internal, taken[l] = true, true
					}
					if stamp[l] != v+1 {
						stamp[l] = v + 1
						count[l]++
					}
				}
			}
			owed := func(l uint32) bool {
				switch {
				case isFault(g.ids[l]) || taken[l]:
					return false
				case f == WeakFairness:
					return int(count[l]) == len(ms)
				case f == StrongFairness:
					return count[l] > 0
				}
				return false
			}
			unfair := slices.ContainsFunc(touched, owed)
			switch {
			case internal && !unfair:
				if best == nil || ms[0] < best[0] {
					best = ms
				}
				fallthrough
			case !internal || f != StrongFairness:
				for _, v := range ms {
					alive[v] = false
				}
				left -= len(ms)
			default: // strong fairness: drop the states that enable an unmet event
				for _, v := range ms {
					lo, hi := g.edges(int(v))
					if slices.ContainsFunc(g.label[lo:hi], owed) {
						alive[v] = false
						left--
					}
				}
			}
			for _, l := range touched {
				count[l], stamp[l], taken[l] = 0, 0, false
			}
			touched = touched[:0]
		}
	}
	return best
}

// fairCycle returns a cycle through s inside the component comp (a fair
// one, from fairComponent) on which a run may go round forever fairly: as
// edge indices, the first leaving s and the last entering it. It walks
// greedily: while some event the walk so far owes (enabled in every state
// so far under weak fairness, in some state under strong) is untaken, it
// goes by the shortest way to an edge that takes it, or under weak
// fairness to a state that does not enable it; then it returns to s. Each
// leg takes an owed event or, under weak fairness, discharges one, so the
// walk ends; the component's fairness guarantees each leg exists.
func (g *graph) fairCycle(s uint32, comp []uint32, f Fairness) []uint32 {
	inC := make(map[uint32]bool, len(comp))
	for _, v := range comp {
		inC[v] = true
	}
	enables := func(v, l uint32) bool {
		lo, hi := g.edges(int(v))
		return slices.Contains(g.label[lo:hi], l)
	}
	owed := map[uint32]bool{} // events owed so far
	taken := map[uint32]bool{}
	visit := func(v uint32, first bool) {
		lo, hi := g.edges(int(v))
		switch f {
		case WeakFairness:
			if first {
				for _, l := range g.label[lo:hi] {
					if !isFault(g.ids[l]) {
						owed[l] = true
					}
				}
				return
			}
			for l := range owed {
				if !slices.Contains(g.label[lo:hi], l) {
					delete(owed, l)
				}
			}
		case StrongFairness:
			for _, l := range g.label[lo:hi] {
				if !isFault(g.ids[l]) {
					owed[l] = true
				}
			}
		}
	}
	visit(s, true)
	var cycle []uint32
	cur := s
	for {
		var need []uint32
		for l := range owed {
			if !taken[l] {
				need = append(need, l)
			}
		}
		if len(need) == 0 && len(cycle) > 0 && cur == s {
			return cycle
		}
		slices.Sort(need)
		// Shortest leg from cur, by breadth-first search inside comp.
		prev := map[uint32]uint32{cur: ^uint32(0)} // state -> edge it was reached by
		queue := []uint32{cur}
		var leg []uint32 // edges, reversed
		path := func(v uint32) {
			for e := prev[v]; e != ^uint32(0); e = prev[g.source(e)] {
				leg = append(leg, e)
			}
		}
	search:
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			lo, hi := g.edges(int(u))
			for e := lo; e < hi; e++ {
				t := g.to[e]
				if !inC[t] {
					continue
				}
				if len(need) == 0 && t == s || len(need) > 0 && g.label[e] == need[0] {
					leg = append(leg, e)
					path(u)
					break search
				}
				if _, seen := prev[t]; seen {
					continue
				}
				prev[t] = e
				if len(need) > 0 && f == WeakFairness && !enables(t, need[0]) {
					path(t)
					break search
				}
				queue = append(queue, t)
			}
		}
		if len(leg) == 0 {
			panic("checker: fairCycle on a component that is not fair")
		}
		for i := len(leg) - 1; i >= 0; i-- {
			e := leg[i]
			cycle = append(cycle, e)
			taken[g.label[e]] = true
			cur = g.to[e]
			visit(cur, false)
		}
	}
}

// cyclicStates marks the expanded states that lie on a cycle (a
// strongly connected component with an inner edge), or returns nil when
// there is none. A fair cycle keeping an obligation lies inside one, so
// judgeCycles looks no further; runs of bounded protocols are acyclic and
// cost this one pass.
func (g *graph) cyclicStates() []bool {
	n := g.n()
	comp, _ := tarjan(n, g.edges, g.to)
	var cyclic []bool
	for v := range n {
		lo, hi := g.edges(v)
		for _, t := range g.to[lo:hi] {
			if int(t) < n && comp[t] == comp[v] {
				if cyclic == nil {
					cyclic = make([]bool, n)
				}
				cyclic[v] = true
				break
			}
		}
	}
	return cyclic
}

// source returns the state edge e leaves.
func (g *graph) source(e uint32) uint32 {
	v, _ := slices.BinarySearch(g.start, e+1)
	return uint32(v - 1)
}

// judgeCycles looks, for each Eventually property without a counterexample
// yet, for a fair cycle of the explored state graph on which one of its
// obligations stays outstanding throughout, and records the one entered
// first as a lasso: the run to the cycle's first state, then the cycle.
// Every state on such a cycle was expanded, so a cycle found in a search
// cut short is a genuine counterexample too; only its absence says less.
func (e *search) judgeCycles() {
	f := e.fair
	var cyclic []bool // states on some cycle of the whole graph
	for k, p := range e.live {
		if e.failed(p) {
			continue
		}
		if cyclic == nil {
			if cyclic = e.g.cyclicStates(); cyclic == nil {
				return // the graph is acyclic: every run ends
			}
		}
		pend := e.g.pending[k]
		var some uint64
		for _, x := range pend {
			some |= x
		}
		var best []uint32
		bit := 0
		for b := range 64 {
			if some>>b&1 == 0 {
				continue
			}
			c := e.g.fairComponent(func(v uint32) bool { return cyclic[v] && pend[v]>>b&1 != 0 }, f)
			if c != nil && (best == nil || c[0] < best[0]) {
				best, bit = c, b
			}
		}
		if best == nil {
			continue
		}
		e.record(violation{prop: p, src: int(best[0]), pos: -1,
			detail: cycleDetail(e.props[p], bit, f), cycle: e.g.fairCycle(best[0], best, f)})
	}
}

// cycleDetail says what goes wrong on a cycle that keeps obligation bit
// of p outstanding and is fair under f.
func cycleDetail(p *properties.Property, bit int, f Fairness) string {
	what := fmt.Sprintf("obligation %d stays outstanding", bit)
	if p.Obligation != nil {
		what = p.Obligation(bit)
	}
	switch f {
	case StrongFairness:
		return what + " forever, on a strongly fair cycle"
	case NoFairness:
		return what + " forever, on a cycle"
	}
	return what + " forever, on a fair cycle"
}
