package regress

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// compileScenario compiles the named scenario of a built-in protocol
// with its claims, changed by change (if not nil).
func compileScenario(t *testing.T, protocol, scenario string, change func(*suite.Scenario)) *checker.Machine {
	t.Helper()
	p, err := protocols.Lookup(protocol)
	require.NoError(t, err)
	sc, err := p.Scenario(scenario)
	require.NoError(t, err)
	if change != nil {
		sc.Params = maps.Clone(sc.Params)
		change(&sc)
	}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	return m
}

// claimsMachine compiles p under cfg with the properties p claims there.
func claimsMachine(t *testing.T, p *suite.Protocol, cfg model.Config) *checker.Machine {
	t.Helper()
	props, err := p.Props(cfg, nil)
	require.NoError(t, err)
	m, err := p.Compile(cfg, props)
	require.NoError(t, err)
	return m
}

// told gathers the first violations a search tells of, with the part
// that found each.
type told struct {
	mu    sync.Mutex
	parts map[string][]string // property -> parts, in the order told
}

func (tl *told) hear(v checker.FirstViolation) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if tl.parts == nil {
		tl.parts = map[string][]string{}
	}
	tl.parts[v.Property] = append(tl.parts[v.Property], v.Part)
}

func partNames(r *checker.Result) []string {
	var names []string
	for _, p := range r.Parts {
		names = append(names, p.Part)
	}
	return names
}

// An auto search whose exhaustive part a bound cuts goes on with random
// walks, and each property's verdict is the strongest part's: Maekawa's
// deadlock, at depth 20, lies beyond 1000 states; walks meet it. Without
// a probe the walks find it; with one, the probe, and the walks then run
// for mutual exclusion alone, which nothing breaks: it is unknown, its
// detail saying what was searched. Where the cut search found a
// violation the probe found too (the bully algorithm with timers that
// fire any time), the search's run is kept, one of the shortest.
func TestAutoWalksDecideWhereTheExhaustiveSearchIsCut(t *testing.T) {
	t.Parallel()
	maekawa := func(t *testing.T) *checker.Machine {
		return compileScenario(t, "maekawa", "deadlock", func(sc *suite.Scenario) { sc.Params["requests"] = 1 })
	}
	bully := func(t *testing.T) *checker.Machine {
		return compileScenario(t, "bully", "async-crash", func(sc *suite.Scenario) { sc.Props = electionClaims })
	}
	cases := []struct {
		name     string
		m        func(*testing.T) *checker.Machine
		probe    time.Duration
		failed   string // the property that fails
		by       string
		parts    []string
		unknown  string // a property no part broke
		searched string // its detail
	}{
		{"no probe", maekawa, -1, "no-deadlock", "walks", []string{"exhaustive", "walks"}, "mutual-exclusion",
			"no counterexample in 1138 states of the exhaustive search (cut by its state bound) nor in 200 random walks: not a proof"},
		// (the probe's walks are capped, and mutual exclusion never
		// fails, so it makes all of them)
		{"probe", maekawa, time.Minute, "no-deadlock", "probe", []string{"probe", "exhaustive", "walks"}, "mutual-exclusion",
			"no counterexample in 1138 states of the exhaustive search (cut by its state bound) nor in 2200 random walks: not a proof"},
		// (no walk reaches the end of a run, where termination is judged:
		// the walks stop after their first batch)
		{"search over probe", bully, time.Minute, "unique-leader", "exhaustive", []string{"probe", "exhaustive", "walks"}, "termination",
			"no counterexample in 3857 states of the exhaustive search (cut by its state bound) nor in 8 random walks: not a proof " +
				"(the walks: not judged: no walk reached the end of a run (4 of 4 cut by the depth bound of 2000 steps))"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tl told
			res := checker.Auto(context.Background(), c.m(t), checker.AutoOptions{Probe: c.probe,
				Exhaustive: checker.Options{MaxStates: 1000, Workers: 1, OnViolation: tl.hear},
				Random:     checker.RandomOptions{Walks: 200, Seed: 1, MaxDepth: 2000, Workers: 1, OnViolation: tl.hear}})
			require.Equal(t, checker.ModeAuto, res.Mode)
			require.Equal(t, checker.CutStates, res.Cut)
			require.Equal(t, checker.Fail, res.Verdict)
			require.False(t, res.Complete)
			require.Equal(t, c.parts, partNames(res))
			failed := res.Property(c.failed)
			require.Equal(t, checker.Fail, failed.Verdict)
			require.Equal(t, c.by, failed.By)
			require.Equal(t, c.by != "exhaustive", failed.Counterexample.Seed != nil, "a walk's run, or the search's")
			first := c.by
			if c.probe > 0 {
				first = "probe"
			}
			require.Equal(t, first, tl.parts[c.failed][0], "told of at once by the part that found it first")
			unknown := res.Property(c.unknown)
			require.Equal(t, checker.Unknown, unknown.Verdict)
			require.Empty(t, unknown.By)
			require.Equal(t, c.searched, unknown.Detail)
			require.Equal(t, res.Parts[len(res.Parts)-2].Stats.States, res.Stats.States, "the exhaustive part's stats")
		})
	}
}

// An exhaustive part that no bound cuts is the answer: its shortest
// counterexample replaces the one the probe found and told of, and the
// probe is in the parts alone.
func TestAutoCompleteExhaustiveSearchReplacesTheProbe(t *testing.T) {
	t.Parallel()
	m := compileScenario(t, "bully", "async-crash", nil)
	var tl told
	res := checker.Auto(context.Background(), m, checker.AutoOptions{Probe: time.Minute,
		Exhaustive: checker.Options{Workers: 1, OnViolation: tl.hear},
		Random:     checker.RandomOptions{Seed: 1, Workers: 1, OnViolation: tl.hear}})
	plain := checker.Exhaustive(context.Background(), compileScenario(t, "bully", "async-crash", nil), checker.Options{Workers: 1})
	require.Equal(t, checker.ModeExhaustive, res.Mode)
	require.Empty(t, res.Cut)
	require.Equal(t, []string{"probe", "exhaustive"}, partNames(res))
	require.Equal(t, plain.Stats.States, res.Stats.States, "the probe's walks are in no stats")
	require.Equal(t, plain.Verdict, res.Verdict)
	ul := res.Property("unique-leader")
	require.Equal(t, checker.Fail, ul.Verdict)
	require.Equal(t, "probe", tl.parts["unique-leader"][0], "told of at once")
	require.Equal(t, "exhaustive", ul.By)
	require.Nil(t, ul.Counterexample.Seed, "the exhaustive search's run, not the probe's walk")
	require.Len(t, ul.Counterexample.Events, len(plain.Property("unique-leader").Counterexample.Events))
	for i, pr := range res.Properties {
		require.Equal(t, plain.Properties[i].Verdict, pr.Verdict, pr.Name)
		require.Equal(t, "exhaustive", pr.By, pr.Name)
	}
}

// A canceled search returns what its parts found; with no property to
// check auto is the exhaustive search alone, and from AutoWalksN nodes
// random walks (a fault in any part: checker's TestAutoEndsAtAFault).
func TestAutoEnds(t *testing.T) {
	t.Parallel()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		m       func() *checker.Machine
		probe   time.Duration
		mode    checker.Mode
		cut     checker.Cut
		verdict checker.Verdict
		parts   []string
	}{
		{"canceled", canceled, func() *checker.Machine { return compileScenario(t, "maekawa", "deadlock", nil) }, 0,
			checker.ModeAuto, checker.CutCanceled, checker.Unknown, []string{"probe"}},
		// nothing for walks to find: the exhaustive search alone
		{"no property", context.Background(), func() *checker.Machine {
			return compileScenario(t, "maekawa", "deadlock", func(sc *suite.Scenario) { sc.Props = []string{} })
		}, 0, checker.ModeExhaustive, checker.CutStates, checker.Pass, nil},
		{"large N", context.Background(), func() *checker.Machine {
			return compileScenario(t, "bully", "async-crash", func(sc *suite.Scenario) { sc.N = checker.AutoWalksN })
		}, 0,
			checker.ModeRandom, checker.CutNone, checker.Fail, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.m()
			res := checker.Auto(c.ctx, m, checker.AutoOptions{Probe: c.probe, Exhaustive: checker.Options{MaxStates: 1000},
				Random: checker.RandomOptions{Walks: 20, Workers: 1}})
			require.Equal(t, c.mode, res.Mode)
			require.Equal(t, c.cut, res.Cut)
			require.Equal(t, c.verdict, res.Verdict)
			require.Equal(t, c.parts, partNames(res))
			if c.verdict == checker.Error {
				require.NotNil(t, res.Fault)
				require.Equal(t, checker.Unknown, res.Properties[0].Verdict)
			}
		})
	}
}
