package ricartagrawala

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes Ricart and Agrawala's algorithm, which enters in
// (timestamp, id) order.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "ricartagrawala",
	Summary: "Ricart and Agrawala: multicast a Lamport-timestamped request, enter after N-1 replies",
	Source:  works.Vlassov,
	Claims:  []string{"entered", "mutual-exclusion", "no-deadlock", "no-starvation", "request-order"},
	Compile: suite.Compiler[State, Msg]("mutex/ricartagrawala", Protocol{}, family.Requests("mutex/ricartagrawala", "the Lamport clocks grow with every request")),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
