package checker

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A forced run that goes round a cycle of L worlds is found to, within
// its grace and two laps; a choice on the way starts the count again, and
// a forced run that never comes back to a world is never taken for one.
func TestForcedRunFindsItsCycleAfterItsGrace(t *testing.T) {
	for _, c := range []struct{ grace, lap int }{{0, 1}, {0, 5}, {3, 1}, {7, 3}, {50, 50}, {50, 7}} {
		f := newForcedRun(c.grace)
		step := 0
		world := func() uint64 { return uint64(step % c.lap) }
		for ; !f.goesRound(true, world); step++ {
			require.LessOrEqual(t, step, c.grace+2*c.lap, "grace %d, lap %d", c.grace, c.lap)
		}
		require.Greater(t, step, c.grace, "grace %d, lap %d: found before its grace", c.grace, c.lap)

		// a choice forgets the run
		f.goesRound(false, world)
		for k := range c.grace {
			require.False(t, f.goesRound(true, world), "grace %d, lap %d: step %d after a choice", c.grace, c.lap, k)
		}

		// worlds that never repeat
		f, n := newForcedRun(c.grace), uint64(0)
		for range 10 * (c.grace + c.lap) {
			n++
			require.False(t, f.goesRound(true, func() uint64 { return n }))
		}
	}
}
