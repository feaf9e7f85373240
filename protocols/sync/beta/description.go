package beta

import (
	_ "embed"
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description describes SynchBfsTree over synchronizer β, on the
// breadth-first spanning tree from node 0.
var Description = family.Synchronized(&suite.Protocol{
	Name:    "bfs-beta",
	Summary: "SynchBfsTree over Awerbuch's synchronizer β on the breadth-first spanning tree from node 0: m(j) down, ack(j) and safe(j) up, 3(N-1) control messages a pulse",
	Source:  works.Awerbuch + "; " + works.LeaderElection + ", Application: BFS tree construction",
	Compile: overTree("sync/bfs-beta"),
	// m(j), ack(j) and safe(j) on each of the tree's N-1 links, N pulses
	Scenarios: family.OverSynchronizer(model.Unordered, "synchronizer β", func(n, _ int) string {
		return fmt.Sprintf("safe %d, pulse %[1]d, pulse-ack %[1]d", (n-1)*n)
	}),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string

// overTree compiles SynchBfsTree over synchronizer β on the run's
// breadth-first spanning tree from node 0, which β assumes given.
func overTree(name string) func(model.Config, []*properties.Property) (*checker.Machine, error) {
	return func(cfg model.Config, props []*properties.Property) (*checker.Machine, error) {
		g, err := model.ParseTopology(cfg.Topology, cfg.N)
		if err != nil {
			return nil, err
		}
		return suite.Compiler(name, Over(bfs.Round{}, SpanningTree(g, 0)), nil)(cfg, props)
	}
}
