package validate_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/internal/tracegen"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/protocols/mutex/central"
	"github.com/vigil-check/vigil/tracelog"
)

// compile is bully's machine for logs of runs under sc's configuration,
// with the scenario's properties (the claims when it names none).
func compile(t *testing.T, scenario string) *checker.Machine {
	t.Helper()
	m, err := tracegen.Widened(bully.Description, scenario)
	require.NoError(t, err)
	return m
}

func step(kind string, node int) checker.TraceStep { return checker.TraceStep{Kind: kind, Node: node} }

func timeout(node int, timer string) checker.TraceStep {
	return checker.TraceStep{Kind: "timeout", Node: node, Timer: timer}
}

func deliver(from, to int, msg string) checker.TraceStep {
	return checker.TraceStep{Kind: "deliver", Node: to, From: from, Msg: msg}
}

// passing is a run of bully's sync-crash scenario that keeps every claim:
// the highest node crashes once all have heard it lead, the next one
// notices, elects itself and tells the others, as another one notices too
// and asks it.
func passing(t *testing.T, m *checker.Machine) *tracegen.Logs {
	t.Helper()
	events, err := tracegen.Settle(m, nil, 100)
	require.NoError(t, err)
	events = append(events, step("crash", 3), timeout(2, "leader-check"))
	events, err = tracegen.Settle(m, events, 100)
	require.NoError(t, err)
	events = append(events, timeout(2, "answer"), timeout(1, "leader-check"))
	events, err = tracegen.Settle(m, events, 100)
	require.NoError(t, err)
	logs, err := tracegen.FromTrace(m, events)
	require.NoError(t, err)
	return logs
}

// violating is a run of bully's async-crash scenario: a few deliveries
// that n0 takes no part in, then the search's shortest counterexample to
// unique-leader (n0's answer timer fires while the higher nodes live).
func violating(t *testing.T) (*checker.Machine, *tracegen.Logs) {
	t.Helper()
	sc, err := bully.Description.Scenario("async-crash")
	require.NoError(t, err)
	res, err := suite.Exhaustive(context.Background(), bully.Description, &sc, checker.Options{})
	require.NoError(t, err)
	cex := res.Property("unique-leader").Counterexample
	require.NotNil(t, cex)
	m := compile(t, "async-crash")
	events := append([]checker.TraceStep{deliver(1, 2, "election"), deliver(3, 1, "coordinator"), deliver(2, 1, "answer")}, cex.Events...)
	logs, err := tracegen.FromTrace(m, events)
	require.NoError(t, err)
	return m, logs
}

func check(t *testing.T, m *checker.Machine, logs *tracegen.Logs) *validate.Report {
	t.Helper()
	r, err := validate.Check(m, logs.Run("run"))
	require.NoError(t, err)
	return r
}

func TestWiden(t *testing.T) {
	for _, c := range []struct {
		name     string
		in, want model.Config
	}{
		{"fifo and sync", model.Config{N: 3, Crashes: 1, Recoveries: 1, Duplicates: 2},
			model.Config{N: 3, Channels: model.Unordered, Timing: model.Async, Crashes: 1, Recoveries: 1, Duplicates: 2}},
		{"bounded, losses, partitions, traitors", model.Config{N: 4, Timing: model.Bounded, Delay: 3, Losses: 2, Partitions: 1, Traitors: 1},
			model.Config{N: 4, Channels: model.Unordered, Timing: model.Async}},
		{"a set stays a set", model.Config{N: 2, Channels: model.Set, Params: map[string]int{"x": 1}},
			model.Config{N: 2, Channels: model.Set, Timing: model.Async, Params: map[string]int{"x": 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := validate.Widen(c.in)
			require.NoError(t, got.Validate())
			require.NoError(t, c.want.Validate())
			require.Equal(t, c.want, got)
		})
	}
}

func TestLogsOfAPassingRunAgree(t *testing.T) {
	m := compile(t, "sync-crash")
	logs := passing(t, m)
	r := check(t, m, logs)
	require.True(t, r.OK(), "%+v", r.Discrepancy)
	total := 0
	for i, recs := range logs.Nodes {
		require.Equal(t, len(recs), r.Nodes[i], "n%d", i)
		total += len(recs)
	}
	require.Equal(t, total, r.Events)
	require.Greater(t, total, 20)
	require.Empty(t, r.Notes)
}

func TestTheViolationOfAnAsyncRunIsItsCausalPast(t *testing.T) {
	m, logs := violating(t)
	r := check(t, m, logs)
	require.Nil(t, r.Discrepancy)
	require.NotNil(t, r.Violation)
	require.Equal(t, "unique-leader", r.Violation.Property)
	require.Equal(t, "n0 and n3 both believe they are the leader", r.Violation.Detail)
	require.True(t, r.CausalPast)
	require.Equal(t, &validate.Place{Node: 0, File: filepath.Join("run", "n0.jsonl"), Line: 2, Event: "timeout answer"}, r.ViolatedAt)
	// the deliveries before it are n1's, n2's and n3's: concurrent
	require.Equal(t, []string{"n0  timeout answer"}, stepTexts(r.Violation))
	require.Equal(t, 8, r.Events, "four starts, three deliveries, the timeout")
	require.Equal(t, []string{"unique-leader fails at n0: run/n0.jsonl:2: timeout answer; the counterexample is its causal past: it and the events that happen before it, 2 of the run's 8"}, r.Notes)

	again, err := checker.Replay(m, r.Violation)
	require.NoError(t, err)
	require.Equal(t, "unique-leader", again.Property, "the counterexample replays")
}

func stepTexts(t *checker.Trace) []string {
	var out []string
	for _, s := range t.Events {
		out = append(out, s.String())
	}
	return out
}

// feed gives the Watcher the records of logs in an interleaving drawn
// with seed, each node's in order.
func feed(t *testing.T, m *checker.Machine, logs *tracegen.Logs, seed uint64) *validate.Report {
	t.Helper()
	run := logs.Run("run")
	w := validate.New(m, run.N)
	next := make([]int, run.N)
	rng := rand.New(rand.NewPCG(seed, 1))
	for {
		var open []int
		for i, recs := range run.Nodes {
			if next[i] < len(recs) {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			break
		}
		i := open[rng.IntN(len(open))]
		require.NoError(t, w.Add(run.Nodes[i][next[i]], run.Files[i]))
		next[i]++
	}
	return w.Finish()
}

// verdict is what a report says, without the run that shows it.
func verdict(r *validate.Report) string {
	switch {
	case r.Discrepancy != nil:
		return r.Discrepancy.String()
	case r.Violation != nil:
		return r.Violation.Property + " at " + r.ViolatedAt.String()
	}
	return "ok"
}

// The records may come in any interleaving of the nodes' logs: the
// verdict is the same.
func TestAnyInterleavingGivesTheSameVerdict(t *testing.T) {
	m := compile(t, "sync-crash")
	good := passing(t, m)
	bad := good.Clone()
	bad.Nodes[1][3].Observed = []string{"leader=n0"}
	am, async := violating(t)
	for _, c := range []struct {
		name string
		m    *checker.Machine
		logs *tracegen.Logs
	}{{"passing", m, good}, {"a discrepancy", m, bad}, {"a violation", am, async}} {
		t.Run(c.name, func(t *testing.T) {
			want := verdict(check(t, c.m, c.logs))
			for seed := range uint64(20) {
				require.Equal(t, want, verdict(feed(t, c.m, c.logs, seed)), "seed %d", seed)
			}
		})
	}
}

// after is the index of the first record of recs after the start that
// keeps pred.
func after(recs []tracelog.Record, pred func(tracelog.Record) bool) int {
	if k := slices.IndexFunc(recs[1:], pred); k >= 0 {
		return k + 1
	}
	panic("no such record")
}

// A log that says what the model does not do is a discrepancy, named by
// the node, its log's line and the event.
func TestDiscrepancies(t *testing.T) {
	m := compile(t, "sync-crash")
	good := passing(t, m)
	// an event of n2's, in the middle of its log, that sends two messages
	busy := after(good.Nodes[2], func(r tracelog.Record) bool { return len(r.Sends) == 2 })
	require.Less(t, busy, len(good.Nodes[2])-1)
	timed, op := -1, -1
	for k, r := range good.Nodes[2] {
		if j := slices.IndexFunc(r.Timers, func(op tracelog.TimerOp) bool { return op.Op == "set" && len(op.WaitOn) > 0 }); j >= 0 && k > 0 && timed < 0 {
			timed, op = k, j
		}
	}
	require.Positive(t, timed)
	observing := after(good.Nodes[0], func(r tracelog.Record) bool { return len(r.Observed) == 1 })
	// a message from n3, which sends no election
	receiving := after(good.Nodes[2], func(r tracelog.Record) bool { return r.Event == tracelog.Receive && *r.From == 3 && r.Sent > 1 })
	for _, c := range []struct {
		name  string
		spoil func(l *tracegen.Logs)
		node  int
		line  int
		what  string
	}{
		{"a send left out", func(l *tracegen.Logs) {
			r := &l.Nodes[2][busy]
			r.Sends = slices.Delete(r.Sends, 0, 1)
		}, 2, busy + 1, "logged 1 send: coordinator to n1; the model sends 2: coordinator to n0, coordinator to n1"},
		{"another message sent", func(l *tracegen.Logs) {
			l.Nodes[2][busy].Sends[0].Msg = json.RawMessage(`{"K":1}`)
		}, 2, busy + 1, "logged 2 sends: answer to n0, coordinator to n1; the model sends 2: "},
		{"a message the model has no field for", func(l *tracegen.Logs) {
			l.Nodes[2][busy].Sends[1].Msg = json.RawMessage(`{"K":2,"Round":3}`)
		}, 2, busy + 1, `logged send 2, to n1, is {"K":2,"Round":3}, none of the model's messages`},
		{"another observation", func(l *tracegen.Logs) {
			l.Nodes[0][observing].Observed = []string{"leader=n1"}
		}, 0, observing + 1, "logged 1 observation: leader=n1; the model observes leader=n"},
		{"a timer waiting on other nodes", func(l *tracegen.Logs) {
			l.Nodes[2][timed].Timers[op].WaitOn = []int{0}
		}, 2, timed + 1, "the model: "},
		{"another message received", func(l *tracegen.Logs) {
			l.Nodes[2][receiving].Msg = json.RawMessage(`{"K":0}`)
		}, 2, receiving + 1, "sent no election to n2: it sent answer to n2, coordinator to n2"},
		{"a timer that was never set", func(l *tracegen.Logs) {
			last := l.Nodes[0][len(l.Nodes[0])-1]
			next := tracelog.Record{Node: 0, Clock: slices.Clone(last.Clock), Time: last.Time, Event: tracelog.Timeout, Timer: "coordinator"}
			next.Clock[0]++
			l.Nodes[0] = append(l.Nodes[0], next)
		}, 0, len(good.Nodes[0]) + 1, "the model has no timer coordinator armed (it has leader-check)"},
		{"no start", func(l *tracegen.Logs) {
			l.Nodes[1][0].Event, l.Nodes[1][0].Timer = tracelog.Timeout, "answer"
		}, 1, 1, "the log does not begin with the node's start"},
		{"a second crash", func(l *tracegen.Logs) {
			last := l.Nodes[0][len(l.Nodes[0])-1]
			next := tracelog.Record{Node: 0, Clock: slices.Clone(last.Clock), Time: last.Time, Event: tracelog.Crash}
			next.Clock[0]++
			l.Nodes[0] = append(l.Nodes[0], next)
		}, 0, len(good.Nodes[0]) + 1, "the run's crash 2, where the configuration allows 1"},
		{"a receive whose send is missing", func(l *tracegen.Logs) {
			l.Nodes[3] = l.Nodes[3][:0]
		}, 0, 2, "receives a message from n3's event 1, which n3's log does not hold (it is empty or missing)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			logs := good.Clone()
			c.spoil(logs)
			r := check(t, m, logs)
			require.Nil(t, r.Violation)
			require.NotNil(t, r.Discrepancy)
			d := r.Discrepancy
			require.Equal(t, c.node, d.Node, d.String())
			if c.line > 0 {
				require.Equal(t, c.line, d.Line, d.String())
			}
			require.Equal(t, filepath.Join("run", tracelog.FileName(c.node)), d.File)
			require.Contains(t, d.What, c.what)
			require.Contains(t, d.String(), tracelog.FileName(c.node)+":")
		})
	}
}

// bullyUnder is bully's machine for logs of runs under cfg, checked for
// unique-leader and agreement.
func bullyUnder(t *testing.T, cfg model.Config) *checker.Machine {
	t.Helper()
	props, err := bully.Description.Props(cfg, []string{"unique-leader", "agreement"})
	require.NoError(t, err)
	m, err := bully.Description.Compile(validate.Widen(cfg), props)
	require.NoError(t, err)
	return m
}

// A message received twice from one send is a duplicate the network made:
// within the configuration's budget the run is the model's, with the copy
// made as the message was in flight; beyond it, a discrepancy.
func TestAMessageReceivedTwiceIsADuplicate(t *testing.T) {
	cfg := model.Config{N: 3, Duplicates: 1}
	m := bullyUnder(t, cfg)
	events, err := tracegen.Settle(m, []checker.TraceStep{{Kind: "duplicate", Node: 2, From: 0, Msg: "election"}}, 100)
	require.NoError(t, err)
	logs, err := tracegen.FromTrace(m, events)
	require.NoError(t, err)
	r := check(t, m, logs)
	require.True(t, r.OK(), "%v", r.Discrepancy)
	received := 0
	for _, rec := range logs.Nodes[2] {
		if rec.Event == tracelog.Receive && *rec.From == 0 {
			received++
		}
	}
	require.Equal(t, 2, received, "n2 receives n0's election twice")

	cfg.Duplicates = 0
	r = check(t, bullyUnder(t, cfg), logs)
	require.NotNil(t, r.Discrepancy)
	require.Equal(t, 2, r.Discrepancy.Node)
	require.Contains(t, r.Discrepancy.What, "receives again the election n0 sent once (first received at run/n2.jsonl:2): the run's duplicate 1, where the configuration allows 0")
}

// Under set channels a message is delivered any number of times: no
// duplicate is needed.
func TestASetDeliversAgain(t *testing.T) {
	m := bullyUnder(t, model.Config{N: 2, Channels: model.Set})
	logs, err := tracegen.FromTrace(m, []checker.TraceStep{deliver(0, 1, "election"), deliver(0, 1, "election")})
	require.NoError(t, err)
	r := check(t, m, logs)
	require.True(t, r.OK(), "%v", r.Discrepancy)
	require.Equal(t, 4, r.Events)
}

// A node that crashes loses the messages in flight to it: a log that
// receives one after its recovery did what the model cannot.
func TestACrashDropsTheMessagesInFlight(t *testing.T) {
	m := bullyUnder(t, model.Config{N: 2, Crashes: 1, Recoveries: 1})
	logs, err := tracegen.FromTrace(m, []checker.TraceStep{step("crash", 1), step("recover", 1)})
	require.NoError(t, err)
	require.True(t, check(t, m, logs).OK())
	// n1, the leader again, receives the election n0 sent at start-up
	last := logs.Nodes[1][len(logs.Nodes[1])-1]
	from := 0
	late := tracelog.Record{Node: 1, Clock: []int{1, last.Clock[1] + 1}, Time: last.Time, Event: tracelog.Receive,
		From: &from, Sent: 1, Msg: json.RawMessage(`{"K":0}`),
		Sends: []tracelog.Send{{To: 0, Msg: json.RawMessage(`{"K":1}`)}, {To: 0, Msg: json.RawMessage(`{"K":2}`)}}}
	logs.Nodes[1] = append(logs.Nodes[1], late)
	r := check(t, m, logs)
	require.NotNil(t, r.Discrepancy)
	require.Equal(t, `n1: run/n1.jsonl:4: receive {"K":0} from n0: the model has lost this election from n0: n1 crashed (run/n1.jsonl:2) while it was in flight: the model drops the messages in flight to a node that crashes`,
		r.Discrepancy.String())
}

// A Watcher fed a run under way takes its events as their records come,
// once no earlier record can still come: every node has logged past them,
// or the watermark says that all logged before it has come.
func TestAWatcherTakesEventsAsTheRunGoes(t *testing.T) {
	m, logs := violating(t)
	run := logs.Run("run")
	timeout := run.Nodes[0][1] // n0's, which violates unique-leader

	w := validate.New(m, run.N)
	require.NoError(t, w.Add(run.Nodes[0][0], run.Files[0]))
	require.NoError(t, w.Add(timeout, run.Files[0]))
	require.False(t, w.Stopped(), "the others have logged nothing yet, and may log earlier events")
	for i := 1; i < run.N; i++ {
		for _, rec := range run.Nodes[i] {
			require.NoError(t, w.Add(rec, run.Files[i]))
		}
	}
	require.False(t, w.Stopped(), "the others have logged nothing since their last events, which are taken")
	w.Watermark(timeout.Time)
	require.False(t, w.Stopped(), "the timeout is not before the watermark")
	w.Watermark(timeout.Time.Add(time.Nanosecond))
	require.True(t, w.Stopped())
	require.NoError(t, w.Add(run.Nodes[0][0], run.Files[0]), "a stopped Watcher takes nothing more")
	r := w.Finish()
	require.Equal(t, "unique-leader", r.Violation.Property)
	require.Equal(t, 8, r.Events)

	// records streamed in the order logged, each with the watermark at
	// its time: each event is taken once the next one is logged
	w = validate.New(m, run.N)
	var all []tracelog.Logged
	for _, recs := range run.Nodes {
		all = append(all, recs...)
	}
	slices.SortFunc(all, func(a, b tracelog.Logged) int { return a.Time.Compare(b.Time) })
	for k, rec := range all {
		require.False(t, w.Stopped(), "before record %d", k)
		require.NoError(t, w.Add(rec, run.Files[rec.Node]))
		w.Watermark(rec.Time)
	}
	require.False(t, w.Stopped())
	require.Equal(t, timeout.Record, all[len(all)-1].Record, "the timeout is logged last")
	w.Watermark(timeout.Time.Add(time.Nanosecond))
	require.True(t, w.Stopped())
}

// What a Watcher cannot take is an error of Add, which names the file and
// line; a problem of the run is the report's.
func TestBadInputIsAnError(t *testing.T) {
	m := compile(t, "sync-crash")
	logs := passing(t, m)
	run := logs.Run("run")
	start := run.Nodes[0][0]

	w := validate.New(m, run.N)
	require.NoError(t, w.Add(start, "n0.jsonl"))
	require.ErrorContains(t, w.Add(start, "n0.jsonl"), "n0.jsonl:1: n0's event 1 comes after its event 1")
	require.ErrorContains(t, w.Add(run.Nodes[0][1], "other.jsonl"), "other.jsonl:2: a record of n0, whose log is n0.jsonl")
	bad := run.Nodes[1][0]
	bad.Clock = []int{0, 1}
	require.ErrorContains(t, w.Add(bad, "n1.jsonl"), "n1.jsonl:1: the clock has 2 entries for 4 nodes")

	require.ErrorContains(t, validate.New(m, 3).Add(start, "n0.jsonl"), "a run of 3 nodes, and a machine of 4")
	sc, err := bully.Description.Scenario("sync-crash")
	require.NoError(t, err)
	narrow, err := suite.Compile(bully.Description, &sc)
	require.NoError(t, err)
	err = validate.New(narrow, 4).Add(start, "n0.jsonl")
	require.ErrorContains(t, err, "compile it under Widen of the run's configuration")
	require.Contains(t, validate.New(narrow, 4).Finish().Discrepancy.What, "compile it under Widen")
}

// brittle's node takes one message: a second one makes it panic.
type brittle struct{}

func (brittle) Init(ctx *model.Ctx[int]) int {
	ctx.Send(1-ctx.Self(), 1)
	return 0
}

func (brittle) Receive(_ *model.Ctx[int], s int, _ model.NodeID, m int) int {
	if s > 0 {
		panic("a second message")
	}
	return s + m
}

// A handler that faults on an event of the log is a discrepancy, with the
// fault.
func TestAHandlerFaultIsReported(t *testing.T) {
	m, err := checker.Compile("brittle", brittle{}, validate.Widen(model.Config{N: 2, Duplicates: 1}))
	require.NoError(t, err)
	logs, err := tracegen.FromTrace(m, []checker.TraceStep{deliver(0, 1, "1")})
	require.NoError(t, err)
	again := logs.Nodes[1][1]
	again.Clock = []int{1, 3}
	logs.Nodes[1] = append(logs.Nodes[1], again)
	r := check(t, m, logs)
	require.NotNil(t, r.Discrepancy)
	require.NotNil(t, r.Discrepancy.Fault)
	require.Equal(t, "a second message", r.Discrepancy.Fault.Panic)
	require.Equal(t, 3, r.Discrepancy.Line)
	require.Contains(t, r.Discrepancy.What, "the model faults: ")
}

// Eventually-properties are judged where a run ends quiescent, and only
// there: a run stopped with events enabled is said not to show them.
func TestEventuallyPropertiesAtTheEnd(t *testing.T) {
	sc, err := central.Description.Scenario("two-each")
	require.NoError(t, err)
	cfg, err := sc.Config()
	require.NoError(t, err)
	props, err := central.Description.Props(cfg, nil)
	require.NoError(t, err)
	m, err := central.Description.Compile(validate.Widen(cfg), props)
	require.NoError(t, err)
	events, err := tracegen.Drive(m, nil, 1000)
	require.NoError(t, err)
	logs, err := tracegen.FromTrace(m, events)
	require.NoError(t, err)
	r := check(t, m, logs)
	require.True(t, r.OK(), "%v", r.Discrepancy)
	require.Equal(t, []string{"the run ends quiescent, nothing left to happen but faults: no-starvation judged there, where it ends"}, r.Notes)
	require.Empty(t, r.NotJudged)

	logs, err = tracegen.FromTrace(m, events[:len(events)/2])
	require.NoError(t, err)
	r = check(t, m, logs)
	require.True(t, r.OK(), "%v", r.Discrepancy)
	require.Equal(t, []string{"not judged: no-starvation, which a finite run that stops while events are still enabled (messages in flight, timers armed, actions enabled) can neither show nor refute"}, r.Notes)
	require.Equal(t, []string{"no-starvation"}, r.NotJudged)

	logs.Nodes[2] = nil
	r = check(t, m, logs)
	require.Contains(t, r.Notes, "n2 left no log: the model starts it with the others all the same")
}

func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, validate.RunFileName)
	rf := &validate.RunFile{Protocol: "election/bully", Config: model.Config{N: 3, Crashes: 1}, Properties: []string{"unique-leader"}}
	require.NoError(t, rf.Write(path))
	back, err := validate.ReadRunFile(path)
	require.NoError(t, err)
	require.NoError(t, rf.Config.Validate(), "as ReadRunFile validates it")
	require.Equal(t, rf, back)
	for _, c := range []struct{ text, err string }{
		{`{"config":{"n":3}}`, "it names no protocol"},
		{`{"protocol":"bully","config":{"n":0}}`, "n must be between 1"},
		{`{"protocol":"bully","config":{"n":3},"extra":1}`, ""},
		{`{"protocol":"bully"`, "not a run file"},
	} {
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		_, err := validate.ReadRunFile(path)
		if c.err == "" {
			require.NoError(t, err, c.text)
			continue
		}
		require.ErrorContains(t, err, c.err, c.text)
		require.ErrorContains(t, err, path)
	}
	_, err = validate.ReadRunFile(filepath.Join(dir, "absent.json"))
	require.ErrorContains(t, err, "cannot read")
}

// Where a property fails only for events that are concurrent, the causal
// past of the last does not show it: the whole run does. Only n0 starts
// an election; n2 leads as it hears of it, and n1, having answered n0,
// times out and leads too, knowing nothing of n2.
func TestAViolationOfConcurrentEventsIsTheWholeRun(t *testing.T) {
	m := bullyUnder(t, model.Config{N: 3, Initiators: []bool{true, false, false}})
	logs, err := tracegen.FromTrace(m, []checker.TraceStep{deliver(0, 2, "election"), deliver(0, 1, "election"), timeout(1, "answer")})
	require.NoError(t, err)
	r := check(t, m, logs)
	require.NotNil(t, r.Violation)
	require.Equal(t, "unique-leader", r.Violation.Property)
	require.False(t, r.CausalPast)
	require.Equal(t, []string{"n0 → n2  election", "n0 → n1  election", "n1  timeout answer"}, stepTexts(r.Violation))
	require.Equal(t, []string{"unique-leader fails at n1: run/n1.jsonl:3: timeout answer, and not in its causal past alone: the counterexample is the whole run to it, 6 events"}, r.Notes)
	again, err := checker.Replay(m, r.Violation)
	require.NoError(t, err)
	require.Equal(t, "unique-leader", again.Property)
}

// shy's node 1 panics as it starts.
type shy struct{}

func (shy) Init(ctx *model.Ctx[int]) int {
	if ctx.Self() == 1 {
		panic("not today")
	}
	return 0
}
func (shy) Receive(_ *model.Ctx[int], s int, _ model.NodeID, _ int) int { return s }

func TestAFaultAtStartUpIsReported(t *testing.T) {
	m, err := checker.Compile("shy", shy{}, validate.Widen(model.Config{N: 2}))
	require.NoError(t, err)
	w := validate.New(m, 2)
	require.True(t, w.Stopped())
	r := w.Finish()
	require.NotNil(t, r.Discrepancy)
	require.Equal(t, "not today", r.Discrepancy.Fault.Panic)
	require.True(t, strings.HasPrefix(r.Discrepancy.String(), "n1: start: the model faults: "), r.Discrepancy.String())
}
