package regress

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/election/ring"
)

func ringProtocol(t *testing.T) *suite.Protocol {
	t.Helper()
	p, err := protocols.Lookup("ring")
	require.NoError(t, err)
	return p
}

// Without crashes every election goes once round the ring and every
// ELECTION and COORDINATOR is acknowledged: with one initiator 4N messages
// (N election, N coordinator, 2N ack); with all N initiating 2N² + 2N (N²
// election, N coordinator, N² + N ack); in every interleaving, whatever
// the ranks and the channels (the table of the package doc). The claims
// hold in all of these, N = 2..6.
func TestRingMessagesWithoutCrashes(t *testing.T) {
	t.Parallel()
	p := ringProtocol(t)
	type counts struct{ election, coordinator, ack int }
	for n := 2; n <= 6; n++ {
		for _, init := range []string{"all", "0"} {
			want := counts{n, n, 2 * n}
			if init == "all" {
				want = counts{n * n, n, n*n + n}
			}
			for _, ranks := range []string{"sorted", "reverse"} {
				channels := []model.Channels{model.FIFO}
				if n <= 4 {
					channels = append(channels, model.Unordered)
				}
				for _, ch := range channels {
					s := suite.Scenario{N: n, Initiators: init, Ranks: ranks, Channels: ch}
					what := fmt.Sprintf("n=%d initiators=%s ranks=%s %v", n, init, ranks, ch)
					r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
					require.NoError(t, err)
					require.Equal(t, checker.Pass, r.Verdict, what)
					for kind, w := range map[string]int{"election": want.election, "coordinator": want.coordinator,
						"ack": want.ack, "total": want.election + want.coordinator + want.ack} {
						m := checktest.Messages(t, r, kind)
						require.Equal(t, w, m.Min, "%s: %s min", what, kind)
						require.Equal(t, w, m.Max, "%s: %s max", what, kind)
					}
				}
			}
		}
	}
}

// With a crash at any point (and two at N = 3) the claims hold: the
// predecessor of a failed node skips it and elects again, and the
// followers of a failed coordinator elect a new one. Larger cases are out
// of reach here: N = 4 with every node initiating has 23 million worlds,
// N = 5 with one initiator 10 million.
func TestRingExhaustiveWithCrashes(t *testing.T) {
	t.Parallel()
	p := ringProtocol(t)
	cases := []suite.Scenario{
		{N: 2, Crashes: 1}, {N: 3, Crashes: 1}, {N: 3, Crashes: 1, Channels: model.Unordered},
		{N: 2, Crashes: 1, Initiators: "0"}, {N: 3, Crashes: 1, Initiators: "0"},
		{N: 4, Crashes: 1, Initiators: "0"}, {N: 4, Crashes: 1, Initiators: "3", Ranks: "reverse"},
		{N: 3, Crashes: 2, Initiators: "0"},
	}
	if !testing.Short() {
		cases = append(cases, suite.Scenario{N: 3, Crashes: 2}) // 739 thousand worlds
	}
	for _, s := range cases {
		r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{})
		require.NoError(t, err)
		require.Equal(t, checker.Pass, r.Verdict, "%+v: %s", s, suite.Describe(r))
		require.Positive(t, r.Stats.Quiescent)
	}
}

// At N = 30 random walks with one crash, and with two, raise no alarm.
func TestRingRandomLargeRing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ crashes, walks int }{{1, 1000}, {2, 300}} {
		r := randomRun(t, "ring", model.Config{N: 30, Crashes: c.crashes}, nil, checker.RandomOptions{Walks: c.walks, Seed: 1})
		require.Equal(t, checker.Pass, r.Verdict, "crashes=%d: %s", c.crashes, suite.Describe(r))
		require.Equal(t, c.walks, r.Stats.Walks)
		require.Positive(t, r.Stats.Quiescent)
	}
}

// forgetful is a seeded bug: when its successor fails, a node re-sends to
// the same dead node instead of skipping it (and does not elect again).
type forgetful struct{ ring.Protocol }

func (f forgetful) Timeout(ctx *model.Ctx[ring.Msg], s ring.State, t model.Timer) ring.State {
	if t != ring.SuccCheck {
		return f.Protocol.Timeout(ctx, s, t)
	}
	if len(s.Pending) > 0 {
		ctx.Send(s.Succ, s.Pending[0])
	}
	ctx.SetTimer(ring.SuccCheck, s.Succ)
	return s
}

// requireCaught fails unless termination or highest-leader has a
// counterexample, and the safety properties none.
func requireCaught(t *testing.T, r *checker.Result, what string) {
	t.Helper()
	require.Equal(t, checker.Fail, r.Verdict, "%s: the seeded bug went unnoticed: %s", what, suite.Describe(r))
	caught := false
	for _, f := range r.Failed() {
		switch f.Name {
		case "termination", "highest-leader":
			caught = true
			require.NotNil(t, f.Counterexample, what)
		}
	}
	require.True(t, caught, "%s: %s", what, suite.Describe(r))
	t.Logf("%s: %s", what, suite.Describe(r))
}

// The checker catches a node that forgets to skip its failed successor,
// exhaustively at small N and by random walks at N = 30.
func TestRingSeededBugForgetsToSkip(t *testing.T) {
	t.Parallel()
	for _, cfg := range []model.Config{{N: 3, Crashes: 1}, {N: 4, Crashes: 1, Initiators: []bool{true, false, false, false}}} {
		m := compileVariant(t, "ring", "election/ring-forgetful", forgetful{}, cfg)
		r := checker.Exhaustive(context.Background(), m, checker.Options{})
		requireCaught(t, r, fmt.Sprintf("exhaustive n=%d", cfg.N))
	}
	m := compileVariant(t, "ring", "election/ring-forgetful", forgetful{}, model.Config{N: 30, Crashes: 1})
	r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 1000, Seed: 1})
	requireCaught(t, r, "random n=30")
}
