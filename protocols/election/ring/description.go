package ring

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes Kesden's ring election, which skips failed nodes.
// It claims what an election that elects the highest live node does:
// every live node adds its number to every list, so the highest live node
// wins whoever initiates, and the announcement reaches all.
var Description = family.Election(&suite.Protocol{
	Name:    "ring",
	Summary: "the ring election: a list of node numbers goes round, skipping failed nodes; the highest coordinates",
	Source:  works.Kesden + ": Ring Election",
	Compile: suite.Compiler[State, Msg]("election/ring", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
