package paxos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	. "github.com/vigil-check/vigil/protocols/consensus/paxos"
)

// With unbounded ballots and asynchronous timers the two proposers may
// duel for ever (Lamport, Paxos Made Simple, 2.4): random walks show it as
// a possible livelock of termination, a walk on which n0 learns nothing
// for more than the hot bound, where bounded ballots end every duel and
// sync timing lets no timer fire while a higher proposer lives.
func TestDuelIsAHotWalk(t *testing.T) {
	const bound = 200
	cases := []struct {
		name    string
		ballots int
		timing  model.Timing
		want    checker.Verdict
	}{
		{"unbounded ballots, async", 0, model.Async, checker.Fail},
		{"two ballots each, async", 2, model.Async, checker.Pass},
		{"unbounded ballots, sync", 0, model.Sync, checker.Pass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := run(3, BallotsParam, c.ballots)
			cfg.Timing = c.timing
			m, err := checker.Compile("paxos", Protocol{}, cfg, properties.ConsensusTermination)
			require.NoError(t, err)
			res := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 60, Seed: 1, MaxDepth: 2000, HotBound: bound, Workers: 1})
			pr := res.Property("termination")
			require.Equal(t, c.want, pr.Verdict, pr.Detail)
			if c.want == checker.Pass {
				return
			}
			ce := pr.Counterexample
			require.Equal(t, "possible livelock (not a proof): n0 has learned no value for 201 steps in a row, past the hot bound of 200", ce.Detail)
			require.Equal(t, bound+1, ce.Hot)
			kinds := map[string]int64{}
			for _, e := range ce.HotEvents {
				kinds[e.Event] = e.N
			}
			require.Positive(t, kinds["timeout retry"], "the proposers keep trying again")
			require.Positive(t, kinds["receive prepare"])
		})
	}
}
