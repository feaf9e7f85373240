package properties

import (
	"testing"

	"github.com/vigil-check/vigil/model"
)

// Accept and reject tables of the multicast properties, clause by clause
// of their definitions (each property's Doc, after Vlassov and Montelius,
// Coordination: basic and reliable multicast, ordered multicast). A reject
// row is named after the clause it breaks; every row also runs through
// both of the monitors' paths (see feed). With msgs 40, node p's message k
// is numbered 40p+k-1: n1#24, n1#25 and n1#26 are the last message of the
// sets' first word and the first two of the second.

func TestValidityClauses(t *testing.T) {
	runCases(t, []mcase{
		{name: "reject: every correct process has delivered each message it multicast: the sender never does, another node does",
			script: script(sent(0, 1), got(1, 0, 1), got(2, 0, 1)),
			want:   verdicts{Validity: "the run is over and n0, correct, never delivered its own n0#1"}},
		{name: "reject: each message: the sender delivers its first and not its second", msgs: 2,
			script: script(sent(2, 1), sent(2, 2), got(2, 2, 1), got(0, 2, 2)),
			want:   verdicts{Validity: "the run is over and n2, correct, never delivered its own n2#2"}},
		{name: "reject: each message, numbered 64", msgs: 40,
			script: script(sent(1, 24), got(1, 1, 24), sent(1, 25), got(0, 1, 25)),
			want:   verdicts{Validity: "the run is over and n1, correct, never delivered its own n1#25"}},
		{name: "reject: each message, numbered 119", msgs: 40,
			script: script(sent(2, 40), got(0, 2, 40)),
			want:   verdicts{Validity: "the run is over and n2, correct, never delivered its own n2#40"}},
		{name: "accept: correct: the sender that never delivers crashed",
			script: script(sent(1, 1), got(0, 1, 1), fails(1)),
			want:   verdicts{Validity: ""}},
		{name: "accept: every sender delivered its own, in both words", msgs: 40,
			script: script(sent(1, 24), sent(1, 25), sent(1, 26), got(1, 1, 26), got(1, 1, 24), got(1, 1, 25)),
			want:   verdicts{Validity: ""}},
	})
}

func TestIntegrityClauses(t *testing.T) {
	runCases(t, []mcase{
		{name: "reject: no process delivers a message twice",
			script: script(sent(0, 1), got(0, 0, 1), got(0, 0, 1)),
			want:   verdicts{Integrity: "n0 delivered n0#1 twice"}},
		{name: "reject: no process delivers a message twice, numbered 64", msgs: 40,
			script: script(sent(1, 25), got(2, 1, 25), got(2, 1, 25)),
			want:   verdicts{Integrity: "n2 delivered n1#25 twice"}},
		{name: "reject: nor one that no process multicast",
			script: script(sent(0, 1), got(0, 0, 1), got(2, 1, 1)),
			want:   verdicts{Integrity: "n2 delivered n1#1, which no process multicast"}},
		{name: "reject: nor one that no process multicast: a multicast by no node of the run is not n0#1",
			script: script(reports(0, model.Multicast(msgID(3, 1))), got(1, 0, 1)),
			want:   verdicts{Integrity: "n1 delivered n0#1, which no process multicast"}},
		{name: "reject: nor one that no process multicast, numbered 65 beside a multicast 64", msgs: 40,
			script: script(sent(1, 25), got(0, 1, 25), got(0, 1, 26)),
			want:   verdicts{Integrity: "n0 delivered n1#26, which no process multicast"}},
		{name: "accept: each delivers each once, in both words", msgs: 40,
			script: script(sent(1, 24), sent(1, 25), got(0, 1, 25), got(0, 1, 24), got(2, 1, 24)),
			want:   verdicts{Integrity: ""}},
	})
}

func TestAgreementClauses(t *testing.T) {
	runCases(t, []mcase{
		{name: "reject (agreement): delivered by a correct process, so by every correct process",
			script: script(sent(0, 1), got(0, 0, 1), got(2, 0, 1)),
			want: verdicts{DeliveryAgreement: "the run is over, a correct process delivered n0#1 and n1, correct, never did",
				UniformAgreement: "the run is over, some process delivered n0#1 and n1, correct, never did"}},
		{name: "reject (agreement): every correct process, numbered 64", msgs: 40,
			script: script(sent(1, 24), sent(1, 25), got(0, 1, 24), got(1, 1, 24), got(2, 1, 24), got(1, 1, 25), got(2, 1, 25)),
			want: verdicts{DeliveryAgreement: "the run is over, a correct process delivered n1#25 and n0, correct, never did",
				UniformAgreement: "the run is over, some process delivered n1#25 and n0, correct, never did"}},
		{name: "reject (uniform agreement): delivered by any process, even one that crashed",
			script: script(sent(0, 1), got(2, 0, 1), fails(2)),
			want: verdicts{DeliveryAgreement: "",
				UniformAgreement: "the run is over, some process delivered n0#1 and n0, correct, never did"}},
		{name: "reject (uniform agreement): even one that crashed, numbered 65", msgs: 40,
			script: script(sent(1, 26), got(0, 1, 26), got(1, 1, 26), fails(0), fails(1)),
			want: verdicts{DeliveryAgreement: "",
				UniformAgreement: "the run is over, some process delivered n1#26 and n2, correct, never did"}},
		{name: "accept: every correct process delivered, the crashed one did not",
			script: script(sent(0, 1), fails(1), got(0, 0, 1), got(2, 0, 1)),
			want:   verdicts{DeliveryAgreement: "", UniformAgreement: ""}},
	})
}

func TestFIFOOrderClauses(t *testing.T) {
	runCases(t, []mcase{
		{name: "reject: has delivered every message that sender multicast before it: delivered after it", msgs: 2,
			script: script(sent(1, 1), sent(1, 2), got(0, 1, 2), got(0, 1, 1)),
			want:   verdicts{FIFOOrder: "n0 delivered n1#2 before n1#1, which n1 multicast first"}},
		{name: "reject: every message before it: skipped for good", msgs: 3,
			script: script(sent(1, 1), sent(1, 2), sent(1, 3), got(2, 1, 1), got(2, 1, 3)),
			want:   verdicts{FIFOOrder: "n2 delivered n1#3 before n1#2, which n1 multicast first"}},
		{name: "reject: every message before it, numbered 64, skipped between 63 and 65", msgs: 40,
			script: script(sent(1, 24), sent(1, 25), sent(1, 26), got(2, 1, 24), got(2, 1, 26)),
			want:   verdicts{FIFOOrder: "n2 delivered n1#26 before n1#25, which n1 multicast first"}},
		{name: "accept: of a correct sender: the sender crashed first", msgs: 2,
			script: script(sent(1, 1), sent(1, 2), fails(1), got(0, 1, 2)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "accept: a correct process: the deliverer crashed first", msgs: 2,
			script: script(sent(1, 1), sent(1, 2), fails(0), restarts(0), got(0, 1, 2)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "accept: multicast before it: a message not multicast is integrity's business", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 2)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "accept: multicast before it: a multicast by no node of the run is not n0#1", msgs: 2,
			script: script(reports(0, model.Multicast(msgID(3, 1))), sent(0, 2), got(1, 0, 2)),
			want:   verdicts{FIFOOrder: ""}},
	})
}

func TestCausalOrderClauses(t *testing.T) {
	runCases(t, []mcase{
		{name: "reject: whose multicast happened before its multicast: one hop",
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), got(2, 1, 1)),
			want:   verdicts{CausalOrder: "n2 delivered n1#1 before n0#1, whose multicast happened before"}},
		// a delivers m1; b delivers m1 then multicasts m2; c multicasts m3
		// after delivering m2, without m1 (c crashed and recovered first,
		// else its own delivery of m2 would be the first violation): m1
		// happened before m3 through two hops, and d delivers m3 first.
		{name: "reject: happened before, through a chain of two hops", n: 4,
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2),
				got(2, 1, 1), sent(2, 1), got(3, 2, 1)),
			want: verdicts{CausalOrder: "n3 delivered n2#1 before n0#1, whose multicast happened before"}},
		{name: "reject: happened before, through a chain of two hops, numbered 64, 80 and 120", n: 4, msgs: 40,
			script: script(sent(1, 25), got(1, 1, 25), got(2, 1, 25), sent(2, 1), fails(3), restarts(3),
				got(3, 2, 1), sent(3, 1), got(0, 3, 1)),
			want: verdicts{CausalOrder: "n0 delivered n3#1 before n1#25, whose multicast happened before"}},
		{name: "accept: a repeated multicast report does not move the message's past", msgs: 2,
			script: script(sent(0, 1), sent(1, 1), got(0, 1, 1), sent(0, 1), got(2, 0, 1)),
			want:   verdicts{CausalOrder: ""}},
		{name: "accept: the chain of two hops, delivered in order", n: 4,
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2),
				got(2, 1, 1), sent(2, 1), got(3, 0, 1), got(3, 1, 1), got(3, 2, 1)),
			want: verdicts{CausalOrder: ""}},
		{name: "accept: a correct process: the deliverer crashed first",
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2), got(2, 1, 1)),
			want:   verdicts{CausalOrder: ""}},
	})
}

func TestTotalOrderClauses(t *testing.T) {
	runCases(t, []mcase{
		{name: "reject: the same order: opposite orders",
			script: script(sent(0, 1), sent(1, 1), got(0, 0, 1), got(1, 1, 1), got(1, 0, 1), got(0, 1, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 before n0#1, n0 delivered n0#1 without n1#1 before it"}},
		{name: "reject: neither skips one the other delivered earlier: q skips m, delivers m', never m",
			script: script(sent(0, 1), sent(1, 1), got(0, 0, 1), got(0, 1, 1), got(1, 1, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 without n0#1, which n0 delivered before it"}},
		{name: "reject: neither skips one the other delivered earlier, numbered 64", msgs: 40,
			script: script(sent(1, 24), sent(1, 25), sent(1, 26), got(2, 1, 24), got(2, 1, 25), got(2, 1, 26),
				got(1, 1, 24), got(1, 1, 26)),
			want: verdicts{TotalOrder: "n1 delivered n1#26 without n1#25, which n2 delivered before it"}},
		{name: "accept: two correct processes: the last node, which crashed, disagrees",
			script: script(sent(0, 1), sent(1, 1), got(0, 0, 1), got(0, 1, 1), fails(2), restarts(2), got(2, 1, 1), got(2, 0, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "accept: the messages they both deliver: one delivers fewer, in the same order",
			script: script(sent(0, 1), sent(1, 1), got(0, 0, 1), got(0, 1, 1), got(2, 0, 1)),
			want:   verdicts{TotalOrder: ""}},
	})
}
