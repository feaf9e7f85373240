package bfs

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// Description describes the simple BFS tree algorithm, which builds a
// breadth-first tree only on a tree or over a synchronizer.
var Description = (&suite.Protocol{
	Name: "bfs", Family: "sync",
	Summary:    "the simple BFS tree algorithm on an asynchronous network: the first invite wins",
	Source:     works.LeaderElection + ", Application: BFS tree construction",
	Properties: Properties(),
	Claims:     []string{"bfs-tree"},
	Compile:    suite.Compiler[State, Msg]("sync/bfs", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string

// Properties are the sync family's properties: the BFS tree, and the
// pulses of a synchronizer that runs SynchBfsTree, all N of them; every
// description of the family checks them.
func Properties() []*properties.Property {
	return []*properties.Property{BFSTree, round.PulseOrder, round.AllPulses(Round{})}
}
