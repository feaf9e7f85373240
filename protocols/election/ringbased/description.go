package ringbased

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

//go:embed scenarios.txt
var scenarios string

// Description describes the ring-based election with participant marking,
// 3N-1 messages at worst.
var Description = family.Election(&suite.Protocol{
	Name:    "ringbased",
	Summary: "the ring-based election with participant marking: election then elected messages",
	Source:  works.Vlassov,
	// a node substitutes its own rank for a lower one, so the highest
	// node wins whoever initiates, and elected tells everyone
	Claims:  family.ElectionClaims(),
	Compile: suite.Compiler[State, Msg]("election/ringbased", Protocol{}, nil),
}).MustAddScenarios(scenarios)
