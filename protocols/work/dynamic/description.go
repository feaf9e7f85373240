package dynamic

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/work"
)

// Description describes dynamic work sharing, whose coordinator the bully
// algorithm replaces.
var Description = family.Sharing(&suite.Protocol{
	Name:    "dynamic",
	Summary: "dynamic work sharing: a coordinator hands tasks to empty machines, re-issues a crashed worker's, appoints a new analyser; the bully algorithm replaces the coordinator",
	Source:  works.Elections + ", \"Dynamic sharing\"; " + works.Garcia + ", as presented in the same notes",
	Claims:  []string{"result", "all-results", "results-once", "unique-leader"},
	Params: []suite.Param{{Name: DedupParam, Default: 1, Values: []string{"off", "on"},
		Doc: "whether the analyser drops a result it counted already"}},
	Compile: suite.Compiler[State, Msg]("work/dynamic", Protocol{}, work.Validate("work/dynamic")),
}, properties.UniqueLeader, properties.Agreement, properties.Termination).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
