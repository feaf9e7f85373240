package isis

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes ISIS total order, and a replicated register over it.
var Description = family.Group(true, &suite.Protocol{
	Name:    "isis",
	Summary: "ISIS total order: proposed sequence numbers, the highest agreed, deliver in agreed order",
	Source:  works.Vlassov,
	Claims:  []string{"delivered", "validity", "integrity", "total-order"},
	Compile: suite.Compiler[State, Msg]("multicast/isis", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
