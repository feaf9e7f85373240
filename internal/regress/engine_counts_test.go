package regress

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
)

// handCount is a configuration whose state space is counted by hand below.
type handCount struct {
	name        string
	protocol    string
	cfg         model.Config
	states      int64
	transitions int64
	quiescent   int64
	depth       int
	// reduced: searched with partial-order reduction (every world
	// otherwise)
	reduced bool
}

func ranksOf(t *testing.T, spec string, n int) []int {
	r, err := model.ParseRanks(spec, n)
	require.NoError(t, err)
	return r
}

// Every configuration runs with the protocol's claimed properties, whose
// monitor (the leaders each node believes in) is part of the world; in every
// count below the monitor's state is a function of the nodes' histories, so
// it never splits a world.
//
// # Chang-Roberts, N = 2, every node an initiator, FIFO
//
// Sorted ranks: n0 (rank 0) sends t0 to n1, n1 (rank 1) sends t1 to n0. n1
// drops t0 (lower rank); n0 forwards t1 (higher) and turns lost; n1 gets t1
// back and leads, sending elected⟨n1⟩ to n0; n0 forwards it (and learns
// n1); n1 absorbs it. With a0 = messages n0 has received (t1, elected),
// d0/d1 = whether n1 has received t0/t1, e1 = whether n1 has received
// elected, a world is (a0, d0, d1, e1) with d1 ⇒ a0 ≥ 1, a0 = 2 ⇒ d1,
// e1 ⇒ a0 = 2, and, with FIFO, d1 ⇒ d0 (t0 precedes t1 on 0→1):
//
//	a0 = 0: d0 ∈ {0,1}                        2 worlds, 2+1 events enabled
//	a0 = 1: (d0,d1) ∈ {00, 10, 11}            3 worlds, 2+1+1
//	a0 = 2: d0 = d1 = 1, e1 ∈ {0,1}           2 worlds, 1+0
//
// 7 states, 7 transitions, one quiescent world at depth 5 (every event
// happened: 2 + 1 + 1 + 1). Reverse ranks give the mirror image on a ring of
// two: the same counts.
//
// # Chang-Roberts, N = 2, unordered channels
//
// The same worlds without d1 ⇒ d0: n1 may get its own token back before t0.
// Messages in flight: t0 (d0 = 0), t1 on 1→0 (a0 = 0), t1 on 0→1 (a0 = 1,
// d1 = 0), elected on 1→0 (d1, a0 = 1), elected on 0→1 (a0 = 2, e1 = 0):
//
//	a0 = 0: d0 ∈ {0,1}                        2 worlds, 2+1 enabled
//	a0 = 1: d0, d1 ∈ {0,1}                    4 worlds, (2+1)·2
//	a0 = 2: d1 = 1, d0, e1 ∈ {0,1}            4 worlds, 2+1+1+0
//
// 10 states, 13 transitions, one quiescent world, depth 5.
//
// # Chang-Roberts, N = 3, every node an initiator, FIFO
//
// Each event's effect is fixed, so a world is the set of events that
// happened: an order ideal of the events' precedence order. Sorted ranks: A
// n1 drops t0, B n2 drops t1, C n0 forwards t2, D n1 forwards t2 (after A,
// C: t0 precedes it on 0→1), E n2 gets t2 back and leads (after B, D), then
// the elected message: F at n0, G at n1, H at n2, in a chain after E.
// Ideals: the 8 subsets of {A,B,C}; {A,C,D} and {A,B,C,D}; then
// {A..E} and its 3 extensions along F, G, H: 14 states. Events enabled:
// subsets of {A,B,C}: 3 + 2·3 + (1+1+2) + 1 = 14 (D once A and C are in);
// {A,C,D}: B; {A,B,C,D}: E; then one each along E..G: 14 + 2 + 3 = 19
// transitions, depth 8 (all 8 events), one quiescent world.
//
// Reverse ranks (n0 rank 2, n1 rank 1, n2 rank 0): A n1 forwards t0, B n2
// forwards t1, C n0 drops t2; D n2 forwards t0 (after A, B), E n0 drops t1
// (after B, C), F n0 gets t0 back and leads (after D, E); G, H, I carry the
// elected message round. Ideals: 8 subsets of {A,B,C}; with D and not E:
// {A,B,D}, {A,B,C,D}; with E and not D: {B,C,E}, {A,B,C,E}; {A..E}; and 4
// along F..I: 17 states. Enabled: subsets of {A,B,C}: 3 + 6 + (2+1+2) + 2 =
// 16; the four ideals with exactly one of D, E: one each; {A..E} to {A..H}:
// one each: 16 + 4 + 4 = 24 transitions, depth 9.
//
// # Chang-Roberts, a single initiator on a ring of N
//
// Only one token exists: the initiator's. Each non-initiator forwards it,
// whatever the ranks (N-1 deliveries), the initiator gets it back (1) and
// sends elected, which every other node forwards (N-1) and the initiator
// absorbs (1). One message is ever in flight, so the run is a straight line
// of 2N steps: 2N+1 states, 2N transitions, depth 2N, whatever the ranks,
// the channels or which node initiates. (N = 1: the token and the elected
// message go from n0 to itself: 3 states.)
//
// # LeLann, N = 2, every node an initiator, FIFO
//
// n0 receives t1 (forwards it, List = {0,1}) then t0 (its own: decides,
// lost, believing n1); n1 receives t0 (forwards) then t1 (decides, leads).
// n0's second message is t0 as forwarded by n1, and vice versa. With a0, a1
// = messages received (0..2), the worlds are the pairs with a0 = 2 ⇒ a1 ≥ 1
// and a1 = 2 ⇒ a0 ≥ 1: (0,0) (0,1) (1,0) (1,1) (1,2) (2,1) (2,2), 7 states.
// Node i can receive when ai = 0, or ai = 1 and the other has forwarded:
// 2+1+1+2+1+1+0 = 8 transitions, depth 4.
//
// # LeLann, a single initiator on a ring of N
//
// The initiator's token passes the N-1 other nodes and comes back; the
// initiator decides and nothing more is sent: N+1 states, N transitions,
// depth N.
//
// # Bully, N = 2, sync, no crash
//
// n0 (rank 0) sends election to n1 and waits (answer timer, waiting on n1,
// which never fires while n1 lives); n1, with no higher node, leads and
// sends coordinator to n0. On election n1 answers and, as leader, sends
// coordinator again, its state unchanged: the channel 1→0 carries
// [coordinator, answer, coordinator] or its first message only. n0 changes
// state at the first coordinator and ignores the rest. A world is (e, a0):
// e = election delivered, a0 = messages n0 took off 1→0, a0 ≤ 1+2e: (0,0)
// (0,1) (1,0) (1,1) (1,2) (1,3), 6 states, with 2+1+1+1+1+0 = 6
// transitions, depth 4 ((1,3)), one quiescent world.
//
// # Bully, N = 2, sync, unordered channels
//
// n0 may now take the answer before a coordinator: it then waits for the
// coordinator (timer T' on n1, which cannot fire while n1 lives), and
// follows n1 at the first coordinator whatever came before. A world is (e,
// kc, ka): kc coordinators and ka answers taken off 1→0, kc ≤ 1+e, ka ≤ e.
// e = 0: kc ∈ {0,1}, 2 worlds, with 2 and 1 events enabled (the election,
// and the coordinator while in flight). e = 1: 3·2 = 6 worlds; the two
// coordinators n1 sends are the same message, so a world offers one
// delivery per distinct message in flight: [kc < 2] + [ka < 1], summing to
// 2+1+2+1+1+0 = 7. 8 states, 10 transitions, one quiescent world (e, kc, ka
// = 1, 2, 1) at depth 4.
//
// # Bully, N = 2, sync, one crash
//
// The 6 worlds above, each also offering two crashes: 6 + 12 = 18
// transitions.
//
// Crash n1 (messages to it lost, those from it still in flight): n0's state
// and the rest of 1→0 tell the worlds apart; (0,1) and (1,3) both leave n0
// following n1 with nothing in flight, so the 6 crashes give 5 worlds: X1
// (n0 waiting, [c]), X2 (waiting, [c a c]), X3 (following n1, []), X4
// (following, [a c]), X5 (following, [c]). X1→X3, X2→X4→X5→X3 by
// deliveries (the answer timer cannot fire while a message from n1 is in
// flight); in X3 leader-check fires (n1 crashed, nothing from it in flight):
// n0 starts an election, its election to n1 lost at once, and waits: X6;
// the answer timer fires: n0 leads, X7, quiescent. 7 states, 6 transitions.
//
// Crash n0 (1→0 emptied, its timers disarmed, its state kept): from (0,0)
// Y1 (n0 waiting, election in flight), (0,1) Y2 (n0 following, election in
// flight), (1,0) Y3 (waiting, nothing), (1,1) (1,2) (1,3) Y4 (following,
// nothing). Y1→Y3 and Y2→Y4 by the election, whose answer and coordinator
// are lost; Y3 and Y4 are quiescent. 4 states, 2 transitions.
//
// 6 + 7 + 4 = 17 states, 18 + 6 + 2 = 26 transitions; quiescent: (1,3), X7,
// Y3, Y4; depth 4 ((1,3), and X7 by (0,1), crash, leader-check, answer).
func handCounts(t *testing.T) []handCount {
	cs := []handCount{
		{"changroberts n2 fifo sorted", "changroberts", model.Config{N: 2}, 7, 7, 1, 5, false},
		{"changroberts n2 fifo reverse", "changroberts", model.Config{N: 2, Ranks: ranksOf(t, "reverse", 2)}, 7, 7, 1, 5, false},
		{"changroberts n2 unordered sorted", "changroberts", model.Config{N: 2, Channels: model.Unordered}, 10, 13, 1, 5, false},
		{"changroberts n2 unordered reverse", "changroberts", model.Config{N: 2, Channels: model.Unordered, Ranks: ranksOf(t, "reverse", 2)}, 10, 13, 1, 5, false},
		{"changroberts n3 fifo sorted", "changroberts", model.Config{N: 3}, 14, 19, 1, 8, false},
		{"changroberts n3 fifo reverse", "changroberts", model.Config{N: 3, Ranks: ranksOf(t, "reverse", 3)}, 17, 24, 1, 9, false},
		{"lelann n2 fifo sorted", "lelann", model.Config{N: 2}, 7, 8, 1, 4, false},
		{"lelann n2 fifo reverse", "lelann", model.Config{N: 2, Ranks: ranksOf(t, "reverse", 2)}, 7, 8, 1, 4, false},
		{"bully n2 sync", "bully", model.Config{N: 2}, 6, 6, 1, 4, false},
		{"bully n2 sync crash1", "bully", model.Config{N: 2, Crashes: 1}, 17, 26, 4, 4, false},
		{"bully n2 sync unordered", "bully", model.Config{N: 2, Channels: model.Unordered}, 8, 10, 1, 4, false},
	}
	// # Chang-Roberts under set channels, every node an initiator
	//
	// A message stays in the set once sent, and a delivery that leaves the
	// receiver and the set as they were is a stutter, not a transition. A
	// node drops a token of lower rank without changing (n1 dropping t0
	// from the first world on): a stutter. So is a redelivery to a node
	// that acted on the message (it sends again what the set holds, and
	// the monitor of leader beliefs hears the same leader again), and the
	// elected message's return to the leader, which does nothing. Sorted
	// ranks: what moves is n_{N-1}'s token, forwarded by n0 .. n_{N-2} (N-1
	// steps) and received back (1), then the elected message, forwarded by
	// n0 .. n_{N-2} (N-1): a line of 2N-1 transitions, 2N states, one
	// quiescent world at depth 2N-1 (N = 2: n0 forwards t1, n1 leads, n0
	// learns n1; 4 states, 3 transitions).
	for n := 2; n <= 6; n++ {
		cs = append(cs, handCount{fmt.Sprintf("changroberts n%d set sorted", n), "changroberts",
			model.Config{N: n, Channels: model.Set}, int64(2 * n), int64(2*n - 1), 1, 2*n - 1, false})
	}
	// Reverse ranks, N = 3 (n0 rank 2, n1 rank 1, n2 rank 0): a n1 forwards
	// t0; b n2 forwards t1; c n2 forwards t0 (after a); d n0 gets t0 back
	// and leads (after c); e n1, f n2 forward elected⟨n0⟩ (e after d, f
	// after e). n0 drops t1 and the others' redeliveries stutter: b and c
	// leave n2 lost either way, each adding its token to the set, so they
	// commute. A world is an order ideal: a prefix of the line a c d e f (6)
	// with or without b, 12 states; transitions: the line's 5 without b,
	// its 5 again with b, and b from each of the 6 prefixes, 16; depth 6,
	// one quiescent world.
	cs = append(cs, handCount{"changroberts n3 set reverse", "changroberts",
		model.Config{N: 3, Channels: model.Set, Ranks: ranksOf(t, "reverse", 3)}, 12, 16, 1, 6, false})
	// # Chang-Roberts on the unidirectional ring, falling ranks, every node
	// an initiator, with partial-order reduction
	//
	// Node i's election message travels N-i links to n0, the highest,
	// which drops it; n0's goes round, N links; then the elected message
	// goes round: N(N+1)/2 + N deliveries in every run. Each node hears
	// from its predecessor alone, and while its message to its successor is
	// in flight that successor's delivery is the only step explored: the
	// reduced search is one run, N(N+1)/2 + N + 1 states in a line.
	for n := 2; n <= 8; n++ {
		steps := n*(n+1)/2 + n
		cs = append(cs, handCount{fmt.Sprintf("changroberts uniring reverse reduced n%d", n), "changroberts",
			model.Config{N: n, Topology: "uniring", Ranks: ranksOf(t, "reverse", n)}, int64(steps + 1), int64(steps), 1, steps, true})
	}
	for n := 1; n <= 8; n++ {
		initiators := []int{0}
		if n > 1 {
			initiators = append(initiators, n-1)
		}
		for _, initiator := range initiators {
			for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
				for _, rk := range []string{"sorted", "reverse"} {
					inits := make([]bool, n)
					inits[initiator] = true
					cfg := model.Config{N: n, Channels: ch, Ranks: ranksOf(t, rk, n), Initiators: inits}
					cs = append(cs,
						handCount{fmt.Sprintf("changroberts single initiator n%d init%d %v %s", n, initiator, ch, rk), "changroberts", cfg,
							int64(2*n + 1), int64(2 * n), 1, 2 * n, false},
						handCount{fmt.Sprintf("lelann single initiator n%d init%d %v %s", n, initiator, ch, rk), "lelann", cfg,
							int64(n + 1), int64(n), 1, n, false})
				}
			}
		}
	}
	return cs
}

func TestHandCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range handCounts(t) {
		t.Run(tc.name, func(t *testing.T) {
			p := lookup(t, tc.protocol)
			m := claimsMachine(t, p, tc.cfg)
			for _, workers := range []int{1, 2} {
				// The bound only turns a runaway search into a failure.
				opt := checker.Options{Workers: workers, MaxStates: 100*tc.states + 1000, Reduce: checker.ReduceNone}
				if tc.reduced {
					opt.Reduce = checker.ReduceAll
				}
				r := checker.Exhaustive(context.Background(), m, opt)
				require.Empty(t, r.Cut, "the search was cut")
				require.Equal(t, tc.states, r.Stats.States, "states")
				require.Equal(t, tc.transitions, r.Stats.Transitions, "transitions")
				require.Equal(t, tc.quiescent, r.Stats.Quiescent, "quiescent worlds")
				require.Equal(t, tc.depth, r.Stats.Depth, "depth")
			}
		})
	}
}
