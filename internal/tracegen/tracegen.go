// Package tracegen writes the logs that a real run of a protocol would
// leave, for a run of its model: every node logs its start, then each
// event of the run is logged by the node that takes it, with its effects
// as its handler made them and a vector clock, in the format of package
// tracelog. The tests of vigil validate make their runs' logs so, and
// spoil them to see each discrepancy found.
package tracegen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/tracelog"
)

// Epoch is the time of the first record; each record after is logged a
// millisecond after the one before, in the order of the run.
var Epoch = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// Logs are the records of a run, Nodes[i] node i's, in order.
type Logs struct {
	Nodes [][]tracelog.Record
}

// flying is a message in flight: its sender's event that sent it, with
// the sender's clock then.
type flying struct {
	from, to int
	msg      checker.Message
	stamp    tracelog.Stamp
}

type nodeRun struct {
	*checker.Node
	state, crashState checker.State
	armed             map[string]model.Timer
	crashed           bool
	clock             []int
}

// run is a run of the model under way, on the nodes' handlers.
type run struct {
	m        *checker.Machine
	set      bool
	nodes    []*nodeRun
	inFlight []flying
	logs     *Logs
	at       time.Time
}

// FromTrace runs events (as a checker.Trace lists them: deliveries,
// timeouts, actions, crashes, recoveries, and the network's duplicates
// and losses, which no node logs) from the start-up of every node, on m's
// handlers, and returns the logs each node would write.
func FromTrace(m *checker.Machine, events []checker.TraceStep) (*Logs, error) {
	r, err := start(m)
	if err != nil {
		return nil, err
	}
	for k, s := range events {
		if err := r.take(s); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", k+1, s, err)
		}
	}
	return r.logs, nil
}

// Settle is events followed by the deliveries of the messages still in
// flight after them, the oldest first, each with what it sends, until
// none is in flight or max deliveries are made.
func Settle(m *checker.Machine, events []checker.TraceStep, max int) ([]checker.TraceStep, error) {
	return drive(m, events, max, false)
}

// Drive is events followed by a run that delivers the oldest message in
// flight or, when none is, takes the first action the lowest node has
// enabled, until neither is or max more steps are taken. Its timers never
// fire.
func Drive(m *checker.Machine, events []checker.TraceStep, max int) ([]checker.TraceStep, error) {
	return drive(m, events, max, true)
}

// drive runs events, then delivers the messages in flight and, with
// actions, takes the nodes' actions, for at most max steps.
func drive(m *checker.Machine, events []checker.TraceStep, max int, actions bool) ([]checker.TraceStep, error) {
	r, err := start(m)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(events)
	for k, s := range events {
		if err := r.take(s); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", k+1, s, err)
		}
	}
	for range max {
		s, ok, err := r.next(actions)
		if err != nil || !ok {
			return out, err
		}
		if err := r.take(s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// next is the step drive takes next, if any: the oldest delivery, or with
// actions the lowest node's first action.
func (r *run) next(actions bool) (checker.TraceStep, bool, error) {
	if len(r.inFlight) > 0 {
		f := r.inFlight[0]
		return checker.TraceStep{Kind: "deliver", Node: f.to, From: f.from, Msg: r.m.MessageText(f.msg)}, true, nil
	}
	if !actions {
		return checker.TraceStep{}, false, nil
	}
	for i, nd := range r.nodes {
		if nd.crashed {
			continue
		}
		as, err := nd.Actions(nd.state)
		if err != nil {
			return checker.TraceStep{}, false, err
		}
		if len(as) > 0 {
			return checker.TraceStep{Kind: "action", Node: i, Action: fmt.Sprint(as[0])}, true, nil
		}
	}
	return checker.TraceStep{}, false, nil
}

func start(m *checker.Machine) (*run, error) {
	n := m.Config().N
	r := &run{m: m, set: m.Config().Channels == model.Set, logs: &Logs{Nodes: make([][]tracelog.Record, n)}, at: Epoch}
	for i := range n {
		r.nodes = append(r.nodes, &nodeRun{Node: m.Node(model.NodeID(i)), armed: map[string]model.Timer{}, clock: make([]int, n)})
	}
	for i, nd := range r.nodes {
		rec := r.begin(i, tracelog.Start, nil)
		st, err := nd.Init()
		if err != nil {
			return nil, err
		}
		if err := r.finish(i, rec, st); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// begin starts node i's record of event kind, merging in a stamp.
func (r *run) begin(i int, kind string, st *tracelog.Stamp) *tracelog.Record {
	nd := r.nodes[i]
	if st != nil {
		for j, c := range st.Clock {
			nd.clock[j] = max(nd.clock[j], c)
		}
	}
	nd.clock[i]++
	r.at = r.at.Add(time.Millisecond)
	return &tracelog.Record{Node: i, Clock: slices.Clone(nd.clock), PID: 1000 + i, Time: r.at, Event: kind}
}

// finish records step st's effects in rec, sends its messages and logs it.
func (r *run) finish(i int, rec *tracelog.Record, st checker.Step) error {
	nd := r.nodes[i]
	nd.state = st.State
	for _, s := range st.Sends {
		b, err := r.m.EncodeMessage(s.Msg)
		if err != nil {
			return err
		}
		rec.Sends = append(rec.Sends, tracelog.Send{To: int(s.To), Msg: b})
		if !r.nodes[s.To].crashed || r.set {
			r.inFlight = append(r.inFlight, flying{from: i, to: int(s.To), msg: s.Msg,
				stamp: tracelog.Stamp{From: i, Event: rec.Clock[i], Clock: slices.Clone(rec.Clock)}})
		}
	}
	for _, op := range st.Timers {
		text := fmt.Sprint(op.Timer)
		t := tracelog.TimerOp{Op: "cancel", Timer: text}
		delete(nd.armed, text)
		if op.Armed {
			t.Op, t.Ticks = "set", op.Ticks
			for _, j := range op.WaitOn {
				t.WaitOn = append(t.WaitOn, int(j))
			}
			nd.armed[text] = op.Timer
		}
		rec.Timers = append(rec.Timers, t)
	}
	for _, o := range st.Observed {
		rec.Observed = append(rec.Observed, o.String())
	}
	if b, err := r.m.EncodeState(st.State); err == nil {
		rec.State = b
	}
	r.logs.Nodes[i] = append(r.logs.Nodes[i], *rec)
	return nil
}

// find is the index in flight of the oldest message of s's sender,
// receiver and text.
func (r *run) find(s checker.TraceStep) (int, error) {
	k := slices.IndexFunc(r.inFlight, func(f flying) bool {
		return f.from == s.From && f.to == s.Node && r.m.MessageText(f.msg) == s.Msg
	})
	if k < 0 {
		return 0, fmt.Errorf("no %s from n%d to n%d in flight", s.Msg, s.From, s.Node)
	}
	return k, nil
}

// take runs event s and logs it.
func (r *run) take(s checker.TraceStep) error {
	if s.Node < 0 || s.Node >= len(r.nodes) {
		return fmt.Errorf("no node n%d", s.Node)
	}
	nd := r.nodes[s.Node]
	var (
		rec *tracelog.Record
		st  checker.Step
		err error
	)
	switch s.Kind {
	case "deliver":
		k, err := r.find(s)
		if err != nil {
			return err
		}
		f := r.inFlight[k]
		if !r.set {
			r.inFlight = slices.Delete(r.inFlight, k, k+1)
		}
		rec = r.begin(s.Node, tracelog.Receive, &f.stamp)
		from := f.from
		rec.From, rec.Sent = &from, f.stamp.Event
		if rec.Msg, err = r.m.EncodeMessage(f.msg); err != nil {
			return err
		}
		st, err = nd.Receive(nd.state, model.NodeID(from), f.msg)
		if err != nil {
			return err
		}
	case "timeout":
		t, ok := nd.armed[s.Timer]
		if !ok {
			return fmt.Errorf("n%d has no timer %s armed", s.Node, s.Timer)
		}
		delete(nd.armed, s.Timer)
		rec = r.begin(s.Node, tracelog.Timeout, nil)
		rec.Timer = s.Timer
		if st, err = nd.Timeout(nd.state, t); err != nil {
			return err
		}
	case "action":
		as, err := nd.Actions(nd.state)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(as, func(a model.Action) bool { return fmt.Sprint(a) == s.Action })
		if i < 0 {
			return fmt.Errorf("n%d has no action %s enabled", s.Node, s.Action)
		}
		rec = r.begin(s.Node, tracelog.Action, nil)
		rec.Action = s.Action
		if st, err = nd.Do(nd.state, as[i]); err != nil {
			return err
		}
	case "crash":
		rec := r.begin(s.Node, tracelog.Crash, nil)
		nd.crashed, nd.crashState = true, nd.state
		clear(nd.armed)
		if !r.set {
			r.inFlight = slices.DeleteFunc(r.inFlight, func(f flying) bool { return f.to == s.Node })
		}
		r.logs.Nodes[s.Node] = append(r.logs.Nodes[s.Node], *rec)
		return nil
	case "recover":
		rec = r.begin(s.Node, tracelog.Recover, nil)
		nd.crashed = false
		if st, err = nd.Recover(nd.crashState); err != nil {
			return err
		}
	case "duplicate":
		k, err := r.find(s)
		if err != nil {
			return err
		}
		r.inFlight = slices.Insert(r.inFlight, k+1, r.inFlight[k])
		return nil
	case "lose":
		k, err := r.find(s)
		if err != nil {
			return err
		}
		r.inFlight = slices.Delete(r.inFlight, k, k+1)
		return nil
	default:
		return fmt.Errorf("a %s is no event of a real run's logs", s.Kind)
	}
	return r.finish(s.Node, rec, st)
}

// Write writes the logs in dir, node i's in tracelog.FileName(i), one
// JSON record a line.
func (l *Logs) Write(dir string) error {
	for i, recs := range l.Nodes {
		var b []byte
		for _, rec := range recs {
			line, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			b = append(append(b, line...), '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, tracelog.FileName(i)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Run is the logs as tracelog.ReadDir reads them from dir, without
// writing them: each record with its line.
func (l *Logs) Run(dir string) *tracelog.Run {
	run := &tracelog.Run{N: len(l.Nodes)}
	for i, recs := range l.Nodes {
		var logged []tracelog.Logged
		for k, rec := range recs {
			logged = append(logged, tracelog.Logged{Record: rec, Line: k + 1})
		}
		run.Nodes = append(run.Nodes, logged)
		run.Files = append(run.Files, filepath.Join(dir, tracelog.FileName(i)))
	}
	return run
}

// Clone is a deep copy of l, to spoil without touching l.
func (l *Logs) Clone() *Logs {
	b, err := json.Marshal(l.Nodes)
	if err != nil {
		panic(err)
	}
	out := &Logs{}
	if err := json.Unmarshal(b, &out.Nodes); err != nil {
		panic(err)
	}
	return out
}

// Widened is the machine that follows logs of runs of p's scenario (the
// claims when it names none), under validate.Widen of its configuration.
func Widened(p *suite.Protocol, scenario string) (*checker.Machine, error) {
	sc, err := p.Scenario(scenario)
	if err != nil {
		return nil, err
	}
	cfg, err := sc.Config()
	if err != nil {
		return nil, err
	}
	props, err := p.Props(cfg, sc.Props)
	if err != nil {
		return nil, err
	}
	return p.Compile(validate.Widen(cfg), props)
}
