package changroberts

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about Chang and Roberts' ring election:
// the properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "changroberts",
	Summary: "Chang and Roberts' ring election: tokens of lower rank are dropped",
	Source:  "E. Chang and R. Roberts (CACM, 1979), as presented in " + works.LeaderElection,
	Claims:  family.ElectionClaims(),
	// the highest initiator wins, not the highest node
	PartialClaims: []string{"unique-leader", "agreement", "termination"},
	Compile:       suite.Compiler[State, Msg]("election/changroberts", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "worst-ring", N: 6, Topology: "uniring", Ranks: "reverse", Expect: checker.Pass,
			Why:      "every node initiates on a ring of falling ranks: the worst case in the Leader Election notes, N(N+1)/2 election messages",
			Messages: "election 21"},
		{Name: "unordered", N: 5, Topology: "uniring", Channels: model.Unordered, Ranks: "random:7", Expect: checker.Pass,
			Why: "Chang-Roberts needs no FIFO channels"},
		{Name: "one-initiator", N: 5, Topology: "uniring", Initiators: "0", Expect: checker.Pass,
			Why:      "one node initiates and the others forward: its token goes round once, then the elected message, 2N messages",
			Messages: "election 5, elected 5"},
		{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Expect: checker.Fail,
			Shows: "termination", Violates: []string{"highest-leader", "live-leader"},
			Why: "a node crashes and the election never ends, or a leader crashes once elected and no one elects again (the Leader Election notes: \"If a node in the ring breaks down, the circle is broken, election will not work\")"},
		{Name: "partial", N: 4, Topology: "uniring", Initiators: "0,2", Props: []string{"highest-leader"}, Expect: checker.Fail, Shows: "highest-leader",
			Why: "only nodes 0 and 2 initiate: node 3's token is never sent, so the highest initiator wins, not the highest node (the Leader Election notes' example, \"Nodes 1, 3, 6 are initiators\"); highest-leader is claimed only when every node initiates"},
	},
})
