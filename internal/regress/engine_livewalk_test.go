package regress

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/protocols"
)

// TestLiveWalksAgainstStepper walks every scenario of every built-in
// protocol, at its own N and at N = 7, on a sim.Walker and on a Stepper
// from the same seeds: every walk must take the same steps to the same
// end (its length, how it ended, its violations, its messages and events
// by kind, the mutual-exclusion figures of the protocols that have them,
// porcupine's verdict on the client history of those that have one), and a counterexample found live must replay to its violation.
func TestLiveWalksAgainstStepper(t *testing.T) {
	compared := 0
	eachScaledScenario(t, func(name string, p *suite.Protocol, m *checker.Machine) {
		opt := checker.RandomOptions{Walks: 24, Seed: 11, MaxDepth: 3000, Workers: 1, Shard: checker.Shard{Index: 0, Count: 1}, EntryFigures: p.EntryFigures}
		if p.Object != nil {
			opt.Object = p.Object(m.Config())
		}
		if !testhook.WalksLive(m, opt) {
			return
		}
		compared++
		live := checker.Random(context.Background(), m, opt)
		restore := testhook.SetLiveWalks(false)
		stepper := checker.Random(context.Background(), m, opt)
		restore()
		require.Equal(t, records(stepper), records(live), name)
		require.Equal(t, stepper.Verdict, live.Verdict, name)
		require.Equal(t, stepper.Linearizability, live.Linearizability, name)
		for _, pr := range live.Failed() {
			one, err := m.WithProperties(propertyNamed(t, m, pr.Name))
			require.NoError(t, err)
			again, err := checker.Replay(one, pr.Counterexample)
			require.NoError(t, err, name)
			require.Equal(t, pr.Name, again.Property, "%s: the counterexample replays to its violation", name)
		}
	})
	t.Logf("%d configurations walked both ways", compared)
	require.Greater(t, compared, 100, "configurations walked both ways")
}

// eachScaledScenario calls f with every scenario of every built-in
// protocol, compiled at its own N and at N = 7 where the scenario allows
// it (only the scaled N may not compile), and its name.
func eachScaledScenario(t *testing.T, f func(name string, p *suite.Protocol, m *checker.Machine)) {
	for _, p := range protocols.All() {
		for _, sc := range p.Scenarios {
			for _, n := range []int{sc.N, 7} {
				sc := sc
				sc.N = n
				name := fmt.Sprintf("%s/%s/n=%d", p.Name, sc.Name, n)
				m, err := suite.Compile(p, &sc)
				if err != nil {
					require.Equal(t, 7, n, "%s: %v", name, err)
					continue
				}
				f(name, p, m)
			}
		}
	}
}

// records are a search's walk records, their events by kind in name
// order (a Walker and a Stepper meet the kinds in different orders).
func records(r *checker.Result) []checker.WalkRecord {
	out := slices.Clone(r.Shard.Walks)
	for i := range out {
		out[i].Events = slices.Clone(out[i].Events)
		slices.SortFunc(out[i].Events, func(a, b checker.EventCount) int { return strings.Compare(a.Event, b.Event) })
	}
	return out
}
