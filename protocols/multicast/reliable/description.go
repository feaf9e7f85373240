package reliable

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about R-multicast: the properties it
// claims, its parameters and the scenarios, each with the verdict it must
// give, that show where its assumptions hold and where they break. Package
// protocols lists it among the protocols vigil ships.
var Description = family.Group(false, &suite.Protocol{
	Name:    "reliable",
	Summary: "R-multicast over B-multicast: relay on first receipt, then deliver; duplicates dropped",
	Source:  works.Vlassov,
	Claims:  []string{"validity", "integrity", "agreement", "uniform-agreement"},
	Compile: suite.Compiler[State, Msg]("multicast/reliable", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: family.Msgs(1), Expect: checker.Pass,
			Why: "any node may crash at any point, mid-loop too: a node relays before it delivers, so the uniform agreement of Vlassov and Montelius holds"},
		{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0", Params: family.Msgs(1), Expect: checker.Pass,
			Why:      "the network duplicates a message: \"duplicates of the message are detected and not delivered\" (Vlassov and Montelius), so integrity holds where B-multicast's fails; N² messages a multicast, every receiver relaying",
			Messages: "msg 9"},
		{Name: "two-crashes", N: 3, Channels: model.Unordered, Crashes: 2, Initiators: "0", Params: family.Msgs(1), Expect: checker.Pass,
			Why: "the sender and a node that delivered both crash, and only what that node relayed reaches the third: relaying before delivering keeps uniform agreement, delivering first would not"},
		{Name: "loss", N: 3, Channels: model.Unordered, Losses: 1, Crashes: 1, Initiators: "0", Params: family.Msgs(1), Expect: checker.Fail,
			Shows: "agreement", Violates: []string{"uniform-agreement"},
			Why: "the sender's message to one node is lost and the only other node that could relay it crashes before it gets it: R-multicast is built on B-multicast, which assumes \"a reliable network layer\" (Vlassov and Montelius); relaying masks a crash or a loss, not both"},
	},
})
