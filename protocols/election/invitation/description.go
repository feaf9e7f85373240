package invitation

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about the invitation algorithm: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "invitation",
	Summary: "Garcia-Molina's invitation algorithm: a coordinator per partition, groups merge when the network heals",
	Source:  works.Garcia + ", as presented in " + works.Kesden,
	Claims:  []string{"group-leader", "healed-leader", "group-numbers-unique"},
	Params: []suite.Param{{Name: StableSeqParam, Default: 1, Values: []string{"off", "on"},
		Doc: "whether a node's sequence number is on stable storage and survives a crash"}},
	Compile: suite.Compiler[State, Msg]("election/invitation", Protocol{}, nil),
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
		{Name: "volatile-seq", N: 2, Crashes: 1, Recoveries: 1, Params: map[string]int{StableSeqParam: 0},
			Props: []string{"group-numbers-unique"}, Expect: checker.Fail, Shows: "group-numbers-unique",
			Why: "a sequence number kept in memory only: a coordinator that crashes and restarts counts from nothing and forms a group under a number it used before (Garcia-Molina keeps it on stable storage)"},
		{Name: "duplicate", N: 3, Partitions: 1, Duplicates: 1, Expect: checker.Pass,
			Why:      "the network duplicates a message: an answer of a group a node has left since is passed on as an invitation to the group it is in now, and the groups still merge",
			Messages: "are-you-coordinator 0..11, answer 0..10, invite 0..15, accept 0..8"},
	},
})
