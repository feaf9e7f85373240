package checker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
)

// A search whose caller cancels it is cut by "canceled", one that runs
// out of time by "time"; neither is complete, and a search no bound cut
// is (exhaustive only: random walks never are).
func TestCutNamesWhatStoppedTheSearch(t *testing.T) {
	newMachine := compileCase(t, firstCase{protocol: "bully", props: electionClaims,
		cfg: model.Config{N: 4, Timing: model.Sync, Crashes: 1, Ranks: ranksOf(t, "sorted", 4)}})
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name     string
		ctx      context.Context
		random   bool
		time     time.Duration
		cut      string
		complete bool
	}{
		{"exhaustive", context.Background(), false, 0, "", true},
		{"exhaustive canceled", canceled, false, 0, "canceled", false},
		{"exhaustive out of time", context.Background(), false, time.Nanosecond, "time", false},
		{"random", context.Background(), true, 0, "", false},
		{"random canceled", canceled, true, 0, "canceled", false},
		{"random out of time", context.Background(), true, time.Nanosecond, "time", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var res *checker.Result
			if c.random {
				res = checker.Random(c.ctx, newMachine(), checker.RandomOptions{Walks: 200, Time: c.time, Workers: 1})
			} else {
				res = checker.Exhaustive(c.ctx, newMachine(), checker.Options{Time: c.time, Workers: 1})
			}
			require.Equal(t, c.cut, res.Cut)
			require.Equal(t, c.complete, res.Complete)
			if c.cut != "" {
				require.Equal(t, checker.Unknown, res.Verdict)
			} else {
				require.Equal(t, checker.Pass, res.Verdict)
			}
		})
	}
}
