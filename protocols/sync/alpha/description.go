package alpha

import (
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description tells vigil's tools about SynchBfsTree over synchronizer α:
// the properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = &suite.Protocol{
	Name: "bfs-alpha", Family: "sync",
	Summary:    "SynchBfsTree over Awerbuch's synchronizer α: messages acknowledged, safe told to every neighbour, 2E safe messages a pulse",
	Source:     works.Awerbuch + "; " + works.LeaderElection + ", Application: BFS tree construction",
	Properties: bfs.Properties(),
	Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
	Compile:    suite.Compiler("sync/bfs-alpha", Over(bfs.Round{}), nil),
	// safe to every neighbour, N pulses
	Scenarios: append(family.OverSynchronizer(model.Unordered, "synchronizer α", func(n, e int) string {
		return fmt.Sprintf("safe %d", 2*e*n)
	}),
		suite.Scenario{Name: "loss", N: 4, Topology: "line", Channels: model.Unordered, Losses: 1,
			Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
			Why: "one lost message, ack or safe, and a node waits for ever: a synchronizer is \"possible in the absence of failures\" (the Leader Election notes)"}),
}
