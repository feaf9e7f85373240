package regress

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/protocols"
)

// TestEveryClaimIsSeenFailing: a monitor must be seen catching a real run,
// not only the hand-built ones of its unit tables. Every property a
// protocol claims fails in at least one run: a scenario of the protocol
// that shows it failing, a broken variant (brokenVariants, which
// TestBrokenVariantsFailTheirClaims runs), or a handler mutant whose run a
// scenario catches failing it (the mutation check's golden counts them).
func TestEveryClaimIsSeenFailing(t *testing.T) {
	t.Parallel()
	byMutants := mutantsShowingClaims(t)
	for _, p := range protocols.All() {
		for _, claim := range claimsOf(p) {
			var seen []string
			for _, sc := range p.Scenarios {
				if sc.Expect == checker.Fail && sc.Shows == claim {
					seen = append(seen, "scenario "+sc.Name)
				}
			}
			for _, v := range brokenVariants {
				if q, err := protocols.Lookup(v.protocol); err == nil && q == p && v.claim == claim {
					seen = append(seen, "variant "+v.protocol+"/"+v.claim)
				}
			}
			n, ok := byMutants[p.Path()+" "+claim]
			require.True(t, ok, "testdata/mutation.golden says nothing of %s %s: run the mutation check (-mutate -update)", p.Path(), claim)
			if n > 0 {
				seen = append(seen, fmt.Sprintf("%d handler mutants", n))
			}
			require.NotEmpty(t, seen, "%s %s: no scenario, broken variant or handler mutant shows it failing", p.Path(), claim)
			t.Logf("%s %s: %s", p.Path(), claim, strings.Join(seen, "; "))
		}
	}
}

// mutantsShowingClaims reads, from the mutation check's golden, how many
// handler mutants a scenario catches failing each claim ("protocol claim").
func mutantsShowingClaims(t *testing.T) map[string]int {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "mutation.golden"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]int{}
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case line == claimsHeader:
			in = true
		case in && strings.HasPrefix(line, "  "):
			claim, rest, ok := strings.Cut(strings.TrimSpace(line), ": ")
			require.True(t, ok, "mutation.golden: %q", line)
			count, _, _ := strings.Cut(rest, ",")
			n, err := strconv.Atoi(count)
			require.NoError(t, err, "mutation.golden: %q", line)
			out[claim] = n
		case in:
			in = false
		}
	}
	return out
}
