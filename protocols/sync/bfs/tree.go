package bfs

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Tree is the monitor of the tree built: for each node the last ObsParent
// it reported, packed (see Unpack), or -1 while it has none. Its state is
// N integers.
var Tree = properties.NewMonitor("tree",
	func(cfg *model.Config) []int {
		t := make([]int, cfg.N)
		for i := range t {
			t[i] = -1
		}
		return t
	},
	func(_ *model.Config, t []int, node model.NodeID, o model.Obs) []int {
		if o.Kind != ObsParent {
			return t
		}
		t = slices.Clone(t)
		t[node] = o.Arg
		return t
	})

// Distances returns every node's hop distance from the root on cfg's
// topology, in a slice the caller may keep and change.
func Distances(cfg *model.Config) ([]int, error) {
	d, err := sharedDistances(cfg)
	return slices.Clone(d), err
}

// sharedDistances is Distances in a slice shared with other callers. Its
// memo of the last topology's distances gives what distances would, so
// it is as pure as a property must be (see checker/vet).
//
//vigil:pure
func sharedDistances(cfg *model.Config) ([]int, error) {
	// BFSTree judges the end of every run with them: a random search
	// ends thousands of short runs a second on one topology
	if m := lastDistances.Load(); m != nil && m.topology == cfg.Topology && len(m.d) == cfg.N {
		return m.d, nil
	}
	d, err := distances(cfg)
	if err == nil {
		lastDistances.Store(&distanceMemo{cfg.Topology, d})
	}
	return d, err
}

// lastDistances holds the distances Distances computed last.
var lastDistances atomic.Pointer[distanceMemo]

type distanceMemo struct {
	topology string
	d        []int
}

func distances(cfg *model.Config) ([]int, error) {
	g, err := cfg.Graph()
	if err != nil {
		return nil, err
	}
	d := make([]int, cfg.N)
	for i := range d {
		d[i] = -1
	}
	d[Root] = 0
	for q := []model.NodeID{Root}; len(q) > 0; q = q[1:] {
		for _, j := range g.Neighbors(q[0]) {
			if d[j] < 0 {
				d[j] = d[q[0]] + 1
				q = append(q, j)
			}
		}
	}
	return d, nil
}

// BFSTree (bfs-tree): where a run ends, the parents form a spanning tree
// rooted at the root, every parent a neighbour, and each node's level is its
// hop distance from the root on the run's topology: a breadth-first tree.
var BFSTree = &properties.Property{
	Name: "bfs-tree", Family: "sync", When: properties.AtQuiescence, Monitor: Tree, MonitorOnly: true,
	Doc: "where a run ends the parents form a spanning tree rooted at node 0 and every node's level is its hop distance from the root",
	Check: func(v properties.View) string {
		cfg := v.Config()
		d, err := sharedDistances(cfg)
		if err != nil {
			return err.Error()
		}
		g, _ := cfg.Graph()
		t := properties.MonitorState[[]int](v, Tree)
		for i := range model.NodeID(v.N()) {
			if t[i] < 0 {
				return fmt.Sprintf("the run is over and %v has no parent", i)
			}
			p, l := Unpack(t[i])
			switch {
			case i == Root && (p != Root || l != 0):
				return fmt.Sprintf("the root %v has parent %v at level %d", i, p, l)
			case i == Root:
			case !g.Adjacent(i, p):
				return fmt.Sprintf("%v's parent %v is not its neighbour", i, p)
			case l != d[i]:
				return fmt.Sprintf("%v is at level %d, but at distance %d from the root", i, l, d[i])
			case t[p] < 0:
				return fmt.Sprintf("%v's parent %v has no parent", i, p)
			default:
				if _, lp := Unpack(t[p]); lp != l-1 {
					return fmt.Sprintf("%v is at level %d, its parent %v at level %d", i, l, p, lp)
				}
			}
		}
		return ""
	},
}
