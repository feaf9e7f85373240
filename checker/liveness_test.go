package checker

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// larc is an edge of a hand-made labelled graph. Labels below faultLabel
// stand for deliveries; faultLabel and above for crashes.
type larc struct {
	from, to uint32
	label    int
}

const faultLabel = 100

func labelID(l int) uint64 {
	if l >= faultLabel {
		return uint64(sim.Crash)<<60 | uint64(l)
	}
	return uint64(sim.Deliver)<<60 | uint64(l)
}

// makeLabelled lays out n expanded states with the edges given, in order.
func makeLabelled(n int, arcs []larc) *graph {
	g := &graph{}
	for v := range n {
		g.startNode(false)
		for _, a := range arcs {
			if a.from == uint32(v) {
				g.to = append(g.to, a.to)
				g.class = append(g.class, 0)
				g.addLabel(labelID(a.label))
			}
		}
	}
	return g
}

func states(vs ...uint32) func(uint32) bool {
	return func(v uint32) bool { return slices.Contains(vs, v) }
}

// Graphs whose fair cycles are known by hand. a=0, b=1, ... name labels.
func TestFairComponentByHand(t *testing.T) {
	const a, b, c, d, x, crash = 0, 1, 2, 3, 4, faultLabel
	cases := []struct {
		name    string
		n       int
		arcs    []larc
		pending []uint32
		want    map[Fairness][]uint32 // the component found, nil for none
	}{
		{"a two-state loop", 2, []larc{{0, 1, a}, {1, 0, b}}, []uint32{0, 1},
			map[Fairness][]uint32{WeakFairness: {0, 1}, StrongFairness: {0, 1}, NoFairness: {0, 1}}},
		{"the loop leaves the pending states", 2, []larc{{0, 1, a}, {1, 0, b}}, []uint32{0},
			map[Fairness][]uint32{}},
		{"an exit enabled throughout must be taken", 2, []larc{{0, 0, a}, {0, 1, c}}, []uint32{0},
			map[Fairness][]uint32{NoFairness: {0}}},
		{"an exit enabled now and then: weakly fair, not strongly", 3,
			[]larc{{0, 1, a}, {1, 0, b}, {0, 2, c}}, []uint32{0, 1},
			map[Fairness][]uint32{WeakFairness: {0, 1}, NoFairness: {0, 1}}},
		{"strong fairness drops the state that enables the exit", 4,
			[]larc{{0, 1, a}, {1, 0, b}, {1, 2, a}, {2, 1, b}, {2, 3, x}}, []uint32{0, 1, 2},
			map[Fairness][]uint32{WeakFairness: {0, 1, 2}, StrongFairness: {0, 1}, NoFairness: {0, 1, 2}}},
		{"faults are never owed", 2, []larc{{0, 0, a}, {0, 1, crash}}, []uint32{0},
			map[Fairness][]uint32{WeakFairness: {0}, StrongFairness: {0}, NoFairness: {0}}},
		{"edges to unexpanded states are no cycle", 1, []larc{{0, 1, a}}, []uint32{0},
			map[Fairness][]uint32{}},
		{"an unexpanded successor still counts as enabled", 1, []larc{{0, 0, a}, {0, 1, d}}, []uint32{0},
			map[Fairness][]uint32{NoFairness: {0}}},
		{"the cycle entered first wins", 5,
			[]larc{{0, 1, a}, {0, 3, b}, {1, 2, c}, {2, 1, d}, {3, 4, c}, {4, 3, d}}, []uint32{1, 2, 3, 4},
			map[Fairness][]uint32{WeakFairness: {1, 2}, StrongFairness: {1, 2}, NoFairness: {1, 2}}},
	}
	for _, tc := range cases {
		for f := WeakFairness; f <= NoFairness; f++ {
			t.Run(fmt.Sprintf("%s/%v", tc.name, f), func(t *testing.T) {
				g := makeLabelled(tc.n, tc.arcs)
				got := g.fairComponent(states(tc.pending...), f)
				require.Equal(t, tc.want[f], got)
				if got != nil {
					requireFairCycle(t, g, got[0], g.fairCycle(got[0], got, f), got, f)
				}
			})
		}
	}
}

// requireFairCycle checks that cycle goes from s back to s inside comp and
// is fair under f.
func requireFairCycle(t *testing.T, g *graph, s uint32, cycle, comp []uint32, f Fairness) {
	t.Helper()
	require.NotEmpty(t, cycle)
	cur := s
	taken := map[uint32]bool{}
	var visited []uint32
	for _, e := range cycle {
		require.Equal(t, cur, g.source(e), "the cycle's edges follow each other")
		visited = append(visited, cur)
		taken[g.label[e]] = true
		cur = g.to[e]
		require.Contains(t, comp, cur)
	}
	require.Equal(t, s, cur, "the cycle returns to its start")
	if f == NoFairness {
		return
	}
	count := map[uint32]int{}
	for _, v := range visited {
		lo, hi := g.edges(int(v))
		for _, l := range g.label[lo:hi] {
			count[l]++
		}
	}
	for l, k := range count {
		owed := !isFault(g.ids[l]) && (f == StrongFairness || k == len(visited))
		require.False(t, owed && !taken[l], "label %d is owed on the cycle and never taken", l)
	}
}

// bruteFair is the definition itself: the least first state of a set S of
// pending states that is strongly connected by its inner edges, has one,
// and is fair: every event owed on the run that takes all of S's inner
// edges forever is taken by one. -1 if there is none. Exponential; for
// graphs of a few states.
func bruteFair(g *graph, pending []bool, f Fairness) int {
	n := g.n()
	best := -1
	for set := 1; set < 1<<n; set++ {
		in := func(v uint32) bool { return int(v) < n && set>>v&1 == 1 }
		ok := true
		for v := range n {
			if in(uint32(v)) && !pending[v] {
				ok = false
			}
		}
		if !ok {
			continue
		}
		// strongly connected: every member reaches every member inside S
		var members []uint32
		for v := range n {
			if in(uint32(v)) {
				members = append(members, uint32(v))
			}
		}
		reach := func(from uint32) map[uint32]bool {
			seen := map[uint32]bool{}
			stack := []uint32{from}
			for len(stack) > 0 {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				lo, hi := g.edges(int(u))
				for _, t := range g.to[lo:hi] {
					if in(t) && !seen[t] {
						seen[t] = true
						stack = append(stack, t)
					}
				}
			}
			return seen
		}
		for _, u := range members {
			r := reach(u)
			for _, v := range members {
				if !r[v] {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		taken := map[uint32]bool{}
		count := map[uint32]int{}
		for _, u := range members {
			lo, hi := g.edges(int(u))
			for e := lo; e < hi; e++ {
				count[g.label[e]]++
				if in(g.to[e]) {
					taken[g.label[e]] = true
				}
			}
		}
		for l, k := range count {
			if f != NoFairness && !isFault(g.ids[l]) && !taken[l] && (f == StrongFairness || k == len(members)) {
				ok = false
			}
		}
		if ok && (best < 0 || int(members[0]) < best) {
			best = int(members[0])
		}
	}
	return best
}

// The SCC analysis against the definition, on random small graphs: an
// event enabled in a state is one outgoing edge, labels are drawn from a
// few deliveries and a crash, and some edges lead to unexpanded states.
func TestFairComponentAgainstBruteForce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 7).Draw(rt, "n")
		var arcs []larc
		for v := range n {
			for _, l := range []int{0, 1, 2, 3, faultLabel} {
				if rapid.IntRange(0, 2).Draw(rt, fmt.Sprintf("has%d_%d", v, l)) == 0 {
					continue
				}
				to := rapid.IntRange(0, n).Draw(rt, fmt.Sprintf("to%d_%d", v, l)) // n: unexpanded
				arcs = append(arcs, larc{uint32(v), uint32(to), l})
			}
		}
		pending := rapid.SliceOfN(rapid.Bool(), n, n).Draw(rt, "pending")
		g := makeLabelled(n, arcs)
		for f := WeakFairness; f <= NoFairness; f++ {
			want := bruteFair(g, pending, f)
			got := g.fairComponent(func(v uint32) bool { return pending[v] }, f)
			if want < 0 {
				require.Nil(rt, got, "%v: no fair set exists", f)
				continue
			}
			require.NotNil(rt, got, "%v: a fair set from state %d exists", f, want)
			require.Equal(rt, want, int(got[0]), "%v", f)
			requireFairCycle(t, g, got[0], g.fairCycle(got[0], got, f), got, f)
		}
	})
}
