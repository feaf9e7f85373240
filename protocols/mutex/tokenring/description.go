package tokenring

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Description tells vigil's tools about the token ring: the properties it
// claims, its parameters and the scenarios, each with the verdict it must
// give, that show where its assumptions hold and where they break. Package
// protocols lists it among the protocols vigil ships.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "tokenring",
	Summary: "mutual exclusion by a token passed round a ring; idle nodes pass it on",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("mutex/tokenring", Protocol{}, family.Requests("mutex/tokenring", "")),
	Scenarios: []suite.Scenario{
		{Name: "two-each", N: 3, Topology: "uniring", Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
			Why: "every node asks twice and enters when the token comes by (Vlassov and Montelius: enter 0 to N messages, exit 1); the token circulates for ever, so no run ends"},
		{Name: "forever", N: 3, Topology: "uniring", Params: map[string]int{mutex.RequestsParam: 0}, Expect: checker.Pass,
			Why: "every node asks again and again: one token, so one node in the critical section"},
		{Name: "order", N: 3, Topology: "uniring", Params: map[string]int{mutex.RequestsParam: 1}, Props: []string{"request-order"}, Expect: checker.Fail, Shows: "request-order",
			Why: "the token serves nodes in ring order, not in (timestamp, id) order (Vlassov and Montelius ask \"ordering?\")"},
		{Name: "duplicate", N: 3, Topology: "uniring", Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail, Shows: "mutual-exclusion",
			Why: "the ring assumes reliable channels (Vlassov and Montelius): a duplicated token is two tokens, and two nodes enter at once"},
		{Name: "loss", N: 3, Topology: "uniring", Losses: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-deadlock", Violates: []string{"no-starvation"},
			Why: "the token is lost and nothing regenerates it: every node that asks waits for ever (\"None of the algorithms we described would tolerate the loss of messages if the channels were unreliable\", Vlassov and Montelius)"},
		{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-starvation", Violates: []string{"no-deadlock"},
			Why: "a node crashes, with the token or before it comes by: its predecessor passes the token into the gap and the live nodes that asked never enter (Vlassov and Montelius: \"Even if we can detect them reliably, crashing nodes is a problem\")"},
	},
})
