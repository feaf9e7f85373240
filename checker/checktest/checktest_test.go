package checktest_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
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
	// the stock vigil binary cannot replay a protocol of one's own: the
	// first failure says how to make a binary that can, the next refers
	// to it
	agreement := filepath.Join(dir, "TestCheckReportsViolationWithTraceFile-agreement.json")
	require.Contains(t, out, "replay it with a vigil binary of your own (the stock one knows only vigil's protocols), "+
		"a main that calls cli.Main over a suite.Registry holding test/flood:\n"+
		"\tvar r suite.Registry; r.MustRegister(Description)\n"+
		"\tos.Exit(cli.Main(&r, os.Args[1:], os.Stdout, os.Stderr))\n"+
		"as in: go run ./cmd/yourvigil replay "+agreement+"\n")
	require.Contains(t, out, "replay it with your vigil binary (see above): go run ./cmd/yourvigil replay "+
		filepath.Join(dir, "TestCheckReportsViolationWithTraceFile-highest-leader.json"))
	require.NotContains(t, out, " vigil replay "+dir, "the stock binary")

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

// The replay hint names the binary that holds the protocol: vigil itself
// for its own protocols, the one a description names for one's own.
func TestReplayHintNamesTheBinary(t *testing.T) {
	bully, err := protocols.Lookup("bully")
	require.NoError(t, err)
	recovery, err := bully.Scenario("sync-recovery")
	require.NoError(t, err)
	named := floodProtocol(true)
	named.Binary = "go run ./cmd/flood-vigil"
	cases := []struct {
		name string
		p    *suite.Protocol
		sc   suite.Scenario
		want string
	}{
		{"built-in", bully, recovery, "replay it with: vigil replay "},
		{"named binary", named, suite.Scenario{N: 3, Ranks: "reverse"}, "replay it with: go run ./cmd/flood-vigil replay "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			rec := record(t, func(tb testing.TB) { checktest.Check(tb, c.p, c.sc, checktest.TraceDir(dir)) })
			require.True(t, rec.failed)
			require.Contains(t, rec.output(), c.want+dir)
			require.NotContains(t, rec.output(), "of your own")
		})
	}
}

// brokenDescriptions each spoil the flood's description in one way, which
// every entry point of the kit refuses with the message Validate gives.
var brokenDescriptions = []struct {
	name  string
	spoil func(p *suite.Protocol)
	want  string
}{
	{"two properties of one name", func(p *suite.Protocol) { p.Properties = append(p.Properties, properties.Agreement) },
		"protocol test/flood: two properties are named agreement"},
	{"a parameter named like a flag", func(p *suite.Protocol) { p.Params = []suite.Param{{Name: "seed"}} },
		`protocol test/flood: parameter "seed" is named like a vigil check flag (-seed); rename it`},
	{"a scenario expecting what it does not check", func(p *suite.Protocol) {
		p.Scenarios[0].Expect, p.Scenarios[0].Shows = checker.Fail, "unique-leader"
	}, "protocol test/flood, scenario four: expects unique-leader to fail, which it does not check (it checks: agreement, highest-leader, termination)"},
}

// broken is the flood spoilt.
func broken(spoil func(p *suite.Protocol)) *suite.Protocol {
	p := floodProtocol(false)
	spoil(p)
	return p
}

// Check, Fails, Expect and rapid's Property refuse a description that
// does not hold together, before any search, with Validate's message.
func TestKitRefusesBrokenDescriptions(t *testing.T) {
	three := suite.Scenario{N: 3, Ranks: "reverse"}
	entries := []struct {
		name string
		call func(tb testing.TB, p *suite.Protocol)
	}{
		{"Check", func(tb testing.TB, p *suite.Protocol) { checktest.Check(tb, p, three) }},
		{"Fails", func(tb testing.TB, p *suite.Protocol) { checktest.Fails(tb, p, three, "agreement") }},
		{"Expect", func(tb testing.TB, p *suite.Protocol) {
			checktest.Expect(tb, p, suite.Scenario{N: 3, Expect: checker.Pass})
		}},
	}
	for _, d := range brokenDescriptions {
		for _, e := range entries {
			t.Run(e.name+"/"+d.name, func(t *testing.T) {
				rec := record(t, func(tb testing.TB) { e.call(tb, broken(d.spoil)) })
				require.True(t, rec.failed)
				require.Equal(t, d.want, rec.output())
			})
		}
		t.Run("Property/"+d.name, func(t *testing.T) {
			noFailFile(t)
			rr := &rapidRecorder{recorder: recorder{TB: t}}
			done := make(chan struct{})
			go func() {
				defer close(done)
				rapid.Check(rr, checktest.Property(broken(d.spoil), checktest.Space{Base: three}))
			}()
			<-done
			require.True(t, rr.failed)
			require.Contains(t, rr.output(), d.want)
		})
	}
}

// Expect holds the scenario it is given to the rule of a described one.
func TestExpectRefusesABrokenScenario(t *testing.T) {
	cases := []struct {
		sc   suite.Scenario
		want string
	}{
		{suite.Scenario{N: 3}, `protocol test/flood: scenario: Expect is "": want checker.Pass or checker.Fail`},
		{suite.Scenario{Name: "x", N: 3, Expect: checker.Fail, Shows: "unique-leader"},
			"protocol test/flood, scenario x: expects unique-leader to fail, which it does not check (it checks: agreement, highest-leader, termination)"},
		{suite.Scenario{Name: "x", N: 3, Expect: checker.Pass, Params: map[string]int{"rounds": 1}},
			`protocol test/flood, scenario x: sets parameter "rounds", which the protocol does not declare (it has: none)`},
	}
	for _, c := range cases {
		rec := record(t, func(tb testing.TB) { checktest.Expect(tb, floodProtocol(false), c.sc) })
		require.True(t, rec.failed)
		require.Equal(t, c.want, rec.output())
	}
}

// kitHelper, when set in the environment, makes this test binary, run
// again by a test below, play the part of a user's test that the kit
// fails or names (Scenarios and Rapid need a real *testing.T).
const kitHelper = "CHECKTEST_HELPER"

// again runs the test binary again, with the helper part set, and returns
// its output and whether it passed.
func again(t *testing.T, part string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), kitHelper+"="+part)
	out, err := cmd.CombinedOutput()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("running %s: %v", os.Args[0], err)
	}
	return string(out), err == nil
}

// Scenarios names each subtest after the protocol's path and the
// scenario, so that two protocols' scenarios of one name stay apart and
// -run selects one protocol's, or one scenario, level by level.
func TestScenariosNamesSubtestsByProtocol(t *testing.T) {
	if os.Getenv(kitHelper) == "scenarios" {
		other := floodProtocol(false)
		other.Name = "other"
		checktest.Scenarios(t, floodProtocol(false))
		checktest.Scenarios(t, other)
		return
	}
	out, ok := again(t, "scenarios", "-test.run", "^TestScenariosNamesSubtestsByProtocol$", "-test.v")
	require.True(t, ok, out)
	require.Contains(t, out, "--- PASS: TestScenariosNamesSubtestsByProtocol/test/flood/four ")
	require.Contains(t, out, "--- PASS: TestScenariosNamesSubtestsByProtocol/test/other/four ")
	require.NotContains(t, out, "#01")

	out, ok = again(t, "scenarios", "-test.run", "^TestScenariosNamesSubtestsByProtocol$/^test$/^other$", "-test.v")
	require.True(t, ok, out)
	require.Contains(t, out, "--- PASS: TestScenariosNamesSubtestsByProtocol/test/other/four ")
	require.NotContains(t, out, "test/flood/four")
}

// Scenarios and Rapid refuse a broken description too, failing the test
// with Validate's message before any subtest or test case.
func TestScenariosAndRapidRefuseBrokenDescriptions(t *testing.T) {
	if part := os.Getenv(kitHelper); strings.HasPrefix(part, "refuse ") {
		p := broken(brokenDescriptions[0].spoil)
		if part == "refuse Scenarios" {
			checktest.Scenarios(t, p)
		} else {
			checktest.Rapid(t, p, checktest.Space{Base: suite.Scenario{N: 3}})
		}
		return
	}
	for _, entry := range []string{"Scenarios", "Rapid"} {
		out, ok := again(t, "refuse "+entry, "-test.run", "^TestScenariosAndRapidRefuseBrokenDescriptions$", "-test.v")
		require.False(t, ok, out)
		require.Contains(t, out, brokenDescriptions[0].want, entry)
		require.NotContains(t, out, "=== RUN   TestScenariosAndRapidRefuseBrokenDescriptions/", entry)
	}
}

// queuer queues the nodes that ask it, acknowledging each with the
// message's path and itself on it, and serves the head of its queue when
// its timer fires or it chooses to (its "tell" timer tells everyone
// queued instead); bug names a way to get it wrong.
type queuer struct{ bug string }

type queueState struct {
	Queue  []model.NodeID
	Served int
}

type queueMsg struct{ Path []model.NodeID }

func (queuer) Init(ctx *model.Ctx[queueMsg]) queueState {
	ctx.Observe(model.Leader(ctx.Self()))
	return queueState{}
}

func (p queuer) Receive(ctx *model.Ctx[queueMsg], s queueState, from model.NodeID, m queueMsg) queueState {
	switch p.bug {
	case "append in place":
		s.Queue = append(s.Queue, from)
	case "overwrite the head":
		s.Queue[0] = from
	case "write into the message":
		m.Path[0] = ctx.Self()
		s.Queue = append(slices.Clip(s.Queue), from)
	case "panic":
		panic("no room")
	default:
		s.Queue = append(slices.Clip(s.Queue), from)
	}
	ctx.Send(from, queueMsg{Path: append(slices.Clip(m.Path), ctx.Self())})
	ctx.SetTimer("serve", from)
	return s
}

func (queuer) Timeout(ctx *model.Ctx[queueMsg], s queueState, t model.Timer) queueState {
	if t == "tell" { // tell everyone queued, and wait on them
		ctx.SendAll(s.Queue, queueMsg{Path: ids(ctx.Self())})
		ctx.SetTimer("tell", s.Queue...)
		ctx.SetTimer("alone")
		return s
	}
	ctx.Observe(model.Leader(s.Queue[0]))
	return queueState{Queue: s.Queue[1:], Served: s.Served + 1}
}

func (queuer) Recover(ctx *model.Ctx[queueMsg], s queueState) queueState {
	ctx.CancelTimer("serve")
	return queueState{Served: s.Served}
}

func (queuer) Actions(_ *model.Env, s queueState) []model.Action {
	if len(s.Queue) == 0 {
		return nil
	}
	return []model.Action{"serve"}
}

func (q queuer) Do(ctx *model.Ctx[queueMsg], s queueState, _ model.Action) queueState {
	ctx.CancelTimer("serve")
	return q.Timeout(ctx, s, "serve")
}

type queueStep = checktest.Step[queueState, queueMsg]

func queues(bug string) checktest.Handlers[queueState, queueMsg] {
	return checktest.Handlers[queueState, queueMsg]{Protocol: queuer{bug}, Config: model.Config{N: 3}}
}

func ids(is ...model.NodeID) []model.NodeID { return is }

// ask is node 1, with node 2 queued, asked by node 0: it queues it,
// acknowledges and waits on it.
var ask = queueStep{Name: "queue the asker", Self: 1, In: queueState{Queue: ids(2)}, From: 0, Msg: queueMsg{Path: ids(0)},
	Want: queueState{Queue: ids(2, 0)}, Sent: checktest.SentTo(queueMsg{Path: ids(0, 1)}, 0),
	Timers: []checktest.TimerEffect{checktest.Armed("serve", 0)}}

// altered is ask with change made to it (ask's slices are shared: replace
// them, do not write into them).
func altered(change func(s *queueStep)) queueStep {
	s := ask
	change(&s)
	return s
}

// Steps that hold pass every handler's table, the step's configuration
// replacing the table's where it sets one; SentTo, Armed and Cancelled
// are the effects of Ctx.SendAll, SetTimer and CancelTimer.
func TestHandlersPassStepsThatHold(t *testing.T) {
	q := queues("")
	q.Init(t, []queueStep{{Name: "start", Self: 2, Observed: []model.Obs{model.Leader(2)}}})
	q.Receive(t, []queueStep{ask, altered(func(s *queueStep) { s.Name, s.Config = "on a larger ring", model.Config{N: 5} })})
	// an append in place is a write only into spare capacity, which the
	// checker's states and the table's inputs have none of by default
	queues("append in place").Receive(t, []queueStep{ask})
	serve := queueStep{Name: "serve the head", Self: 1, In: queueState{Queue: ids(2, 0)}, Timer: "serve",
		Want: queueState{Queue: ids(0), Served: 1}, Observed: []model.Obs{model.Leader(2)}}
	q.Timeout(t, []queueStep{serve})
	serve.Action, serve.Timers = "serve", []checktest.TimerEffect{checktest.Cancelled("serve")}
	q.Do(t, []queueStep{serve})
	q.Recover(t, []queueStep{{Name: "forget the queue", Self: 1, In: queueState{Queue: ids(2), Served: 3},
		Want: queueState{Served: 3}, Timers: []checktest.TimerEffect{checktest.Cancelled("serve")}}})
	three := queueStep{Name: "tell three", Self: 1, In: queueState{Queue: ids(2, 0, 1)}, Timer: "tell",
		Want: queueState{Queue: ids(2, 0, 1)}, Sent: checktest.SentTo(queueMsg{Path: ids(1)}, 2, 0, 1),
		Timers: []checktest.TimerEffect{checktest.Armed("tell", 2, 0, 1), checktest.Armed("alone")}}
	q.Timeout(t, []queueStep{three})
	q.Actions(t, []queueStep{{Name: "someone queued", In: queueState{Queue: ids(2)}, Enabled: []model.Action{"serve"}},
		{Name: "nobody queued"}})
}

// A step whose outcome is not the one it wants fails the test, naming the
// step and where the two differ; so does a handler that writes into its
// input or panics. Every failing step of a table is reported.
func TestHandlersCatchEveryMismatch(t *testing.T) {
	receive := func(bug string, steps ...queueStep) func(tb testing.TB) {
		return func(tb testing.TB) { queues(bug).Receive(tb, steps) }
	}
	cases := []struct {
		name string
		run  func(tb testing.TB)
		want []string
	}{
		{"a wrong state", receive("", altered(func(s *queueStep) { s.Want.Queue = ids(0, 2) })),
			[]string{`Receive "queue the asker": the state it returned at .Queue[0]: want n0, got n2`,
				"\twant:   {Queue:[n0 n2] Served:0}\n\tgot:    {Queue:[n2 n0] Served:0}"}},
		{"a missing send", receive("", altered(func(s *queueStep) {
			s.Sent = append(s.Sent, model.Sent[queueMsg]{To: 2, Msg: queueMsg{Path: ids(0, 1)}})
		})), []string{`Receive "queue the asker": the messages it sent: ` +
			`want [{To:n0 Msg:{Path:[n0 n1]}} {To:n2 Msg:{Path:[n0 n1]}}], got [{To:n0 Msg:{Path:[n0 n1]}}]`}},
		{"an extra observation", func(tb testing.TB) {
			queues("").Init(tb, []queueStep{{Name: "start", Self: 2}})
		}, []string{`Init "start": what it observed: want nil, got [leader=n2]`}},
		{"a timer it does not set", receive("", altered(func(s *queueStep) {
			s.Timers = []checktest.TimerEffect{{Timer: "serve", Armed: true, WaitOn: ids(2)}}
		})),
			[]string{`Receive "queue the asker": the timers it set at [0].WaitOn[0]: want n2, got n0`}},
		{"an input state written into", receive("overwrite the head", altered(func(s *queueStep) { s.Want.Queue = ids(0, 0) })),
			[]string{`Receive "queue the asker" wrote into its input state at .Queue[0]: before n2, after n0`}},
		{"an input state appended to in place", func(tb testing.TB) {
			q := queues("append in place")
			q.SpareCapacity = true
			q.Receive(tb, []queueStep{altered(func(s *queueStep) { s.From = 2 })})
		}, []string{`Receive "queue the asker" wrote into its input state at .Queue[1]: before n0, after n2`,
			"an append in place writes"}},
		{"an input message written into", receive("write into the message", ask),
			[]string{`Receive "queue the asker" wrote into its input message at .Path[0]: before n0, after n1`}},
		{"a panic", receive("panic", ask), []string{`Receive "queue the asker" panicked: no room`}},
		{"wrong actions", func(tb testing.TB) {
			queues("").Actions(tb, []queueStep{{Name: "nobody queued", Enabled: []model.Action{"serve"}}})
		}, []string{`Actions "nobody queued": the actions it lists: want [serve], got nil`}},
		{"two failing steps", receive("",
			altered(func(s *queueStep) { s.Name, s.Want.Served = "first", 1 }), ask,
			altered(func(s *queueStep) { s.Name, s.Want.Served = "second", 2 })),
			[]string{`Receive "first": the state it returned at .Served: want 1, got 0`,
				`Receive "second": the state it returned at .Served: want 2, got 0`}},
		{"a protocol without the handler", func(tb testing.TB) {
			checktest.Handlers[queueState, queueMsg]{Protocol: struct {
				model.Protocol[queueState, queueMsg]
			}{queuer{}},
				Config: model.Config{N: 3}}.Timeout(tb, []queueStep{ask})
		}, []string{"has no Timeout handler"}},
		{"no configuration", func(tb testing.TB) {
			checktest.Handlers[queueState, queueMsg]{Protocol: queuer{}}.Receive(tb, []queueStep{ask})
		}, []string{`step "queue the asker": no configuration`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := record(t, c.run)
			require.True(t, rec.failed, "the helper must fail the test")
			for _, w := range c.want {
				require.Contains(t, rec.output(), w)
			}
		})
	}
}

// Messages finds a kind's figure, and fails the test, naming the kind,
// where the result has none.
func TestMessagesFindsAFigure(t *testing.T) {
	r := &checker.Result{Messages: []checker.MessageRange{{Kind: "total", Min: 2, Max: 3}, {Kind: "ping", Min: 1, Max: 2}}}
	require.Equal(t, checker.MessageRange{Kind: "ping", Min: 1, Max: 2}, checktest.Messages(t, r, "ping"))
	rec := record(t, func(tb testing.TB) { checktest.Messages(tb, r, "pong") })
	require.True(t, rec.Failed())
	require.Contains(t, rec.output(), `no "pong" messages`)
}

// heardAll is the sometimes-property "some node heard from k others".
func heardAll(k int) *properties.Property {
	return properties.Sometimes(fmt.Sprintf("heard-%d", k), "test", fmt.Sprintf("a node heard from %d nodes", k), func(v properties.View) bool {
		for i := range v.N() {
			if properties.StateOf[floodState](v, model.NodeID(i)).Heard == k {
				return true
			}
		}
		return false
	})
}

// A test expects a sometimes-property to pass or to fail as any other:
// Check passes where a run reaches the goal and fails the test where no
// run can; a scenario may expect that fail.
func TestSometimesInTheKit(t *testing.T) {
	p := floodProtocol(false)
	p.Properties = append(p.Properties, heardAll(2), heardAll(3))
	three := suite.Scenario{Name: "three", N: 3, Ranks: "reverse", Props: []string{"agreement", "heard-2"}}
	r := checktest.Check(t, p, three)
	require.NotNil(t, r.Property("heard-2").Witness)

	never := three
	never.Props = []string{"agreement", "heard-3"}
	dir := t.TempDir()
	rec := record(t, func(tb testing.TB) { checktest.Check(tb, p, never, checktest.TraceDir(dir)) })
	require.True(t, rec.failed)
	require.Contains(t, rec.output(), "heard-3 fails: no reachable world reaches it (")
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, files, "no run reaches the goal: there is no trace to write")

	never.Expect, never.Shows = checker.Fail, "heard-3"
	rec = record(t, func(tb testing.TB) { checktest.Expect(tb, p, never) })
	require.False(t, rec.failed, rec.output())
	rec = record(t, func(tb testing.TB) { checktest.Fails(tb, p, never, "heard-3") })
	require.False(t, rec.failed, rec.output())
}
