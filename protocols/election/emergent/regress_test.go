package emergent_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/emergent"
)

// The description's claims and its default scenario: emergent at N = 5
// with one master crash passes every claim exhaustively; the async
// scenario finds two masters, and a restarted master breaks agreement
// only, as recorded.
func TestEmergentScenarios(t *testing.T) {
	t.Parallel()
	p := emergent.Description
	require.Equal(t, []string{"elected", "unique-leader", "agreement", "termination", "live-leader", "pool-size"}, p.Claims)
	byName := map[string]suite.Scenario{}
	for _, s := range p.Scenarios {
		byName[s.Name] = s
	}
	require.Equal(t, "master-crash", p.Scenarios[0].Name, "the default scenario")

	r := checktest.Expect(t, p, byName["master-crash"])
	require.Empty(t, r.Cut)
	require.Equal(t, checker.Pass, r.Verdict)
	t.Logf("master-crash: %d states, %d transitions, %.2fs", r.Stats.States, r.Stats.Transitions, r.Stats.Seconds)

	r = checktest.Expect(t, p, byName["async"])
	pr := r.Property("unique-leader")
	require.Equal(t, checker.Fail, pr.Verdict)
	// n3's four join timers and its master timer fire although everyone
	// is alive
	require.Len(t, pr.Counterexample.Events, 5)
	for _, ev := range pr.Counterexample.Events {
		require.Equal(t, "timeout", ev.Kind)
	}

	r = checktest.Expect(t, p, byName["recovery"])
	require.Equal(t, checker.Pass, r.Property("unique-leader").Verdict, "a restarted master never makes two masters")
}

// Beyond the scenarios: more crashes, unordered links, and a larger pool
// (pool-min 2, pool-max 3), where the slaves do hold an election. The
// quick tier searches the larger pool alone.
func TestEmergentExhaustiveVariants(t *testing.T) {
	t.Parallel()
	cases := []suite.Scenario{
		{Name: "n5 every node but one crashes", N: 5, Crashes: 4},
		{Name: "n4 unordered one crash", N: 4, Channels: model.Unordered, Crashes: 1},
		{Name: "n5 pool 2..3 one crash", N: 5, Crashes: 1, Params: map[string]int{"pool-min": 2, "pool-max": 3}},
	}
	var pool *checker.Result // the last case's: the larger pool
	for _, c := range tier.Pick(cases[2:], cases) {
		r := checktest.Check(t, emergent.Description, c, checktest.Exhaustive(checker.Options{Messages: true}))
		require.Empty(t, r.Cut, c.Name)
		require.Equal(t, checker.Pass, r.Verdict, "%s: %s", c.Name, suite.Describe(r))
		t.Logf("%s: %d states, %.2fs, messages %v", c.Name, r.Stats.States, r.Stats.Seconds, r.Messages)
		pool = r
	}
	// with a pool of two, a master crash makes the two slaves elect: each
	// tells the other, k(k-1) = 2 candidate messages, and a candidate tells
	// a slave that joins meanwhile: 3 at most
	cand := checktest.Messages(t, pool, "candidate")
	require.Equal(t, 0, cand.Min)
	require.Equal(t, 3, cand.Max)
}

// Random walks at N = 30 raise no false alarm, with one crash and with
// several in a row.
func TestEmergentRandomLarge(t *testing.T) {
	t.Parallel()
	for _, crashes := range []int{1, 3, 5} {
		r := checktest.Check(t, emergent.Description, suite.Scenario{N: 30, Crashes: crashes},
			checktest.Random(checker.RandomOptions{Walks: 1000, Seed: 1}))
		require.Equal(t, checker.Pass, r.Verdict, "crashes=%d: %s", crashes, suite.Describe(r))
		require.Equal(t, 1000, r.Stats.Walks)
		require.Positive(t, r.Stats.Quiescent)
	}
}

// The package doc's message figures: without crashes only the idle node of
// highest rank promotes, telling and hearing from every other node: 2(N-1)
// messages in every run with pool-min 1; with pool-min 2 two nodes promote,
// 4(N-1).
func TestEmergentMessages(t *testing.T) {
	t.Parallel()
	figures := checktest.Exhaustive(checker.Options{Messages: true})
	for n := 3; n <= 6; n++ {
		r := checktest.Check(t, emergent.Description, suite.Scenario{N: n}, figures)
		require.Equal(t, checker.Pass, r.Verdict)
		for _, k := range []string{"slave-hello", "slave-ack"} {
			m := checktest.Messages(t, r, k)
			require.Equal(t, n-1, m.Min, "n=%d %s", n, k)
			require.Equal(t, n-1, m.Max, "n=%d %s", n, k)
		}
		total := checktest.Messages(t, r, "total")
		require.Equal(t, 2*(n-1), total.Min, "n=%d", n)
		require.Equal(t, 2*(n-1), total.Max, "n=%d", n)
		for _, m := range r.Messages {
			require.Contains(t, []string{"total", "slave-hello", "slave-ack"}, m.Kind, "n=%d", n)
		}

		r = checktest.Check(t, emergent.Description, suite.Scenario{N: n, Params: map[string]int{"pool-min": 2, "pool-max": 3}}, figures)
		require.Equal(t, checker.Pass, r.Verdict)
		total = checktest.Messages(t, r, "total")
		require.Equal(t, 4*(n-1), total.Min, "n=%d pool-min 2", n)
		require.Equal(t, 4*(n-1), total.Max, "n=%d pool-min 2", n)
	}
}
