package checker

import (
	"math"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"
)

// graph is the explored state graph in compressed sparse rows: the edges of
// state i are to[start[i]:start[i+1]], each with a weight class: how many
// messages of each kind the step sent (sim.Step.Sent).
type graph struct {
	start    []uint32
	to       []uint32
	class    []uint16
	terminal []bool  // quiescent states
	classes  [][]int // per class: messages sent by kind index (see messageRanges)
	// For liveness only (see liveness.go): per edge, its event's label;
	// per label, the event's identity (sim.Stepper.Identity); per
	// Eventually property, per state, the obligations outstanding.
	label   []uint32
	ids     []uint64
	labelOf map[uint64]uint32
	pending [][]uint64
}

func (g *graph) startNode(quiescent bool) {
	g.start = append(g.start, uint32(len(g.to)))
	g.terminal = append(g.terminal, quiescent)
}

func (g *graph) addEdge(t uint32, step *sim.Step) {
	if len(g.to) == math.MaxUint32 {
		panic("more than 2^32 transitions in the state graph")
	}
	var c uint16 // a fault's edge (no step) sends nothing
	if step != nil {
		c = step.Sent
	}
	g.to = append(g.to, t)
	g.class = append(g.class, c)
}

// classesFrom fills in classes, the messages each class of edge sent, from
// sent (sim.Machine.SentCounts), for messageRanges.
func (g *graph) classesFrom(sent func(uint16) []int) {
	var top uint16
	for _, c := range g.class {
		top = max(top, c)
	}
	g.classes = make([][]int, int(top)+1)
	for c := range g.classes {
		g.classes[c] = sent(uint16(c))
	}
}

func (g *graph) n() int { return len(g.terminal) }

func (g *graph) bytes() int64 {
	b := int64(cap(g.start))*4 + int64(cap(g.to))*4 + int64(cap(g.class))*2 + int64(cap(g.terminal)) + int64(cap(g.label))*4
	for _, p := range g.pending {
		b += int64(cap(p)) * 8
	}
	return b
}

func (g *graph) edges(v int) (lo, hi uint32) {
	if v+1 < len(g.start) {
		return g.start[v], g.start[v+1]
	}
	return g.start[v], uint32(len(g.to))
}

// messageRanges computes, for all messages and for each kind, the least and
// most sent on a path from state 0 to a quiescent state. Least: Dial's
// shortest paths. Most: longest paths over the DAG of strongly connected
// components; a component that can reach quiescence and holds a cycle that
// sends messages makes the most unbounded.
// The Init steps' messages count in every run.
func (g *graph) messageRanges(kinds []string, initSteps []*sim.Step) []MessageRange {
	if g.n() == 0 || !slices.Contains(g.terminal, true) {
		return nil
	}
	comp, ncomp := tarjan(g.n(), g.edges, g.to)
	// members of each component, components numbered sinks first
	members := make([][]uint32, ncomp)
	for v, c := range comp {
		members[c] = append(members[c], uint32(v))
	}
	coReach := make([]bool, ncomp)
	for c := range ncomp {
		for _, v := range members[c] {
			if g.terminal[v] {
				coReach[c] = true
			}
			lo, hi := g.edges(int(v))
			for _, t := range g.to[lo:hi] {
				if comp[t] != uint32(c) && coReach[comp[t]] {
					coReach[c] = true
				}
			}
		}
	}
	initial := sim.SentByKind(initSteps...)
	if ncomp == g.n() && !g.selfLoop() {
		return g.acyclicRanges(kinds, initial, comp)
	}
	var out []MessageRange
	for d := -1; d < len(kinds); d++ {
		base := 0
		for k, x := range initial {
			if d < 0 || k == d {
				base += x
			}
		}
		weight := make([]int, len(g.classes))
		for c, counts := range g.classes {
			for k, x := range counts {
				if d < 0 || k == d {
					weight[c] += x
				}
			}
		}
		r := MessageRange{Kind: "total"}
		if d >= 0 {
			r.Kind = kinds[d]
		}
		r.Min = base + g.minToTerminal(weight)
		r.Max, r.Unbounded = g.maxToTerminal(weight, comp, members, coReach)
		r.Max += base
		out = append(out, r)
	}
	return out
}

// acyclic reports whether no run goes round a cycle of states.
func (g *graph) acyclic() bool {
	_, ncomp := tarjan(g.n(), g.edges, g.to)
	return ncomp == g.n() && !g.selfLoop()
}

func (g *graph) selfLoop() bool {
	for v := range g.n() {
		lo, hi := g.edges(v)
		for _, t := range g.to[lo:hi] {
			if int(t) == v {
				return true
			}
		}
	}
	return false
}

// acyclicRanges computes every dimension (total, then each kind) in one
// pass over the states in topological order: Tarjan numbers the components
// of an acyclic graph, single states, sinks first.
func (g *graph) acyclicRanges(kinds []string, initial []int, comp []uint32) []MessageRange {
	n, dims := g.n(), 1+len(kinds)
	order := make([]uint32, n)
	for v, c := range comp {
		order[n-1-int(c)] = uint32(v)
	}
	// weights[c*dims+d]: messages of dimension d sent by an edge of class c
	weights := make([]int32, len(g.classes)*dims)
	for c, counts := range g.classes {
		for k, x := range counts {
			weights[c*dims] += int32(x)
			weights[c*dims+1+k] += int32(x)
		}
	}
	lo := make([]int32, n*dims)
	hi := make([]int32, n*dims)
	for i := range lo {
		lo[i], hi[i] = math.MaxInt32, -1
	}
	for d := range dims {
		lo[d], hi[d] = 0, 0 // state 0, the initial world
	}
	out := make([]MessageRange, dims)
	for d := range out {
		out[d] = MessageRange{Kind: "total", Min: math.MaxInt}
		if d > 0 {
			out[d].Kind = kinds[d-1]
		}
	}
	for _, v := range order {
		vl, vh := lo[int(v)*dims:][:dims], hi[int(v)*dims:][:dims]
		if vh[0] < 0 {
			continue // not reached (cannot happen: every state is reachable)
		}
		if g.terminal[v] {
			for d := range dims {
				out[d].Min, out[d].Max = min(out[d].Min, int(vl[d])), max(out[d].Max, int(vh[d]))
			}
		}
		a, b := g.edges(int(v))
		for e := a; e < b; e++ {
			w := weights[int(g.class[e])*dims:][:dims]
			t := int(g.to[e]) * dims
			tl, th := lo[t:][:dims], hi[t:][:dims]
			for d := range dims {
				tl[d] = min(tl[d], vl[d]+w[d])
				th[d] = max(th[d], vh[d]+w[d])
			}
		}
	}
	for d := range out {
		base := 0
		for k, x := range initial {
			if d == 0 || k == d-1 {
				base += x
			}
		}
		out[d].Min += base
		out[d].Max += base
	}
	return out
}

func (g *graph) minToTerminal(weight []int) int {
	maxW := 0
	if len(weight) > 0 {
		maxW = slices.Max(weight)
	}
	dist := make([]int, g.n())
	for i := range dist {
		dist[i] = math.MaxInt
	}
	buckets := make([][]uint32, maxW+1)
	dist[0] = 0
	buckets[0] = []uint32{0}
	best := math.MaxInt
	for cur, pending := 0, 1; pending > 0; cur++ {
		b := &buckets[cur%len(buckets)]
		for len(*b) > 0 {
			v := (*b)[len(*b)-1]
			*b = (*b)[:len(*b)-1]
			pending--
			if dist[v] != cur {
				continue
			}
			if g.terminal[v] {
				best = min(best, cur)
			}
			lo, hi := g.edges(int(v))
			for e := lo; e < hi; e++ {
				t, nd := g.to[e], cur+weight[g.class[e]]
				if nd < dist[t] {
					dist[t] = nd
					buckets[nd%len(buckets)] = append(buckets[nd%len(buckets)], t)
					pending++
				}
			}
		}
	}
	return best
}

func (g *graph) maxToTerminal(weight []int, comp []uint32, members [][]uint32, coReach []bool) (int, bool) {
	longest := make([]int, len(members))
	for i := range longest {
		longest[i] = -1
	}
	longest[comp[0]] = 0
	best := -1
	for c := len(members) - 1; c >= 0; c-- { // sources first
		if longest[c] < 0 || !coReach[c] {
			continue
		}
		for _, v := range members[c] {
			if g.terminal[v] {
				best = max(best, longest[c])
			}
			lo, hi := g.edges(int(v))
			for e := lo; e < hi; e++ {
				t, w := comp[g.to[e]], weight[g.class[e]]
				if t == uint32(c) {
					if w > 0 {
						return 0, true
					}
					continue
				}
				longest[t] = max(longest[t], longest[c]+w)
			}
		}
	}
	return best, false
}

// tarjan numbers the strongly connected components of a graph of n nodes
// whose edges from v are to[edges(v)], without recursion. Components are
// numbered in the order Tarjan's algorithm completes them: every edge leads
// to a component of a number no larger than its source's.
func tarjan(n int, edges func(v int) (lo, hi uint32), to []uint32) (comp []uint32, ncomp int) {
	return tarjanIn(n, edges, to, nil)
}

// noComp is the component of a node left out of tarjanIn's subgraph.
const noComp = math.MaxUint32

// tarjanIn is tarjan on the subgraph of the nodes v < n with in(v) (nil:
// every node); the others get component noComp. Edges to nodes >= n (not
// expanded) are left out.
func tarjanIn(n int, edges func(v int) (lo, hi uint32), to []uint32, in func(v uint32) bool) (comp []uint32, ncomp int) {
	const unvisited = math.MaxUint32
	index := make([]uint32, n)
	low := make([]uint32, n)
	onStack := make([]bool, n)
	comp = make([]uint32, n)
	for i := range index {
		index[i] = unvisited
	}
	type frame struct{ v, e, hi uint32 }
	var stack []uint32
	var call []frame
	next := uint32(0)
	visit := func(v uint32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		lo, hi := edges(int(v))
		call = append(call, frame{v, lo, hi})
	}
	for root := range n {
		if index[root] != unvisited {
			continue
		}
		if in != nil && !in(uint32(root)) {
			comp[root] = noComp
			continue
		}
		visit(uint32(root))
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.e < f.hi {
				w := to[f.e]
				f.e++
				if int(w) >= n || in != nil && !in(w) {
					continue
				}
				if index[w] == unvisited {
					visit(w)
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = uint32(ncomp)
					if w == v {
						break
					}
				}
				ncomp++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	return comp, ncomp
}
