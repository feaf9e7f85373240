package family

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// OverSynchronizer gives the scenarios of SynchBfsTree over a synchronizer:
// N = 4 on the ring, the line, the star and the 2x2 grid, root 0 at an end
// or a corner. figures gives the message figures the synchronizer's cost
// implies for N pulses on a graph of E links (see Scenario.Messages).
func OverSynchronizer(ch model.Channels, what string, figures func(n, e int) string) []suite.Scenario {
	var sc []suite.Scenario
	for _, top := range []string{"ring", "line", "star", "grid:2x2"} {
		const n = 4
		g, err := model.ParseTopology(top, n)
		if err != nil {
			panic(err) // the four graphs above are well formed
		}
		e := 0
		for i := range n {
			e += len(g.Neighbors(model.NodeID(i)))
		}
		sc = append(sc, suite.Scenario{Name: top, N: n, Topology: top, Channels: ch, Expect: checker.Pass,
			Why:      "SynchBfsTree over " + what + ": every node's level is its distance from the root, whatever the interleaving (the Leader Election notes: \"run it with a synchronizer to ensure that the BFS tree is computed\")",
			Messages: figures(n, e/2)})
	}
	return sc
}

// Synchronized describes what SynchBfsTree over a synchronizer shares with
// the sync family: its properties, and the claims of a breadth-first tree
// built pulse by pulse, every pulse in order.
func Synchronized(p *suite.Protocol) *suite.Protocol {
	p.Family = "sync"
	p.Properties = bfs.Properties()
	p.Claims = []string{"bfs-tree", "pulse-order", "all-pulses"}
	return p
}
