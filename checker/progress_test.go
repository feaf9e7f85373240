package checker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestProgress(t *testing.T) {
	require.Equal(t, "vigil: depth 12, 4000 states (2000/s), 90 in frontier",
		Progress{Mode: ModeExhaustive, Elapsed: 2 * time.Second, States: 4000, Depth: 12, Frontier: 90}.String())
	require.Equal(t, "vigil: 300 of 1000 walks, 60000 steps (30000/s)",
		Progress{Mode: ModeRandom, Elapsed: 2 * time.Second, States: 60000, Walks: 300, Of: 1000}.String())
	require.Equal(t, "vigil: depth 1, 1 states (0/s), 0 in frontier", Progress{Depth: 1, States: 1}.String(), "no time passed: no rate")

	// a report at most once a second, the progress filled in when it is
	var got []Progress
	r := newReporter(func(p Progress) { got = append(got, p) })
	fill := func(p *Progress) { p.Mode, p.States = ModeExhaustive, 7 }
	r.report(fill)
	require.Empty(t, got, "within the first second")
	r.last = r.last.Add(-2 * time.Second)
	r.report(fill)
	require.Len(t, got, 1)
	require.Equal(t, int64(7), got[0].States)
	require.GreaterOrEqual(t, got[0].Elapsed, time.Duration(0))
	r.report(fill)
	require.Len(t, got, 1, "not again within the second")

	newReporter(nil).report(func(*Progress) { t.Fatal("no reporter: nothing to fill") })
}
