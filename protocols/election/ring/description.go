package ring

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about the ring election: the properties
// it claims, its parameters and the scenarios, each with the verdict it
// must give, that show where its assumptions hold and where they break.
// Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "ring",
	Summary: "the ring election: a list of node numbers goes round, skipping failed nodes; the highest coordinates",
	Source:  works.Kesden + ": Ring Election",
	// every live node adds its number to every list, so the highest
	// live node wins whoever initiates, and the announcement reaches all
	Claims:  family.ElectionClaims(),
	Compile: suite.Compiler[State, Msg]("election/ring", Protocol{}, nil),
	// The scenarios with failures (or, async, seeming failures) run on
	// the complete graph: a node skips its failed successor and sends
	// to the node after it, a link the ring does not have.
	Scenarios: []suite.Scenario{
		{Name: "concurrent", N: 5, Topology: "ring", Ranks: "random:7", Expect: checker.Pass,
			Why:      "every node starts an election: each goes round and selects the same coordinator, 2N²+2N messages with the acks (Kesden: the extra messages are wasted overhead)",
			Messages: "total 60"},
		{Name: "crash", N: 4, Initiators: "0", Crashes: 1, Expect: checker.Pass,
			Why:      "a node crashes at any point: its predecessor skips it and elects again, and a dead coordinator is replaced (Kesden: skipping failed nodes as necessary)",
			Messages: "election 4..19, ack 8..29, coordinator 3..11"},
		{Name: "duplicate-crash", N: 3, Initiators: "0,1", Crashes: 1, Duplicates: 1, Expect: checker.Pass,
			Why:      "a duplicated message is acknowledged twice, and the stray second ack can reach a node that holds the COORDINATOR concluding that very ELECTION, with the same list: only the kind tells the two apart, and a COORDINATOR released by the wrong ack is not re-sent when its receiver crashes (Kesden: skipping failed nodes)",
			Messages: "total 16..70, election 6..22, ack 8..35, coordinator 2..13"},
		{Name: "async", N: 3, Timing: model.Async, MaxDepth: 10,
			Props: []string{"unique-leader", "agreement"}, Expect: checker.Fail, Shows: "unique-leader", Violates: []string{"agreement"},
			Why: "with inaccurate timeouts a node skips successors that are merely slow, and elects itself while another node leads"},
		{Name: "recovery", N: 3, Initiators: "0", Crashes: 1, Recoveries: 1, Expect: checker.Fail,
			Shows: "termination", Violates: []string{"agreement", "highest-leader", "live-leader"},
			Why: "a node that crashes and comes back before its predecessor notices has lost the election it held, and nobody re-sends it (Kesden skips failed nodes and never readmits them)"},
		{Name: "loss", N: 3, Initiators: "0", Losses: 1, Expect: checker.Fail,
			Shows: "agreement", Violates: []string{"unique-leader", "highest-leader", "termination", "live-leader"},
			Why: "a lost message or acknowledgement makes a node take its live successor for failed and skip it: a list without that node goes round, and a node that had learnt the successor leads now follows another (Kesden: \"skipping failed nodes as necessary\", where a silent node is taken for a failed one)"},
	},
})
