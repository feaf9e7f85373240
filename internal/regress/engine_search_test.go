// The exhaustive search's options against the plain search: the cut that
// names what stopped it, each violation told once, First stopping at the
// first violation, an auto search's exhaustive and random parts, partial
// order's persistent sets against their definition, a lean search against
// the one that keeps the state graph, and counterexamples searched again
// against those of a search that keeps every parent.

package regress

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// A search whose caller cancels it is cut by CutCanceled, one that runs
// out of time by CutTime; neither is complete, and a search no bound cut
// is (exhaustive only: random walks never are). Bully with a crash at
// N = 4; at N = 3 in the quick tier.
func TestCutNamesWhatStoppedTheSearch(t *testing.T) {
	t.Parallel()
	n := tier.Pick(3, 4)
	newMachine := compileCase(t, firstCase{protocol: "bully", props: electionClaims,
		cfg: model.Config{N: n, Timing: model.Sync, Crashes: 1, Ranks: ranksOf(t, "sorted", n)}})
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
			p := lookup(t, c.protocol)
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
	p := lookup(t, c.protocol)
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
		case checker.Pass:
			// a sometimes-property whose goal a world reached before the
			// stop: its witness proves it, as it does without First
			require.NotNil(t, pr.Witness, "%s: %s passes without a witness: a search stopped at the first violation judges nothing else to the end", what, pr.Name)
			require.Equal(t, checker.Pass, want.Verdict, "%s: %s", what, pr.Name)
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

// compileScenario compiles the named scenario of a built-in protocol
// with its claims, changed by change (if not nil).
func compileScenario(t *testing.T, protocol, scenario string, change func(*suite.Scenario)) *checker.Machine {
	t.Helper()
	p := lookup(t, protocol)
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

// TestPersistentSetsArePersistent checks the sets partial order explores
// alone against the definition, on the worlds of every naive configuration
// it applies to: from a world w and a set S of nodes it names, along every
// run of up to persistDepth steps of nodes outside S, the nodes of S keep
// exactly the events they had at w, and each of those commutes with the
// next step of the run (Godefroid's persistent sets), where the worlds
// compared hold the monitors' states too. As in the search, a set with a
// step that observes something is not explored alone (such a step may not
// commute with another observation). The verdict cross-checks cannot see a
// set that is too small where the protocols never send what would tell;
// this test sees it wherever one could be. The quick tier takes every
// other configuration of each protocol, and the first 1 000 worlds of
// each, not 3 000 (bully's at N = 4 took most of its time).
func TestPersistentSetsArePersistent(t *testing.T) {
	t.Parallel()
	worldsPerCase := tier.Pick(1_000, 3_000) // the first worlds reached, breadth-first
	const persistDepth = 3
	checked, multi := 0, 0 // sets checked; of them, sets of several nodes
	for _, p := range protocols.All() {
		taken := 0 // configurations partial order applies to
		for _, tc := range naiveCases(t, p) {
			cfg := tc.cfg
			if cfg.Channels == model.Unordered || cfg.Timing == model.Bounded {
				continue // partial order does not apply
			}
			i := taken
			taken++
			if !sampled(i, 2, 0) {
				continue
			}
			t.Run(p.Name+"/"+tc.name, func(t *testing.T) {
				st := persistentStepper(t, p, cfg)
				w0, _ := st.Init()
				seen := map[string]bool{testhook.WorldKey(w0): true}
				queue := []sim.World{w0}
				var sets []uint64
				for len(queue) > 0 && len(seen) <= worldsPerCase {
					w := queue[0]
					queue = queue[1:]
					evs, nproto := st.Enabled(w, nil)
					sets = st.PersistentSets(w, evs, nproto, sets[:0])
					for _, set := range sets {
						if !checkPersistent(t, st, w, set, persistDepth) {
							continue
						}
						checked++
						if bits.OnesCount64(set) > 1 {
							multi++
						}
					}
					for _, ev := range evs {
						succ, _ := st.Apply(w, ev, nil)
						if k := testhook.WorldKey(succ); !seen[k] {
							seen[k] = true
							queue = append(queue, succ)
						}
					}
				}
			})
		}
	}
	t.Logf("%d sets checked, %d of several nodes", checked, multi)
	require.Positive(t, multi, "no set of several nodes was checked")
}

func persistentStepper(t *testing.T, p *suite.Protocol, cfg model.Config) *sim.Stepper {
	return testhook.Model(claimsMachine(t, p, cfg)).NewStepper()
}

// checkPersistent requires the events of set's nodes at w to be those of
// every world reached from w by up to depth steps of the other nodes, and
// to commute with each of those steps. It checks nothing, and returns
// false, where one of those events observes something.
func checkPersistent(t *testing.T, st *sim.Stepper, w sim.World, set uint64, depth int) bool {
	in := func(ev sim.Event) bool { return set&(1<<ev.Node) != 0 }
	split := func(v sim.World) (own, others []sim.Event) {
		evs, _ := st.Enabled(v, nil)
		for _, ev := range evs {
			if in(ev) {
				own = append(own, ev)
			} else {
				others = append(others, ev)
			}
		}
		return own, others
	}
	want, _ := split(w)
	require.NotEmpty(t, want, "a persistent set with no event")
	for _, e := range want {
		if _, step := st.Apply(w, e, nil); step != nil && len(step.Obs) > 0 {
			return false
		}
	}
	// (each check calls require, and names the set and what is in
	// flight, only where it fails: they run for every world and step)
	var walk func(v sim.World, run []sim.Event)
	walk = func(v sim.World, run []sim.Event) {
		own, others := split(v)
		if !slices.Equal(want, own) {
			require.ElementsMatch(t, want, own, "set %s, in flight %s, after %v: its events changed", nodeSet(set), channels(st, w), run)
		}
		if len(run) == depth {
			return
		}
		for _, u := range others {
			vu, _ := st.Apply(v, u, nil)
			for _, e := range want {
				ve, _ := st.Apply(v, e, nil)
				if _, after := split(ve); !slices.Contains(after, u) {
					require.Contains(t, after, u, "set %s: %v turns %v off", nodeSet(set), e, u)
				}
				veu, _ := st.Apply(ve, u, nil)
				vue, _ := st.Apply(vu, e, nil)
				if !slices.Equal(vue, veu) {
					require.Equal(t, testhook.WorldKey(vue), testhook.WorldKey(veu), "set %s after %v: %v and %v do not commute", nodeSet(set), run, e, u)
				}
			}
			walk(vu, append(slices.Clip(run), u))
		}
	}
	walk(w, nil)
	return true
}

func nodeSet(set uint64) string {
	var nodes []int
	for ; set != 0; set &= set - 1 {
		nodes = append(nodes, bits.TrailingZeros64(set))
	}
	return fmt.Sprint(nodes)
}

// channels names the channel of each message in flight in w.
func channels(st *sim.Stepper, w sim.World) string {
	var out []string
	for _, mw := range st.Msgs(w) {
		out = append(out, fmt.Sprintf("n%d→n%d", mw>>48, mw>>32&0xffff))
	}
	return fmt.Sprint(out)
}

// pingBoth: each of two nodes sends the other a message as it starts and
// reports, on receiving it, that it heard (model.Leader of the sender, as
// any observation would do).
type pingBoth struct{}

type pingState struct{ Heard bool }
type pingMsg struct{}

func (pingBoth) Init(ctx *model.Ctx[pingMsg]) pingState {
	ctx.Send(1-ctx.Self(), pingMsg{})
	return pingState{}
}

func (pingBoth) Receive(ctx *model.Ctx[pingMsg], s pingState, from model.NodeID, _ pingMsg) pingState {
	ctx.Observe(model.Leader(from))
	return pingState{Heard: true}
}

func (pingBoth) Timeout(_ *model.Ctx[pingMsg], s pingState, _ model.Timer) pingState { return s }
func (pingBoth) Recover(_ *model.Ctx[pingMsg], s pingState) pingState                { return s }

// TestPartialOrderKeepsObservationOrder: where the worlds hold a monitor,
// partial order must not put one observation before another for the
// monitor's sake, even where only the ends of runs are judged. Each node
// of pingBoth may take its one step alone (the other's message is in
// flight to it), but a monitor that records who heard first tells the two
// orders apart, and each of two properties judged at quiescence fails in
// one of them.
func TestPartialOrderKeepsObservationOrder(t *testing.T) {
	t.Parallel()
	order := properties.NewMonitor("order",
		func(*model.Config) string { return "" },
		func(_ *model.Config, st string, node model.NodeID, _ model.Obs) string {
			return st + fmt.Sprint(int(node))
		})
	first := func(n string) *properties.Property {
		p := properties.Quiescent("n"+n+"-first", "n"+n+" hears first", func(v properties.View) string {
			if st := properties.MonitorState[string](v, order); st[:1] != n {
				return "heard in the order " + st
			}
			return ""
		})
		p.Monitor = order
		return p
	}
	for _, reduce := range []checker.Reduction{checker.ReduceAll, checker.ReduceNone} {
		m, err := checker.Compile("ping", pingBoth{}, model.Config{N: 2}, first("0"), first("1"))
		require.NoError(t, err)
		r := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: reduce})
		for _, p := range r.Properties {
			require.Equal(t, checker.Fail, p.Verdict, "reduce=%v: %s: %s", reduce, p.Name, r.PartialOrder)
		}
		require.Equal(t, int64(2), r.Stats.Quiescent, "reduce=%v", reduce)
	}
}

// TestLeanIsTheGraphSearch checks every shipped scenario that a lean search
// completes (without falling back to the state graph) against the search
// that keeps the graph: the same verdicts, counterexamples, counts, message
// figures. The quick tier compares the scenarios of up to 20 000 states
// among quickCases(quickTransitions).
func TestLeanIsTheGraphSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	compared := 0
	// (a lean search cut there, in the quick tier, tells a larger one)
	maxStates := tier.Pick[int64](20_000, 0)
	cases := shippedCases()
	if !tier.IsLong() {
		cases, _ = quickCases(t, quickTransitions) // (most others would only be cut)
	}
	for _, gc := range cases {
		p, s := lookup(t, gc.protocol), gc.sc
		if s.Sweep {
			continue
		}
		// (partial order: the graph search reduces nothing, being one)
		opt := checker.Options{Messages: true, Workers: 2, Reduce: checker.ReduceNone, MaxStates: maxStates}
		lean, err := suite.Exhaustive(ctx, p, &s, opt)
		require.NoError(t, err)
		if lean.Cut == checker.CutStates {
			continue
		}
		if lean.Stats.GraphBytes > 0 {
			continue // it fell back: this is the graph search
		}
		graph, err := suite.Exhaustive(ctx, p, &s, keepGraph(opt))
		require.NoError(t, err)
		require.NotZero(t, graph.Stats.GraphBytes)
		require.Equal(t, searchOutcome(t, graph), searchOutcome(t, lean), "%s %s", p.Path(), s.Name)
		compared++
	}
	require.Greater(t, compared, 70)
	t.Logf("%d scenarios compared", compared)
}

// searchOutcome is what a search found, without its timing and memory.
func searchOutcome(t *testing.T, r *checker.Result) string {
	c := *r
	c.Stats.Seconds, c.Stats.StatesPerS, c.Stats.VisitedBytes, c.Stats.GraphBytes = 0, 0, 0, 0
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return string(b)
}

// TestTracesSearchedAgain checks every shipped scenario expected to fail,
// searched for its safety properties alone, against the search that keeps
// every state's parent: a search without parents finds its counterexamples
// by searching again, and must give the same ones.
func TestTracesSearchedAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	compared := 0
	// the quick tier: the scenarios whose golden search took at most
	// quickTransitions (see quickCases)
	cases := shippedCases()
	if !tier.IsLong() {
		cases, _ = quickCases(t, quickTransitions)
	}
	for _, gc := range cases {
		p, s := lookup(t, gc.protocol), gc.sc
		if s.Sweep || s.Expect != checker.Fail || s.Messages != "" {
			continue
		}
		// (a search reduced by partial order searches again without it,
		// for shortest runs: see TestExhaustiveAgainstNaive)
		opt := checker.Options{Workers: 2, Reduce: checker.ReduceNone}
		again, err := suite.Exhaustive(ctx, p, &s, opt)
		require.NoError(t, err)
		if again.Stats.GraphBytes > 0 {
			continue // liveness: the graph, and its parents, kept from the start
		}
		kept, err := suite.Exhaustive(ctx, p, &s, keepParents(opt))
		require.NoError(t, err)
		require.Equal(t, searchOutcome(t, kept), searchOutcome(t, again), "%s %s", p.Path(), s.Name)
		require.Equal(t, checker.Fail, again.Verdict, "%s %s", p.Path(), s.Name)
		compared++
	}
	require.Greater(t, compared, 30)
	t.Logf("%d scenarios compared", compared)
}
