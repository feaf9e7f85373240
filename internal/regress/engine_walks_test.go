// The random-walk engine: the sim engine's fast paths against the
// Stepper's plain ones (the fingerprint a Stepper describes without
// building the successor, and a Walker stepping over live values, each
// against the world Apply builds, event kind by event kind, step by step
// and walk by walk), the PCT and swarm schedulers, walks that end on
// forced cycles, a walk that depends on its seed alone, and lost or
// duplicated messages in the traces walks find.

package regress

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/election/invitation"
)

// TestEachEventKindAgreesThreeWays takes each kind of event the three
// ways internal/sim takes it, on a handful of small runs that enable it,
// and checks that they agree: the successor a Stepper describes without
// building it (its fingerprint, length, monitors changed and Step) is
// the one Apply builds, and a Walker, stepping over live values, stays in
// lockstep with a Stepper's Apply (see lockstep). Each kind must be met
// by both checks. The quick tier checks the first 3 000 transitions of
// each run; -long, 30 000.
func TestEachEventKindAgreesThreeWays(t *testing.T) {
	t.Parallel()
	type run struct {
		protocol string
		cfg      model.Config
	}
	bounded := model.Config{Timing: model.Bounded, Delay: 2}
	cases := []struct {
		kind sim.EventKind
		runs []run
	}{
		{sim.Deliver, []run{{"changroberts", model.Config{}}, {"lelann", model.Config{}}, {"causal", model.Config{Channels: model.Unordered}}, {"changroberts", model.Config{Channels: model.Set}}, {"reliable", model.Config{Channels: model.Set}}}},
		{sim.Timeout, []run{{"bully", model.Config{Crashes: 1}}, {"bully", model.Config{Crashes: 1, Timing: model.Async}}, {"reliable", model.Config{Crashes: 1}}, {"bully", model.Config{Crashes: 1, Channels: model.Set}}}},
		{sim.Act, []run{{"central", model.Config{}}, {"ricartagrawala", model.Config{Channels: model.Unordered}}, {"maekawa", model.Config{}}, {"reliable", model.Config{Channels: model.Set}}}},
		{sim.Crash, []run{{"bully", model.Config{Crashes: 1}}, {"reliable", model.Config{Crashes: 1, Channels: model.Unordered}}, {"invitation", model.Config{Crashes: 1}}, {"bully", model.Config{Crashes: 1, Channels: model.Set, Timing: model.Async}}}},
		{sim.Recover, []run{{"bully", model.Config{Crashes: 1, Recoveries: 1}}, {"invitation", model.Config{Crashes: 1, Recoveries: 1}}, {"ring", model.Config{Crashes: 1, Recoveries: 1}}, {"bully", model.Config{Crashes: 1, Recoveries: 1, Channels: model.Set}}}},
		{sim.Partition, []run{{"invitation", model.Config{Partitions: 1}}, {"invitation", model.Config{Partitions: 2, Channels: model.Unordered}}, {"bully", model.Config{Partitions: 1}}}},
		{sim.Heal, []run{{"invitation", model.Config{Partitions: 1}}, {"bully", model.Config{Partitions: 1, Timing: model.Async}}}},
		{sim.Lose, []run{{"reliable", model.Config{Losses: 1}}, {"changroberts", model.Config{Losses: 1}}, {"bully", model.Config{Losses: 1, Channels: model.Unordered}}}},
		{sim.Duplicate, []run{{"reliable", model.Config{Duplicates: 1}}, {"lelann", model.Config{Duplicates: 1}}, {"central", model.Config{Duplicates: 1, Channels: model.Unordered}}}},
		{sim.Tick, []run{{"bfs-abd", bounded}, {"bully", model.Config{Crashes: 1, Timing: model.Bounded, Delay: 1}}}},
	}
	limit := tier.Pick(3_000, 30_000)
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			succ, walked := 0, 0
			for _, r := range c.runs {
				p := lookup(t, r.protocol)
				cfg := r.cfg
				cfg.N = 3
				m, err := p.Compile(cfg, p.Properties)
				if errors.Is(err, model.ErrCrashStop) {
					t.Fatalf("%s does not recover: pick another run for %v", r.protocol, c.kind)
				}
				require.NoError(t, err, r.protocol)
				sm := testhook.Model(m)
				name := fmt.Sprintf("%s %+v", r.protocol, cfg)
				got := successorsAgree(t, name, sm, limit)[c.kind]
				if cfg.Channels == model.Set {
					// the set is one more case of each kind's semantics:
					// checked for every kind it allows (no losses,
					// duplications, cuts or ticks)
					require.Positive(t, got, "%s: %v events under set channels", name, c.kind)
				}
				succ += got
				if sim.Supported(sm.Config()) {
					walked += lockstep(t, name, sm, tier.Pick(lockstepSeeds[:2], lockstepSeeds))[c.kind]
				}
			}
			require.Positive(t, succ, "%v events whose successor was checked", c.kind)
			require.Positive(t, walked, "%v events taken in lockstep", c.kind)
		})
	}
}

// The incremental fingerprint of every successor equals the fingerprint of
// the successor Apply builds, in every reachable world of small runs of
// every protocol, under every channel and timing mode, with crashes,
// recoveries and a partition, and with lost and duplicated messages. The
// quick tier checks the first 2 000 transitions of a third of each
// protocol's configurations, a Latin square over channels, timing and
// faults that the protocols take in turn: each protocol meets every
// channel mode and timing it runs under, with the sets of faults in turn.
// -long checks the first 20 000 of every configuration.
func TestSuccessorFingerprintAgreesWithApply(t *testing.T) {
	t.Parallel()
	limit := tier.Pick(2_000, 20_000)
	faults := []model.Config{
		{Crashes: 1, Recoveries: 1, Partitions: 1},
		{Losses: 2, Duplicates: 2},
		{Crashes: 1, Partitions: 1, Losses: 1, Duplicates: 1},
	}
	setFaults := []model.Config{{Crashes: 1, Recoveries: 1}, {}}
	msgFaults := 0 // losses and duplications checked
	for pi, p := range protocols.All() {
		total := 0 // transitions checked, over the configurations
		for ci, ch := range []model.Channels{model.FIFO, model.Unordered, model.Set} {
			for ti, tm := range []model.Timing{model.Sync, model.Async, model.Bounded} {
				if p.Name == "bfs-abd" && tm != model.Bounded {
					continue // it counts time: only bounded timing runs it (abd.Validate)
				}
				fcs := faults
				if ch == model.Set {
					if tm == model.Bounded {
						continue // refused: a set keeps its messages for ever
					}
					fcs = setFaults // the faults a set leaves to the network are refused
				}
				for fi, fc := range fcs {
					if !sampled(pi+ci+ti+fi, 3, 0) {
						continue
					}
					cfg := fc
					cfg.N, cfg.Channels, cfg.Timing = 3, ch, tm
					if tm == model.Bounded {
						cfg.Delay = 2
					}
					m, err := p.Compile(cfg, p.Properties)
					if errors.Is(err, model.ErrCrashStop) {
						cfg.Recoveries = 0
						m, err = p.Compile(cfg, p.Properties)
					}
					if errors.Is(err, model.ErrNetwork) {
						continue // it needs FIFO or exactly-once delivery
					}
					require.NoError(t, err)
					counts := successorsAgree(t, fmt.Sprintf("%s %+v", p.Path(), cfg), testhook.Model(m), limit)
					msgFaults += counts[sim.Lose] + counts[sim.Duplicate]
					for _, n := range counts {
						total += n
					}
				}
			}
		}
		require.Positive(t, total, p.Path())
	}
	require.Positive(t, msgFaults)
}

// successorsAgree checks, over the worlds of m reached breadth first,
// that Successor agrees with Apply on every event enabled (fingerprint,
// length, monitors changed, Step taken), for up to limit events; it
// returns how many of each kind it checked.
func successorsAgree(t *testing.T, name string, m *sim.Machine, limit int) map[sim.EventKind]int {
	st := m.NewStepper()
	w0, _ := st.Init()
	seen := map[string]bool{}
	queue := []sim.World{w0}
	counts := map[sim.EventKind]int{}
	checked := 0
	for len(queue) > 0 && checked < limit {
		w := queue[0]
		queue = queue[1:]
		f := st.Fingerprint(w)
		evs, _, stut := st.EnabledAll(w, nil, nil)
		for i, ev := range evs {
			if set := m.Config().Channels == model.Set; set || stut[i] {
				// a stutter is the same world, and under set channels
				// every other event enabled is not (a delivery that
				// leaves the set and the receiver as they were is a
				// stutter, never a step)
				next, _ := st.Apply(w, ev, nil)
				if set {
					equal(t, stut[i], slices.Equal(next, w), "%s: %v from %v stutters", name, ev, w)
				}
			}
			if stut[i] {
				continue
			}
			got := st.Successor(w, f, ev)
			next, step := st.Apply(w, ev, nil)
			// (the step, the same pointer)
			equal(t, sim.Successor{FP: st.Fingerprint(next), Len: len(next), MonitorsChanged: !st.SameMonitors(w, next), Step: step}, got,
				"%s: %v from %v", name, ev, w)
			checked++
			counts[ev.Kind]++
			if k := string(wordsKey(next)); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return counts
}

func wordsKey(w sim.World) []byte {
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		for i := range 8 {
			b = append(b, byte(x>>(8*i)))
		}
	}
	return b
}

// TestWalkerInLockstep takes the same events on a sim.Walker and on a
// Stepper, step by step, for every scenario that a Walker runs, at its own
// N and at N = 7: after every draw both must count the same events
// enabled (the protocol's among them, the cuts, and those that move, up
// to two), agree on whether the draw is taken, and after every step hold the same
// node states, liveness, connectivity and monitor states (which a
// Walker updates in place where a monitor can). TestLiveWalksAgainstStepper
// compares whole walks; this one names the first step where they part.
// The quick tier walks one seed of each, seeds 0 and 1 in turn; -long,
// eight.
func TestWalkerInLockstep(t *testing.T) {
	t.Parallel()
	compared := 0
	eachScaledScenario(t, everyScaled, func(name string, _ *suite.Protocol, m *checker.Machine) {
		if sm := testhook.Model(m); sim.Supported(sm.Config()) {
			seeds := tier.Pick([]uint64{uint64(compared % 2)}, lockstepSeeds)
			compared++
			_ = lockstep(t, name, sm, seeds)
		}
	})
	require.Greater(t, compared, 100, "configurations walked in lockstep")
}

// lockstepSeeds are the seeds of the walks that lockstep takes in the
// long tier.
var lockstepSeeds = []uint64{0, 1, 2, 3, 4, 5, 6, 7}

// lockstep walks m from each of seeds on a Stepper and a Walker side by
// side (see TestWalkerInLockstep) and returns how many events of each
// kind the walks took.
func lockstep(t *testing.T, name string, m *sim.Machine, seeds []uint64) map[sim.EventKind]int {
	taken := map[sim.EventKind]int{}
	n := m.Config().N
	for _, seed := range seeds {
		st, lw := m.Fresh().NewStepper(), m.NewWalker()
		rng := rand.New(rand.NewPCG(seed, 1))
		w, _ := st.Init()
		lw.Start(nil)
		view := st.View(nil)
		keys := map[sim.Event]string{}
		var evs []sim.Event
		var stut []bool
		var next sim.World
		// the run so far, named in the checks' messages as arguments:
		// formatted only when one fails, not at every step
		var run []sim.Event
	walking:
		for step := 0; step < 300 && st.TakeFault() == nil && lw.Fault() == nil; step++ {
			var nproto int
			evs, nproto, stut = st.EnabledAll(w, evs[:0], stut[:0])
			// draw as a uniform walk does: one that stutters is drawn
			// again, without it, and a fault while no step moves leaves
			// out every protocol event
			for {
				cuts, moving := 0, 0
				for k, e := range evs {
					if e.Kind == sim.Partition {
						cuts++
					}
					if k < nproto && !stut[k] {
						moving++
					}
				}
				total, nproto2 := lw.Enabled()
				equal(t, [3]int{len(evs), nproto, cuts}, [3]int{total, nproto2, lw.Cuts()}, "events enabled, %s seed %d after %v", name, seed, run)
				equal(t, min(moving, 2), min(lw.Moving(2), 2), "events that move, %s seed %d after %v", name, seed, run)
				if total == 0 {
					break walking
				}
				k := rng.IntN(total)
				ev := testhook.Canonical(st.Machine(), evs, evs[k], keys)
				i := slices.Index(evs, ev)
				stutters := i < nproto && stut[i]
				still := i >= nproto && moving == 0 && nproto > 0
				equal(t, !stutters && !still, lw.Take(k), "%v taken, %s seed %d after %v", ev, name, seed, run)
				switch {
				case stutters:
					evs, stut = slices.Delete(evs, i, i+1), slices.Delete(stut, i, i+1)
					nproto--
				case still:
					evs, stut, nproto = evs[nproto:], stut[nproto:], 0
				default:
					run = append(run, ev)
					taken[ev.Kind]++
					next, _ = st.Apply(w, ev, next)
					w, next = next, w
				}
				if !stutters && !still {
					break
				}
			}
			v := view.At(w)
			for i := range model.NodeID(n) {
				equal(t, v.Alive(i), lw.Alive(i), "%v alive, %s seed %d after %v", i, name, seed, run)
				equal(t, fmt.Sprintf("%+v", v.State(i)), fmt.Sprintf("%+v", lw.State(i)), "%v's state, %s seed %d after %v", i, name, seed, run)
				equal(t, v.Connected(0, i), lw.Connected(0, i), "n0 and %v connected, %s seed %d after %v", i, name, seed, run)
			}
			for _, mon := range m.Monitors() {
				equal(t, fmt.Sprintf("%+v", v.Monitor(mon)), fmt.Sprintf("%+v", lw.Monitor(mon)), "monitor %s, %s seed %d after %v", mon.Name(), name, seed, run)
			}
		}
		require.Equal(t, st.TakeFault() == nil, lw.Fault() == nil, "%s seed %d: a fault on one only", name, seed)
	}
	return taken
}

// TestLiveWalksAgainstStepper walks every scenario of every built-in
// protocol, at its own N and at N = 7, on a sim.Walker and on a Stepper
// from the same seeds, under each scheduler: every walk must take the
// same steps to the same end (its length, how it ended, its violations,
// its messages and events by kind, the mutual-exclusion figures of the
// protocols that have them, porcupine's verdict on the client history of
// those that have one), and a counterexample found live must replay to
// its violation. PCT at depth 1 keeps its priorities for the whole walk;
// at depth 3 they change twice. The quick tier takes 8 walks, not 24,
// of each configuration, under one scheduler: the schedulers take a
// protocol's configurations in turn, so every configuration is walked and
// each scheduler walks some of almost every protocol's.
//
// Not parallel: the Walkers are turned off for the whole process while
// the Steppers walk. Every search walks on one worker, so the test runs
// as many at a time as there are processors: every search on Walkers,
// then every search on Steppers alone.
func TestLiveWalksAgainstStepper(t *testing.T) {
	// pct:1 (no change of priority) in the long tier only
	scheds := tier.Pick([]string{"uniform", "pct:3", "swarm"}, []string{"uniform", "pct:1", "pct:3", "swarm"})
	var runs []*liveRun
	for k, sched := range scheds {
		s, err := checker.ParseScheduler(sched)
		require.NoError(t, err)
		compared := 0
		mine := func(i int) bool { return sampled(i, len(scheds), k) }
		eachScaledScenario(t, mine, func(name string, p *suite.Protocol, m *checker.Machine) {
			opt := checker.RandomOptions{Walks: tier.Pick(8, 24), Seed: 11, MaxDepth: 3000, Workers: 1, Shard: checker.Shard{Index: 0, Count: 1},
				EntryFigures: p.EntryFigures, Scheduler: s}
			if p.Object != nil {
				opt.Object = p.Object(m.Config())
			}
			if !testhook.WalksLive(m, opt) {
				return
			}
			compared++
			runs = append(runs, &liveRun{name: name + " " + sched, m: m, opt: opt})
		})
		t.Logf("%s: %d configurations walked both ways", sched, compared)
		require.Greater(t, compared, tier.Pick(30, 100), "%s: configurations walked both ways", sched)
	}
	searchEach(runs, func(r *liveRun) { r.live = checker.Random(context.Background(), r.m, r.opt) })
	restore := testhook.SetLiveWalks(false)
	searchEach(runs, func(r *liveRun) { r.stepper = checker.Random(context.Background(), r.m, r.opt) })
	restore()
	for _, r := range runs {
		compareLiveWalks(t, r)
	}
}

// liveRun is a random search of TestLiveWalksAgainstStepper: its machine
// and options, and what it found on Walkers and on Steppers.
type liveRun struct {
	name          string
	m             *checker.Machine
	opt           checker.RandomOptions
	live, stepper *checker.Result
}

// searchEach calls search with each of runs, as many at a time as there
// are processors, and returns once every call has.
func searchEach(runs []*liveRun, search func(*liveRun)) {
	next := make(chan *liveRun)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for r := range next {
				search(r)
			}
		})
	}
	for _, r := range runs {
		next <- r
	}
	close(next)
	wg.Wait()
}

// compareLiveWalks requires the same walks of r's search on Walkers and
// on Steppers alone (see TestLiveWalksAgainstStepper).
func compareLiveWalks(t *testing.T, r *liveRun) {
	live, stepper, name := r.live, r.stepper, r.name
	require.Equal(t, records(stepper), records(live), name)
	require.Equal(t, stepper.Verdict, live.Verdict, name)
	require.Equal(t, stepper.Linearizability, live.Linearizability, name)
	for _, pr := range live.Failed() {
		one, err := r.m.WithProperties(propertyNamed(t, r.m, pr.Name))
		require.NoError(t, err)
		again, err := checker.Replay(one, pr.Counterexample)
		require.NoError(t, err, name)
		require.Equal(t, pr.Name, again.Property, "%s: the counterexample replays to its violation", name)
	}
}

// eachScaledScenario calls f with every scenario of every built-in
// protocol, compiled at its own N and at N = 7 where the scenario allows
// it (only the scaled N may not compile), and its name; of a protocol's
// configurations, numbered in that order from 0, only those that keep
// takes.
func eachScaledScenario(t *testing.T, keep func(i int) bool, f func(name string, p *suite.Protocol, m *checker.Machine)) {
	for _, p := range protocols.All() {
		for j, sc := range p.Scenarios {
			for k, n := range []int{sc.N, 7} {
				if !keep(2*j + k) {
					continue
				}
				sc := sc
				sc.N = n
				name := fmt.Sprintf("%s/%s/n=%d", p.Name, sc.Name, n)
				m, err := suite.Compile(p, &sc)
				if err != nil {
					require.Equal(t, 7, n, "%s: %v", name, err)
					continue
				}
				f(name, p, m)
			}
		}
	}
}

// everyScaled keeps every configuration of eachScaledScenario.
func everyScaled(int) bool { return true }

// records are a search's walk records, their events by kind in name
// order (a Walker and a Stepper meet the kinds in different orders).
func records(r *checker.Result) []checker.WalkRecord {
	out := slices.Clone(r.Shard.Walks)
	for i := range out {
		out[i].Events = slices.Clone(out[i].Events)
		slices.SortFunc(out[i].Events, func(a, b checker.EventCount) int { return strings.Compare(a.Event, b.Event) })
	}
	return out
}

func TestParseScheduler(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]checker.Scheduler{
		"": {}, "uniform": {}, "swarm": {Kind: "swarm"}, "pct:1": {Kind: "pct", Depth: 1}, "pct:3": {Kind: "pct", Depth: 3},
	} {
		got, err := checker.ParseScheduler(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"pct", "pct:0", "pct:x", "pct:101", "random", "swarm:2"} {
		_, err := checker.ParseScheduler(bad)
		require.Error(t, err, bad)
	}
}

// PCT and swarm walks are runs like any other: their counterexamples
// replay to the violation, and a search's result does not depend on the
// number of workers. PCT finds the basic multicast's lost message after a
// sender crash at N = 10, which 100 uniform walks from the same seed miss.
func TestSchedulers(t *testing.T) {
	t.Parallel()
	p := lookup(t, "basic")
	i := slices.IndexFunc(p.Scenarios, func(s suite.Scenario) bool { return s.Name == "sender-crash" })
	require.GreaterOrEqual(t, i, 0)
	sc := p.Scenarios[i]
	sc.N, sc.Props = 10, []string{"agreement"}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	opt := checker.RandomOptions{Walks: 100, Seed: 1}
	require.Nil(t, checker.Random(context.Background(), m, opt).Property("agreement").Counterexample, "uniform walks")
	for _, name := range []string{"pct:3", "swarm"} {
		sched, err := checker.ParseScheduler(name)
		require.NoError(t, err)
		o := opt
		o.Scheduler = sched
		var base *checker.Result
		for _, workers := range []int{1, 2} {
			o.Workers = workers
			r := checker.Random(context.Background(), m, o)
			if base == nil {
				base = r
				continue
			}
			require.Equal(t, comparableResult(base), comparableResult(r), "%s, workers=%d", name, workers)
		}
		for _, pr := range base.Failed() {
			one, err := m.WithProperties(propertyNamed(t, m, pr.Name))
			require.NoError(t, err)
			again, err := checker.Replay(one, pr.Counterexample)
			require.NoError(t, err)
			require.Equal(t, pr.Name, again.Property, "%s: the counterexample replays to its violation", name)
		}
		if name == "pct:3" {
			require.NotNil(t, base.Property("agreement").Counterexample, "PCT finds the lost message")
		}
	}
}

func propertyNamed(t *testing.T, m *checker.Machine, name string) *properties.Property {
	for _, p := range m.Properties() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no property %s", name)
	return nil
}

// A walk whose run goes round a cycle for ever (the token ring once every
// request is served: one event enabled at every step, back to a world it
// met) ends there: the run has no end where a quiescence property could
// fail, and an eventually-property is left unknown, not judged on the
// cycle.
func TestRandomWalksEndOnForcedCycles(t *testing.T) {
	t.Parallel()
	p := lookup(t, "tokenring")
	sc := suite.Scenario{N: 5, Params: map[string]int{"requests": 1}}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 50, Seed: 1})
	require.Equal(t, 50, r.Stats.WalksCycled)
	require.Zero(t, r.Stats.WalksCut)
	require.Less(t, r.Stats.Transitions, int64(50*200), "the walks stopped on their cycles")
	require.Equal(t, checker.Pass, r.Property("no-deadlock").Verdict)
	ns := r.Property("no-starvation")
	require.Equal(t, checker.Unknown, ns.Verdict)
	require.Contains(t, ns.Detail, "50 of 50 on a cycle their runs go round for ever")
}

// A walk depends on its seed alone: on a Machine that met messages and
// timers in another order (after other walks), the walk of a seed takes
// the same steps. Unordered channels list messages by interned id, so this
// needs the canonical order.
func TestWalkDependsOnItsSeedAlone(t *testing.T) {
	t.Parallel()
	cfg := model.Config{N: 5, Channels: model.Unordered, Partitions: 2}
	props := properties.Family("election")
	compile := func() *sim.Machine {
		m, err := sim.Compile("election/invitation", invitation.Protocol{}, cfg, properties.Monitors(props)...)
		require.NoError(t, err)
		return m
	}
	warm := compile()
	for seed := uint64(100); seed < 160; seed++ {
		testhook.WalkSteps(warm, props, seed, 2000)
	}
	total := 0
	for seed := uint64(1); seed <= 30; seed++ {
		fresh := testhook.WalkSteps(compile(), props, seed, 2000)
		total += len(fresh)
		require.Equal(t, fresh, testhook.WalkSteps(warm, props, seed, 2000), "seed %d", seed)
	}
	require.Greater(t, total, 300, "the walks must go somewhere")
}

// A lost or duplicated message is described by its channel and message,
// and a loss under FIFO by its place in the channel; a trace holding them
// reads as such, survives JSON and replays.
func TestMessageFaultTraces(t *testing.T) {
	t.Parallel()
	p := lookup(t, "basic")
	cfg := model.Config{N: 2, Losses: 1, Duplicates: 1, Initiators: []bool{true, false}, Params: map[string]int{"msgs": 2}}
	m := claimsMachine(t, p, cfg)
	r := m.Start()
	take := func(want string) {
		t.Helper()
		var all []string
		for i, s := range r.Events() {
			if s.String() == want {
				r.Take(i)
				return
			}
			all = append(all, s.String())
		}
		t.Fatalf("%q is not enabled: %q", want, all)
	}
	take("n0  multicast")
	take("n0  multicast")
	// n0 → n1 holds n0#1 then n0#2
	take("duplicate  n0 → n1  msg n0#1")
	take("lose  n0 → n1  msg n0#2 (message 2 of the channel)")
	take("n0 → n1  msg n0#1")
	take("n0 → n1  msg n0#1")
	tr := r.Trace("integrity", "n1 delivered n0#1 twice")
	var out bytes.Buffer
	checker.Render(&out, tr)
	require.Contains(t, out.String(), "   3. duplicate  n0 → n1  msg n0#1\n      (no node changed)\n")
	require.Contains(t, out.String(), "   4. lose  n0 → n1  msg n0#2 (message 2 of the channel)\n")

	b, err := json.Marshal(tr)
	require.NoError(t, err)
	require.Contains(t, string(b), `{"kind":"lose","node":1,"msg":"msg n0#2","pos":1}`)
	var back checker.Trace
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := checker.Replay(m, &back)
	require.NoError(t, err)
	require.Equal(t, "integrity", again.Property)
	require.Equal(t, tr.Events, again.Events)
}
