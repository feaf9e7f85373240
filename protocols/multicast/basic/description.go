package basic

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes B-multicast, which delivers to all only while its
// sender lives and the network keeps every message once.
var Description = family.Group(false, &suite.Protocol{
	Name:    "basic",
	Summary: "B-multicast: a loop of sends; a received message is delivered",
	Source:  works.Vlassov,
	Claims:  []string{"delivered", "validity", "integrity", "agreement"},
	Compile: suite.Compiler[State, Msg]("multicast/basic", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
