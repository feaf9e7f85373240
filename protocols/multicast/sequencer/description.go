package sequencer

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes total order through a sequencer, and a replicated
// register over it.
var Description = family.Group(true, &suite.Protocol{
	Name:    "sequencer",
	Summary: "total order through a sequencer (node 0): hold-back queue, order messages, deliver by sequence number",
	Source:  works.Vlassov,
	Claims:  []string{"delivered", "validity", "integrity", "total-order"},
	Compile: suite.Compiler[State, Msg]("multicast/sequencer", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
