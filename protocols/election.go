package protocols

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/activelist"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/protocols/election/changroberts"
	"github.com/vigil-check/vigil/protocols/election/invitation"
	"github.com/vigil-check/vigil/protocols/election/lelann"
	"github.com/vigil-check/vigil/protocols/election/ringbased"
)

var electionClaims = []string{"unique-leader", "agreement", "highest-leader", "termination", "live-leader"}

// election describes what the election protocols share: their properties.
func election(p *suite.Protocol) *suite.Protocol {
	p.Family = "election"
	p.Properties = properties.Family("election")
	return p
}

func init() {
	register(
		election(&suite.Protocol{
			Name:    "bully",
			Summary: "Garcia-Molina's bully election: election, answer and coordinator messages, timeouts, recovery",
			Source:  garcia + ", as presented in " + leNotes + "; " + vlassov + "; " + silber,
			Claims:  electionClaims,
			Compile: suite.Compiler("election/bully", bully.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "sync-crash", N: 4, Crashes: 1, Expect: checker.Pass,
					Why:      "with a perfect failure detector bully is safe and elects the highest live node, whenever a node crashes; the figures bound what a crash costs, from a crash before anything is sent to one that restarts elections after most of the messages",
					Messages: "election 6..20, coordinator 5..15, answer 3..15"},
				{Name: "two-crashes", N: 3, Crashes: 2, Expect: checker.Pass,
					Why:      "the node that answered crashes before it announces itself: the lower node's coordinator timer fires and it starts again (Garcia-Molina's command 6), so the election still ends",
					Messages: "election 3..10, coordinator 2..7, answer 0..5"},
				{Name: "async-crash", N: 4, Crashes: 1, Timing: model.Async, MaxDepth: 10,
					Props: []string{"unique-leader", "agreement"}, Expect: checker.Fail, Shows: "unique-leader", Violates: []string{"agreement"},
					Why: "with inaccurate timeouts two nodes lead at once (Vlassov and Montelius: E1 may be broken if timeouts are inaccurate)"},
				{Name: "sync-recovery", N: 4, Crashes: 1, Recoveries: 1, Expect: checker.Fail,
					Props: []string{"unique-leader", "agreement"}, Shows: "unique-leader", Violates: []string{"agreement"},
					Why: "a crashed node replaced under its old identifier bullies its way back while the new leader still leads (Vlassov and Montelius)"},
				{Name: "partition", N: 3, Partitions: 1, Props: []string{"group-leader", "healed-leader"}, Expect: checker.Fail,
					Shows: "healed-leader", Violates: []string{"group-leader"},
					Why: "bully has no merge: each side of a partition elects its own coordinator, and after the heal both lead on (Kesden: the invitation algorithm is the one for partitions)"},
				{Name: "lowest-alone", N: 4, Initiators: "0", Expect: checker.Pass,
					Why:      "only the lowest node notices: each higher node it reaches answers and takes the election over, up to the highest (Silberschatz et al.: the worst case, O(N²) messages): N(N-1)/2 elections, each answered, and a coordinator to each lower node; a node that already follows the new leader when a late election reaches it joins once more, and a leader answers an election with its coordinator again",
					Messages: "election 6..7, answer 6..7, coordinator 5..6"},
				{Name: "loss", N: 3, Losses: 1, Expect: checker.Fail,
					Shows: "agreement", Violates: []string{"unique-leader", "highest-leader", "termination", "live-leader"},
					Why: "one lost message: a lost election times out like a crashed higher node, and the lower node leads beside the highest; a lost coordinator message leaves a node undecided (Kesden: no response within 2Tm+Tp means \"the process or connection has failed\", and bully cannot tell which; Vlassov and Montelius: it \"assumes that message delivery between processes is reliable\")"},
			},
		}),
		election(&suite.Protocol{
			Name:    "changroberts",
			Summary: "Chang and Roberts' ring election: tokens of lower rank are dropped",
			Source:  "E. Chang and R. Roberts (CACM, 1979), as presented in " + leNotes,
			Claims:  electionClaims,
			// the highest initiator wins, not the highest node
			PartialClaims: []string{"unique-leader", "agreement", "termination"},
			Compile:       suite.Compiler("election/changroberts", changroberts.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "worst-ring", N: 6, Topology: "uniring", Ranks: "reverse", Expect: checker.Pass,
					Why:      "every node initiates on a ring of falling ranks: the worst case in the Leader Election notes, N(N+1)/2 election messages",
					Messages: "election 21"},
				{Name: "unordered", N: 5, Topology: "uniring", Channels: model.Unordered, Ranks: "random:7", Expect: checker.Pass,
					Why: "Chang-Roberts needs no FIFO channels"},
				{Name: "one-initiator", N: 5, Topology: "uniring", Initiators: "0", Expect: checker.Pass,
					Why:      "one node initiates and the others forward: its token goes round once, then the elected message, 2N messages",
					Messages: "election 5, elected 5"},
				{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Expect: checker.Fail,
					Shows: "termination", Violates: []string{"highest-leader", "live-leader"},
					Why: "a node crashes and the election never ends, or a leader crashes once elected and no one elects again (the Leader Election notes: \"If a node in the ring breaks down, the circle is broken, election will not work\")"},
				{Name: "partial", N: 4, Topology: "uniring", Initiators: "0,2", Props: []string{"highest-leader"}, Expect: checker.Fail, Shows: "highest-leader",
					Why: "only nodes 0 and 2 initiate: node 3's token is never sent, so the highest initiator wins, not the highest node (the Leader Election notes' example, \"Nodes 1, 3, 6 are initiators\"); highest-leader is claimed only when every node initiates"},
			},
		}),
		election(&suite.Protocol{
			Name:    "invitation",
			Summary: "Garcia-Molina's invitation algorithm: a coordinator per partition, groups merge when the network heals",
			Source:  garcia + ", as presented in " + kesden,
			Claims:  []string{"group-leader", "healed-leader", "group-numbers-unique"},
			Params: []suite.Param{{Name: invitation.StableSeqParam, Default: 1, Values: []string{"off", "on"},
				Doc: "whether a node's sequence number is on stable storage and survives a crash"}},
			Compile: suite.Compiler("election/invitation", invitation.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "partition-heal", N: 3, Partitions: 1, Expect: checker.Pass,
					Why:      "the network splits and heals at any point: each side organises under one coordinator, and after the heal the groups merge under the highest node",
					Messages: "are-you-coordinator 0..10, answer 0..8, invite 0..10, accept 0..6"},
				{Name: "crash", N: 3, Crashes: 1, Partitions: 1, Expect: checker.Pass,
					Why:      "a crash as well as a partition: the survivors regroup, and group numbers are never reused",
					Messages: "are-you-coordinator 0..16, answer 0..11, invite 0..13, accept 0..7"},
				{Name: "one-leader", N: 4, Partitions: 1, Props: []string{"unique-leader", "agreement"}, Expect: checker.Fail,
					Shows: "unique-leader", Violates: []string{"agreement"},
					Why: "there is no single coordinator while the network is split: Kesden assumes groups \"can perform useful work, even if other such groups exist\""},
				{Name: "recovery", N: 3, Crashes: 1, Recoveries: 1, Expect: checker.Pass,
					Why:      "a node that recovers forms a group of its own with a fresh group number and merges back (Kesden: a processor that \"recovers from a failure\" calls an election)",
					Messages: "are-you-coordinator 0..6, answer 0..4, invite 0..7, accept 0..5"},
				{Name: "lost-invitation", N: 2, Crashes: 1, Recoveries: 1, Partitions: 2, Expect: checker.Pass,
					Why:      "a coordinator returned to service invites the node that still follows its old group, and two cuts lose the invitation and the one sent again: the coordinator watches its invitee as it does a member, so it notices the loss and asks again, and after the heal the two merge (unwatched, both lead on)",
					Messages: "are-you-coordinator 0..10, answer 0..8, invite 0..7, accept 0..4"},
				{Name: "three-crashes", N: 3, Crashes: 3, Recoveries: 1, Expect: checker.Pass,
					Why:      "the highest node crashes, recovers and crashes again, and a third crash may take the lowest after it accepted the middle node's invitation: the middle node, which joined the recovered highest before the accept came, passes it on to its new group as a participant, which watches no member, and the survivors regroup",
					Messages: "are-you-coordinator 0..14, answer 0..7, invite 0..9, accept 0..6"},
				{Name: "volatile-seq", N: 2, Crashes: 1, Recoveries: 1, Params: map[string]int{invitation.StableSeqParam: 0},
					Props: []string{"group-numbers-unique"}, Expect: checker.Fail, Shows: "group-numbers-unique",
					Why: "a sequence number kept in memory only: a coordinator that crashes and restarts counts from nothing and forms a group under a number it used before (Garcia-Molina keeps it on stable storage)"},
				{Name: "duplicate", N: 3, Partitions: 1, Duplicates: 1, Expect: checker.Pass,
					Why:      "the network duplicates a message: an answer of a group a node has left since is passed on as an invitation to the group it is in now, and the groups still merge",
					Messages: "are-you-coordinator 0..11, answer 0..10, invite 0..15, accept 0..8"},
			},
		}),
		election(&suite.Protocol{
			Name:    "lelann",
			Summary: "LeLann's ring election: every token circles the ring, initiators collect identities",
			Source:  "G. LeLann (IFIP Congress, 1977), as presented in " + leNotes,
			Claims:  electionClaims,
			// the highest initiator wins, and non-initiators never learn it
			PartialClaims: []string{"unique-leader", "agreement"},
			Compile:       suite.Compiler("election/lelann", lelann.Protocol{}, nil),
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
		}),
		election(&suite.Protocol{
			Name:    "ringbased",
			Summary: "the ring-based election with participant marking: election then elected messages",
			Source:  vlassov,
			// a node substitutes its own rank for a lower one, so the highest
			// node wins whoever initiates, and elected tells everyone
			Claims:  electionClaims,
			Compile: suite.Compiler("election/ringbased", ringbased.Protocol{}, nil),
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
		}),
		election(&suite.Protocol{
			Name:    "activelist",
			Summary: "the ring algorithm with active lists: every process sends elect(i), collects numbers, the largest wins",
			Source:  silber,
			Claims:  electionClaims,
			Compile: suite.Compiler("election/activelist", activelist.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "one-detects", N: 5, Topology: "uniring", Initiators: "2", Expect: checker.Pass,
					Why:      "one process detects the failure; every process joins and each number goes round: N² messages",
					Messages: "elect 25"},
				{Name: "unordered", N: 3, Topology: "uniring", Channels: model.Unordered, Expect: checker.Fail,
					Shows: "agreement", Violates: []string{"unique-leader", "highest-leader"},
					Why: "without FIFO links a process's own message overtakes another and it decides on a partial list"},
				{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Expect: checker.Fail,
					Shows: "termination", Violates: []string{"highest-leader", "live-leader"},
					Why: "a process crashes and the elect messages it held never come back, or the coordinator crashes once chosen and no one detects it: the ring algorithm sends to the right neighbour only (Silberschatz et al.: \"processes send their messages to their right neighbors\")"},
				{Name: "loss", N: 3, Topology: "uniring", Losses: 1, Expect: checker.Fail,
					Shows: "highest-leader", Violates: []string{"agreement", "termination", "live-leader"},
					Why: "a lost elect(j) leaves j out of the active lists after it, and a process chooses the largest number of a partial list while the highest lives (Silberschatz et al.: the active list contains \"the numbers of all the active processes\" only when every elect message arrives)"},
			},
		}),
	)
}
