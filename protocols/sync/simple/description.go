package simple

import (
	_ "embed"
	"fmt"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description describes SynchBfsTree over the simple synchronizer.
var Description = family.Synchronized(&suite.Protocol{
	Name:    "bfs-simple",
	Summary: "SynchBfsTree over the simple synchronizer: one packet per link and pulse each way, 2E messages a pulse",
	Source:  works.LeaderElection + ", Synchronizers: A simple synchronizer; Application: BFS tree construction",
	Compile: suite.Compiler("sync/bfs-simple", Over(bfs.Round{}), nil),
	// a packet per link and pulse each way, N pulses
	Scenarios: family.OverSynchronizer(model.Unordered, "the simple synchronizer", func(n, e int) string {
		return fmt.Sprintf("total %d", 2*e*n)
	}),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
