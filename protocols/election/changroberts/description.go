package changroberts

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes Chang and Roberts' ring election, whose worst case
// is a ring of falling ranks.
var Description = family.Election(&suite.Protocol{
	Name:    "changroberts",
	Summary: "Chang and Roberts' ring election: tokens of lower rank are dropped",
	Source:  "E. Chang and R. Roberts (CACM, 1979), as presented in " + works.LeaderElection,
	// the highest initiator wins, not the highest node
	PartialClaims: []string{"unique-leader", "agreement", "termination"},
	Compile:       suite.Compiler[State, Msg]("election/changroberts", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
