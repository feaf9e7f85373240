package regress

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols"
)

// Every known counterexample, found by random walks and shrunk, is at most
// twice as long as the exhaustive engine's shortest for the same property
// at the scenario's N; testdata/shrink.golden keeps both lengths, so that
// a change to the shrinker or a protocol that alters them is seen.
func TestShrinkKnownCounterexamples(t *testing.T) {
	var out bytes.Buffer
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			m, err := suite.Compile(p, &s)
			require.NoError(t, err)
			ex := checker.Exhaustive(context.Background(), m, checker.Options{MaxDepth: s.MaxDepth})
			shortest := ex.Property(s.Shows).Counterexample
			require.NotNil(t, shortest, "%s %s", p.Path(), s.Name)
			r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1})
			found := r.Property(s.Shows).Counterexample
			require.NotNil(t, found, "%s %s: 200 walks found no counterexample to %s", p.Path(), s.Name, s.Shows)
			e, n := len(shortest.Events), len(found.Events)
			require.LessOrEqual(t, n, 2*e, "%s %s: %s shrunk to %d steps, the shortest has %d", p.Path(), s.Name, s.Shows, n, e)
			fmt.Fprintf(&out, "%s %s n=%d %s: shortest %d, random %d (seed %d)\n", p.Path(), s.Name, s.N, s.Shows, e, n, *found.Seed)
		}
	}
	golden(t, "shrink.golden", out.Bytes())
}

// At N = 30 the central server's deadlock after a lost message shrinks to
// its shortest: the loss of the server's first grant, then every other
// node's request and its delivery (2N + 1 steps). The walks find a
// client's last request lost, after every other node's whole cycle (147
// steps): only a loss exchanged for an earlier one gets there.
func TestShrinkExchangesTheLostMessage(t *testing.T) {
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
