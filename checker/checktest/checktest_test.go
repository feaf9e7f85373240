package checktest_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
	"pgregory.net/rapid"
)

// flood is an election: every node sends its rank to every other node and,
// once it has heard from quorum of them, follows the highest it heard.
// The correct quorum is everyone else (N-1); one fewer is the bug.
type flood struct{ short bool }

type floodState struct {
	Heard int
	Best  model.NodeID
}

type floodMsg struct{ Rank int }

func (flood) Init(ctx *model.Ctx[floodMsg]) floodState {
	ctx.SendAll(ctx.Nodes(func(model.NodeID) bool { return true }), floodMsg{ctx.MyRank()})
	if ctx.N() == 1 {
		ctx.Observe(model.Leader(ctx.Self()))
	}
	return floodState{Best: ctx.Self()}
}

func (p flood) Receive(ctx *model.Ctx[floodMsg], s floodState, from model.NodeID, m floodMsg) floodState {
	s.Heard++
	if m.Rank > ctx.Rank(s.Best) {
		s.Best = from
	}
	quorum := ctx.N() - 1
	if p.short {
		quorum--
	}
	if s.Heard == max(quorum, 1) {
		ctx.Observe(model.Leader(s.Best))
	}
	return s
}

func (flood) Timeout(_ *model.Ctx[floodMsg], s floodState, _ model.Timer) floodState { return s }
func (flood) Recover(_ *model.Ctx[floodMsg], s floodState) floodState                { return s }

func floodProtocol(short bool) *suite.Protocol {
	return &suite.Protocol{
		Name: "flood", Family: "test",
		Properties: []*properties.Property{properties.UniqueLeader, properties.Agreement, properties.HighestLeader, properties.Termination},
		Claims:     []string{"agreement", "highest-leader", "termination"},
		Compile:    suite.Compiler("test/flood", flood{short: short}, nil),
		Scenarios: []suite.Scenario{
			{Name: "four", N: 4, Ranks: "reverse", Channels: model.Unordered, Expect: checker.Pass},
		},
	}
}

// recorder stands in for a test that is expected to fail: it records what
// the kit reports instead of failing the real test. Run the kit through
// record, since Fatalf ends the goroutine that calls it.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.FailNow()
}

func (r *recorder) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recorder) output() string { return strings.Join(r.msgs, "\n") }

// record runs f against a recorder standing in for t.
func record(t *testing.T, f func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestCheckPasses(t *testing.T) {
	r := checktest.Check(t, floodProtocol(false), suite.Scenario{N: 4, Ranks: "reverse", Channels: model.Unordered})
	require.Equal(t, checker.Pass, r.Verdict)
	require.Positive(t, r.Stats.States)
}

// A violation fails the test with the counterexample and leaves a trace
// file that replays to the same violation.
func TestCheckReportsViolationWithTraceFile(t *testing.T) {
	dir := t.TempDir()
	p := floodProtocol(true)
	rec := record(t, func(tb testing.TB) {
		checktest.Check(tb, p, suite.Scenario{Name: "three", N: 3, Ranks: "reverse"}, checktest.TraceDir(dir))
	})
	require.True(t, rec.failed, "the kit must fail the test")
	out := rec.output()
	require.Contains(t, out, "test/flood [three]: highest-leader fails:")
	require.Contains(t, out, "counterexample to highest-leader")
	require.Contains(t, out, "replay it with vigil replay "+dir)

	path := filepath.Join(dir, "TestCheckReportsViolationWithTraceFile-highest-leader.json")
	tf, err := suite.ReadTraceFile(path)
	require.NoError(t, err, "files: %v", ls(dir))
	require.Equal(t, "test/flood", tf.Protocol)
	back, err := tf.Replay(p)
	require.NoError(t, err)
	require.Len(t, back.Events, len(tf.Trace.Events))
	require.NotEmpty(t, back.Property, "the run replays to a violation") // the first the file lists that fails there
}

func ls(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// Fails returns the known counterexample, and fails the test when the
// checker does not find one: on a protocol without the bug, and on the
// broken one when a bound makes the checker miss it.
func TestFails(t *testing.T) {
	three := suite.Scenario{N: 3, Ranks: "reverse"}
	cx := checktest.Fails(t, floodProtocol(true), three, "highest-leader")
	require.NotNil(t, cx)
	require.Equal(t, "highest-leader", cx.Property)
	require.NotNil(t, checktest.Fails(t, floodProtocol(true), three, "highest-leader", checktest.Random(checker.RandomOptions{Walks: 200})))

	cases := []struct {
		name string
		p    *suite.Protocol
		sc   suite.Scenario
		want string
	}{
		{"no bug to find", floodProtocol(false), three, "expected a counterexample to highest-leader, got pass"},
		{"the bug lies deeper than the search", floodProtocol(true), suite.Scenario{N: 3, Ranks: "reverse", MaxDepth: 1},
			"expected a counterexample to highest-leader, got unknown (highest-leader unknown), search cut by depth"},
	}
	for _, c := range cases {
		rec := record(t, func(tb testing.TB) { checktest.Fails(tb, c.p, c.sc, "highest-leader") })
		require.True(t, rec.failed, "%s: Fails must fail the test", c.name)
		require.Contains(t, rec.output(), c.want, c.name)
	}
}

// Scenarios judges each scenario against its expectation, the built-in
// protocols' as anyone's; a scenario whose expectation is wrong fails.
func TestScenarios(t *testing.T) {
	bully, err := protocols.Lookup("bully")
	require.NoError(t, err)
	checktest.Scenarios(t, bully)

	broken := floodProtocol(true)
	rec := record(t, func(tb testing.TB) { checktest.Expect(tb, broken, broken.Scenarios[0]) })
	require.True(t, rec.failed)
	require.Contains(t, rec.output(), "test/flood [four]: expected pass, got fail (agreement fail, highest-leader fail, termination pass)")
	require.Contains(t, rec.output(), "counterexample to agreement")
}

// rapidRecorder stands in for a test in rapid.Check, as recorder does.
type rapidRecorder struct {
	recorder
	logs []string
}

func (r *rapidRecorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *rapidRecorder) Log(args ...any) { r.Logf("%s", strings.TrimSpace(fmt.Sprintln(args...))) }
func (r *rapidRecorder) Error(args ...any) {
	r.Errorf("%s", strings.TrimSpace(fmt.Sprintln(args...)))
}
func (r *rapidRecorder) Fatal(args ...any) { r.Fatalf("%s", strings.TrimSpace(fmt.Sprintln(args...))) }
func (r *rapidRecorder) Fail() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
}
func (r *rapidRecorder) Name() string { return "TestRapidShrinks" }

// rapid draws configurations and schedules of the broken flood on up to 12
// nodes; the failure it reports is shrunk to the smallest ring that shows
// the bug and a short schedule.
func TestRapidShrinksBrokenVariant(t *testing.T) {
	noFailFile(t)
	space := checktest.Space{MinN: 2, MaxN: 12, Ranks: true, Channels: true}
	rec := &rapidRecorder{recorder: recorder{TB: t}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rapid.Check(rec, checktest.Property(floodProtocol(true), space))
	}()
	<-done
	require.True(t, rec.failed, "rapid must find the bug")
	out := rec.output() + strings.Join(rec.logs, "\n")
	m := regexp.MustCompile(`(\S+) fails after (\d+) steps \(n=(\d+)\)`).FindAllStringSubmatch(out, -1)
	require.NotEmpty(t, m, out)
	last := m[len(m)-1] // the replay of the shrunk case
	steps, _ := strconv.Atoi(last[2])
	n, _ := strconv.Atoi(last[3])
	t.Logf("shrunk to n=%d, %d steps: %s fails", n, steps, last[1])
	require.Equal(t, 3, n, "the smallest ring that shows the bug: a node decides before hearing from the highest")
	require.LessOrEqual(t, steps, 2, "one delivery decides on a partial view")
}

// The correct flood passes rapid's schedules, with crashes and unordered
// channels drawn too.
func TestRapidPasses(t *testing.T) {
	p := floodProtocol(false)
	p.Claims = []string{"agreement", "unique-leader"} // a crash may silence the highest node
	checktest.Rapid(t, p, checktest.Space{MinN: 1, MaxN: 6, Ranks: true, Channels: true})
}

// noFailFile keeps rapid from writing fail files for failures the test
// expects.
func noFailFile(t *testing.T) {
	f := flag.Lookup("rapid.nofailfile")
	require.NotNil(t, f)
	old := f.Value.String()
	require.NoError(t, f.Value.Set("true"))
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

// panicky's Receive panics once a node has heard from everyone.
type panicky struct{ flood }

func (p panicky) Receive(ctx *model.Ctx[floodMsg], s floodState, from model.NodeID, m floodMsg) floodState {
	if s.Heard+1 == ctx.N()-1 {
		panic("heard from everyone")
	}
	return p.flood.Receive(ctx, s, from, m)
}

// hoarder keeps every rank it hears in a map, added in place.
type hoarder struct{}

func (hoarder) Init(ctx *model.Ctx[floodMsg]) map[int]bool {
	ctx.SendAll(ctx.Nodes(func(model.NodeID) bool { return true }), floodMsg{ctx.MyRank()})
	return map[int]bool{}
}
func (hoarder) Receive(_ *model.Ctx[floodMsg], s map[int]bool, _ model.NodeID, m floodMsg) map[int]bool {
	s[m.Rank] = true
	return s
}
func (hoarder) Timeout(_ *model.Ctx[floodMsg], s map[int]bool, _ model.Timer) map[int]bool { return s }
func (hoarder) Recover(_ *model.Ctx[floodMsg], s map[int]bool) map[int]bool                { return s }

// tally counts leaders observed per node, in place.
var tally = properties.NewMonitor("tally",
	func(cfg *model.Config) []int { return make([]int, cfg.N) },
	func(_ *model.Config, st []int, node model.NodeID, o model.Obs) []int {
		if o.Kind == model.ObsLeader {
			st[node]++
		}
		return st
	})

// A handler that panics, one that mutates its input and a monitor that
// mutates its state fail the test with the run to the fault, in either
// engine and in rapid's schedules; the test binary carries on.
func TestFaultsFailTheTest(t *testing.T) {
	three := suite.Scenario{N: 3}
	tallied := properties.Invariant("tallied", "reads the tally", func(properties.View) string { return "" })
	tallied.Monitor = tally
	cases := []struct {
		name string
		p    *suite.Protocol
		want string
	}{
		{"panicking handler", &suite.Protocol{Name: "panicky", Properties: []*properties.Property{properties.Agreement}, Claims: []string{"agreement"},
			Compile: suite.Compiler("test/panicky", panicky{}, nil)}, "panicked: heard from everyone"},
		{"mutating handler", &suite.Protocol{Name: "hoarder", Properties: []*properties.Property{properties.Agreement}, Claims: []string{"agreement"},
			Compile: suite.Compiler("test/hoarder", hoarder{}, nil)}, "mutated its input state"},
		{"mutating monitor", &suite.Protocol{Name: "tallied", Properties: []*properties.Property{tallied}, Claims: []string{"tallied"},
			Compile: suite.Compiler("test/flood", flood{}, nil)}, "monitor tally"},
	}
	for _, c := range cases {
		for _, engine := range []checktest.Option{checktest.Exhaustive(checker.Options{}), checktest.Random(checker.RandomOptions{Walks: 20})} {
			rec := record(t, func(tb testing.TB) { checktest.Check(tb, c.p, three, engine) })
			require.True(t, rec.failed, c.name)
			require.Contains(t, rec.output(), c.want, c.name)
			require.Contains(t, rec.output(), "(the fault is in this last step: nothing came of it)", c.name)
		}
		noFailFile(t)
		rr := &rapidRecorder{recorder: recorder{TB: t}}
		done := make(chan struct{})
		go func() {
			defer close(done)
			rapid.Check(rr, checktest.Property(c.p, checktest.Space{Base: three}))
		}()
		<-done
		require.True(t, rr.failed, c.name)
		require.Contains(t, rr.output()+strings.Join(rr.logs, "\n"), c.want, c.name)
	}
}

// Drawn topologies reach the run: the flood sends to every node, which on
// a ring of four is a send to a non-neighbour, a fault rapid reports.
func TestRapidDrawsTopologies(t *testing.T) {
	noFailFile(t)
	rr := &rapidRecorder{recorder: recorder{TB: t}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rapid.Check(rr, checktest.Property(floodProtocol(false), checktest.Space{MinN: 4, MaxN: 6, Topologies: []string{"ring", "line"}}))
	}()
	<-done
	require.True(t, rr.failed)
	require.Contains(t, rr.output()+strings.Join(rr.logs, "\n"), "which is not a neighbour of")
}
