package causal

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about causally ordered multicast: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Group(false, &suite.Protocol{
	Name:    "causal",
	Summary: "causal order: vector timestamps and a hold-back queue over B-multicast",
	Source:  works.Vlassov,
	Claims:  []string{"validity", "integrity", "fifo-order", "causal-order"},
	Compile: suite.Compiler[State, Msg]("multicast/causal", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: family.Msgs(2), Expect: checker.Pass,
			Why:      "a message waits until everything its sender had delivered is delivered here: causal, hence FIFO, order, N-1 messages a multicast",
			Messages: "msg 8"},
		{Name: "chain", N: 3, Channels: model.Unordered, Initiators: "0", Params: family.Msgs(3), Props: []string{"validity", "integrity", "agreement", "fifo-order", "causal-order"}, Expect: checker.Pass,
			Why: "a sender's third message can arrive first and its second next, both held back: the first releases one, then the next, while the rest still wait; with no crash every node delivers all three (agreement)"},
		{Name: "sender-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0,1", Params: family.Msgs(1), Expect: checker.Pass,
			Why: "a sender crashes part way through its sends: a message that depends on one never received waits for ever, and none is delivered out of causal order"},
		{Name: "total", N: 3, Channels: model.Unordered, Params: family.Msgs(1), Props: []string{"total-order"}, Expect: checker.Fail, Shows: "total-order",
			Why: "concurrent messages are not ordered: two nodes deliver them in opposite orders"},
	},
})
