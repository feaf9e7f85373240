package activelist

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about the ring algorithm with active
// lists: the properties it claims, its parameters and the scenarios, each
// with the verdict it must give, that show where its assumptions hold and
// where they break. Package protocols lists it among the protocols vigil
// ships.
var Description = family.Election(&suite.Protocol{
	Name:    "activelist",
	Summary: "the ring algorithm with active lists: every process sends elect(i), collects numbers, the largest wins",
	Source:  works.Silberschatz,
	Claims:  family.ElectionClaims(),
	Compile: suite.Compiler[State, Msg]("election/activelist", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "one-detects", N: 5, Topology: "uniring", Initiators: "2", Expect: checker.Pass,
			Why:      "one process detects the failure; every process joins and each number goes round: N² messages",
			Messages: "elect 25"},
		{Name: "unordered", N: 3, Topology: "uniring", Channels: model.Unordered, Expect: checker.Fail,
			Shows: "agreement", Violates: []string{"unique-leader", "highest-leader"},
			Why: "without FIFO links a process's own message overtakes another and it decides on a partial list"},
		{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Expect: checker.Fail,
			Shows: "termination", Violates: []string{"highest-leader", "live-leader"},
			Why: "a process crashes and the elect messages it held never come back, or the coordinator crashes once chosen and no one detects it: the ring algorithm sends to the right neighbour only (Silberschatz et al.: \"processes send their messages to their right neighbors\")"},
		{Name: "loss", N: 3, Topology: "uniring", Losses: 1, Expect: checker.Fail,
			Shows: "highest-leader", Violates: []string{"agreement", "termination", "live-leader"},
			Why: "a lost elect(j) leaves j out of the active lists after it, and a process chooses the largest number of a partial list while the highest lives (Silberschatz et al.: the active list contains \"the numbers of all the active processes\" only when every elect message arrives)"},
	},
})
