package invitation

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes the invitation algorithm, which elects a coordinator
// per partition and merges the groups when the network heals.
var Description = family.Election(&suite.Protocol{
	Name:    "invitation",
	Summary: "Garcia-Molina's invitation algorithm: a coordinator per partition, groups merge when the network heals",
	Source:  works.Garcia + ", as presented in " + works.Kesden,
	Claims:  []string{"group-leader", "healed-leader", "group-numbers-unique"},
	Params: []suite.Param{{Name: StableSeqParam, Default: 1, Values: []string{"off", "on"},
		Doc: "whether a node's sequence number is on stable storage and survives a crash"}},
	Compile: suite.Compiler[State, Msg]("election/invitation", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
