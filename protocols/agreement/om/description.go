package om

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes OM(m), which reaches interactive consistency among
// more than 3m generals with at most m traitors, and not among fewer.
var Description = family.Agreement(&suite.Protocol{
	Name:    "om",
	Summary: "Lamport, Shostak and Pease's oral messages OM(m): the commander's order relayed m rounds deep, each lieutenant taking majorities; n > 3m generals tolerate m traitors",
	Source:  works.Generals,
	Params: []suite.Param{
		{Name: MParam, Default: -1, Doc: "the m of OM(m), the rounds of relaying, at most n-2 (-1: as many as the run's traitors, -traitors)"},
	},
	Compile: suite.Compiler[State, Msg]("agreement/om", Protocol{}, Validate),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
