package regress

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/central"
	"github.com/vigil-check/vigil/protocols/mutex/maekawa"
	"github.com/vigil-check/vigil/protocols/mutex/ricartagrawala"
)

// lowestFirst is a central server that, on a release, grants the token to
// the lowest id waiting instead of the longest waiting: with nodes asking
// forever, the highest id can wait forever.
type lowestFirst struct{ central.Protocol }

// Interchangeable declares no symmetry: serving the lowest id first tells
// the clients apart. (The server's own declaration, promoted through the
// embedding, would claim they are interchangeable; the search's check of
// it reports a fault.)
func (lowestFirst) Interchangeable(*model.Config) [][]model.NodeID { return nil }

func (p lowestFirst) Receive(ctx *model.Ctx[central.Msg], s central.State, from model.NodeID, m central.Msg) central.State {
	if m.Type == central.Release && len(s.Queue) > 1 {
		s.Queue = slices.Clone(s.Queue)
		slices.Sort(s.Queue)
	}
	return p.Protocol.Receive(ctx, s, from, m)
}

// The liveness engine finds the unfair server's starvation as a lasso that
// replays, under every notion of fairness; the shipped server passes.
func TestStarvationLasso(t *testing.T) {
	t.Parallel()
	forever := model.Config{N: 3, Params: map[string]int{"requests": 0}}
	for _, f := range []checker.Fairness{checker.WeakFairness, checker.StrongFairness, checker.NoFairness} {
		m := compileVariant(t, "central", "mutex/central-lowest-first", lowestFirst{}, forever)
		r := checker.Exhaustive(context.Background(), m, checker.Options{Fairness: f})
		require.Equal(t, checker.Pass, r.Property("mutual-exclusion").Verdict, "%v", f)
		require.Equal(t, checker.Pass, r.Property("no-deadlock").Verdict, "%v", f)
		starve := r.Property("no-starvation")
		require.Equal(t, checker.Fail, starve.Verdict, "%v: the unfair server starves no one", f)
		cx := starve.Counterexample
		require.Positive(t, cx.Cycle, "%v: not a lasso", f)
		// the server passes over the higher ids; with no fairness, any
		// request may also stay undelivered
		who := `^n[12] waits`
		if f == checker.NoFairness {
			who = `^n[012] waits`
		}
		require.Regexp(t, who+` for the critical section forever, on a `, starve.Detail, "%v", f)
		back, err := checker.Replay(m, cx)
		require.NoError(t, err, "%v", f)
		require.Equal(t, starve.Detail, back.Detail, "%v", f)

		// with a bounded number of requests everyone gets in
		m = compileVariant(t, "central", "mutex/central-lowest-first", lowestFirst{},
			model.Config{N: 3, Params: map[string]int{"requests": 2}})
		r = checker.Exhaustive(context.Background(), m, checker.Options{Fairness: f})
		require.Equal(t, checker.Pass, r.Verdict, "%v: %v", f, r.Failed())
	}
	// The shipped server's FIFO queue starves no one under weak fairness;
	// with none, a node's request can stay undelivered forever. The token
	// ring needs no fairness: a waiting node stops asking, and the token's
	// journey is all that can happen.
	for n := 2; n <= 4; n++ {
		cfg := model.Config{N: n, Params: map[string]int{"requests": 0}}
		for _, c := range []struct {
			name string
			f    checker.Fairness
			want checker.Verdict
		}{
			{"central", checker.WeakFairness, checker.Pass},
			{"central", checker.NoFairness, checker.Fail},
			{"tokenring", checker.WeakFairness, checker.Pass},
			{"tokenring", checker.NoFairness, checker.Pass},
		} {
			r := exhaustiveRun(t, c.name, cfg, nil, checker.Options{Fairness: c.f})
			require.Equal(t, c.want, r.Verdict, "%s n=%d %v fairness: %v", c.name, n, c.f, r.Failed())
			if c.want == checker.Fail {
				require.Equal(t, []string{"no-starvation"}, names(r.Failed()))
				require.Positive(t, r.Failed()[0].Counterexample.Cycle)
			}
		}
	}
}

func names(prs []checker.PropertyResult) []string {
	var out []string
	for _, pr := range prs {
		out = append(out, pr.Name)
	}
	return out
}

// The message figures of Vlassov and Montelius, over every run explored: one node asks once,
// alone, and the complete run's messages are those of one entry.
func TestMessagesPerEntry(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		want     func(n, node int) int
		why      string
	}{
		{"central", func(int, int) int { return 3 }, "Enter: 2 messages (request – granted), Exit: 1 release message"},
		{"ricartagrawala", func(n, _ int) int { return 2 * (n - 1) }, "N-1 requests, N-1 replies"},
		{"maekawa", func(n, i int) int { return 3 * len(maekawa.VotingSet(n, i)) }, "K requests, K votes, K releases"},
	}
	for _, c := range cases {
		p := lookup(t, c.protocol)
		for n := 2; n <= 5; n++ {
			for _, node := range []int{0, n - 1} {
				s := suite.Scenario{N: n, Initiators: fmt.Sprint(node), Params: map[string]int{"requests": 1}}
				r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
				require.NoError(t, err)
				require.Equal(t, checker.Pass, r.Verdict, "%s n=%d", c.protocol, n)
				total := checktest.Messages(t, r, "total")
				require.Equal(t, c.want(n, node), total.Min, "%s n=%d node %d: %s", c.protocol, n, node, c.why)
				require.Equal(t, c.want(n, node), total.Max, "%s n=%d node %d: %s", c.protocol, n, node, c.why)
			}
		}
	}
	// Maekawa's grid: K = 2√N-1 for a full grid, so 3K = 6√N-3 per entry;
	// 3K ≈ 3√N needs Maekawa's optimal sets, K ≈ √N.
	for _, n := range []int{4, 9, 16} {
		w := maekawa.Width(n)
		require.Equal(t, w*w, n)
		for i := range n {
			require.Len(t, maekawa.VotingSet(n, i), 2*w-1, "n=%d node %d", n, i)
		}
	}
}

// The evaluation figures measured on timed random runs (checker.EntryFigures),
// against Vlassov and Montelius.
func TestEntryFigures(t *testing.T) {
	t.Parallel()
	figures := func(name string, cfg model.Config) *checker.EntryFigures {
		t.Helper()
		r := randomRun(t, name, cfg, nil, checker.RandomOptions{Walks: 300, Seed: 1, MaxDepth: 600, EntryFigures: true})
		require.NotNil(t, r.Entry, "%s %+v: no entry", name, cfg)
		require.Positive(t, r.Entry.Entries)
		return r.Entry
	}
	exact := func(r checker.IntSet, want int, what string) {
		t.Helper()
		require.Positive(t, r.N, what)
		require.Equal(t, [2]int{want, want}, [2]int{r.Min, r.Max}, what)
	}
	perEntry := func(f *checker.EntryFigures, want int, what string) {
		t.Helper()
		require.Positive(t, f.Complete, what)
		require.Equal(t, want*f.PerEntry.MinDen, f.PerEntry.MinNum, what)
		require.Equal(t, want*f.PerEntry.MaxDen, f.PerEntry.MaxNum, what)
	}
	for n := 2; n <= 5; n++ {
		all := model.Config{N: n, Params: map[string]int{"requests": 2}}
		alone := model.Config{N: n, Params: map[string]int{"requests": 2}, Initiators: initiators(n, n-1)}

		f := figures("central", all)
		perEntry(f, 3, "central: 3 messages per entry")
		require.Equal(t, 2, f.ClientDelay.Min, "central: client delay = round trip")
		exact(f.SyncDelay, 2, "central: synchronization delay = release, then grant")
		exact(figures("central", alone).ClientDelay, 2, "central, alone: client delay = round trip")

		f = figures("ricartagrawala", all)
		perEntry(f, 2*(n-1), "ricartagrawala: 2(N-1) messages per entry")
		require.Equal(t, 2, f.ClientDelay.Min, "ricartagrawala: request, then reply")
		require.Equal(t, 1, f.SyncDelay.Min, "ricartagrawala: the last reply comes with the exit")
		exact(figures("ricartagrawala", alone).ClientDelay, 2, "ricartagrawala, alone")

		f = figures("tokenring", all)
		require.Zero(t, f.Complete, "tokenring: the token circulates forever")
		require.Equal(t, [2]int{1, n}, [2]int{f.ClientDelay.Min, f.ClientDelay.Max},
			"tokenring: the token is 1 to N transmissions away (Vlassov and Montelius: enter [0, N] messages)")
		require.Equal(t, [2]int{1, n - 1}, [2]int{f.SyncDelay.Min, f.SyncDelay.Max},
			"tokenring: the next waiting node is 1 to N-1 hops down the ring")

		f = figures("maekawa", alone)
		perEntry(f, 3*len(maekawa.VotingSet(n, n-1)), "maekawa, alone: 3K messages per entry")
		// the node votes for itself by messages too: delivered after
		// another vote, its own takes a transmission more
		require.Equal(t, [2]int{2, 3}, [2]int{f.ClientDelay.Min, f.ClientDelay.Max}, "maekawa, alone: request, then vote")
	}
}

// initiators marks the given nodes of n as initiators.
func initiators(n int, ids ...int) []bool {
	b := make([]bool, n)
	for _, i := range ids {
		b[i] = true
	}
	return b
}

// heldReplier is Ricart-Agrawala replying to a request while HELD, as if
// released: the requester enters while the node is still inside.
type heldReplier struct{ ricartagrawala.Protocol }

func (p heldReplier) Receive(ctx *model.Ctx[ricartagrawala.Msg], s ricartagrawala.State, from model.NodeID, m ricartagrawala.Msg) ricartagrawala.State {
	if !m.Reply && s.Phase == mutex.Held {
		s.Clock = max(s.Clock, m.T)
		ctx.Send(m.P, ricartagrawala.Msg{Reply: true, T: s.Clock})
		return s
	}
	return p.Protocol.Receive(ctx, s, from, m)
}

// A lock service on each mutex protocol gives linearizable client
// histories in random runs of 10 and more nodes; on the broken
// Ricart-Agrawala it does not, and porcupine draws the history. 200 walks
// of each; 100 in the quick tier, whose runs shown it shrinks briefly.
func TestLockLinearizability(t *testing.T) {
	t.Parallel()
	walks := tier.Pick(100, 200)
	opt := checker.RandomOptions{Walks: walks, Seed: 1, MaxDepth: 3000, Object: properties.Lock, ShrinkTime: quickShrinkTime()}
	for _, name := range []string{"central", "tokenring", "ricartagrawala", "maekawa"} {
		for _, n := range []int{10, 16} {
			cfg := model.Config{N: n, Params: map[string]int{"requests": 2}}
			if name == "maekawa" {
				// with everyone asking, most runs deadlock before an entry
				cfg.Initiators = initiators(n, 0, n/2, n-1)
			}
			r := randomRun(t, name, cfg, nil, opt)
			l := r.Linearizability
			require.NotNil(t, l)
			require.Equal(t, checker.Pass, l.Verdict, "%s n=%d", name, n)
			require.Equal(t, walks, l.Histories)
			require.Positive(t, l.Operations, "%s n=%d: empty histories", name, n)
		}
	}

	m := compileVariant(t, "ricartagrawala", "mutex/ricartagrawala-held-replier", heldReplier{},
		model.Config{N: 10, Params: map[string]int{"requests": 2}})
	r := checker.Random(context.Background(), m, opt)
	require.Equal(t, checker.Fail, r.Property("mutual-exclusion").Verdict)
	l := r.Linearizability
	require.Equal(t, checker.Fail, l.Verdict, "the broken lock's histories are linearizable")
	require.Equal(t, checker.Fail, r.Verdict)
	require.NotNil(t, l.Seed)
	require.False(t, porcupine.CheckOperations(properties.Lock.Model, l.History))
	html := filepath.Join(t.TempDir(), "lock.html")
	require.NoError(t, l.WriteHTML(html))
	b, err := os.ReadFile(html)
	require.NoError(t, err)
	require.Contains(t, string(b), "<html")
	require.Contains(t, string(b), "acquire")
}

// The central server serves requests in arrival order, not in (timestamp,
// id) order, so it does not claim request-order: the checker shows why.
func TestCentralBreaksRequestOrder(t *testing.T) {
	t.Parallel()
	r := exhaustiveRun(t, "central", model.Config{N: 3}, []string{"request-order"}, checker.Options{})
	pr := r.Property("request-order")
	require.Equal(t, checker.Fail, pr.Verdict)
	require.Regexp(t, `^n\d entered while n\d, whose request is earlier in \(timestamp, id\) order, waited$`, pr.Detail)
	m := compiled(t, "central", model.Config{N: 3}, []string{"request-order"})
	back, err := checker.Replay(m, pr.Counterexample)
	require.NoError(t, err)
	require.Equal(t, pr.Detail, back.Detail)
}
