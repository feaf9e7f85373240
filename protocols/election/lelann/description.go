package lelann

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes LeLann's ring election, which needs FIFO channels.
var Description = family.Election(&suite.Protocol{
	Name:    "lelann",
	Summary: "LeLann's ring election: every token circles the ring, initiators collect identities",
	Source:  "G. LeLann (IFIP Congress, 1977), as presented in " + works.LeaderElection,
	// the highest initiator wins, and non-initiators never learn it
	PartialClaims: []string{"unique-leader", "agreement"},
	Compile:       suite.Compiler[State, Msg]("election/lelann", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
