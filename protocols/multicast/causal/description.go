package causal

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes causally ordered multicast over B-multicast.
var Description = family.Group(false, &suite.Protocol{
	Name:    "causal",
	Summary: "causal order: vector timestamps and a hold-back queue over B-multicast",
	Source:  works.Vlassov,
	Claims:  []string{"delivered", "validity", "integrity", "fifo-order", "causal-order"},
	Compile: suite.Compiler[State, Msg]("multicast/causal", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
