package bfs

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// report is one observation fed to the Tree monitor: node reports o.
type report struct {
	node model.NodeID
	o    model.Obs
}

// at is node i's report of its parent p and level l.
func at(i, p model.NodeID, l int) report { return report{i, Parent(p, l)} }

// observeTree feeds reports to Tree from its start, as a run does; Observe
// must leave its input as it was.
func observeTree(t *testing.T, cfg *model.Config, reports []report) []int {
	t.Helper()
	st := Tree.Start(cfg).([]int)
	for k, r := range reports {
		before := slices.Clone(st)
		next := Tree.Observe(cfg, st, r.node, r.o).([]int)
		require.Equal(t, before, st, "report %d (%v %v): Observe changed its input", k, r.node, r.o)
		st = next
	}
	return st
}

// treeView is a world as bfs-tree sees it where a run ends: its
// configuration and the Tree monitor's state.
type treeView struct {
	properties.View // not used beyond the methods below
	cfg             model.Config
	st              []int
}

func (v treeView) N() int                    { return v.cfg.N }
func (v treeView) Config() *model.Config     { return &v.cfg }
func (v treeView) Monitor(model.Monitor) any { return v.st }

// Unpack gives back the parent and level Parent packed.
func TestUnpack(t *testing.T) {
	for _, c := range []struct {
		p model.NodeID
		l int
	}{{0, 0}, {1, 2}, {3, 5}, {2, 0xffff}, {0x7fff, 1}} {
		p, l := Unpack(Parent(c.p, c.l).Arg)
		require.Equal(t, c.p, p, "%v at level %d", c.p, c.l)
		require.Equal(t, c.l, l, "%v at level %d", c.p, c.l)
	}
	require.Equal(t, "parent=n3@5", Parent(3, 5).String())
}

// The Tree monitor keeps each node's last parent report, and nothing else.
func TestTreeMonitor(t *testing.T) {
	cfg := &model.Config{N: 3}
	cases := []struct {
		name    string
		reports []report
		want    []int
	}{
		{"no parent at the start", nil, []int{-1, -1, -1}},
		{"each node's report", []report{at(0, 0, 0), at(2, 1, 2)}, []int{Parent(0, 0).Arg, -1, Parent(1, 2).Arg}},
		{"a node's last report", []report{at(1, 0, 1), at(1, 2, 2)}, []int{-1, Parent(2, 2).Arg, -1}},
		{"other observations are not parents", []report{at(1, 0, 1), {1, model.Leader(2)}, {2, model.Leader(2)}},
			[]int{-1, Parent(0, 1).Arg, -1}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, observeTree(t, cfg, c.reports), c.name)
	}
}

// The clauses of bfs-tree: the parents form a spanning tree rooted at
// the root (the notes' SynchBfsTree: "parent = myId; level = 0" at the
// root, "parent = src" on an invite from a neighbour), and each node's
// level is its hop distance from the root, one more than its parent's:
// a breadth-first tree.
const (
	clauseSpanning  = "every node has a parent: the tree spans the network"
	clauseRooted    = "the root is its own parent, at level 0"
	clauseNeighbour = "each node's parent is its neighbour"
	clauseDistance  = "each node's level is its hop distance from the root"
	clauseReaches   = "each node's parent is in the tree"
	clauseNearer    = "each node's parent is one hop nearer the root"
)

// bfs-tree accepts breadth-first trees and rejects one tree for each
// clause it breaks, with the first breach in node order.
func TestBFSTree(t *testing.T) {
	const (
		ring  = "ring"                      // n0-n1-n2-n3-n0: distances 0 1 2 1
		chord = "edges:0-1,1-2,2-3,3-0,0-2" // distances 0 1 1 1
	)
	tree := []report{at(0, 0, 0), at(1, 0, 1), at(3, 0, 1)} // the ring's, but for n2
	with := func(rs ...report) []report { return append(slices.Clip(tree), rs...) }
	cases := []struct {
		name     string
		breaks   string // the clause a reject row breaks; "" for an accept row
		topology string
		reports  []report
		want     string
	}{
		{name: "the ring's tree through n1", topology: ring, reports: with(at(2, 1, 2))},
		{name: "the ring's tree through n3", topology: ring, reports: with(at(2, 3, 2))},
		{name: "a node's last report counts", topology: ring, reports: with(at(2, 0, 7), at(2, 3, 2))},
		{name: "the chord's star", topology: chord, reports: with(at(2, 0, 1))},
		{name: "a line's path", topology: "line", reports: []report{at(3, 2, 3), at(2, 1, 2), at(1, 0, 1), at(0, 0, 0)}},
		{name: "a node without a parent", breaks: clauseSpanning, topology: ring, reports: tree,
			want: "the run is over and n2 has no parent"},
		{name: "the root without a parent", breaks: clauseSpanning, topology: ring, reports: with(at(2, 1, 2))[1:],
			want: "the run is over and n0 has no parent"},
		{name: "the root's parent another node", breaks: clauseRooted, topology: ring,
			reports: with(at(2, 1, 2), at(0, 1, 0)),
			want:    "the root n0 has parent n1 at level 0"},
		{name: "the root at level 1", breaks: clauseRooted, topology: ring,
			reports: with(at(2, 1, 2), at(0, 0, 1)),
			want:    "the root n0 has parent n0 at level 1"},
		{name: "a parent across the ring", breaks: clauseNeighbour, topology: ring, reports: with(at(2, 0, 2)),
			want: "n2's parent n0 is not its neighbour"},
		{name: "a node its own parent", breaks: clauseNeighbour, topology: ring, reports: with(at(2, 1, 2), at(1, 1, 1)),
			want: "n1's parent n1 is not its neighbour"},
		{name: "a level beyond the distance", breaks: clauseDistance, topology: ring, reports: with(at(2, 1, 3)),
			want: "n2 is at level 3, but at distance 2 from the root"},
		{name: "a level short of the distance", breaks: clauseDistance, topology: ring, reports: with(at(2, 1, 1)),
			want: "n2 is at level 1, but at distance 2 from the root"},
		{name: "a parent outside the tree", breaks: clauseReaches, topology: ring,
			reports: []report{at(0, 0, 0), at(1, 0, 1), at(2, 3, 2)},
			want:    "n2's parent n3 has no parent"},
		{name: "a parent at the same distance", breaks: clauseNearer, topology: chord, reports: with(at(2, 1, 1)),
			want: "n2 is at level 1, its parent n1 at level 1"},
		{name: "a parent of a higher id at the same distance", breaks: clauseNearer, topology: chord,
			reports: with(at(2, 0, 1), at(1, 2, 1)),
			want:    "n1 is at level 1, its parent n2 at level 1"},
		{name: "a parent of a higher id at a wrong level", breaks: clauseNearer, topology: ring,
			reports: with(at(2, 3, 2), at(3, 0, 5)),
			want:    "n2 is at level 2, its parent n3 at level 5"},
		{name: "a topology that does not parse", breaks: "the distances are those of the run's topology", topology: "edges:0-7",
			reports: with(at(2, 1, 2)),
			want:    `topology "edges:0-7": link "0-7" names a node outside 0..3`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.breaks == "", c.want == "", "a row breaks a clause if and only if it is rejected")
			cfg := model.Config{N: 4, Topology: c.topology}
			v := treeView{cfg: cfg, st: observeTree(t, &cfg, c.reports)}
			require.Equal(t, c.want, BFSTree.Check(v), "breaks: %s", c.breaks)
		})
	}
}

// The distances bfs-tree judges by are computed once for a run of
// searches on one topology: a second call on it gives the slice the first
// gave, another topology or size its own, and a topology that does not
// parse leaves the memo as it was. Distances hands out copies.
func TestDistancesMemo(t *testing.T) {
	ring4 := &model.Config{N: 4, Topology: "ring"}
	d, err := sharedDistances(ring4)
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2, 1}, d)
	again, err := sharedDistances(&model.Config{N: 4, Topology: "ring"})
	require.NoError(t, err)
	require.Same(t, &d[0], &again[0], "the memo")

	ring5, err := sharedDistances(&model.Config{N: 5, Topology: "ring"})
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2, 2, 1}, ring5, "another size")
	line4, err := sharedDistances(&model.Config{N: 4, Topology: "line"})
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2, 3}, line4, "another topology")

	_, err = sharedDistances(&model.Config{N: 4, Topology: "edges:0-7"})
	require.EqualError(t, err, `topology "edges:0-7": link "0-7" names a node outside 0..3`)
	_, err = Distances(&model.Config{N: 4, Topology: "edges:0-7"})
	require.Error(t, err)
	again, err = sharedDistances(&model.Config{N: 4, Topology: "line"})
	require.NoError(t, err)
	require.Same(t, &line4[0], &again[0], "the memo after an error")

	own, err := Distances(&model.Config{N: 4, Topology: "line"})
	require.NoError(t, err)
	own[3] = 9
	require.Equal(t, []int{0, 1, 2, 3}, line4, "a copy")
}
