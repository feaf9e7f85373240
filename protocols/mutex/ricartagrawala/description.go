package ricartagrawala

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Description tells vigil's tools about Ricart and Agrawala's algorithm:
// the properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "ricartagrawala",
	Summary: "Ricart and Agrawala: multicast a Lamport-timestamped request, enter after N-1 replies",
	Source:  works.Vlassov,
	Claims:  []string{"mutual-exclusion", "no-deadlock", "no-starvation", "request-order"},
	Compile: suite.Compiler[State, Msg]("mutex/ricartagrawala", Protocol{}, family.Requests("mutex/ricartagrawala", "the Lamport clocks grow with every request")),
	Scenarios: []suite.Scenario{
		{Name: "two-each", N: 3, Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
			Why:      "every node asks twice: requests enter in (timestamp, id) order, 2(N-1) messages per entry",
			Messages: "total 24"},
		{Name: "unordered", N: 3, Channels: model.Unordered, Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
			Why: "Vlassov and Montelius ask for reliable channels, not FIFO ones: replies overtaking requests do no harm"},
		{Name: "loss", N: 3, Losses: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-deadlock", Violates: []string{"no-starvation"},
			Why: "one lost request or reply, and a node waits for ever for the replies it needs: \"None of the algorithms we described would tolerate the loss of messages if the channels were unreliable\" (Vlassov and Montelius)"},
		{Name: "duplicate", N: 3, Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "mutual-exclusion", Violates: []string{"request-order"},
			Why: "a duplicated reply counts twice towards the N-1 a node waits for, and it enters while the node that has not replied is inside (Vlassov and Montelius: \"wait until (number of replies received = (N - 1))\", over channels that must \"avoid duplication of messages\")"},
		{Name: "crash", N: 3, Crashes: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-starvation", Violates: []string{"no-deadlock"},
			Why: "a node crashes and never replies: every other node that asks waits for its N-1 replies for ever (Vlassov and Montelius: \"Even if we can detect them reliably, crashing nodes is a problem\")"},
	},
})
