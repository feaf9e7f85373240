package static

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/work"
)

// Description describes static work sharing, which recovers nothing from a
// crash.
var Description = family.Sharing(&suite.Protocol{
	Name:    "static",
	Summary: "static work sharing: node 0 divides the tasks among the workers up front and analyses their results",
	Source:  works.Elections + ", \"Static sharing\"",
	Claims:  []string{"result", "all-results", "results-once"},
	Compile: suite.Compiler[State, Msg]("work/static", Protocol{}, work.Validate("work/static")),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
