package regress

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/protocols"
)

// Every known counterexample, found by random walks and shrunk, is at most
// twice as long as the exhaustive engine's shortest for the same property
// at the scenario's N; testdata/shrink.golden keeps both lengths, so that
// a change to the shrinker or a protocol that alters them is seen.
func TestShrinkKnownCounterexamples(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	eachKnownBug(t, 0, func(p *suite.Protocol, s *suite.Scenario, m *checker.Machine) {
		ex := checker.Exhaustive(context.Background(), m, checker.Options{MaxDepth: s.MaxDepth})
		shortest := ex.Property(s.Shows).Counterexample
		require.NotNil(t, shortest, "%s %s", p.Path(), s.Name)
		r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1})
		found := r.Property(s.Shows).Counterexample
		require.NotNil(t, found, "%s %s: 200 walks found no counterexample to %s", p.Path(), s.Name, s.Shows)
		e, n := len(shortest.Events), len(found.Events)
		require.LessOrEqual(t, n, 2*e, "%s %s: %s shrunk to %d steps, the shortest has %d", p.Path(), s.Name, s.Shows, n, e)
		fmt.Fprintf(&out, "%s %s n=%d %s: shortest %d, random %d (seed %d)\n", p.Path(), s.Name, s.N, s.Shows, e, n, *found.Seed)
	}, nil)
	golden(t, "shrink.golden", out.Bytes())
}

// At N = 30, where no exhaustive search reaches, every known bug that 200
// walks find is shrunk to a fixpoint: a last round of every candidate
// (each node's events, each fault, each run of events down to single
// ones) kept nothing, so no one event can go. The lengths are kept in
// testdata/shrink-n30.golden; where every violating run delivers O(N²)
// messages (bully's healed-leader after a partition, Ricart-Agrawala's
// and Maekawa's deadlocks) they are in the hundreds.
func TestShrinkAtN30(t *testing.T) {
	t.Parallel()
	tier.Long(t, "random searches and shrinking of every known bug at N = 30")
	var out bytes.Buffer
	eachKnownBug(t, 30, func(p *suite.Protocol, s *suite.Scenario, m *checker.Machine) {
		r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1, First: true, ShrinkTime: time.Minute})
		found := r.Property(s.Shows).Counterexample
		if found == nil {
			fmt.Fprintf(&out, "%s %s n=30 %s: none in 200 walks\n", p.Path(), s.Name, s.Shows)
			return
		}
		require.False(t, found.ShrinkCut, "%s %s: shrinking %d steps took over a minute", p.Path(), s.Name, len(found.Events))
		again, err := checker.Replay(m, found)
		require.NoError(t, err, "%s %s", p.Path(), s.Name)
		require.Equal(t, s.Shows, again.Property, "%s %s", p.Path(), s.Name)
		fmt.Fprintf(&out, "%s %s n=30 %s: %d steps (seed %d)\n", p.Path(), s.Name, s.Shows, len(found.Events), *found.Seed)
	}, func(p *suite.Protocol, s *suite.Scenario, err error) {
		fmt.Fprintf(&out, "%s %s: %v\n", p.Path(), s.Name, err)
	})
	golden(t, "shrink-n30.golden", out.Bytes())
}

// eachKnownBug calls f with every shipped scenario that expects a
// failure, compiled to check only the property it shows failing; at n
// nodes unless n is 0. A scenario that does not compile at n goes to
// misfit, or fails the test when misfit is nil.
func eachKnownBug(t *testing.T, n int, f func(*suite.Protocol, *suite.Scenario, *checker.Machine), misfit func(*suite.Protocol, *suite.Scenario, error)) {
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			s.Props = []string{s.Shows}
			if n > 0 {
				s.N = n
			}
			m, err := suite.Compile(p, &s)
			if err != nil && misfit != nil {
				misfit(p, &s, err)
				continue
			}
			require.NoError(t, err)
			f(p, &s, m)
		}
	}
}

// At N = 30 the central server's deadlock after a lost message shrinks to
// its shortest: the loss of the server's first grant, then every other
// node's request and its delivery (2N + 1 steps). The walks find a
// client's last request lost, after every other node's whole cycle (147
// steps): only a loss exchanged for an earlier one gets there.
func TestShrinkExchangesTheLostMessage(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("central")
	require.NoError(t, err)
	sc, err := p.Scenario("loss")
	require.NoError(t, err)
	sc.N = 30
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 50, Seed: 1, Workers: 1})
	found := r.Property("no-deadlock").Counterexample
	require.NotNil(t, found)
	require.Len(t, found.Events, 2*sc.N+1)
	again, err := checker.Replay(m, found)
	require.NoError(t, err)
	require.Equal(t, "no-deadlock", again.Property)
}
