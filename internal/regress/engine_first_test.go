package regress

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// firstCase is a configuration in which one property fails early and
// another holds, so that stopping at the first violation saves work.
type firstCase struct {
	name     string
	protocol string
	cfg      model.Config
	scenario string   // if set, the scenario's configuration, not cfg
	props    []string // nil: the protocol's claims
	// waveChunks, if set, makes waves this many chunks long, so that the
	// level of the first violation has several waves.
	waveChunks int
}

var electionClaims = []string{"unique-leader", "agreement", "highest-leader", "termination"}

func firstCases(t *testing.T) []firstCase {
	return []firstCase{
		{name: "lelann-unordered", protocol: "lelann", props: electionClaims,
			cfg: model.Config{N: 3, Channels: model.Unordered, Ranks: ranksOf(t, "sorted", 3)}},
		{name: "bully-recovery", protocol: "bully", props: electionClaims,
			cfg: model.Config{N: 3, Timing: model.Sync, Crashes: 1, Recoveries: 1, Ranks: ranksOf(t, "sorted", 3)}},
		// agreement fails in 8 steps, found among the 484 worlds of depth 7:
		// two waves of one chunk
		{name: "emergent-recovery-small-waves", protocol: "emergent", scenario: "recovery", waveChunks: 1},
	}
}

// compileCase returns a function making a fresh Machine for c (ids are
// interned in the order a search meets them).
func compileCase(t *testing.T, c firstCase) func() *checker.Machine {
	p, err := protocols.Lookup(c.protocol)
	require.NoError(t, err)
	cfg := c.cfg
	if c.scenario != "" {
		sc, err := p.Scenario(c.scenario)
		require.NoError(t, err)
		cfg, err = sc.Config()
		require.NoError(t, err)
	}
	props, err := p.Props(cfg, c.props)
	require.NoError(t, err)
	return func() *checker.Machine {
		m, err := p.Compile(cfg, props)
		require.NoError(t, err)
		return m
	}
}

// requireFirst checks a result stopped at the first violation against the
// full search's: some property fails, among them leader, the one that fails
// first; those whose counterexample same says is comparable have the
// full search's detail and a counterexample as long; every other property
// is unknown.
func requireFirst(t *testing.T, full, first *checker.Result, leader string, same func(name string) bool, what string) {
	t.Helper()
	require.True(t, first.StoppedFirst, "%s: StoppedFirst", what)
	require.False(t, first.Stopped, what)
	require.Empty(t, first.Cut, what)
	require.Equal(t, checker.Fail, first.Verdict, what)
	unknown := 0
	for i, pr := range first.Properties {
		want := full.Properties[i]
		require.Equal(t, want.Name, pr.Name)
		switch pr.Verdict {
		case checker.Fail:
			require.Equal(t, checker.Fail, want.Verdict, "%s: %s", what, pr.Name)
			if !same(pr.Name) {
				continue
			}
			require.Equal(t, want.Detail, pr.Detail, "%s: %s", what, pr.Name)
			require.Len(t, pr.Counterexample.Events, len(want.Counterexample.Events),
				"%s: the counterexample to %s is not as short as without First", what, pr.Name)
		case checker.Unknown:
			unknown++
			require.Equal(t, testhook.NotJudged, pr.Detail, "%s: %s", what, pr.Name)
			require.Nil(t, pr.Counterexample, "%s: %s", what, pr.Name)
		default:
			t.Fatalf("%s: %s is %s: a search stopped at the first violation judges nothing else to the end", what, pr.Name, pr.Verdict)
		}
	}
	require.True(t, same(leader), "%s: %s", what, leader)
	require.Equal(t, checker.Fail, first.Property(leader).Verdict, "%s: %s fails first, yet not with First", what, leader)
	require.Positive(t, unknown, "%s: no property left unknown", what)
	require.Less(t, first.Stats.States, full.Stats.States, "%s: First saved nothing", what)
	require.Less(t, first.Stats.Transitions, full.Stats.Transitions, what)
}

// TestExhaustiveFirst: with First the search stops after the wave of the
// first violation, with fewer states, counterexamples as short as without
// it, the other properties unknown, and the same result for one worker or
// two.
func TestExhaustiveFirst(t *testing.T) {
	for _, c := range firstCases(t) {
		t.Run(c.name, func(t *testing.T) {
			compile := compileCase(t, c)
			// every world: a search reduced by partial order may fall back
			// to the graph, and count the worlds of two searches
			full := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: 1, Messages: true, Reduce: checker.ReduceNone})
			require.Equal(t, checker.Fail, full.Verdict)
			require.Contains(t, []checker.Verdict{full.Properties[0].Verdict, full.Properties[1].Verdict,
				full.Properties[2].Verdict, full.Properties[3].Verdict}, checker.Pass, "every property fails: First cannot save anything")
			if c.waveChunks > 0 {
				defer testhook.SetWaveChunks(c.waveChunks)()
			}
			// BFS: the property with the shortest counterexample fails
			// first, and every counterexample found is among the shortest.
			leader, shortest := "", -1
			for _, pr := range full.Failed() {
				if n := len(pr.Counterexample.Events); shortest < 0 || n < shortest {
					leader, shortest = pr.Name, n
				}
			}
			all := func(string) bool { return true }
			var base *checker.Result
			for _, workers := range []int{1, 2} {
				what := fmt.Sprintf("workers=%d", workers)
				r := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: workers, Messages: true, First: true, Reduce: checker.ReduceNone})
				requireFirst(t, full, r, leader, all, what)
				require.Nil(t, r.Messages, "%s: message figures of a search that stopped", what)
				if base == nil {
					base = r
					continue
				}
				require.Equal(t, comparableResult(base), comparableResult(r), "%s differs from workers=1", what)
			}
			if c.waveChunks > 0 {
				// Several waves to the level of the first violation: the
				// search stops before the level's end.
				restore := testhook.SetWaveChunks(1 << 20)
				whole := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: 1, First: true, Reduce: checker.ReduceNone})
				restore()
				require.Less(t, base.Stats.States, whole.Stats.States, "the search went on to the end of the level")
			}
		})
	}
}

// TestRandomFirst: random walks with First stop after the batch of the
// first violation, each walk at its own first violation: fewer steps, the
// counterexample of the walk of the same seed, the same for any number of
// workers.
func TestRandomFirst(t *testing.T) {
	for _, c := range firstCases(t) {
		if c.waveChunks > 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			compile := compileCase(t, c)
			opt := checker.RandomOptions{Walks: 300, Seed: 1, Workers: 1}
			full := checker.Random(context.Background(), compile(), opt)
			require.Equal(t, checker.Fail, full.Verdict)
			require.Equal(t, 300, full.Stats.Walks)
			// The property broken by the walk of the lowest seed fails
			// first.
			leader, lowest := "", uint64(0)
			for _, pr := range full.Failed() {
				if s := *pr.Counterexample.Seed; leader == "" || s < lowest {
					leader, lowest = pr.Name, s
				}
			}
			var base *checker.Result
			for _, workers := range []int{1, 2} {
				what := fmt.Sprintf("workers=%d", workers)
				o := opt
				o.Workers, o.First = workers, true
				r := checker.Random(context.Background(), compile(), o)
				// A property found by the same walk has the same
				// counterexample; one whose walk of lowest seed stopped at
				// another property's violation is found by a later walk.
				same := func(name string) bool {
					f := r.Property(name).Counterexample
					return f != nil && *f.Seed == *full.Property(name).Counterexample.Seed
				}
				requireFirst(t, full, r, leader, same, what)
				require.Less(t, r.Stats.Walks, full.Stats.Walks, what)
				// the same walks, each to its end, take more steps
				o.First, o.Walks = false, r.Stats.Walks
				require.Less(t, r.Stats.Transitions, checker.Random(context.Background(), compile(), o).Stats.Transitions,
					"%s: the walks did not stop at their first violation", what)
				for _, pr := range r.Failed() {
					require.LessOrEqual(t, *full.Property(pr.Name).Counterexample.Seed, *pr.Counterexample.Seed, "%s: %s", what, pr.Name)
				}
				if base == nil {
					base = r
					continue
				}
				require.Equal(t, comparableResult(base), comparableResult(r), "%s differs from workers=1", what)
			}
		})
	}
}
