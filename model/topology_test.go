package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type edge = [2]NodeID

// Every spec gives the links its doc promises, for a small N.
func TestParseTopologyEdges(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		want []edge
	}{
		{"", 3, []edge{{0, 1}, {0, 2}, {1, 2}}},
		{"complete", 4, []edge{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
		{"complete", 1, nil},
		{"ring", 5, []edge{{0, 1}, {0, 4}, {1, 2}, {2, 3}, {3, 4}}},
		{"ring", 2, []edge{{0, 1}}}, // 0-1 and 1-0 are one link
		{"ring", 1, nil},            // no self-loop
		{"line", 4, []edge{{0, 1}, {1, 2}, {2, 3}}},
		{"star", 4, []edge{{0, 1}, {0, 2}, {0, 3}}},
		{"tree", 6, []edge{{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}}},
		{"grid:2x3", 6, []edge{{0, 1}, {0, 3}, {1, 2}, {1, 4}, {2, 5}, {3, 4}, {4, 5}}},
		{"grid:3x1", 3, []edge{{0, 1}, {1, 2}}},
		{"grid:1x1", 1, nil},
		{"edges:0-1,1-2,2-0", 3, []edge{{0, 1}, {0, 2}, {1, 2}}},
		{"edges:2-0, n1-n2 ,0-2", 3, []edge{{0, 2}, {1, 2}}}, // spaces, n-prefixed ids and a repeated link
		{"edges:", 1, nil},
		// P = 0 leaves the spanning tree alone: N-1 links
		{"random:3:0", 4, nil},
		{"random:3:1", 4, []edge{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/n=%d", c.spec, c.n), func(t *testing.T) {
			g, err := ParseTopology(c.spec, c.n)
			require.NoError(t, err)
			require.Equal(t, c.n, g.N())
			if c.spec == "random:3:0" {
				require.Len(t, g.Edges(), c.n-1, "a spanning tree")
				return
			}
			require.Equal(t, c.want, g.Edges())
		})
	}
}

// Each bad spec is rejected in one line that names the spec and the fault.
func TestParseTopologyErrors(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		want string
	}{
		{"hypercube", 4, `topology "hypercube": want complete, ring, uniring, line, star, tree, grid:RxC, random:SEED[:P] or edges:I-J,...`},
		{"ring:3", 4, `topology "ring:3": want`},
		{"complete:", 4, `topology "complete:": want`},
		{"grid", 4, `topology "grid": want`},
		{"Ring", 4, `topology "Ring": want`},
		{"grid:2x3", 5, `topology "grid:2x3": a 2x3 grid has 6 nodes, not 5`},
		{"grid:4x4611686018427387905", 4, `a 4x4611686018427387905 grid has more than 4 nodes`}, // 4·(2⁶²+1) overflows to 4
		{"random:1", 2049, `topology "random:1": a random graph has at most 2048 nodes, not 2049`},
		{"grid:2", 2, `topology "grid:2": want grid:RxC with positive R and C, e.g. grid:2x3`},
		{"grid:0x4", 0 + 1, `want grid:RxC with positive R and C`},
		{"grid:axb", 4, `want grid:RxC with positive R and C`},
		{"random:x", 4, `topology "random:x": the seed must be a non-negative integer`},
		{"random:-1", 4, `the seed must be a non-negative integer`},
		{"random:1:1.5", 4, `topology "random:1:1.5": the edge probability must be a number in [0, 1]`},
		{"random:1:NaN", 4, `the edge probability must be a number in [0, 1]`},
		{"random:1:p", 4, `the edge probability must be a number in [0, 1]`},
		{"edges:0-1,1-1", 2, `topology "edges:0-1,1-1": link "1-1" links a node to itself`},
		{"edges:0-1,1-4", 3, `topology "edges:0-1,1-4": link "1-4" names a node outside 0..2`},
		{"edges:0--1", 3, `link "0--1" names a node outside 0..2`},
		{"edges:0-1,12", 3, `topology "edges:0-1,12": "12" is not a link I-J of two node ids`},
		{"edges:0-1,,1-2", 3, `"" is not a link I-J of two node ids`},
		{"edges:", 2, `topology "edges:" is not connected: n1 cannot reach n0`},
		{"edges:0-1,2-3", 4, `topology "edges:0-1,2-3" is not connected: n2 cannot reach n0`},
		{"edges:1-2", 3, `topology "edges:1-2" is not connected: n1 cannot reach n0`},
		{"ring", 0, `topology "ring": n must be at least 1, not 0`},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			_, err := ParseTopology(c.spec, c.n)
			require.ErrorContains(t, err, c.want)
			require.NotContains(t, err.Error(), "\n")
		})
	}
}

// Neighbors and Adjacent agree with the edge list, on every topology.
func TestGraphNeighbors(t *testing.T) {
	want := map[string][][]NodeID{
		"complete":          {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}},
		"ring":              {{1, 3}, {0, 2}, {1, 3}, {0, 2}},
		"uniring":           {{1}, {2}, {3}, {0}},
		"line":              {{1}, {0, 2}, {1, 3}, {2}},
		"star":              {{1, 2, 3}, {0}, {0}, {0}},
		"tree":              {{1, 2}, {0, 3}, {0}, {1}},
		"grid:2x2":          {{1, 2}, {0, 3}, {0, 3}, {1, 2}},
		"edges:0-3,3-1,1-2": {{3}, {2, 3}, {1}, {0, 1}},
	}
	for spec, nbrs := range want {
		g, err := ParseTopology(spec, 4)
		require.NoError(t, err)
		for i := range NodeID(4) {
			require.Equal(t, nbrs[i], g.Neighbors(i), "%s: neighbours of %v", spec, i)
			env := &NewCtx[int](Config{N: 4, Topology: spec}, i).Env
			require.Equal(t, nbrs[i], env.Neighbors(), "%s: Env.Neighbors of %v", spec, i)
			for j := NodeID(-1); j <= 4; j++ {
				adj := slices.Contains(nbrs[i], j)
				require.Equal(t, adj, g.Adjacent(i, j), "%s: Adjacent(%v, %v)", spec, i, j)
				require.Equal(t, adj, env.Adjacent(j), "%s: Env(%v).Adjacent(%v)", spec, i, j)
			}
		}
	}
	// "" is the complete graph, without parsing anything
	env := &NewCtx[int](Config{N: 3}, 1).Env
	require.Equal(t, []NodeID{0, 2}, env.Neighbors())
	require.True(t, env.Adjacent(0))
	require.False(t, env.Adjacent(1), "no node is its own neighbour")
	require.False(t, env.Adjacent(3))
	// the slice is the caller's: changing it changes no graph
	g, err := ParseTopology("ring", 4)
	require.NoError(t, err)
	g.Neighbors(0)[0] = 3
	require.Equal(t, []NodeID{1, 3}, g.Neighbors(0))
}

// Senders are the nodes whose neighbours include i: on an undirected graph
// its own neighbours, on the unidirectional ring its predecessor alone.
func TestGraphSenders(t *testing.T) {
	for _, spec := range []string{"complete", "ring", "uniring", "line", "star", "tree", "grid:2x3", "random:5"} {
		for n := 1; n <= 6; n++ {
			g, err := ParseTopology(spec, n)
			if err != nil {
				continue // (a grid of another size)
			}
			for i := range NodeID(n) {
				var want []NodeID
				for j := range NodeID(n) {
					if g.Adjacent(j, i) {
						want = append(want, j)
					}
				}
				got := g.Senders(i)
				require.True(t, slices.Equal(want, got), "%s, n=%d: senders of %v are %v, not %v", spec, n, i, want, got)
			}
		}
	}
	g, err := ParseTopology("uniring", 4)
	require.NoError(t, err)
	require.True(t, g.Directed())
	require.Equal(t, []NodeID{3}, g.Senders(0))
	require.Equal(t, [][2]NodeID{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, g.Edges())
	require.False(t, g.Adjacent(1, 0), "links go one way")
	for n, want := range map[int][][2]NodeID{1: nil, 2: {{0, 1}, {1, 0}}} {
		g, err := ParseTopology("uniring", n)
		require.NoError(t, err)
		require.Equal(t, want, g.Edges(), "n=%d", n)
	}
	ring, err := ParseTopology("ring", 4)
	require.NoError(t, err)
	require.False(t, ring.Directed())
}

// A random graph is connected whatever the seed and P, is drawn from its
// seed alone, and has about P of the links the spanning tree leaves out.
func TestRandomTopology(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 13} {
		for _, p := range []string{"", ":0", ":0.1", ":0.5", ":1"} {
			for seed := range 200 {
				spec := fmt.Sprintf("random:%d%s", seed, p)
				g, err := ParseTopology(spec, n)
				require.NoError(t, err, spec)
				// connected, checked here apart from ParseTopology's own check
				reached := map[NodeID]bool{0: true}
				for frontier := []NodeID{0}; len(frontier) > 0; {
					i := frontier[0]
					frontier = frontier[1:]
					for _, j := range g.Neighbors(i) {
						if !reached[j] {
							reached[j] = true
							frontier = append(frontier, j)
						}
					}
				}
				require.Len(t, reached, n, "%s for n=%d is not connected", spec, n)
				edges := len(g.Edges())
				require.GreaterOrEqual(t, edges, n-1, spec)
				switch p {
				case ":0":
					require.Equal(t, n-1, edges, "%s: a spanning tree and nothing else", spec)
				case ":1":
					require.Equal(t, n*(n-1)/2, edges, "%s: every link", spec)
				}
				again, _ := ParseTopology(spec, n)
				require.Equal(t, g.Edges(), again.Edges(), "%s: the same seed draws the same graph", spec)
			}
		}
	}
	// P = 0.5 at n = 40: of 780 pairs, 39 from the tree and about half of
	// the rest
	g, err := ParseTopology("random:1", 40)
	require.NoError(t, err)
	require.InDelta(t, 39+741/2, len(g.Edges()), 60)
	h, err := ParseTopology("random:2", 40)
	require.NoError(t, err)
	require.NotEqual(t, g.Edges(), h.Edges(), "seeds draw different graphs")
}

// Validate parses the topology once and keeps it; the cache survives the
// copy NewCtx makes, and a Config changed after Validate is read afresh.
func TestTopologyCache(t *testing.T) {
	cfg := Config{N: 4, Topology: "ring"}
	require.NoError(t, cfg.Validate())
	require.NotNil(t, cfg.net)
	g := cfg.net
	ctx := NewCtx[int](cfg, 0)
	require.Same(t, g, ctx.graph(), "the parsed graph is shared, not parsed again")
	cfg.Topology = "star"
	require.Equal(t, []NodeID{1, 2, 3}, NewCtx[int](cfg, 0).Neighbors(), "a stale cache is not used")
	cfg.N = 5
	require.Equal(t, []NodeID{1, 2, 3, 4}, NewCtx[int](cfg, 0).Neighbors())
	require.NoError(t, cfg.Validate())
	require.Equal(t, "star", cfg.net.String())
	require.Equal(t, 5, cfg.net.N())
	// JSON leaves the cache out
	b, err := json.Marshal(cfg)
	require.NoError(t, err)
	require.False(t, strings.Contains(string(b), "net"), string(b))
}
