package isis

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about ISIS total order: the properties it
// claims, its parameters and the scenarios, each with the verdict it must
// give, that show where its assumptions hold and where they break. Package
// protocols lists it among the protocols vigil ships.
var Description = family.Group(true, &suite.Protocol{
	Name:    "isis",
	Summary: "ISIS total order: proposed sequence numbers, the highest agreed, deliver in agreed order",
	Source:  works.Vlassov,
	Claims:  []string{"validity", "integrity", "total-order"},
	Compile: suite.Compiler[State, Msg]("multicast/isis", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: family.Msgs(1), Expect: checker.Pass,
			Why:      "proposals and agreed numbers cross in any order; every node delivers in agreed order: 3N messages a multicast",
			Messages: "msg 6, propose 6, agreed 6"},
		{Name: "register", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: family.OrderedReads(), Props: family.RegisterProps(), Expect: checker.Pass,
			Why: "a replicated register: writes and reads take agreed numbers like any message, so every replica applies them in one order and every history is linearizable"},
		{Name: "crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0,1", Params: family.Msgs(1), Props: []string{"validity"}, Expect: checker.Fail, Shows: "validity",
			Why: "a node crashes before it proposes: its sender waits for the Nth proposal forever"},
		{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0,1", Params: family.Msgs(1), Expect: checker.Fail,
			Shows: "total-order", Violates: []string{"validity"},
			Why: "a duplicated proposal completes a count of N before every node has proposed: the agreed number is not the highest, and two nodes deliver in opposite orders (ISIS counts on reliable channels)"},
	},
})
