package ringbased

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about the ring-based election: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "ringbased",
	Summary: "the ring-based election with participant marking: election then elected messages",
	Source:  works.Vlassov,
	// a node substitutes its own rank for a lower one, so the highest
	// node wins whoever initiates, and elected tells everyone
	Claims:  family.ElectionClaims(),
	Compile: suite.Compiler[State, Msg]("election/ringbased", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "one-initiator", N: 6, Topology: "uniring", Initiators: "0", Expect: checker.Pass,
			Why:      "one initiator whose predecessor has the highest rank: the worst case in Vlassov and Montelius, 3N-1 messages",
			Messages: "total 17"},
		{Name: "all-unordered", N: 5, Topology: "uniring", Channels: model.Unordered, Ranks: "random:7", Expect: checker.Pass,
			Why:      "concurrent elections on unordered links: still safe, but stale election messages can start extra rounds",
			Messages: "election 11..35, elected 5..25"},
		{Name: "crash", N: 4, Topology: "uniring", Initiators: "0", Crashes: 1, Expect: checker.Fail,
			Shows: "termination", Violates: []string{"highest-leader", "live-leader"},
			Why: "a crashed node breaks the ring and the election never ends (Vlassov and Montelius: \"there are no failures\")"},
	},
})
