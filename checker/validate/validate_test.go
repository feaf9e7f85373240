package validate_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/internal/tracegen"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/tracelog"
)

// compile is bully's machine for logs of runs under sc's configuration,
// with the scenario's properties (the claims when it names none).
func compile(t *testing.T, scenario string) *checker.Machine {
	t.Helper()
	sc, err := bully.Description.Scenario(scenario)
	require.NoError(t, err)
	cfg, err := sc.Config()
	require.NoError(t, err)
	props, err := bully.Description.Props(cfg, sc.Props)
	require.NoError(t, err)
	m, err := bully.Description.Compile(validate.Widen(cfg), props)
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
	receiving := after(good.Nodes[2], func(r tracelog.Record) bool { return r.Event == tracelog.Receive && r.Sent > 1 })
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
			var msg bully.Msg
			require.NoError(t, json.Unmarshal(l.Nodes[2][receiving].Msg, &msg))
			msg.K = (msg.K + 1) % 3
			l.Nodes[2][receiving].Msg, _ = json.Marshal(msg)
		}, 2, receiving + 1, ""},
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
