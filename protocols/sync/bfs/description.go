package bfs

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// Description tells vigil's tools about the simple BFS tree algorithm: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = &suite.Protocol{
	Name: "bfs", Family: "sync",
	Summary:    "the simple BFS tree algorithm on an asynchronous network: the first invite wins",
	Source:     works.LeaderElection + ", Application: BFS tree construction",
	Properties: Properties(),
	Claims:     []string{"bfs-tree"},
	Compile:    suite.Compiler[State, Msg]("sync/bfs", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "chord", N: 4, Topology: "edges:0-1,1-2,2-3,3-0,0-2", Channels: model.Unordered, Expect: checker.Fail, Shows: "bfs-tree",
			Why: "on a 4-cycle with a chord from the root, every node is the root's neighbour, yet an invite relayed by another (0, 2, 3) may reach it before the root's own: \"this algorithm does not always give a BFS tree\" (the Leader Election notes)"},
		{Name: "line", N: 4, Topology: "line", Channels: model.Unordered, Expect: checker.Pass,
			Why: "on a tree there is one path to each node, so the first invite is the breadth-first one"},
	},
}

// Properties are the sync family's properties: the BFS tree, and the
// pulses of a synchronizer that runs SynchBfsTree, all N of them; every
// description of the family checks them.
func Properties() []*properties.Property {
	return []*properties.Property{BFSTree, round.PulseOrder, round.AllPulses(Round{})}
}
