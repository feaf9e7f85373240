package protocols

import (
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/sync/abd"
	"github.com/vigil-check/vigil/protocols/sync/alpha"
	"github.com/vigil-check/vigil/protocols/sync/beta"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
	"github.com/vigil-check/vigil/protocols/sync/simple"
)

// The synchronizers' work (see the package doc: the Leader Election notes,
// section Synchronizers, after Awerbuch).
const awerbuch = "B. Awerbuch, Complexity of Network Synchronization (J. ACM 32(4), 1985), as the Leader Election notes present it (section Synchronizers)"

// syncProps are the properties of the sync family: all-pulses over
// SynchBfsTree's N pulses.
func syncProps() []*properties.Property {
	return []*properties.Property{bfs.BFSTree, round.PulseOrder, round.AllPulses(bfs.Round{})}
}

// overSynchronizer gives the scenarios of SynchBfsTree over a synchronizer:
// N = 4 on the ring, the line, the star and the 2x2 grid, root 0 at an end
// or a corner. figures gives the message figures the synchronizer's cost
// implies for N pulses on a graph of E links (see Scenario.Messages).
func overSynchronizer(ch model.Channels, what string, figures func(n, e int) string) []suite.Scenario {
	var sc []suite.Scenario
	for _, top := range []string{"ring", "line", "star", "grid:2x2"} {
		const n = 4
		g, err := model.ParseTopology(top, n)
		if err != nil {
			panic(err) // the four graphs above are well formed
		}
		e := 0
		for i := range n {
			e += len(g.Neighbors(model.NodeID(i)))
		}
		sc = append(sc, suite.Scenario{Name: top, N: n, Topology: top, Channels: ch, Expect: checker.Pass,
			Why:      "SynchBfsTree over " + what + ": every node's level is its distance from the root, whatever the interleaving (the Leader Election notes: \"run it with a synchronizer to ensure that the BFS tree is computed\")",
			Messages: figures(n, e/2)})
	}
	return sc
}

// overTree compiles SynchBfsTree over synchronizer β on the run's
// breadth-first spanning tree from node 0, which β assumes given.
func overTree(name string) func(model.Config, []*properties.Property) (*checker.Machine, error) {
	return func(cfg model.Config, props []*properties.Property) (*checker.Machine, error) {
		g, err := model.ParseTopology(cfg.Topology, cfg.N)
		if err != nil {
			return nil, err
		}
		return suite.Compiler(name, beta.Over(bfs.Round{}, beta.SpanningTree(g, 0)), nil)(cfg, props)
	}
}

func init() {
	register(
		&suite.Protocol{
			Name: "bfs", Family: "sync",
			Summary:    "the simple BFS tree algorithm on an asynchronous network: the first invite wins",
			Source:     leNotes + ", Application: BFS tree construction",
			Properties: syncProps(),
			Claims:     []string{"bfs-tree"},
			Compile:    suite.Compiler("sync/bfs", bfs.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "chord", N: 4, Topology: "edges:0-1,1-2,2-3,3-0,0-2", Channels: model.Unordered, Expect: checker.Fail, Shows: "bfs-tree",
					Why: "on a 4-cycle with a chord from the root, every node is the root's neighbour, yet an invite relayed by another (0, 2, 3) may reach it before the root's own: \"this algorithm does not always give a BFS tree\" (the Leader Election notes)"},
				{Name: "line", N: 4, Topology: "line", Channels: model.Unordered, Expect: checker.Pass,
					Why: "on a tree there is one path to each node, so the first invite is the breadth-first one"},
			},
		},
		&suite.Protocol{
			Name: "bfs-simple", Family: "sync",
			Summary:    "SynchBfsTree over the simple synchronizer: one packet per link and pulse each way, 2E messages a pulse",
			Source:     leNotes + ", Synchronizers: A simple synchronizer; Application: BFS tree construction",
			Properties: syncProps(),
			Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
			Compile:    suite.Compiler("sync/bfs-simple", simple.Over(bfs.Round{}), nil),
			// a packet per link and pulse each way, N pulses
			Scenarios: append(overSynchronizer(model.Unordered, "the simple synchronizer", func(n, e int) string {
				return fmt.Sprintf("total %d", 2*e*n)
			}),
				suite.Scenario{Name: "loss", N: 4, Topology: "line", Channels: model.Unordered, Losses: 1,
					Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
					Why: "one lost packet and its receiver waits for ever for \"exactly one message ... from each neighbor\": a synchronizer is \"possible in the absence of failures\" (the Leader Election notes)"}),
		},
		&suite.Protocol{
			Name: "bfs-abd", Family: "sync",
			Summary:    "SynchBfsTree over the ABD synchronizer: on bounded delay, the next pulse 2d ticks after the last, no control messages",
			Source:     leNotes + ", Synchronizers: Asynchronous Bounded Delay (ABD) Synchronizer; Application: BFS tree construction",
			Properties: syncProps(),
			Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
			Params: []suite.Param{{Name: abd.DelayParam, Default: 1,
				Doc: "the delay d the ABD synchronizer assumes, in ticks: it starts a pulse every 2d ticks"}},
			Compile: suite.Compiler("sync/bfs-abd", abd.Over(bfs.Round{}), abd.Validate),
			Scenarios: []suite.Scenario{
				{Name: "ring", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 1,
					Params: map[string]int{abd.DelayParam: 1}, Expect: checker.Pass,
					Why:      "the network's delay bound is the d the synchronizer assumes: every message of a pulse is in when the next begins; the tree's messages are the only ones, one from the root to each neighbour and one on from each of them",
					Messages: "message 5"},
				{Name: "grid", N: 4, Topology: "grid:2x2", Channels: model.Unordered, Timing: model.Bounded, Delay: 3,
					Params: map[string]int{abd.DelayParam: 2}, Expect: checker.Pass,
					Why:      "a network slower than the d assumed, yet faster than 2d: the 2d wait, meant for clocks d apart, absorbs it while clocks agree",
					Messages: "message 5"},
				{Name: "late", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 2,
					Params: map[string]int{abd.DelayParam: 1}, Expect: checker.Fail, Shows: "pulse-order", Violates: []string{"bfs-tree"},
					Why: "the network's bound exceeds the d assumed: a message sent as a pulse began arrives as the next begins, and may come second (the notes' d is \"the maximum propagation delay of each channel\")"},
				{Name: "loss", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 1, Losses: 1,
					Params: map[string]int{abd.DelayParam: 1}, Expect: checker.Fail, Shows: "bfs-tree", Violates: []string{"pulse-order"},
					Why: "a lost invite: ABD sends no control messages, so the pulses go on and the node is reached the long way round, at the wrong level (the Leader Election notes: a synchronizer is \"possible in the absence of failures\")"},
				{Name: "crash", N: 4, Topology: "ring", Channels: model.Unordered, Timing: model.Bounded, Delay: 1, Crashes: 1,
					Params: map[string]int{abd.DelayParam: 1}, Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
					Why: "a node crashes: it simulates no more pulses, and the nodes it would have invited get no parent (the Leader Election notes: a synchronizer is \"possible in the absence of failures\")"},
			},
		},
		&suite.Protocol{
			Name: "bfs-alpha", Family: "sync",
			Summary:    "SynchBfsTree over Awerbuch's synchronizer α: messages acknowledged, safe told to every neighbour, 2E safe messages a pulse",
			Source:     awerbuch + "; " + leNotes + ", Application: BFS tree construction",
			Properties: syncProps(),
			Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
			Compile:    suite.Compiler("sync/bfs-alpha", alpha.Over(bfs.Round{}), nil),
			// safe to every neighbour, N pulses
			Scenarios: append(overSynchronizer(model.Unordered, "synchronizer α", func(n, e int) string {
				return fmt.Sprintf("safe %d", 2*e*n)
			}),
				suite.Scenario{Name: "loss", N: 4, Topology: "line", Channels: model.Unordered, Losses: 1,
					Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
					Why: "one lost message, ack or safe, and a node waits for ever: a synchronizer is \"possible in the absence of failures\" (the Leader Election notes)"}),
		},
		&suite.Protocol{
			Name: "bfs-beta", Family: "sync",
			Summary:    "SynchBfsTree over Awerbuch's synchronizer β on the breadth-first spanning tree from node 0: m(j) down, ack(j) and safe(j) up, 3(N-1) control messages a pulse",
			Source:     awerbuch + "; " + leNotes + ", Application: BFS tree construction",
			Properties: syncProps(),
			Claims:     []string{"bfs-tree", "pulse-order", "all-pulses"},
			Compile:    overTree("sync/bfs-beta"),
			// m(j), ack(j) and safe(j) on each of the tree's N-1 links, N pulses
			Scenarios: append(overSynchronizer(model.Unordered, "synchronizer β", func(n, _ int) string {
				return fmt.Sprintf("safe %d, pulse %[1]d, pulse-ack %[1]d", (n-1)*n)
			}),
				suite.Scenario{Name: "loss", N: 4, Topology: "line", Channels: model.Unordered, Losses: 1,
					Expect: checker.Fail, Shows: "all-pulses", Violates: []string{"bfs-tree"},
					Why: "one lost message, m(j), ack(j) or safe(j), and the root never learns that its subtree is safe, so no next pulse starts: a synchronizer is \"possible in the absence of failures\" (the Leader Election notes)"}),
		},
	)
}
