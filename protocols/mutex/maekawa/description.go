package maekawa

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes Maekawa's voting algorithm, which can deadlock.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "maekawa",
	Summary: "Maekawa's voting: ask a row-and-column voting set, enter after K votes",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("mutex/maekawa", Protocol{}, family.Requests("mutex/maekawa", "only central and tokenring ask forever")),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
