package sequencer

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Description tells vigil's tools about total order through a sequencer:
// the properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Group(true, &suite.Protocol{
	Name:    "sequencer",
	Summary: "total order through a sequencer (node 0): hold-back queue, order messages, deliver by sequence number",
	Source:  works.Vlassov,
	Claims:  []string{"validity", "integrity", "total-order"},
	Compile: suite.Compiler[State, Msg]("multicast/sequencer", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "1", Params: family.Msgs(2), Expect: checker.Pass,
			Why:      "every node delivers in the sequencer's order, whatever order the messages and orders arrive in: 2N messages a multicast",
			Messages: "msg 6, order 6"},
		{Name: "register", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: family.OrderedReads(), Props: family.RegisterProps(), Expect: checker.Pass,
			Why: "a replicated register: writes and reads are multicast in the sequencer's order, so every replica applies them in one order and every history is linearizable"},
		{Name: "sequencer-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "1", Params: family.Msgs(1),
			Props: []string{"validity", "agreement"}, Expect: checker.Fail, Shows: "validity", Violates: []string{"agreement"},
			Why: "\"the sequencer may become a bottleneck and is a critical point of failure\" (Vlassov and Montelius): messages it never ordered are never delivered"},
		{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "1", Params: family.Msgs(1), Expect: checker.Fail,
			Shows: "integrity", Violates: []string{"total-order"},
			Why: "the network duplicates a message and the sequencer, which keeps no record of what it ordered, gives the copy a sequence number of its own: every node delivers the message twice (Vlassov and Montelius: retransmission must \"avoid duplication of messages\")"},
		{Name: "local-reads", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: map[string]int{properties.MsgsParam: 1, multicast.ReadsParam: int(multicast.LocalReads)}, Props: family.RegisterProps(),
			Expect: checker.Fail, Shows: "linearizable",
			Why: "a register whose reads are answered from the local replica: the writes keep one order, yet a read misses a write another client saw complete"},
		{Name: "one-client", N: 3, Channels: model.Unordered, Initiators: "0", Params: map[string]int{properties.MsgsParam: 2, multicast.ReadsParam: int(multicast.LocalReads)}, Props: family.RegisterProps(),
			Expect: checker.Pass, Messages: "msg 0..6, order 0..6",
			Why: "local reads are linearizable when one client writes: a write returns once the client's own replica applied it, so its next read, answered there, sees it; two operations, each write N messages and N orders, each read none"},
	},
})
