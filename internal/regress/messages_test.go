package regress

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// The message complexities of the works followed, over every interleaving
// explored.
func TestMessageComplexity(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol, ranks, kind string
		n                     int
		want                  func(n int) int
		why                   string
	}{
		{"changroberts", "reverse", "election", 0, func(n int) int { return n * (n + 1) / 2 },
			"Leader Election notes: a ring sorted against the direction of travel, N initiators: N(N+1)/2"},
		{"changroberts", "sorted", "election", 0, func(n int) int { return 2*n - 1 },
			"ranks rising along the ring: every token but the winner's dies at the next node"},
		{"changroberts", "reverse", "elected", 0, func(n int) int { return n }, "the leader's announcement goes round once"},
		{"lelann", "sorted", "token", 0, func(n int) int { return n * n }, "Leader Election notes: every initiator's token goes round: N²"},
		{"lelann", "random:7", "token", 0, func(n int) int { return n * n }, "whatever the ranks"},
		{"activelist", "random:7", "elect", 0, func(n int) int { return n * n }, "Silberschatz et al.: every process sends elect(i) and forwards the others: N²"},
	}
	for _, c := range cases {
		p, err := protocols.Lookup(c.protocol)
		require.NoError(t, err)
		for n := 2; n <= 7; n++ {
			s := suite.Scenario{N: n, Ranks: c.ranks}
			r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
			require.NoError(t, err)
			require.Equal(t, checker.Pass, r.Verdict)
			m := checktest.Messages(t, r, c.kind)
			require.Equal(t, c.want(n), m.Min, "%s n=%d %s min: %s", c.protocol, n, c.kind, c.why)
			require.Equal(t, c.want(n), m.Max, "%s n=%d %s max: %s", c.protocol, n, c.kind, c.why)
		}
	}
}

// Bully with one initiator and no crash: the lowest node's election reaches
// every node, each of which answers and starts its own election. In the
// fewest-message runs each node elects once; in others a late election
// message reaches a node that already knows the leader, and (the Leader
// Election notes, command 2) it elects again.
func TestBullyMessageBounds(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("bully")
	require.NoError(t, err)
	for n := 2; n <= 4; n++ {
		s := suite.Scenario{N: n, Initiators: "0"}
		r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
		require.NoError(t, err)
		require.Equal(t, checker.Pass, r.Verdict)
		// every node but the top starts one election to all higher nodes:
		// sum over k of (n-1-k) = n(n-1)/2, the O(n²) worst case of Vlassov
		// and Montelius
		el := checktest.Messages(t, r, "election")
		require.Equal(t, n*(n-1)/2, el.Min, "n=%d", n)
		require.GreaterOrEqual(t, el.Max, el.Min)
		// each election message is answered exactly once
		ans := checktest.Messages(t, r, "answer")
		require.Equal(t, el.Min, ans.Min)
		require.Equal(t, el.Max, ans.Max)
		// The top node elects itself on the first election it receives and
		// tells the n-1 others; each of the n-2 later elections it receives
		// is answered with a coordinator message to its sender: 2n-3.
		co := checktest.Messages(t, r, "coordinator")
		require.Equal(t, 2*n-3, co.Min, "n=%d", n)
	}
}

// Vlassov and Montelius: the ring-based election with one initiator sends at most 3N-1
// messages, reached when the initiator's predecessor has the highest rank,
// and at least 2N, when the initiator itself has it; over every rank order.
func TestRingBasedWorstCaseOverAllRankOrders(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("ringbased")
	require.NoError(t, err)
	for n := 2; n <= 6; n++ {
		lo, hi := 1<<30, 0
		for _, perm := range permutations(n) {
			s := suite.Scenario{N: n, Initiators: "0", Ranks: ranksSpec(perm)}
			r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
			require.NoError(t, err)
			require.Equal(t, checker.Pass, r.Verdict, "ranks %v", perm)
			total := checktest.Messages(t, r, "total")
			require.Equal(t, total.Min, total.Max, "one initiator on FIFO links: one run")
			lo, hi = min(lo, total.Min), max(hi, total.Max)
			if perm[n-1] == n-1 { // the predecessor of node 0 is the highest
				require.Equal(t, 3*n-1, total.Max, "ranks %v", perm)
			}
		}
		require.Equal(t, 3*n-1, hi, "n=%d", n)
		require.Equal(t, 2*n, lo, "n=%d", n)
	}
}

// The ring-based election's package doc: with unordered channels the bound
// does not hold, since a stale election message can reach the coordinator
// after it has become a non-participant again and start another round.
// Every node initiating at N = 5 (the all-unordered scenario's ranks):
// FIFO links give one run of 16 messages, unordered ones 16 to 60, up to
// 25 of them elected (five rounds of elected).
func TestRingBasedUnorderedExceedsTheBound(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("ringbased")
	require.NoError(t, err)
	s, err := p.Scenario("all-unordered")
	require.NoError(t, err)
	r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
	require.NoError(t, err)
	require.Equal(t, checker.Pass, r.Verdict, "it stays safe")
	total, elected := checktest.Messages(t, r, "total"), checktest.Messages(t, r, "elected")
	require.Equal(t, [2]int{16, 60}, [2]int{total.Min, total.Max})
	require.Equal(t, [2]int{5, 25}, [2]int{elected.Min, elected.Max})

	s.Channels = model.FIFO
	r, err = suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
	require.NoError(t, err)
	total = checktest.Messages(t, r, "total")
	require.Equal(t, [2]int{16, 16}, [2]int{total.Min, total.Max}, "FIFO links: the same ranks, one count")
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func ranksSpec(perm []int) string {
	s := ""
	for i, r := range perm {
		if i > 0 {
			s += ","
		}
		s += strconv.Itoa(r)
	}
	return s
}

// Silberschatz et al.: whoever detects the failure, every process joins the active-list
// election and every number goes round once: N² elect messages.
func TestActiveListOneInitiator(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("activelist")
	require.NoError(t, err)
	for n := 2; n <= 6; n++ {
		for _, init := range []string{"0", strconv.Itoa(n - 1)} {
			s := suite.Scenario{N: n, Initiators: init, Ranks: "random:3"}
			r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
			require.NoError(t, err)
			require.Equal(t, checker.Pass, r.Verdict)
			m := checktest.Messages(t, r, "elect")
			require.Equal(t, n*n, m.Min, "n=%d initiator %s", n, init)
			require.Equal(t, n*n, m.Max, "n=%d initiator %s", n, init)
		}
	}
}

// The ring algorithms' message counts as their package docs state them, for
// N = 3..6, in every interleaving: the least and the most are equal.
func TestRingCountsStatedInDocs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol, ranks, initiators, kind string
		want                              func(n int) int
	}{
		{"ringbased", "sorted", "0", "total", func(n int) int { return 3*n - 1 }},
		{"ringbased", "reverse", "0", "total", func(n int) int { return 2 * n }},
		{"ringbased", "sorted", "all", "election", func(n int) int { return 2*n - 1 }},
		{"ringbased", "reverse", "all", "election", func(n int) int { return n * (n + 1) / 2 }},
		{"ringbased", "reverse", "all", "elected", func(n int) int { return n }},
		{"activelist", "sorted", "0", "elect", func(n int) int { return n * n }},
		{"activelist", "reverse", "all", "elect", func(n int) int { return n * n }},
	}
	for _, c := range cases {
		p, err := protocols.Lookup(c.protocol)
		require.NoError(t, err)
		for n := 3; n <= 6; n++ {
			s := suite.Scenario{N: n, Ranks: c.ranks, Initiators: c.initiators}
			r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
			require.NoError(t, err)
			m := checktest.Messages(t, r, c.kind)
			require.Equal(t, [2]int{c.want(n), c.want(n)}, [2]int{m.Min, m.Max}, "%s n=%d ranks=%s initiators=%s %s", c.protocol, n, c.ranks, c.initiators, c.kind)
		}
	}
}
