package central

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Description tells vigil's tools about mutual exclusion through a central
// server: the properties it claims, its parameters and the scenarios, each
// with the verdict it must give, that show where its assumptions hold and
// where they break. Package protocols lists it among the protocols vigil
// ships.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "central",
	Summary: "mutual exclusion through a central server: request, grant and release a token",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("mutex/central", Protocol{}, family.Requests("mutex/central", "")),
	Scenarios: []suite.Scenario{
		{Name: "two-each", N: 3, Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
			Why:      "every node, the server too, asks twice: the server grants the token in turn (Vlassov and Montelius: enter 2 messages, exit 1)",
			Messages: "request 6, grant 6, release 6"},
		{Name: "forever", N: 3, Params: map[string]int{mutex.RequestsParam: 0}, Expect: checker.Pass,
			Why: "every node asks again and again: the server's FIFO queue keeps the state finite"},
		{Name: "loss", N: 3, Losses: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-deadlock", Violates: []string{"no-starvation"},
			Why: "one lost grant, request or release, and the token is gone or a node waits for ever: \"None of the algorithms we described would tolerate the loss of messages if the channels were unreliable\" (Vlassov and Montelius)"},
		{Name: "order", N: 3, Params: map[string]int{mutex.RequestsParam: 1}, Props: []string{"request-order"}, Expect: checker.Fail, Shows: "request-order",
			Why: "the server grants in the order requests reach it, so a node whose request comes first in (timestamp, id) order, the order Ricart and Agrawala enter in, can wait while another enters (Vlassov and Montelius ask \"ordering?\")"},
		{Name: "duplicate", N: 3, Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1},
			Props:  []string{"mutual-exclusion", "no-deadlock", "no-starvation", "linearizable"},
			Expect: checker.Fail, Shows: "mutual-exclusion", Violates: []string{"linearizable"},
			Why: "the algorithms assume reliable channels (Vlassov and Montelius): a duplicated grant is a second token, and the node it reaches after its exit enters again while the server grants the next; clients see a lock that two hold at once"},
	},
})
