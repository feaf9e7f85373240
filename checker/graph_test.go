package checker

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// The weight classes shared by the hand-made graphs below, over two message
// kinds, "a" (index 0) and "b" (index 1).
const (
	c0  = iota // sends nothing
	cA         // one a
	cB         // one b
	cAB        // two a and one b: total 3
)

var (
	testKinds   = []string{"a", "b"}
	testClasses = [][]int{c0: nil, cA: {1}, cB: {0, 1}, cAB: {2, 1}}
)

// arc is an edge of a hand-made graph, with its weight class.
type arc struct {
	from, to uint32
	class    uint16
}

// makeGraph lays out a graph of n states the way startNode and addEdge do:
// compressed sparse rows, the edges of state v to[start[v]:start[v+1]], in
// the order given.
func makeGraph(n int, terminals []uint32, classes [][]int, arcs []arc) *graph {
	g := &graph{classes: classes}
	for v := range n {
		g.startNode(slices.Contains(terminals, uint32(v)))
		for _, a := range arcs {
			if a.from == uint32(v) {
				g.to = append(g.to, a.to)
				g.class = append(g.class, a.class)
			}
		}
	}
	return g
}

// weights returns the weight of each class over the kinds selected by kind
// (-1: every kind), as messageRanges computes it.
func weights(classes [][]int, kind int) []int {
	w := make([]int, len(classes))
	for c, counts := range classes {
		for k, x := range counts {
			if kind < 0 || k == kind {
				w[c] += x
			}
		}
	}
	return w
}

// ignoreUnboundedMax clears Max where it is meaningless: on unbounded ranges.
func ignoreUnboundedMax(rs []MessageRange) []MessageRange {
	out := slices.Clone(rs)
	for i := range out {
		if out[i].Unbounded {
			out[i].Max = 0
		}
	}
	return out
}

// handGraph is a small graph with its answers worked out by hand.
type handGraph struct {
	name      string
	n         int
	terminals []uint32
	arcs      []arc
	// sccs: the strongly connected components, as sets of states.
	sccs [][]uint32
	// want: messageRanges with no Init sends, total first then a and b
	// (Max is ignored where Unbounded).
	want []MessageRange
}

var handGraphs = []handGraph{
	{
		// 0 -a-> 1 -b-> 2 -aab-> 3(T): one run, a = 1+2, b = 1+1, total 5.
		name: "chain", n: 4, terminals: []uint32{3},
		arcs: []arc{{0, 1, cA}, {1, 2, cB}, {2, 3, cAB}},
		sccs: [][]uint32{{0}, {1}, {2}, {3}},
		want: []MessageRange{{"total", 5, 5, false}, {"a", 3, 3, false}, {"b", 2, 2, false}},
	},
	{
		// 0 -a-> 1 -aab-> 3(T) sends a=3 b=1 (total 4);
		// 0 -b-> 2 -0-> 3(T) sends a=0 b=1 (total 1).
		name: "diamond", n: 4, terminals: []uint32{3},
		arcs: []arc{{0, 1, cA}, {0, 2, cB}, {1, 3, cAB}, {2, 3, c0}},
		sccs: [][]uint32{{0}, {1}, {2}, {3}},
		want: []MessageRange{{"total", 1, 4, false}, {"a", 0, 3, false}, {"b", 1, 1, false}},
	},
	{
		// Terminals 1 and 3; 1 (quiescent, but with a fault edge) goes on
		// to 3. Complete runs: 0-1 (a=1 b=0), 0-1-3 (a=1 b=1), 0-2-3
		// (a=2 b=2). State 4 is a dead end that is not quiescent: its heavy
		// edge counts for no complete run.
		name: "two terminals", n: 5, terminals: []uint32{1, 3},
		arcs: []arc{{0, 1, cA}, {0, 2, cAB}, {0, 4, cAB}, {1, 3, cB}, {2, 3, cB}},
		sccs: [][]uint32{{0}, {1}, {2}, {3}, {4}},
		want: []MessageRange{{"total", 1, 4, false}, {"a", 1, 2, false}, {"b", 0, 2, false}},
	},
	{
		// 0 -a-> 1 <-0-> 2 -b-> 3(T): the cycle 1-2 sends nothing, so
		// however often it is followed every run sends a=1 b=1.
		name: "zero-weight cycle", n: 4, terminals: []uint32{3},
		arcs: []arc{{0, 1, cA}, {1, 2, c0}, {2, 1, c0}, {2, 3, cB}},
		sccs: [][]uint32{{0}, {1, 2}, {3}},
		want: []MessageRange{{"total", 2, 2, false}, {"a", 1, 1, false}, {"b", 1, 1, false}},
	},
	{
		// 0 -0-> 1 -a-> 2 -0-> 1, 2 -0-> 3(T): each turn of the cycle sends
		// one a, and the cycle can end in quiescence: a is unbounded; no
		// run sends b.
		name: "message cycle reaching a terminal", n: 4, terminals: []uint32{3},
		arcs: []arc{{0, 1, c0}, {1, 2, cA}, {2, 1, c0}, {2, 3, c0}},
		sccs: [][]uint32{{0}, {1, 2}, {3}},
		want: []MessageRange{{"total", 1, 0, true}, {"a", 1, 0, true}, {"b", 0, 0, false}},
	},
	{
		// 0 -a-> 3(T) is the only complete run; 0 -b-> 1 leads into the
		// cycle 1 -a-> 2 -a-> 1, which sends messages but never reaches
		// quiescence, so it counts for no complete run.
		name: "message cycle never reaching a terminal", n: 4, terminals: []uint32{3},
		arcs: []arc{{0, 1, cB}, {0, 3, cA}, {1, 2, cA}, {2, 1, cA}},
		sccs: [][]uint32{{0}, {1, 2}, {3}},
		want: []MessageRange{{"total", 1, 1, false}, {"a", 1, 1, false}, {"b", 0, 0, false}},
	},
	{
		// 0 loops sending nothing, 0 -a-> 1(T) which loops sending b:
		// runs send exactly one a and any number of b. 0 -0-> 2, a dead end
		// that loops sending aab, must not make a or the total unbounded.
		name: "self-loops", n: 3, terminals: []uint32{1},
		arcs: []arc{{0, 0, c0}, {0, 1, cA}, {0, 2, c0}, {1, 1, cB}, {2, 2, cAB}},
		sccs: [][]uint32{{0}, {1}, {2}},
		want: []MessageRange{{"total", 1, 0, true}, {"a", 1, 1, false}, {"b", 0, 0, true}},
	},
	{
		// Components {0,1} and {2,3} (zero-weight cycles), terminals 4 and
		// 5. Complete runs: 0-5 (a=1), 0-1-2-5 (a=1+2, b=1), 0-1-2-3-4
		// (a=1, b=1). State 6 is unreachable: its a-sending loop, which
		// could reach terminal 4, must not count.
		name: "several components", n: 7, terminals: []uint32{4, 5},
		arcs: []arc{
			{0, 1, c0}, {1, 0, c0}, {1, 2, cA}, {0, 5, cA},
			{2, 3, c0}, {3, 2, c0}, {3, 4, cB}, {2, 5, cAB},
			{6, 6, cA}, {6, 4, cAB},
		},
		sccs: [][]uint32{{0, 1}, {2, 3}, {4}, {5}, {6}},
		want: []MessageRange{{"total", 1, 4, false}, {"a", 1, 3, false}, {"b", 0, 1, false}},
	},
}

// partition groups states by component number, each group sorted, the
// groups sorted by their first state.
func partition(comp []uint32, ncomp int) [][]uint32 {
	groups := make([][]uint32, ncomp)
	for v, c := range comp {
		groups[c] = append(groups[c], uint32(v))
	}
	slices.SortFunc(groups, func(x, y []uint32) int { return slices.Compare(x, y) })
	return groups
}

func normalise(sets [][]uint32) [][]uint32 {
	out := make([][]uint32, len(sets))
	for i, s := range sets {
		out[i] = slices.Sorted(slices.Values(s))
	}
	slices.SortFunc(out, func(x, y []uint32) int { return slices.Compare(x, y) })
	return out
}

// requireTopological checks tarjan's numbering: every edge leads to a
// component numbered no higher than its source's.
func requireTopological(t *testing.T, g *graph, comp []uint32, ncomp int) {
	t.Helper()
	require.Len(t, comp, g.n())
	for v := range g.n() {
		if int(comp[v]) >= ncomp {
			t.Fatalf("state %d in component %d of %d", v, comp[v], ncomp)
		}
		lo, hi := g.edges(v)
		for _, w := range g.to[lo:hi] {
			if comp[v] < comp[w] {
				t.Fatalf("edge %d → %d goes from component %d up to %d", v, w, comp[v], comp[w])
			}
		}
	}
}

func TestTarjanHandMade(t *testing.T) {
	extra := []handGraph{
		{
			// 0 → 1 → 2 → 0 and 2 → 3 → 4 → 2: a figure of eight, one
			// component.
			name: "figure of eight", n: 5,
			arcs: []arc{{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 0}, {3, 4, 0}, {4, 2, 0}},
			sccs: [][]uint32{{0, 1, 2, 3, 4}},
		},
		{
			// 0 → 1, 0 → 2, 2 → 1: the edge 2 → 1 reaches a component that
			// is already complete and must not merge 1 into {2}.
			name: "cross edge", n: 3,
			arcs: []arc{{0, 1, 0}, {0, 2, 0}, {2, 1, 0}},
			sccs: [][]uint32{{0}, {1}, {2}},
		},
		{
			// Nested cycles 0 → 1 → 2 → 0 and 1 → 3 → 1, then 3 → 4 → 5 → 4,
			// and 6 reaching them from outside, visited last as a root.
			name: "nested and second root", n: 7,
			arcs: []arc{{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {1, 3, 0}, {3, 1, 0}, {3, 4, 0}, {4, 5, 0}, {5, 4, 0}, {6, 0, 0}, {6, 5, 0}},
			sccs: [][]uint32{{0, 1, 2, 3}, {4, 5}, {6}},
		},
		{
			name: "isolated states", n: 3,
			sccs: [][]uint32{{0}, {1}, {2}},
		},
	}
	for _, tc := range append(slices.Clone(handGraphs), extra...) {
		t.Run(tc.name, func(t *testing.T) {
			g := makeGraph(tc.n, tc.terminals, testClasses, tc.arcs)
			comp, ncomp := tarjan(g.n(), g.edges, g.to)
			require.Equal(t, len(tc.sccs), ncomp)
			require.Equal(t, normalise(tc.sccs), partition(comp, ncomp))
			requireTopological(t, g, comp, ncomp)
		})
	}
}

// A ring of 200000 states is one component; a path of as many states is as
// many components, numbered from the sink: tarjan must not recurse.
func TestTarjanLong(t *testing.T) {
	const n = 200000
	for _, ring := range []bool{true, false} {
		g := &graph{}
		for v := range uint32(n) {
			g.startNode(false)
			switch {
			case v+1 < n:
				g.to, g.class = append(g.to, v+1), append(g.class, 0)
			case ring:
				g.to, g.class = append(g.to, 0), append(g.class, 0)
			}
		}
		comp, ncomp := tarjan(g.n(), g.edges, g.to)
		requireTopological(t, g, comp, ncomp)
		if ring {
			require.Equal(t, 1, ncomp)
		} else {
			require.Equal(t, n, ncomp)
			for v := range n {
				if comp[v] != uint32(n-1-v) {
					t.Fatalf("state %d of the path is in component %d, want %d", v, comp[v], n-1-v)
				}
			}
		}
	}
}

func TestMessageRangesHandMade(t *testing.T) {
	for _, tc := range handGraphs {
		t.Run(tc.name, func(t *testing.T) {
			g := makeGraph(tc.n, tc.terminals, testClasses, tc.arcs)
			require.Equal(t, ignoreUnboundedMax(tc.want), ignoreUnboundedMax(g.messageRanges(testKinds, nil)))
			// minToTerminal on its own, kind by kind.
			for d, want := range tc.want {
				require.Equal(t, want.Min, g.minToTerminal(weights(testClasses, d-1)), want.Kind)
			}
		})
	}
}

// The Init steps' messages count once in every run, kind by kind.
func TestMessageRangesInitSends(t *testing.T) {
	send := func(to model.NodeID, kind uint8, msg uint32) uint64 {
		return uint64(to)<<48 | uint64(kind)<<32 | uint64(msg)
	}
	init := []*sim.Step{
		{Sends: []uint64{send(1, 0, 7), send(2, 0, 7)}}, // two a
		nil,                              // a step that sent nothing
		{Sends: []uint64{send(0, 1, 3)}}, // one b
	}
	for _, tc := range handGraphs {
		t.Run(tc.name, func(t *testing.T) {
			g := makeGraph(tc.n, tc.terminals, testClasses, tc.arcs)
			want := slices.Clone(tc.want)
			for i, base := range []int{3, 2, 1} {
				want[i].Min += base
				want[i].Max += base
			}
			require.Equal(t, ignoreUnboundedMax(want), ignoreUnboundedMax(g.messageRanges(testKinds, init)))
		})
	}
}

func TestMessageRangesNoCompleteRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *graph
	}{
		{"empty graph", &graph{}},
		{"no terminal", makeGraph(3, nil, testClasses, []arc{{0, 1, cA}, {1, 2, cB}, {2, 1, cA}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Nil(t, tc.g.messageRanges(testKinds, nil))
		})
	}
}

// A state reached only through a chain of zero-weight edges that Dial's
// algorithm must relax within the current bucket, and a cheaper path found
// after a dearer one, whose stale bucket entry must be skipped.
func TestMinToTerminalDial(t *testing.T) {
	classes := [][]int{nil, {1}, {5}}
	// 0 -5-> 3(T); 0 -1-> 1 -0-> 2 -0-> 3(T): min 1.
	// Total over 0 -5-> 4 -0-> 3 as well: still 1.
	g := makeGraph(5, []uint32{3}, classes, []arc{{0, 3, 2}, {0, 4, 2}, {0, 1, 1}, {1, 2, 0}, {2, 3, 0}, {4, 3, 0}})
	require.Equal(t, 1, g.minToTerminal(weights(classes, -1)))
	// The initial state itself quiescent: 0.
	g = makeGraph(2, []uint32{0, 1}, classes, []arc{{0, 1, 2}})
	require.Equal(t, 0, g.minToTerminal(weights(classes, -1)))
	// Weights all zero (one bucket).
	g = makeGraph(3, []uint32{2}, classes, []arc{{0, 1, 0}, {1, 2, 0}})
	require.Equal(t, 0, g.minToTerminal([]int{0, 0, 0}))
}

// reachClosure returns r[u][v]: v can be reached from u (u reaches itself).
func reachClosure(g *graph) [][]bool {
	n := g.n()
	r := make([][]bool, n)
	for u := range n {
		r[u] = make([]bool, n)
		r[u][u] = true
		lo, hi := g.edges(u)
		for _, v := range g.to[lo:hi] {
			r[u][v] = true
		}
	}
	for k := range n {
		for u := range n {
			if r[u][k] {
				for v := range n {
					r[u][v] = r[u][v] || r[k][v]
				}
			}
		}
	}
	return r
}

// bruteRanges computes what minToTerminal and maxToTerminal should answer,
// by other means: the max is unbounded when an edge of positive weight lies
// on a cycle reachable from 0 and from which a terminal is reachable;
// otherwise every cycle of a complete run weighs nothing, so the extremes
// are reached by walks of fewer than n edges, which a dynamic programme over
// walk lengths covers. ok is false when no terminal is reachable.
func bruteRanges(g *graph, r [][]bool, weight []int) (lo, hi int, unbounded, ok bool) {
	n := g.n()
	reachesTerminal := func(v int) bool {
		for t := range n {
			if g.terminal[t] && r[v][t] {
				return true
			}
		}
		return false
	}
	for u := range n {
		e0, e1 := g.edges(u)
		for e := e0; e < e1; e++ {
			v := int(g.to[e])
			if weight[g.class[e]] > 0 && r[0][u] && r[v][u] && reachesTerminal(v) {
				unbounded = true
			}
		}
	}
	const none = -1
	minW, maxW := make([]int, n), make([]int, n)
	for v := range n {
		minW[v], maxW[v] = none, none
	}
	minW[0], maxW[0] = 0, 0
	lo, hi = none, none
	for step := 0; step < n; step++ {
		for v := range n {
			if g.terminal[v] && minW[v] != none {
				if lo == none || minW[v] < lo {
					lo = minW[v]
				}
				hi = max(hi, maxW[v])
			}
		}
		nextMin, nextMax := make([]int, n), make([]int, n)
		for v := range n {
			nextMin[v], nextMax[v] = none, none
		}
		for u := range n {
			if minW[u] == none {
				continue
			}
			e0, e1 := g.edges(u)
			for e := e0; e < e1; e++ {
				v, w := g.to[e], weight[g.class[e]]
				if nextMin[v] == none || minW[u]+w < nextMin[v] {
					nextMin[v] = minW[u] + w
				}
				nextMax[v] = max(nextMax[v], maxW[u]+w)
			}
		}
		minW, maxW = nextMin, nextMax
	}
	return lo, hi, unbounded, lo != none
}

// Random graphs against bruteRanges and against components computed from
// the reachability closure.
func TestGraphRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	classes := [][]int{nil, {1}, {0, 1}, {2, 1}, {0, 3}}
	for trial := range 3000 {
		n := 1 + rng.IntN(9)
		var arcs []arc
		density := rng.Float64() * 0.4
		for u := range uint32(n) {
			for v := range uint32(n) {
				if rng.Float64() < density {
					c := uint16(0)
					if rng.IntN(3) > 0 { // zero-weight edges are common
						c = uint16(rng.IntN(len(classes)))
					}
					arcs = append(arcs, arc{u, v, c})
				}
			}
		}
		rng.Shuffle(len(arcs), func(i, j int) { arcs[i], arcs[j] = arcs[j], arcs[i] })
		var terms []uint32
		for v := range uint32(n) {
			if rng.IntN(4) == 0 {
				terms = append(terms, v)
			}
		}
		g := makeGraph(n, terms, classes, arcs)
		r := reachClosure(g)

		comp, ncomp := tarjan(g.n(), g.edges, g.to)
		requireTopological(t, g, comp, ncomp)
		for u := range n {
			for v := range n {
				require.Equal(t, r[u][v] && r[v][u], comp[u] == comp[v], "trial %d: states %d and %d", trial, u, v)
			}
		}

		got := g.messageRanges([]string{"a", "b"}, nil)
		if len(terms) == 0 {
			require.Nil(t, got, "trial %d", trial)
			continue
		}
		reachable := false
		for _, v := range terms {
			reachable = reachable || r[0][v]
		}
		if !reachable {
			continue // messageRanges is only asked when a complete run exists
		}
		require.Len(t, got, 3)
		for d := -1; d < 2; d++ {
			lo, hi, unb, ok := bruteRanges(g, r, weights(classes, d))
			require.True(t, ok)
			mr := got[d+1]
			require.Equal(t, lo, mr.Min, "trial %d kind %d: min", trial, d)
			require.Equal(t, unb, mr.Unbounded, "trial %d kind %d: unbounded", trial, d)
			if !unb {
				require.Equal(t, hi, mr.Max, "trial %d kind %d: max", trial, d)
			}
		}
	}
}

// maxToTerminal on its own, fed with components, members and co-reachability
// computed from the closure rather than by messageRanges.
func TestMaxToTerminalHandMade(t *testing.T) {
	for _, tc := range handGraphs {
		t.Run(tc.name, func(t *testing.T) {
			g := makeGraph(tc.n, tc.terminals, testClasses, tc.arcs)
			r := reachClosure(g)
			comp, ncomp := tarjan(g.n(), g.edges, g.to)
			members := make([][]uint32, ncomp)
			coReach := make([]bool, ncomp)
			for v, c := range comp {
				members[c] = append(members[c], uint32(v))
				for _, term := range tc.terminals {
					coReach[c] = coReach[c] || r[v][term]
				}
			}
			for d, want := range tc.want {
				hi, unb := g.maxToTerminal(weights(testClasses, d-1), comp, members, coReach)
				require.Equal(t, want.Unbounded, unb, want.Kind)
				if !unb {
					require.Equal(t, want.Max, hi, want.Kind)
				}
			}
		})
	}
}
