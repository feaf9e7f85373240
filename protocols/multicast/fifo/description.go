package fifo

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about FIFO-ordered multicast: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Group(false, &suite.Protocol{
	Name:    "fifo",
	Summary: "FIFO order: per-sender sequence numbers and a hold-back queue over B-multicast",
	Source:  works.Vlassov,
	Claims:  []string{"validity", "integrity", "fifo-order"},
	Compile: suite.Compiler[State, Msg]("multicast/fifo", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: family.Msgs(2), Expect: checker.Pass,
			Why:      "messages overtake each other on the channels; the hold-back queue restores each sender's order, at B-multicast's N messages a multicast",
			Messages: "msg 12"},
		{Name: "chain", N: 3, Channels: model.Unordered, Initiators: "0", Params: family.Msgs(3), Expect: checker.Pass,
			Why: "a sender's third message can arrive first and its second next, both held back: the first releases the whole chain"},
		{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0", Params: family.Msgs(2), Expect: checker.Pass,
			Why: "a message already delivered in turn arrives again and is dropped, so integrity holds"},
		{Name: "sender-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: family.Msgs(2), Expect: checker.Pass,
			Why: "the sender crashes part way through its sends: what arrives is still delivered in its order"},
		{Name: "loss", N: 3, Channels: model.Unordered, Losses: 1, Initiators: "0", Params: family.Msgs(2), Expect: checker.Fail, Shows: "validity",
			Why: "the network loses the copy a sender sends itself: the hold-back queue restores order, not lost messages, and the sender never delivers its own message (B-multicast assumes \"a reliable network layer\", Vlassov and Montelius)"},
		{Name: "causal", N: 3, Channels: model.Unordered, Params: family.Msgs(1), Props: []string{"causal-order"}, Expect: checker.Fail, Shows: "causal-order",
			Why: "a reply overtakes the message it answers: FIFO order says nothing across senders"},
		{Name: "total", N: 3, Channels: model.Unordered, Params: family.Msgs(1), Props: []string{"total-order"}, Expect: checker.Fail, Shows: "total-order",
			Why: "two senders' messages reach two nodes in opposite orders"},
	},
})
