package central

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes mutual exclusion through a central server.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "central",
	Summary: "mutual exclusion through a central server: request, grant and release a token",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("mutex/central", Protocol{}, family.Requests("mutex/central", "")),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
