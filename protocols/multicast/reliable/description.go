package reliable

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes R-multicast, which relays a message before it
// delivers it.
var Description = family.Group(false, &suite.Protocol{
	Name:    "reliable",
	Summary: "R-multicast over B-multicast: relay on first receipt, then deliver; duplicates dropped",
	Source:  works.Vlassov,
	Claims:  []string{"delivered", "validity", "integrity", "agreement", "uniform-agreement"},
	Compile: suite.Compiler[State, Msg]("multicast/reliable", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
