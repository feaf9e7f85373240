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
	"github.com/vigil-check/vigil/protocols"
)

// At N = 30, where no exhaustive search reaches, every known bug that 200
// walks find is shrunk to a fixpoint: a last round of every candidate
// (each node's events, each fault, each run of events down to single
// ones) kept nothing, so no one event can go. The lengths are kept in
// testdata/shrink-n30.golden; where every violating run delivers O(N²)
// messages (bully's healed-leader after a partition, Ricart-Agrawala's
// and Maekawa's deadlocks) they are in the hundreds.
func TestShrinkAtN30(t *testing.T) {
	var out bytes.Buffer
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			s.N, s.Props = 30, []string{s.Shows}
			m, err := suite.Compile(p, &s)
			if err != nil {
				fmt.Fprintf(&out, "%s %s: %v\n", p.Path(), s.Name, err)
				continue
			}
			r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1, First: true, ShrinkTime: time.Minute})
			found := r.Property(s.Shows).Counterexample
			if found == nil {
				fmt.Fprintf(&out, "%s %s n=30 %s: none in 200 walks\n", p.Path(), s.Name, s.Shows)
				continue
			}
			require.False(t, found.ShrinkCut, "%s %s: shrinking %d steps took over a minute", p.Path(), s.Name, len(found.Events))
			again, err := checker.Replay(m, found)
			require.NoError(t, err, "%s %s", p.Path(), s.Name)
			require.Equal(t, s.Shows, again.Property, "%s %s", p.Path(), s.Name)
			fmt.Fprintf(&out, "%s %s n=30 %s: %d steps (seed %d)\n", p.Path(), s.Name, s.Shows, len(found.Events), *found.Seed)
		}
	}
	golden(t, "shrink-n30.golden", out.Bytes())
}
