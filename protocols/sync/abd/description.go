package abd

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description describes SynchBfsTree over the ABD synchronizer, which
// assumes the delay bound it is given.
var Description = family.Synchronized(&suite.Protocol{
	Name:    "bfs-abd",
	Summary: "SynchBfsTree over the ABD synchronizer: on bounded delay, the next pulse 2d ticks after the last, no control messages",
	Source:  works.LeaderElection + ", Synchronizers: Asynchronous Bounded Delay (ABD) Synchronizer; Application: BFS tree construction",
	Params: []suite.Param{{Name: DelayParam, Default: 1,
		Doc: "the delay d the ABD synchronizer assumes, in ticks: it starts a pulse every 2d ticks"}},
	Compile: suite.Compiler("sync/bfs-abd", Over(bfs.Round{}), Validate),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
