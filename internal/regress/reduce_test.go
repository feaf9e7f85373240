// Partial order where the search takes message figures: the figures and
// verdicts of the reduced search against those of the full one, and its
// worlds against those of the search without figures.

package regress

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
)

// TestReduceKeepsFiguresAndVerdicts searches every shipped scenario as
// vigil check does (message figures on, every reduction that is sound),
// as go test does (no figures), and with -reduce none, and requires of
// the first the full search's verdicts, counterexamples where it has them,
// quiescent worlds and message figures, and no more worlds than the search
// without figures. The quick tier takes one in three of each protocol's
// scenarios among quickCases(quickTransitions) (its first among them):
// each is searched three times; -long takes them all.
func TestReduceKeepsFiguresAndVerdicts(t *testing.T) {
	t.Parallel()
	cases := shippedCases()
	if !tier.IsLong() {
		small, _ := quickCases(t, quickTransitions)
		cases = nil
		nth := 0 // the scenario's number among its protocol's
		for i, gc := range small {
			if i > 0 && gc.protocol != small[i-1].protocol {
				nth = 0
			}
			if sampled(nth, 3, 0) {
				cases = append(cases, gc)
			}
			nth++
		}
	}
	ctx := context.Background()
	onGraph := 0 // scenarios reduced on a state graph kept for the figures
	for _, gc := range cases {
		p := lookup(t, gc.protocol)
		name := p.Path() + " " + gc.sc.Name
		figures := checker.Options{Messages: true, Workers: 2}
		r, err := suite.Exhaustive(ctx, p, &gc.sc, figures)
		require.NoError(t, err)
		plain, err := suite.Exhaustive(ctx, p, &gc.sc, checker.Options{Workers: 2})
		require.NoError(t, err)
		none := figures
		none.Reduce = checker.ReduceNone
		full, err := suite.Exhaustive(ctx, p, &gc.sc, none)
		require.NoError(t, err)

		require.LessOrEqual(t, r.Stats.States, plain.Stats.States, "%s: worlds with figures (%s) and without (%s)", name, r.PartialOrder, plain.PartialOrder)
		require.Equal(t, plain.PartialOrder != "" && !strings.HasPrefix(plain.PartialOrder, "none: "), strings.HasPrefix(r.PartialOrder, "partial order: "),
			"%s: reduced with figures (%s) where it is without (%s)", name, r.PartialOrder, plain.PartialOrder)
		require.Equal(t, full.Verdict, r.Verdict, name)
		for i, fp := range full.Properties {
			pr := r.Properties[i]
			require.Equal(t, fp.Verdict, pr.Verdict, "%s: %s", name, pr.Name)
			require.Equal(t, fp.Counterexample == nil, pr.Counterexample == nil, "%s: %s's counterexample", name, pr.Name)
		}
		complete := func(x *checker.Result) bool { return x.Cut == checker.CutNone && !x.Stopped && !x.StoppedFirst }
		// (symmetry counts families of quiescent worlds)
		if complete(r) && complete(full) && r.Reduction.Kind != checker.SymmetryUsed {
			require.Equal(t, full.Stats.Quiescent, r.Stats.Quiescent, "%s: quiescent worlds", name)
		}
		require.Equal(t, printedFigures(full), printedFigures(r), "%s: the figures with and without the reduction", name)
		if strings.HasPrefix(r.PartialOrder, "partial order: ") && r.Stats.GraphBytes > 0 {
			onGraph++
		}
	}
	// (paxos's scenarios, the async elections and the mutual exclusions
	// whose timers or tokens go back a level)
	require.GreaterOrEqual(t, onGraph, tier.Pick(5, 10), "scenarios reduced on the state graph")
	t.Logf("%d scenarios, %d of them reduced on the state graph", len(cases), onGraph)
}

// printedFigures are the message figures as vigil check prints them, in
// the order of kinds (a search lists them in the order it met them).
func printedFigures(r *checker.Result) []string {
	var out []string
	for _, m := range r.Messages {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}
