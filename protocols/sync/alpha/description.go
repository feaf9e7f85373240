package alpha

import (
	_ "embed"
	"fmt"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description describes SynchBfsTree over synchronizer α.
var Description = family.Synchronized(&suite.Protocol{
	Name:    "bfs-alpha",
	Summary: "SynchBfsTree over Awerbuch's synchronizer α: messages acknowledged, safe told to every neighbour, 2E safe messages a pulse",
	Source:  works.Awerbuch + "; " + works.LeaderElection + ", Application: BFS tree construction",
	Compile: suite.Compiler("sync/bfs-alpha", Over(bfs.Round{}), nil),
	// safe to every neighbour, N pulses
	Scenarios: family.OverSynchronizer(model.Unordered, "synchronizer α", func(n, e int) string {
		return fmt.Sprintf("safe %d", 2*e*n)
	}),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
