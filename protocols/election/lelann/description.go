package lelann

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about LeLann's ring election: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "lelann",
	Summary: "LeLann's ring election: every token circles the ring, initiators collect identities",
	Source:  "G. LeLann (IFIP Congress, 1977), as presented in " + works.LeaderElection,
	Claims:  family.ElectionClaims(),
	// the highest initiator wins, and non-initiators never learn it
	PartialClaims: []string{"unique-leader", "agreement"},
	Compile:       suite.Compiler[State, Msg]("election/lelann", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "fifo", N: 5, Topology: "uniring", Expect: checker.Pass,
			Why:      "with FIFO channels every initiator sees every token before its own: N² messages",
			Messages: "token 25"},
		{Name: "unordered", N: 3, Topology: "uniring", Channels: model.Unordered, Expect: checker.Fail,
			Shows: "unique-leader", Violates: []string{"agreement", "highest-leader"},
			Why: "without FIFO channels a token overtakes another and two nodes elect themselves (the Leader Election notes: \"assuming FIFO channels\")"},
		{Name: "two-initiators", N: 5, Topology: "uniring", Initiators: "0,2", Expect: checker.Pass,
			Why:      "two initiators, whose tokens each go round the whole ring, forwarded by the others: N messages an initiator",
			Messages: "token 10"},
		{Name: "duplicate", N: 3, Topology: "uniring", Duplicates: 1, Expect: checker.Pass,
			Why: "the network duplicates a token: the copy adds nothing to a list that holds its identity already"},
		{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Expect: checker.Fail,
			Shows: "termination", Violates: []string{"highest-leader", "live-leader"},
			Why: "a node crashes and an initiator whose token it held never sees it come back, or a leader crashes once elected and no one elects again (the Leader Election notes: \"If a node in the ring breaks down, the circle is broken, election will not work\")"},
		{Name: "loss", N: 3, Topology: "uniring", Losses: 1, Expect: checker.Fail,
			Shows: "agreement", Violates: []string{"highest-leader", "termination", "live-leader"},
			Why: "a lost token never reaches the initiators after it, which decide on lists without it: two nodes each believe in a different leader (the Leader Election notes: an initiator that receives back its id \"has seen every other initiators id\" only because every token goes \"around the whole ring\")"},
		{Name: "partial", N: 4, Topology: "uniring", Initiators: "0,2", Props: []string{"highest-leader"}, Expect: checker.Fail, Shows: "highest-leader",
			Why: "only nodes 0 and 2 initiate: node 3's identity is in no list, so the highest initiator wins, not the highest node (the Leader Election notes: \"Non-initiators just forward and lose\"); highest-leader is claimed only when every node initiates"},
	},
})
