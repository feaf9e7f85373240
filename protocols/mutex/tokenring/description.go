package tokenring

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes mutual exclusion by a token passed round a ring.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "tokenring",
	Summary: "mutual exclusion by a token passed round a ring; idle nodes pass it on",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("mutex/tokenring", Protocol{}, family.Requests("mutex/tokenring", "")),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
