package simple

import (
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description tells vigil's tools about SynchBfsTree over the simple
// synchronizer: the properties it claims, its parameters and the scenarios,
// each with the verdict it must give, that show where its assumptions hold
// and where they break. Package protocols lists it among the protocols
// vigil ships.
var Description = &suite.Protocol{
	Name: "bfs-simple", Family: "sync",
	Summary:    "SynchBfsTree over the simple synchronizer: one packet per link and pulse each way, 2E messages a pulse",
	Source:     works.LeaderElection + ", Synchronizers: A simple synchronizer; Application: BFS tree construction",
	Properties: bfs.Properties(),
	Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
	Compile:    suite.Compiler("sync/bfs-simple", Over(bfs.Round{}), nil),
	// a packet per link and pulse each way, N pulses
	Scenarios: append(family.OverSynchronizer(model.Unordered, "the simple synchronizer", func(n, e int) string {
		return fmt.Sprintf("total %d", 2*e*n)
	}),
		suite.Scenario{Name: "loss", N: 4, Topology: "line", Channels: model.Unordered, Losses: 1,
			Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
			Why: "one lost packet and its receiver waits for ever for \"exactly one message ... from each neighbor\": a synchronizer is \"possible in the absence of failures\" (the Leader Election notes)"}),
}
