package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Graph is a run's network: which nodes are linked, and so which may send
// to which (see Config.Topology). Links are undirected but in a
// unidirectional ring, whose links go one way, and every graph
// ParseTopology returns is connected (strongly, where links go one way).
// Get one from ParseTopology; the zero Graph is not usable.
type Graph struct {
	spec     string
	n        int
	complete bool       // every two nodes are linked; adj is nil, to cost nothing for large N
	directed bool       // links go one way: from i to the nodes of adj[i]
	adj      [][]NodeID // adj[i]: the nodes i may send to, sorted
}

// MaxRandomTopologyNodes bounds the nodes of a random topology, which
// draws a link for each of the N(N-1)/2 pairs of nodes: at 2048 nodes, 2
// million draws and some 20 MB of links; at MaxNodes, 537 million draws
// and gigabytes. ParseTopology, and so Config.Validate, refuses a larger
// one.
const MaxRandomTopologyNodes = 2048

// topologyHelp lists the specs, for error messages.
const topologyHelp = "complete, ring, uniring, line, star, tree, grid:RxC, random:SEED[:P] or edges:I-J,..."

// ParseTopology reads a topology spec for n nodes:
//
//   - "" or "complete": every two nodes are linked;
//   - "ring": i and i+1 mod n;
//   - "uniring": the unidirectional ring, i to i+1 mod n, one way: i may
//     send to its successor only (the ring of Chang and Roberts' and
//     LeLann's elections), and hears from its predecessor only, which
//     lets a search take the steps of nodes that cannot reach each other
//     in one order (partial-order reduction);
//   - "line": i and i+1, for i < n-1;
//   - "star": node 0, the hub, and every other node;
//   - "tree": the balanced binary tree, i and its parent (i-1)/2;
//   - "grid:RxC": R rows of C nodes (R*C must be n), node r*C+c linked to
//     its 4 neighbours (r±1, c) and (r, c±1);
//   - "random:SEED" or "random:SEED:P": a connected random graph drawn from
//     SEED alone. It is the union of a random spanning tree (node perm[k]
//     of a seeded permutation linked to perm[j] for a uniform j < k, k = 1..n-1)
//     and an Erdős–Rényi graph in which each pair i < j, in that order,
//     is linked with probability P (default 0.5);
//   - "edges:0-1,1-2,2-0": exactly the links listed (a link given twice
//     counts once).
//
// It rejects unknown specs, a grid that does not have n nodes, self-loops
// and nodes outside 0..n-1 in an edge list, and graphs that are not
// connected: every protocol needs each node to reach every other.
func ParseTopology(spec string, n int) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("topology %q: n must be at least 1, not %d", spec, n)
	}
	g := &Graph{spec: spec, n: n}
	name, arg, hasArg := strings.Cut(spec, ":")
	if hasArg != (name == "grid" || name == "random" || name == "edges") {
		return nil, fmt.Errorf("topology %q: want %s", spec, topologyHelp)
	}
	switch name {
	case "", "complete":
		g.complete = true
		return g, nil
	}
	g.adj = make([][]NodeID, n)
	l := &linker{g: g, seen: map[[2]NodeID]bool{}}
	var err error
	switch name {
	case "ring":
		for i := range n {
			l.link(i, (i+1)%n)
		}
	case "uniring":
		g.directed = true
		for i := range n {
			if j := (i + 1) % n; j != i {
				g.adj[i] = []NodeID{NodeID(j)}
			}
		}
	case "line":
		for i := 1; i < n; i++ {
			l.link(i-1, i)
		}
	case "star":
		for i := 1; i < n; i++ {
			l.link(0, i)
		}
	case "tree":
		for i := 1; i < n; i++ {
			l.link((i-1)/2, i)
		}
	case "grid":
		err = l.grid(spec, arg)
	case "random":
		err = l.random(spec, arg)
	case "edges":
		err = l.edges(spec, arg)
	default:
		return nil, fmt.Errorf("topology %q: want %s", spec, topologyHelp)
	}
	if err != nil {
		return nil, err
	}
	for _, a := range g.adj {
		slices.Sort(a)
	}
	if far := g.unreached(); far >= 0 {
		return nil, fmt.Errorf("topology %q is not connected: n%d cannot reach n0", spec, far)
	}
	return g, nil
}

// linker links the nodes of an undirected graph being built, each pair
// once.
type linker struct {
	g    *Graph
	seen map[[2]NodeID]bool
}

// link links i and j, unless they are one node or linked already.
func (l *linker) link(i, j int) {
	a, b := NodeID(min(i, j)), NodeID(max(i, j))
	if a == b || l.seen[[2]NodeID{a, b}] {
		return // a ring of 1 or 2 nodes meets the same link again
	}
	l.seen[[2]NodeID{a, b}] = true
	l.g.adj[a] = append(l.g.adj[a], b)
	l.g.adj[b] = append(l.g.adj[b], a)
}

// grid links the grid that arg, "RxC", describes (see ParseTopology).
func (l *linker) grid(spec, arg string) error {
	n := l.g.n
	rs, cs, _ := strings.Cut(arg, "x")
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	if err1 != nil || err2 != nil || r < 1 || c < 1 {
		return fmt.Errorf("topology %q: want grid:RxC with positive R and C, e.g. grid:2x3", spec)
	}
	switch {
	case r > n || c > n: // before r*c, which may overflow
		return fmt.Errorf("topology %q: a %dx%d grid has more than %d nodes", spec, r, c, n)
	case r*c != n:
		return fmt.Errorf("topology %q: a %dx%d grid has %d nodes, not %d", spec, r, c, r*c, n)
	}
	for i := range n {
		if (i+1)%c != 0 {
			l.link(i, i+1)
		}
		if i+c < n {
			l.link(i, i+c)
		}
	}
	return nil
}

// random links the random graph that arg, "SEED" or "SEED:P", draws (see
// ParseTopology).
func (l *linker) random(spec, arg string) error {
	n := l.g.n
	ss, ps, hasP := strings.Cut(arg, ":")
	seed, err := strconv.ParseUint(ss, 10, 64)
	if err != nil {
		return fmt.Errorf("topology %q: the seed must be a non-negative integer", spec)
	}
	if n > MaxRandomTopologyNodes {
		return fmt.Errorf("topology %q: a random graph has at most %d nodes, not %d", spec, MaxRandomTopologyNodes, n)
	}
	p := 0.5
	if hasP {
		if p, err = strconv.ParseFloat(ps, 64); err != nil || !(p >= 0 && p <= 1) {
			return fmt.Errorf("topology %q: the edge probability must be a number in [0, 1]", spec)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	// the spanning tree first, so that the graph is connected
	// whatever P is; then the Erdős–Rényi links on top of it
	perm := rng.Perm(n)
	for k := 1; k < n; k++ {
		l.link(perm[k], perm[rng.IntN(k)])
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				l.link(i, j)
			}
		}
	}
	return nil
}

// edges links the links that arg, "0-1,1-2,...", lists (see
// ParseTopology).
func (l *linker) edges(spec, arg string) error {
	n := l.g.n
	var links []string
	if strings.TrimSpace(arg) != "" { // "edges:" has no links: the graph of one node
		links = strings.Split(arg, ",")
	}
	for _, e := range links {
		as, bs, ok := strings.Cut(e, "-")
		a, err1 := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(as), "n"))
		b, err2 := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(bs), "n"))
		switch {
		case !ok || err1 != nil || err2 != nil:
			return fmt.Errorf("topology %q: %q is not a link I-J of two node ids", spec, e)
		case a < 0 || a >= n || b < 0 || b >= n:
			return fmt.Errorf("topology %q: link %q names a node outside 0..%d", spec, e, n-1)
		case a == b:
			return fmt.Errorf("topology %q: link %q links a node to itself", spec, e)
		}
		l.link(a, b)
	}
	return nil
}

// unreached returns the lowest node that n0 cannot reach, or -1 when the
// graph is connected. (Of the graphs whose links go one way, the
// unidirectional ring is strongly connected by construction.)
func (g *Graph) unreached() int {
	seen := make([]bool, g.n)
	seen[0] = true
	queue := []NodeID{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range g.adj[i] {
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return slices.Index(seen, false)
}

// Directed reports whether links go one way (see Senders).
func (g *Graph) Directed() bool { return g.directed }

// Senders returns the nodes that may send to i, in id order: its
// neighbours, or where links go one way the nodes linked to i. The slice
// is the caller's.
func (g *Graph) Senders(i NodeID) []NodeID {
	if !g.directed {
		return g.Neighbors(i)
	}
	var out []NodeID
	for j := range g.adj {
		if slices.Contains(g.adj[j], i) {
			out = append(out, NodeID(j))
		}
	}
	return out
}

// String is the spec the graph was parsed from ("complete" for "").
func (g *Graph) String() string {
	if g.spec == "" {
		return "complete"
	}
	return g.spec
}

// N is the number of nodes.
func (g *Graph) N() int { return g.n }

// Neighbors returns the nodes linked to i, in id order, in a slice the
// caller may keep and change: where links go one way, those i may send to.
func (g *Graph) Neighbors(i NodeID) []NodeID {
	if g.complete {
		out := make([]NodeID, 0, g.n-1)
		for j := NodeID(0); int(j) < g.n; j++ {
			if j != i {
				out = append(out, j)
			}
		}
		return out
	}
	return slices.Clone(g.adj[i])
}

// Adjacent reports whether i and j are linked (from i to j, where links go
// one way). No node is its own neighbour, and nodes outside 0..N-1 have
// none.
func (g *Graph) Adjacent(i, j NodeID) bool {
	if i == j || i < 0 || j < 0 || int(i) >= g.n || int(j) >= g.n {
		return false
	}
	if g.complete {
		return true
	}
	// degrees are small in every sparse topology, and the search is on
	// the shorter list (the one way a link goes, where it goes one way)
	a, b := g.adj[i], j
	if !g.directed && len(g.adj[j]) < len(a) {
		a, b = g.adj[j], i
	}
	_, ok := slices.BinarySearch(a, b)
	return ok
}

// Edges returns every link once, as {i, j} with i < j, in order; where
// links go one way, as {from, to}, in order of from.
func (g *Graph) Edges() [][2]NodeID {
	var out [][2]NodeID
	for i := NodeID(0); int(i) < g.n; i++ {
		for _, j := range g.Neighbors(i) {
			if i < j || g.directed {
				out = append(out, [2]NodeID{i, j})
			}
		}
	}
	return out
}
