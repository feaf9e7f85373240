package abd

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
)

// Description tells vigil's tools about SynchBfsTree over the ABD
// synchronizer: the properties it claims, its parameters and the scenarios,
// each with the verdict it must give, that show where its assumptions hold
// and where they break. Package protocols lists it among the protocols
// vigil ships.
var Description = &suite.Protocol{
	Name: "bfs-abd", Family: "sync",
	Summary:    "SynchBfsTree over the ABD synchronizer: on bounded delay, the next pulse 2d ticks after the last, no control messages",
	Source:     works.LeaderElection + ", Synchronizers: Asynchronous Bounded Delay (ABD) Synchronizer; Application: BFS tree construction",
	Properties: bfs.Properties(),
	Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
	Params: []suite.Param{{Name: DelayParam, Default: 1,
		Doc: "the delay d the ABD synchronizer assumes, in ticks: it starts a pulse every 2d ticks"}},
	Compile: suite.Compiler("sync/bfs-abd", Over(bfs.Round{}), Validate),
	Scenarios: []suite.Scenario{
		{Name: "ring", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 1,
			Params: map[string]int{DelayParam: 1}, Expect: checker.Pass,
			Why:      "the network's delay bound is the d the synchronizer assumes: every message of a pulse is in when the next begins; the tree's messages are the only ones, one from the root to each neighbour and one on from each of them",
			Messages: "message 5"},
		{Name: "grid", N: 4, Topology: "grid:2x2", Channels: model.Unordered, Timing: model.Bounded, Delay: 3,
			Params: map[string]int{DelayParam: 2}, Expect: checker.Pass,
			Why:      "a network slower than the d assumed, yet faster than 2d: the 2d wait, meant for clocks d apart, absorbs it while clocks agree",
			Messages: "message 5"},
		{Name: "late", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 2,
			Params: map[string]int{DelayParam: 1}, Expect: checker.Fail, Shows: "pulse-order", Violates: []string{"bfs-tree"},
			Why: "the network's bound exceeds the d assumed: a message sent as a pulse began arrives as the next begins, and may come second (the notes' d is \"the maximum propagation delay of each channel\")"},
		{Name: "loss", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 1, Losses: 1,
			Params: map[string]int{DelayParam: 1}, Expect: checker.Fail, Shows: "bfs-tree", Violates: []string{"pulse-order"},
			Why: "a lost invite: ABD sends no control messages, so the pulses go on and the node is reached the long way round, at the wrong level (the Leader Election notes: a synchronizer is \"possible in the absence of failures\")"},
		{Name: "crash", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 1, Crashes: 1,
			Params: map[string]int{DelayParam: 1}, Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
			Why: "a node crashes: it simulates no more pulses, and the nodes it would have invited get no parent (the Leader Election notes: a synchronizer is \"possible in the absence of failures\")"},
	},
}
