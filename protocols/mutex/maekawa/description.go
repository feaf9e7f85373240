package maekawa

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Description tells vigil's tools about Maekawa's voting algorithm: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Exclusion(&suite.Protocol{
	Name:    "maekawa",
	Summary: "Maekawa's voting: ask a row-and-column voting set, enter after K votes",
	Source:  works.Vlassov,
	Compile: suite.Compiler[State, Msg]("mutex/maekawa", Protocol{}, family.Requests("mutex/maekawa", "only central and tokenring ask forever")),
	Scenarios: []suite.Scenario{
		{Name: "deadlock", N: 4, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-deadlock", Violates: []string{"no-starvation"},
			Why:      "concurrent requests each win part of their voting set and wait in a cycle for the rest, e.g. nodes 0 and 1 each vote for themselves first: \"Unfortunately, the algorithm is deadlock-prone\" (Vlassov and Montelius); where none deadlocks, every node's K votes reach it",
			Messages: "request 12, reply 4..12"},
		{Name: "one-client", N: 4, Initiators: "0", Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
			Why:      "a single node asks twice: it enters once its whole voting set has voted, and releases every vote it took (Vlassov and Montelius: 3K messages an entry, K = 3 on the 2x2 grid)",
			Messages: "request 6, reply 6, release 6"},
		{Name: "one-shared-voter", N: 3, Initiators: "1,2", Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
			Why:      "on three nodes the voting sets of nodes 1 and 2, {0, 1} and {0, 2}, share node 0 alone: its one vote decides who enters, the other waits in its queue for the release, and nothing deadlocks",
			Messages: "request 8, reply 8, release 8"},
		{Name: "duplicate", N: 3, Initiators: "1,2", Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "mutual-exclusion", Violates: []string{"no-deadlock", "no-starvation"},
			Why: "a duplicated vote counts twice towards the K a node waits for: node 2 enters on its own vote, counted twice, without that of node 0, the voter it shares with node 1, which voted for node 1 (Vlassov and Montelius: \"wait until (number of replies received = K)\", over channels that must \"avoid duplication of messages\")"},
		{Name: "voter-crash", N: 4, Initiators: "0", Crashes: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
			Shows: "no-starvation", Violates: []string{"no-deadlock"},
			Why: "a member of the voting set crashes before it votes: the requester waits for its K votes for ever, with no other node asking (Vlassov and Montelius: \"Even if we can detect them reliably, crashing nodes is a problem\")"},
	},
})
