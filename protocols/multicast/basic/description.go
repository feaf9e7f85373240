package basic

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about B-multicast: the properties it
// claims, its parameters and the scenarios, each with the verdict it must
// give, that show where its assumptions hold and where they break. Package
// protocols lists it among the protocols vigil ships.
var Description = family.Group(false, &suite.Protocol{
	Name:    "basic",
	Summary: "B-multicast: a loop of sends; a received message is delivered",
	Source:  works.Vlassov,
	Claims:  []string{"validity", "integrity", "agreement"},
	Compile: suite.Compiler[State, Msg]("multicast/basic", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "no-crash", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: family.Msgs(2), Expect: checker.Pass,
			Why:      "two nodes multicast twice each and nobody crashes: everyone delivers everything, N messages a multicast",
			Messages: "msg 12"},
		{Name: "sender-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: family.Msgs(1), Expect: checker.Fail, Shows: "agreement",
			Why: "the sender crashes in the middle of its loop of sends: \"as long as the multicaster does not crash\" (Vlassov and Montelius)"},
		{Name: "fifo", N: 3, Channels: model.Unordered, Params: family.Msgs(2), Props: []string{"fifo-order"}, Expect: checker.Fail, Shows: "fifo-order",
			Why: "two messages of one sender overtake each other on unordered channels"},
		{Name: "uniform", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: family.Msgs(1), Props: []string{"uniform-agreement"}, Expect: checker.Fail, Shows: "uniform-agreement",
			Why: "the sender delivers its own message and crashes before the others get it: a crashed node delivered what no correct one will, which R-multicast's relaying rules out (Vlassov and Montelius: uniform agreement)"},
		{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0", Params: family.Msgs(1), Expect: checker.Fail, Shows: "integrity",
			Why: "the network duplicates a message and B-multicast delivers it twice: its integrity rests on channels that do not duplicate, where R-multicast copes, as \"a message may arrive more than once\" (Vlassov and Montelius)"},
		{Name: "loss", N: 3, Channels: model.Unordered, Losses: 1, Initiators: "0", Params: family.Msgs(1), Expect: checker.Fail, Shows: "validity", Violates: []string{"agreement"},
			Why: "the network loses a message of the loop of sends, the sender's own copy or another's: \"Assuming we have a reliable network layer, this is simple\" (Vlassov and Montelius), and without one a message is never delivered"},
	},
})
