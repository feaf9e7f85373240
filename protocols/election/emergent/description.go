package emergent

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes the emergent election, whose slave pool's bounds are
// its parameters.
var Description = family.Election(&suite.Protocol{
	Name:    "emergent",
	Summary: "Anthony's emergent election: a self-sized slave pool watches the master and only the slaves elect",
	Source:  works.Anthony,
	// the highest-ranked slave wins, not the highest live node
	Claims: []string{"elected", "unique-leader", "agreement", "termination", "live-leader", "pool-size"},
	Params: []suite.Param{
		{Name: properties.PoolMinParam, Default: 1, Doc: "the slave pool's lower limit: idle nodes promote themselves below it"},
		{Name: properties.PoolMaxParam, Default: 2, Doc: "the slave pool's upper limit: slaves demote themselves above it"},
	},
	Compile: suite.Compiler[State, Msg]("election/emergent", Protocol{}, nil),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
