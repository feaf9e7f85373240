package regress

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// A search whose caller cancels it is cut by CutCanceled, one that runs
// out of time by CutTime; neither is complete, and a search no bound cut
// is (exhaustive only: random walks never are).
func TestCutNamesWhatStoppedTheSearch(t *testing.T) {
	t.Parallel()
	newMachine := compileCase(t, firstCase{protocol: "bully", props: electionClaims,
		cfg: model.Config{N: 4, Timing: model.Sync, Crashes: 1, Ranks: ranksOf(t, "sorted", 4)}})
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name     string
		ctx      context.Context
		random   bool
		time     time.Duration
		cut      checker.Cut
		complete bool
	}{
		{"exhaustive", context.Background(), false, 0, checker.CutNone, true},
		{"exhaustive canceled", canceled, false, 0, checker.CutCanceled, false},
		{"exhaustive out of time", context.Background(), false, time.Nanosecond, checker.CutTime, false},
		{"random", context.Background(), true, 0, checker.CutNone, false},
		{"random canceled", canceled, true, 0, checker.CutCanceled, false},
		{"random out of time", context.Background(), true, time.Nanosecond, checker.CutTime, false},
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
			if c.cut != checker.CutNone {
				require.Equal(t, checker.Unknown, res.Verdict)
			} else {
				require.Equal(t, checker.Pass, res.Verdict)
			}
		})
	}
}

// Each property's first violation is told once, as it is found, and only
// for properties that fail: a lean search that starts again with the state
// graph meets the same violations and does not tell of them again.
func TestOnViolationTellsEachFailureOnce(t *testing.T) {
	t.Parallel()
	type onViolationCase struct{ protocol, scenario string }
	cases := []onViolationCase{{"bully", "loss"}, {"tokenring", "duplicate"}, {"central", "loss"}, {"lelann", "unordered"}}
	// async bully fails its properties across millions of states
	cases = tier.Pick(cases, append(cases, onViolationCase{"bully", "async-crash"}))
	for _, c := range cases {
		t.Run(c.protocol+"/"+c.scenario, func(t *testing.T) {
			newMachine := compileCase(t, firstCase{protocol: c.protocol, scenario: c.scenario})
			p, err := protocols.Lookup(c.protocol)
			require.NoError(t, err)
			sc, err := p.Scenario(c.scenario)
			require.NoError(t, err)
			told := map[string]int{}
			res := checker.Exhaustive(context.Background(), newMachine(), checker.Options{MaxDepth: sc.MaxDepth, Messages: true,
				OnViolation: func(v checker.FirstViolation) { told[v.Property]++ }})
			require.Equal(t, checker.Fail, res.Verdict)
			failed := map[string]int{}
			for _, pr := range res.Failed() {
				failed[pr.Name] = 1
			}
			require.Equal(t, failed, told)
		})
	}
}
