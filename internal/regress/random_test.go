// The random engine at sizes no exhaustive search reaches: no false alarm
// on the correct protocols, the known bugs found, replayed from their
// seeds and shrunk, the same outcome on any number of workers, and a
// search split in shards that merges to the whole.

package regress

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/shardtest"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// Random walks find the unreliable-detector counterexample of bully at
// N = 20, and the walk replays from its seed alone, event for event.
func TestRandomFindsBullyAsyncAndReplaysFromSeed(t *testing.T) {
	t.Parallel()
	cfg := model.Config{N: 20, Crashes: 1, Timing: model.Async}
	props := []string{"unique-leader"}
	r := randomRun(t, "bully", cfg, props, checker.RandomOptions{Walks: 200, Seed: 42})
	pr := r.Property("unique-leader")
	require.Equal(t, checker.Fail, pr.Verdict)
	require.NotNil(t, pr.Counterexample.Seed)
	// shrunk to the essence: one answer timer firing while a higher node
	// that leads is alive
	require.Len(t, pr.Counterexample.Events, 1)
	require.Equal(t, "timeout", pr.Counterexample.Events[0].Kind)

	again := randomRun(t, "bully", cfg, props, checker.RandomOptions{Walks: 1, Seed: *pr.Counterexample.Seed, Workers: 1})
	pr2 := again.Property("unique-leader")
	require.Equal(t, checker.Fail, pr2.Verdict)
	require.Equal(t, pr.Counterexample.Events, pr2.Counterexample.Events)
	require.Equal(t, pr.Detail, pr2.Detail)
}

// At N = 50 the correct protocols raise no false alarm, and the messages
// of every walk match the figures of the Leader Election notes (the quick
// tier takes half the walks, and shrinks the witnesses briefly).
func TestRandomLargeRings(t *testing.T) {
	t.Parallel()
	const n = 50
	walks, bullyWalks := tier.Pick(100, 200), tier.Pick(15, 30)
	cases := []struct {
		protocol string
		ranks    string
		kind     string
		want     int
	}{
		{"changroberts", "sorted", "election", 2*n - 1},
		{"changroberts", "reverse", "election", n * (n + 1) / 2},
		{"lelann", "random:3", "token", n * n},
	}
	for _, c := range cases {
		ranks, err := model.ParseRanks(c.ranks, n)
		require.NoError(t, err)
		r := randomRun(t, c.protocol, model.Config{N: n, Ranks: ranks}, nil, checker.RandomOptions{Walks: walks, Seed: 1, ShrinkTime: quickShrinkTime()})
		require.Equal(t, checker.Pass, r.Verdict, "%s %s", c.protocol, c.ranks)
		require.Equal(t, walks, r.Stats.Walks)
		m := checktest.Messages(t, r, c.kind)
		require.Equal(t, c.want, m.Min, "%s %s", c.protocol, c.ranks)
		require.Equal(t, c.want, m.Max, "%s %s", c.protocol, c.ranks)
	}
	// bully with a perfect detector survives a crash at N = 50
	r := randomRun(t, "bully", model.Config{N: n, Crashes: 1}, nil, checker.RandomOptions{Walks: bullyWalks, Seed: 1, ShrinkTime: quickShrinkTime()})
	require.Equal(t, checker.Pass, r.Verdict)
	require.Positive(t, r.Stats.Quiescent)
}

// The random engine's outcome depends on the options only, not on how many
// workers ran the walks.
func TestRandomDeterministicAcrossWorkers(t *testing.T) {
	t.Parallel()
	cfg := model.Config{N: 6, Crashes: 1, Timing: model.Async}
	a := randomRun(t, "bully", cfg, []string{"unique-leader", "agreement"}, checker.RandomOptions{Walks: 300, Seed: 9, Workers: 1})
	b := randomRun(t, "bully", cfg, []string{"unique-leader", "agreement"}, checker.RandomOptions{Walks: 300, Seed: 9, Workers: 2})
	require.Equal(t, a.Properties, b.Properties)
	require.Equal(t, a.Stats.Transitions, b.Stats.Transitions)
}

// The ring algorithms of Vlassov and Montelius and of Silberschatz et al. at
// N = 30: a thousand walks raise no false alarm, with their message counts
// in every walk; with a crash, which they do not tolerate, they stay safe
// (their termination is lost, as the crash scenarios record). The quick
// tier takes 300 walks, and shrinks the witnesses briefly.
func TestRandomRingAlgorithmsAtN30(t *testing.T) {
	t.Parallel()
	const n = 30
	walks := tier.Pick(300, 1000)
	cases := []struct {
		protocol, kind string
		want           int
	}{
		{"ringbased", "total", 3*n - 1}, // one initiator, its predecessor highest
		{"activelist", "elect", n * n},
	}
	for _, c := range cases {
		p := lookup(t, c.protocol)
		init := make([]bool, n)
		init[0] = true
		r := randomRun(t, c.protocol, model.Config{N: n, Initiators: init}, nil, checker.RandomOptions{Walks: walks, Seed: 1, ShrinkTime: quickShrinkTime()})
		require.Equal(t, checker.Pass, r.Verdict, c.protocol)
		require.Len(t, r.Properties, len(p.Claims), c.protocol)
		m := checktest.Messages(t, r, c.kind)
		require.Equal(t, [2]int{c.want, c.want}, [2]int{m.Min, m.Max}, c.protocol)

		r = randomRun(t, c.protocol, model.Config{N: n, Initiators: init, Crashes: 1}, []string{"unique-leader", "agreement"}, checker.RandomOptions{Walks: walks, Seed: 1, ShrinkTime: quickShrinkTime()})
		require.Equal(t, checker.Pass, r.Verdict, "%s with a crash", c.protocol)
		require.Equal(t, walks, r.Stats.Walks)
	}
}

// Every known counterexample, found by random walks and shrunk, is at most
// twice as long as the exhaustive engine's shortest for the same property
// at the scenario's N; testdata/shrink.golden keeps both lengths, so that
// a change to the shrinker or a protocol that alters them is seen. The
// quick tier searches exhaustively the scenarios of
// quickCases(quickTransitions), and takes the shortest length of the
// others (Maekawa's deadlock, seconds) from the golden file; it shrinks
// every one.
func TestShrinkKnownCounterexamples(t *testing.T) {
	t.Parallel()
	// the quick tier's: the golden file's shortest lengths, by bug, and
	// the scenarios it searches for them all the same
	shortestKept, searched := map[string]int{}, map[string]bool{}
	if !tier.IsLong() && !*update {
		small, _ := quickCases(t, quickTransitions)
		for _, gc := range small {
			searched[gc.protocol+" "+gc.sc.Name] = true
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "shrink.golden"))
		require.NoError(t, err)
		for line := range strings.Lines(string(b)) {
			bug, rest, ok := strings.Cut(line, ": shortest ")
			require.True(t, ok, "shrink.golden: %q", line)
			var e int
			_, err := fmt.Sscanf(rest, "%d,", &e)
			require.NoError(t, err, "shrink.golden: %q", line)
			shortestKept[bug] = e
		}
	}
	var out bytes.Buffer
	eachKnownBug(t, 0, func(p *suite.Protocol, s *suite.Scenario, m *checker.Machine) {
		bug := fmt.Sprintf("%s %s n=%d %s", p.Path(), s.Name, s.N, s.Shows)
		e, kept := shortestKept[bug]
		if !kept || searched[p.Name+" "+s.Name] {
			ex := checker.Exhaustive(context.Background(), m, checker.Options{MaxDepth: s.MaxDepth})
			shortest := ex.Property(s.Shows).Counterexample
			require.NotNil(t, shortest, "%s %s", p.Path(), s.Name)
			e = len(shortest.Events)
		}
		r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1})
		found := r.Property(s.Shows).Counterexample
		require.NotNil(t, found, "%s %s: 200 walks found no counterexample to %s", p.Path(), s.Name, s.Shows)
		n := len(found.Events)
		require.LessOrEqual(t, n, 2*e, "%s %s: %s shrunk to %d steps, the shortest has %d", p.Path(), s.Name, s.Shows, n, e)
		fmt.Fprintf(&out, "%s: shortest %d, random %d (seed %d)\n", bug, e, n, *found.Seed)
	}, nil)
	golden(t, "shrink.golden", out.Bytes())
}

// At N = 30, where no exhaustive search reaches, every known bug that 200
// walks find is shrunk to a fixpoint: a last round of every candidate
// (each node's events, each fault, each run of events down to single
// ones) kept nothing, so no one event can go. The lengths are kept in
// testdata/shrink-n30.golden; where every violating run delivers O(N²)
// messages (bully's healed-leader after a partition, Ricart-Agrawala's
// and Maekawa's deadlocks) they are in the hundreds.
func TestShrinkAtN30(t *testing.T) {
	t.Parallel()
	tier.Long(t, "random searches and shrinking of every known bug at N = 30")
	var out bytes.Buffer
	eachKnownBug(t, 30, func(p *suite.Protocol, s *suite.Scenario, m *checker.Machine) {
		r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1, First: true, ShrinkTime: time.Minute})
		found := r.Property(s.Shows).Counterexample
		if found == nil {
			fmt.Fprintf(&out, "%s %s n=30 %s: none in 200 walks\n", p.Path(), s.Name, s.Shows)
			return
		}
		require.False(t, found.ShrinkCut, "%s %s: shrinking %d steps took over a minute", p.Path(), s.Name, len(found.Events))
		again, err := checker.Replay(m, found)
		require.NoError(t, err, "%s %s", p.Path(), s.Name)
		require.Equal(t, s.Shows, again.Property, "%s %s", p.Path(), s.Name)
		fmt.Fprintf(&out, "%s %s n=30 %s: %d steps (seed %d)\n", p.Path(), s.Name, s.Shows, len(found.Events), *found.Seed)
	}, func(p *suite.Protocol, s *suite.Scenario, err error) {
		fmt.Fprintf(&out, "%s %s: %v\n", p.Path(), s.Name, err)
	})
	golden(t, "shrink-n30.golden", out.Bytes())
}

// eachKnownBug calls f with every shipped scenario that expects a
// failure, compiled to check only the property it shows failing; at n
// nodes unless n is 0. A scenario that does not compile at n goes to
// misfit, or fails the test when misfit is nil.
func eachKnownBug(t *testing.T, n int, f func(*suite.Protocol, *suite.Scenario, *checker.Machine), misfit func(*suite.Protocol, *suite.Scenario, error)) {
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			s.Props = []string{s.Shows}
			if n > 0 {
				s.N = n
			}
			m, err := suite.Compile(p, &s)
			if err != nil && misfit != nil {
				misfit(p, &s, err)
				continue
			}
			require.NoError(t, err)
			f(p, &s, m)
		}
	}
}

// At N = 30 the central server's deadlock after a lost message shrinks to
// its shortest: the loss of the server's first grant, then every other
// node's request and its delivery (2N + 1 steps). The walks find a
// client's last request lost, after every other node's whole cycle (147
// steps): only a loss exchanged for an earlier one gets there.
func TestShrinkExchangesTheLostMessage(t *testing.T) {
	t.Parallel()
	p := lookup(t, "central")
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

// A random search split in K shards and merged is the search run on one
// machine: the same verdicts, counterexamples, figures and counts, for
// every scenario of every built-in protocol, K = 1, 2 and 7, and with the
// options that change how walks run or stop. Searches of 40 walks of at
// most 1 500 steps on one of each protocol's first two scenarios by
// default, the protocols taking them in turn (five batches, so every way
// a search stops is met); 70 walks of 5 000 steps on every scenario with
// -long (minutes: CI runs it).
func TestShardsMergeToTheWholeSearch(t *testing.T) {
	t.Parallel()
	walks, depth := tier.Pick(40, 70), tier.Pick(1500, 5000)
	variants := []struct {
		name string
		opt  func(*checker.RandomOptions)
	}{
		{"uniform", func(*checker.RandomOptions) {}},
		{"first", func(o *checker.RandomOptions) { o.First = true }},
		{"pct", func(o *checker.RandomOptions) { o.Scheduler = checker.Scheduler{Kind: "pct", Depth: 3} }},
		{"swarm-rounds", func(o *checker.RandomOptions) { o.Scheduler.Kind, o.Rounds = "swarm", true }},
	}
	cases := 0
	met := map[string]bool{} // the variants run
	for pi, p := range protocols.All() {
		for i, s := range p.Scenarios {
			v := variants[cases%len(variants)]
			cases++
			quick := pi % 2 // the scenario the quick tier takes
			if testing.Short() {
				quick = 0
			}
			if (testing.Short() && i > 0) || (!tier.IsLong() && i != quick) {
				continue
			}
			met[v.name] = true
			t.Run(fmt.Sprintf("%s/%s/%s", p.Path(), s.Name, v.name), func(t *testing.T) {
				m, err := suite.Compile(p, &s)
				require.NoError(t, err)
				opt := checker.RandomOptions{Walks: walks, Seed: 3, MaxDepth: depth, Workers: 2, EntryFigures: p.EntryFigures}
				if p.Object != nil {
					cfg, err := s.Config()
					require.NoError(t, err)
					opt.Object = p.Object(cfg)
				}
				v.opt(&opt)
				whole := checker.Random(context.Background(), m, opt)
				for _, k := range []int{1, 2, 7} {
					merged := shardtest.Merged(t, m, opt, k)
					require.Equal(t, resultJSON(t, whole), resultJSON(t, merged), "%d shards", k)
				}
			})
		}
	}
	require.Len(t, met, len(variants), "variants run")
}

// resultJSON is a result as JSON, without its times.
func resultJSON(t *testing.T, r *checker.Result) string {
	t.Helper()
	c := *r
	c.Stats.Seconds, c.Stats.StatesPerS = 0, 0
	if c.Fault != nil {
		f := *c.Fault
		f.Stack = ""
		c.Fault = &f
	}
	b, err := json.MarshalIndent(c, "", " ")
	require.NoError(t, err)
	return string(b)
}
