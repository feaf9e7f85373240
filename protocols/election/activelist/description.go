package activelist

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes the ring algorithm with active lists, which needs
// FIFO links and no failures.
var Description = family.Election(&suite.Protocol{
	Name:    "activelist",
	Summary: "the ring algorithm with active lists: every process sends elect(i), collects numbers, the largest wins",
	Source:  works.Silberschatz,
	Compile: suite.Compiler[State, Msg]("election/activelist", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
