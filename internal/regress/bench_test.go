// The benchmarks of the engines and the schedulers, whose tables the
// performance notes print.

package regress

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// BenchmarkExhaustive measures the exhaustive engine per protocol: states
// per second, bytes per state of the visited set, and the peak heap.
//
//	go test ./internal/regress -run '^$' -bench Exhaustive -count 5 | benchstat -
func BenchmarkExhaustive(b *testing.B) {
	// Every world, but in the cases named "-reduced": the engine's own
	// speed, comparable from one change to the next.
	cases := []struct {
		name     string
		protocol string
		sc       suite.Scenario
	}{
		{"changroberts-n7", "changroberts", suite.Scenario{N: 7, Ranks: "reverse"}},
		{"changroberts-n13", "changroberts", suite.Scenario{N: 13, Ranks: "reverse"}},
		{"changroberts-n14", "changroberts", suite.Scenario{N: 14, Ranks: "reverse"}},
		{"lelann-n11", "lelann", suite.Scenario{N: 11}},
		{"lelann-n6", "lelann", suite.Scenario{N: 6}},
		{"bully-n4-crash", "bully", suite.Scenario{N: 4, Crashes: 1}},
		{"bully-n5", "bully", suite.Scenario{N: 5, Initiators: "0"}},
		{"ring-n6", "ring", suite.Scenario{N: 6, Ranks: "reverse"}},
		// every send checked against the graph: the same states as ring-n6
		{"ring-n6-topology-ring", "ring", suite.Scenario{N: 6, Ranks: "reverse", Topology: "ring"}},
		{"emergent-n5-crash", "emergent", suite.Scenario{N: 5, Crashes: 1, Params: map[string]int{"pool-min": 2, "pool-max": 3}}},
		// a step that loses a message to a cut expires timers: its
		// successor is built, not fingerprinted incrementally
		{"invitation-n3-crash-partition", "invitation", suite.Scenario{N: 3, Crashes: 1, Partitions: 1}},
		// every delivery feeds the ordering monitors, whose states are
		// part of the world
		{"causal-n3-msgs2", "causal", suite.Scenario{N: 3, Channels: model.Unordered, Params: map[string]int{"msgs": 2}}},
		{"isis-n3", "isis", suite.Scenario{N: 3, Channels: model.Unordered}},
		// the full search against a sweep (every edge goes one level
		// down: the same states), and a sweep with a window where paths
		// of different lengths meet
		{"ricartagrawala-n4", "ricartagrawala", suite.Scenario{N: 4, Params: map[string]int{"requests": 1}}},
		{"ricartagrawala-n4-sweep", "ricartagrawala", suite.Scenario{N: 4, Params: map[string]int{"requests": 1}, Sweep: true}},
		{"invitation-n3-partition", "invitation", suite.Scenario{N: 3, Partitions: 1}},
		{"invitation-n3-partition-sweep-window4", "invitation", suite.Scenario{N: 3, Partitions: 1, Sweep: true, Window: 4}},
		// partial-order reduction: on the unidirectional ring, and on the
		// complete graph, where only the worlds in which every other node
		// has a message in flight to one node reduce
		// (on the complete graph it never applies: what trying costs)
		{"changroberts-n13-reduced", "changroberts", suite.Scenario{N: 13, Ranks: "reverse"}},
		{"changroberts-n14-uniring-reduced", "changroberts", suite.Scenario{N: 14, Ranks: "reverse", Topology: "uniring"}},
		{"lelann-n11-uniring-reduced", "lelann", suite.Scenario{N: 11, Topology: "uniring"}},
		{"ricartagrawala-n4-reduced", "ricartagrawala", suite.Scenario{N: 4, Params: map[string]int{"requests": 1}}},
	}
	for _, c := range cases {
		p, err := protocols.Lookup(c.protocol)
		if err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			for _, msgs := range []bool{false, true} {
				name := fmt.Sprintf("%s/workers=%d/messages=%v", c.name, workers, msgs)
				b.Run(name, func(b *testing.B) {
					var r *checker.Result
					peak := uint64(0)
					for b.Loop() {
						runtime.GC()
						opt := checker.Options{Workers: workers, Messages: msgs, Reduce: checker.ReduceNone}
						if strings.HasSuffix(c.name, "-reduced") {
							opt.Reduce = checker.ReduceAll
						}
						r, err = suite.Exhaustive(context.Background(), p, &c.sc, opt)
						if err != nil {
							b.Fatal(err)
						}
						peak = max(peak, heapObjects())
					}
					if r.Verdict != checker.Pass {
						b.Fatalf("verdict %s", r.Verdict)
					}
					b.ReportMetric(float64(r.Stats.States), "states")
					b.ReportMetric(float64(r.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
					b.ReportMetric(r.Stats.VisitedBytes, "visited-B/state")
					b.ReportMetric(r.Stats.GraphBytes, "graph-B/state")
					b.ReportMetric(float64(peak)/(1<<20), "heap-MiB")
				})
			}
		}
	}
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkLiveness measures what judging no-starvation on fair cycles
// costs: the same search with the mutex safety properties alone, and with
// no-starvation under each fairness.
//
//	go test ./internal/regress -run '^$' -bench Liveness -count 5 | benchstat -
func BenchmarkLiveness(b *testing.B) {
	cases := []struct {
		name     string
		protocol string
		sc       suite.Scenario
	}{
		{"central-n4-forever", "central", suite.Scenario{N: 4, Params: map[string]int{"requests": 0}}},
		{"ricartagrawala-n4", "ricartagrawala", suite.Scenario{N: 4, Params: map[string]int{"requests": 1}}},
	}
	safety := []string{"mutual-exclusion", "no-deadlock"}
	for _, c := range cases {
		p, err := protocols.Lookup(c.protocol)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			name  string
			props []string
			f     checker.Fairness
		}{
			{"safety", safety, checker.WeakFairness},
			{"weak", append(safety, "no-starvation"), checker.WeakFairness},
			{"strong", append(safety, "no-starvation"), checker.StrongFairness},
		} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				sc := c.sc
				sc.Props = v.props
				var r *checker.Result
				for b.Loop() {
					runtime.GC()
					r, err = suite.Exhaustive(context.Background(), p, &sc, checker.Options{Fairness: v.f})
					if err != nil {
						b.Fatal(err)
					}
				}
				if r.Verdict != checker.Pass {
					b.Fatalf("verdict %s", r.Verdict)
				}
				b.ReportMetric(float64(r.Stats.States), "states")
				b.ReportMetric(float64(r.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(r.Stats.GraphBytes, "graph-B/state")
			})
		}
	}
}

// BenchmarkRandom measures the random engine at N = 50 on one worker, a
// search compiled afresh each time as a command does (with the client
// histories of the protocols that have them): steps per second, and the
// heap it ends with, per walk.
//
//	go test ./internal/regress -run '^$' -bench Random -count 5 | benchstat -
func BenchmarkRandom(b *testing.B) {
	cases := []struct {
		name     string
		protocol string
		sc       suite.Scenario
		walks    int
	}{
		{"changroberts-n50", "changroberts", suite.Scenario{N: 50}, 20},
		{"lelann-n50", "lelann", suite.Scenario{N: 50}, 4},
		{"bully-n50-crash-sync", "bully", suite.Scenario{N: 50, Crashes: 1}, 20},
		{"bully-n50-crash-async", "bully", suite.Scenario{N: 50, Crashes: 1, Timing: model.Async}, 2},
		{"ricartagrawala-n50", "ricartagrawala", suite.Scenario{N: 50, Params: map[string]int{"requests": 2}}, 4},
		{"central-n50", "central", suite.Scenario{N: 50, Params: map[string]int{"requests": 2}}, 20},
		{"reliable-n30-crash", "reliable", suite.Scenario{N: 30, Crashes: 1}, 20},
		{"invitation-n50-partition", "invitation", suite.Scenario{N: 50, Partitions: 1}, 20},
	}
	// the collector as the command sets it for random walks
	defer debug.SetGCPercent(debug.SetGCPercent(cli.WalkGCPercent))
	for _, c := range cases {
		p, err := protocols.Lookup(c.protocol)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			benchWalks(b, p, &c.sc, checker.RandomOptions{Walks: c.walks, Seed: 1, Workers: 1})
		})
	}
}

// BenchmarkSchedulerWalks measures the walks of each scheduler on one
// worker as BenchmarkRandom does (steps per second, the heap per walk,
// and allocations), at N = 15 and 50, on the walker the search chooses
// (live) and, at N = 15, on the Stepper alone (stepper), whose walks are
// the same.
//
//	go test ./internal/regress -run '^$' -bench SchedulerWalks -benchmem -count 5 | benchstat -
func BenchmarkSchedulerWalks(b *testing.B) {
	p, err := protocols.Lookup("bully")
	if err != nil {
		b.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(cli.WalkGCPercent))
	for _, c := range []struct{ n, walks int }{{15, 1000}, {50, 60}} {
		n, sc := c.n, suite.Scenario{N: c.n, Crashes: 1}
		for _, name := range []string{"uniform", "pct:3", "swarm"} {
			sched, err := checker.ParseScheduler(name)
			require.NoError(b, err)
			for _, live := range []bool{true, false} {
				if !live && n > 15 {
					continue // PCT's walks at N = 50 take minutes on a Stepper
				}
				sub := fmt.Sprintf("bully-n%d-crash/%s/live", n, name)
				if !live {
					sub = fmt.Sprintf("bully-n%d-crash/%s/stepper", n, name)
				}
				b.Run(sub, func(b *testing.B) {
					defer testhook.SetLiveWalks(live)()
					benchWalks(b, p, &sc, checker.RandomOptions{Walks: c.walks, Seed: 1, Workers: 1, Scheduler: sched})
				})
			}
		}
	}
}

// BenchmarkRandomEvery measures every built-in protocol's first scenario
// that fits N = 50 (its first at its own N, where none does: a topology
// drawn edge by edge) as BenchmarkRandom does:
// as many walks of the default depth as a search makes in 2 s (at most
// 1000), so that short walks do not measure compiling the search, and
// counterexamples not shrunk, so that the figure is the walks' own.
//
//	go test ./internal/regress -run '^$' -bench RandomEvery -count 5 | benchstat -
func BenchmarkRandomEvery(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(cli.WalkGCPercent))
	for _, p := range protocols.All() {
		sc := p.Scenarios[0]
		for _, at50 := range p.Scenarios {
			at50.N = 50
			if _, err := suite.Compile(p, &at50); err == nil {
				sc = at50
				break
			}
		}
		b.Run(fmt.Sprintf("%s/%s/n=%d", p.Name, sc.Name, sc.N), func(b *testing.B) {
			benchWalks(b, p, &sc, checker.RandomOptions{Walks: 1000, Seed: 1, Workers: 1, Time: 2 * time.Second, ShrinkTime: time.Nanosecond})
		})
	}
}

// benchWalks runs random searches of scenario sc of p with options opt,
// each compiled afresh as a command compiles it (with the client
// histories a command checks), and reports steps per second and the peak
// heap per walk.
//
// With a time budget (opt.Time), a first search, not measured, counts the
// walks made within it, and the measured ones make that many: a search
// cut by its budget leaves out the walks of the batch it cut, whose time
// would count without their steps.
func benchWalks(b *testing.B, p *suite.Protocol, sc *suite.Scenario, opt checker.RandomOptions) {
	search := func() *checker.Result {
		// compiled afresh, as a command compiles it: no handler memoised by
		// an earlier search
		m, err := suite.Compile(p, sc)
		if err != nil {
			b.Fatal(err)
		}
		if p.Object != nil { // as a command checks it
			opt.Object = p.Object(m.Config())
		}
		return checker.Random(context.Background(), m, opt)
	}
	if opt.Time > 0 {
		opt.Walks, opt.Time = max(1, search().Stats.Walks), 0
	}
	var steps, walks int64
	peak := uint64(0)
	for b.Loop() {
		runtime.GC()
		r := search()
		steps += r.Stats.Transitions
		walks = max(walks, int64(r.Stats.Walks))
		peak = max(peak, heapObjects())
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(peak)/(1<<20)/float64(walks), "heap-MiB/walk")
}

// BenchmarkSchedulers measures, on every known counterexample at N = 10 and
// 30 (where the scenario scales), how many walks each scheduler takes to
// its first counterexample: the median over 5 runs of different seeds,
// and how many of them found one within 100 walks. It prints the table in
// docs/performance.md ("Schedulers"):
//
// It is a measurement, not a check: the schedulers' counterexamples are
// checked by the tests of package checker.
//
//	go test ./internal/regress -run '^$' -bench Schedulers -benchtime 1x -v
func BenchmarkSchedulers(b *testing.B) {
	for b.Loop() {
		b.Log(schedulerTable(b))
	}
}

func schedulerTable(t testing.TB) string {
	scheds := []string{"uniform", "pct:3", "swarm"}
	const trials, walks = 5, 100
	var rows []string
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			for _, n := range []int{10, 30} {
				sc := s
				sc.N = n
				sc.Props = []string{s.Shows} // walks stop at the first violation of this one
				m, err := suite.Compile(p, &sc)
				if err != nil {
					continue // the scenario does not scale to n
				}
				row := fmt.Sprintf("| %s %s N=%d | %s |", p.Path(), s.Name, n, s.Shows)
				for _, name := range scheds {
					sched, err := checker.ParseScheduler(name)
					require.NoError(t, err)
					var took []int
					for trial := range trials {
						base := uint64(1 + 1000*trial)
						r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: walks, Seed: base, First: true,
							Scheduler: sched, ShrinkTime: time.Millisecond})
						if c := r.Property(s.Shows).Counterexample; c != nil {
							took = append(took, int(*c.Seed-base)+1)
						}
					}
					cell := "none"
					if len(took) > 0 {
						slices.Sort(took)
						cell = fmt.Sprintf("%d (%d/%d)", took[len(took)/2], len(took), trials)
					}
					row += " " + cell + " |"
				}
				rows = append(rows, row)
			}
		}
	}
	return fmt.Sprintf("\n| counterexample | property | %s |\n| --- | --- | --- | --- | --- |\n%s", strings.Join(scheds, " | "), strings.Join(rows, "\n"))
}
