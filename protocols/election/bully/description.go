package bully

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes the bully algorithm, safe with a perfect failure
// detector and not with timeouts that can be wrong.
var Description = family.Election(&suite.Protocol{
	Name:    "bully",
	Summary: "Garcia-Molina's bully election: election, answer and coordinator messages, timeouts, recovery",
	Source:  works.Garcia + ", as presented in " + works.LeaderElection + "; " + works.Vlassov + "; " + works.Silberschatz,
	Compile: suite.Compiler[State, Msg]("election/bully", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
