package bully

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about the bully algorithm: the properties
// it claims, its parameters and the scenarios, each with the verdict it
// must give, that show where its assumptions hold and where they break.
// Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "bully",
	Summary: "Garcia-Molina's bully election: election, answer and coordinator messages, timeouts, recovery",
	Source:  works.Garcia + ", as presented in " + works.LeaderElection + "; " + works.Vlassov + "; " + works.Silberschatz,
	Claims:  family.ElectionClaims(),
	Compile: suite.Compiler[State, Msg]("election/bully", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "sync-crash", N: 4, Crashes: 1, Expect: checker.Pass,
			Why:      "with a perfect failure detector bully is safe and elects the highest live node, whenever a node crashes; the figures bound what a crash costs, from a crash before anything is sent to one that restarts elections after most of the messages",
			Messages: "election 6..20, coordinator 5..15, answer 3..15"},
		{Name: "two-crashes", N: 3, Crashes: 2, Expect: checker.Pass,
			Why:      "the node that answered crashes before it announces itself: the lower node's coordinator timer fires and it starts again (Garcia-Molina's command 6), so the election still ends",
			Messages: "election 3..10, coordinator 2..7, answer 0..5"},
		{Name: "async-crash", N: 4, Crashes: 1, Timing: model.Async, MaxDepth: 10,
			Props: []string{"unique-leader", "agreement"}, Expect: checker.Fail, Shows: "unique-leader", Violates: []string{"agreement"},
			Why: "with inaccurate timeouts two nodes lead at once (Vlassov and Montelius: E1 may be broken if timeouts are inaccurate)"},
		{Name: "sync-recovery", N: 4, Crashes: 1, Recoveries: 1, Expect: checker.Fail,
			Props: []string{"unique-leader", "agreement"}, Shows: "unique-leader", Violates: []string{"agreement"},
			Why: "a crashed node replaced under its old identifier bullies its way back while the new leader still leads (Vlassov and Montelius)"},
		{Name: "partition", N: 3, Partitions: 1, Props: []string{"group-leader", "healed-leader"}, Expect: checker.Fail,
			Shows: "healed-leader", Violates: []string{"group-leader"},
			Why: "bully has no merge: each side of a partition elects its own coordinator, and after the heal both lead on (Kesden: the invitation algorithm is the one for partitions)"},
		{Name: "lowest-alone", N: 4, Initiators: "0", Expect: checker.Pass,
			Why:      "only the lowest node notices: each higher node it reaches answers and takes the election over, up to the highest (Silberschatz et al.: the worst case, O(N²) messages): N(N-1)/2 elections, each answered, and a coordinator to each lower node; a node that already follows the new leader when a late election reaches it joins once more, and a leader answers an election with its coordinator again",
			Messages: "election 6..7, answer 6..7, coordinator 5..6"},
		{Name: "loss", N: 3, Losses: 1, Expect: checker.Fail,
			Shows: "agreement", Violates: []string{"unique-leader", "highest-leader", "termination", "live-leader"},
			Why: "one lost message: a lost election times out like a crashed higher node, and the lower node leads beside the highest; a lost coordinator message leaves a node undecided (Kesden: no response within 2Tm+Tp means \"the process or connection has failed\", and bully cannot tell which; Vlassov and Montelius: it \"assumes that message delivery between processes is reliable\")"},
	},
})
