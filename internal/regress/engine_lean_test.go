package regress

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/tier"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols"
)

// TestLeanIsTheGraphSearch checks every shipped scenario that a lean search
// completes (without falling back to the state graph) against the search
// that keeps the graph: the same verdicts, counterexamples, counts, message
// figures. The quick tier compares the scenarios of up to 20 000 states.
func TestLeanIsTheGraphSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	compared := 0
	// (a lean search cut there, in the quick tier, tells a larger one)
	maxStates := tier.Pick[int64](20_000, 0)
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Sweep {
				continue
			}
			// (partial order: the graph search reduces nothing, being one)
			opt := checker.Options{Messages: true, Workers: 2, Reduce: checker.ReduceNone, MaxStates: maxStates}
			lean, err := suite.Exhaustive(ctx, p, &s, opt)
			require.NoError(t, err)
			if lean.Cut == checker.CutStates {
				continue
			}
			if lean.Stats.GraphBytes > 0 {
				continue // it fell back: this is the graph search
			}
			graph, err := suite.Exhaustive(ctx, p, &s, keepGraph(opt))
			require.NoError(t, err)
			require.NotZero(t, graph.Stats.GraphBytes)
			require.Equal(t, searchOutcome(t, graph), searchOutcome(t, lean), "%s %s", p.Path(), s.Name)
			compared++
		}
	}
	require.Greater(t, compared, 70)
	t.Logf("%d scenarios compared", compared)
}

// searchOutcome is what a search found, without its timing and memory.
func searchOutcome(t *testing.T, r *checker.Result) string {
	c := *r
	c.Stats.Seconds, c.Stats.StatesPerS, c.Stats.VisitedBytes, c.Stats.GraphBytes = 0, 0, 0, 0
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return string(b)
}

// TestTracesSearchedAgain checks every shipped scenario expected to fail,
// searched for its safety properties alone, against the search that keeps
// every state's parent: a search without parents finds its counterexamples
// by searching again, and must give the same ones.
func TestTracesSearchedAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	compared := 0
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Sweep || s.Expect != checker.Fail || s.Messages != "" {
				continue
			}
			// (a search reduced by partial order searches again without it,
			// for shortest runs: see TestExhaustiveAgainstNaive)
			opt := checker.Options{Workers: 2, Reduce: checker.ReduceNone}
			again, err := suite.Exhaustive(ctx, p, &s, opt)
			require.NoError(t, err)
			if again.Stats.GraphBytes > 0 {
				continue // liveness: the graph, and its parents, kept from the start
			}
			kept, err := suite.Exhaustive(ctx, p, &s, keepParents(opt))
			require.NoError(t, err)
			require.Equal(t, searchOutcome(t, kept), searchOutcome(t, again), "%s %s", p.Path(), s.Name)
			require.Equal(t, checker.Fail, again.Verdict, "%s %s", p.Path(), s.Name)
			compared++
		}
	}
	require.Greater(t, compared, 30)
	t.Logf("%d scenarios compared", compared)
}
