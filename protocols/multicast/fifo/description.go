package fifo

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes FIFO-ordered multicast over B-multicast.
var Description = family.Group(false, &suite.Protocol{
	Name:    "fifo",
	Summary: "FIFO order: per-sender sequence numbers and a hold-back queue over B-multicast",
	Source:  works.Vlassov,
	Claims:  []string{"delivered", "validity", "integrity", "fifo-order"},
	Compile: suite.Compiler[State, Msg]("multicast/fifo", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
