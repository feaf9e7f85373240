package ringbased

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes the ring-based election with participant marking,
// 3N-1 messages at worst. It claims what an election that elects the
// highest live node does: a node substitutes its own rank for a lower one,
// so the highest node wins whoever initiates, and elected tells everyone.
var Description = family.Election(&suite.Protocol{
	Name:    "ringbased",
	Summary: "the ring-based election with participant marking: election then elected messages",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("election/ringbased", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
