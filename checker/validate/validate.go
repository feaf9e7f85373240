// Package validate checks the logs of a real run of a protocol against the
// protocol's model: the logs package tracelog reads, one per node, which
// vigil's runtime writes for the nodes it runs and a service of one's own
// writes with a tracelog.Logger.
//
// Two checks run side by side, event by event. Each node's log is replayed
// through that node's handlers (checker.Node): every event must be one the
// model's node can take in the state the log has led it to (a timer it
// armed fires, an action it has enabled is taken, a crashed node only
// recovers) and must have exactly the logged effects: the same sends, to
// the same nodes, of the same messages; the same timers set and
// cancelled; the same observations. And the run as a whole, its events in
// an order consistent with happens-before (each node's in the order it
// took them, a receive after its send), is followed through the model's
// worlds (checker.Follower) and its properties are judged in each world it
// reaches, as a search judges them.
//
// The properties are judged as the searches judge them: the invariants
// in every world, the quiescence and eventually-properties where the
// world is quiescent, since a complete run ends there. An
// eventually-property of a run that stops with events still enabled is
// not judged (Report.NotJudged): a finite run can neither show nor refute
// it. A violation is shown by a run of the model: the causal past of the
// event at which the property fails, when it fails there too.
//
// A real network and real timers are not the model's: the run is replayed
// under Widen of the configuration it ran under, which lets any timer fire
// and any message arrive in any order or never. The handlers see no
// timing and no channels (model.Env has neither), so each node still does
// what it did. The fault budgets stay: a log with more crashes than the
// configuration allows is a discrepancy.
//
// A Watcher takes the records as they come, one node's in order but any
// interleaving between nodes: as the logs of a finished run (Check) or
// streamed from a run under way, and stops at the first problem.
package validate

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/tracelog"
)

// Widen is the configuration a real run's logs are replayed under, from
// cfg, the one it ran under: timing Async (a real timer may fire whenever,
// with no delay bound), FIFO channels Unordered (a set stays a set), no
// losses, partitions or traitors (a message that never arrived just stays
// in flight; every node runs its handlers). The crash, recovery and
// duplicate budgets stay: handlers read Env.Crashes(), and a run that
// exceeds a budget is one the model does not allow. Handlers see nothing
// of what Widen changes, so a node's behaviour in the model is the run's.
func Widen(cfg model.Config) model.Config {
	cfg.Timing, cfg.Delay = model.Async, 0
	if cfg.Channels == model.FIFO {
		cfg.Channels = model.Unordered
	}
	cfg.Losses, cfg.Partitions, cfg.Traitors = 0, 0, 0
	return cfg
}

// widened reports what keeps cfg from being a configuration Widen returns.
func widened(cfg model.Config) error {
	if w := Widen(cfg); w.Timing != cfg.Timing || w.Channels != cfg.Channels || w.Losses != cfg.Losses ||
		w.Partitions != cfg.Partitions || w.Traitors != cfg.Traitors || w.Delay != cfg.Delay {
		return fmt.Errorf("validate: the machine is compiled for %v timing, %v channels, %d losses, %d partitions and %d traitors: compile it under Widen of the run's configuration",
			cfg.Timing, cfg.Channels, cfg.Losses, cfg.Partitions, cfg.Traitors)
	}
	return nil
}

// Watcher checks a run's logs as their records come (see the package doc).
// Its methods are called from one goroutine at a time.
type Watcher struct {
	m      *checker.Machine
	cfg    model.Config
	bad    error // the Watcher cannot check with m: every Add returns it
	follow *checker.Follower
	nodes  []*node
	// order lists the events taken, in the order the run is followed
	order []*taken
	// sends: what each event of each node sent, by node and event number
	sends map[[2]int][]*sent
	// crashes, recoveries and duplicates taken so far, against the budgets
	crashes, recoveries, duplicates int
	report                          Report
	stopped                         bool
	// finished: no record is still to come (Finish); watermark: none
	// logged before it is (see Watermark)
	finished  bool
	watermark time.Time
}

// taken is an event the Watcher has taken.
type taken struct {
	node int
	rec  tracelog.Logged
	// step is the event's step of the model; none for a start, whose
	// step the initial world holds
	step    checker.TraceStep
	hasStep bool
	// dups: copies of messages made right before the step, so that a
	// message the log receives twice is in flight twice (see receive),
	// and dupFrom the index in order of each one's send
	dups    []checker.TraceStep
	dupFrom []int
	// prev is the index in order of the node's event before, from that
	// of the send a receive takes; -1 for none
	prev, from int
}

// sent is a message an event sent, as the run delivers it.
type sent struct {
	to  int
	msg checker.Message
	// delivered: how many times it was received; first: the index in
	// order of the first receipt
	delivered, first int
	// dropped, if not "", says why the model lost it: its receiver was
	// down when it was sent, or crashed while it was in flight
	dropped string
}

// New returns a Watcher of a run of n nodes of the protocol m runs. m
// must be compiled under Widen of the run's configuration, with the
// properties to judge, and n must be its N; otherwise every Add says so.
func New(m *checker.Machine, n int) *Watcher {
	cfg := m.Config()
	w := &Watcher{m: m, cfg: cfg, sends: map[[2]int][]*sent{}}
	if n != cfg.N {
		w.bad = fmt.Errorf("validate: a run of %d nodes, and a machine of %d", n, cfg.N)
		return w
	}
	if w.bad = widened(cfg); w.bad != nil {
		return w
	}
	w.report.Nodes = make([]int, n)
	for i := range n {
		w.nodes = append(w.nodes, &node{Node: m.Node(model.NodeID(i)), armed: map[string]model.Timer{}})
	}
	f, err := checker.Follow(m)
	if err != nil {
		var fault *checker.Fault
		errors.As(err, &fault)
		w.stop(&Discrepancy{Place: Place{Node: int(fault.Node), Event: "start"}, What: "the model faults: " + fault.Error(), Fault: fault})
		return w
	}
	w.follow = f
	w.judge(-1)
	return w
}

// Stopped reports whether the Watcher has met a problem: it takes no
// more records, and Finish reports the problem.
func (w *Watcher) Stopped() bool { return w.stopped }

// Add takes the next record of a node's log, read from file (which
// discrepancies name). Each node's records must come in the order of its
// log; those of different nodes in any interleaving. The Watcher takes
// the events in an order consistent with happens-before (each node's in
// order, a receive after its send), the earliest logged first among those
// ready, each once no record still to come could be earlier (see
// Watermark), and stops at the first problem. A record that is malformed
// (see tracelog.Record.Check) or out of its node's order is an error, and
// is not taken. After a problem Add takes nothing and returns nil.
func (w *Watcher) Add(rec tracelog.Logged, file string) error {
	if w.bad != nil {
		return w.bad
	}
	if w.stopped {
		return nil
	}
	if err := rec.Check(len(w.nodes)); err != nil {
		return fmt.Errorf("%s:%d: %w", file, rec.Line, err)
	}
	nd := w.nodes[rec.Node]
	switch {
	case nd.file != "" && file != nd.file:
		return fmt.Errorf("%s:%d: a record of n%d, whose log is %s", file, rec.Line, rec.Node, nd.file)
	case rec.Clock[rec.Node] != nd.arrived+1:
		return fmt.Errorf("%s:%d: n%d's event %d comes after its event %d: a node's records must come in the order of its log", file, rec.Line, rec.Node, rec.Clock[rec.Node], nd.arrived)
	}
	nd.file = file
	nd.arrived++
	nd.pending = append(nd.pending, rec)
	w.takeReady()
	return nil
}

// takeReady takes the ready events, the earliest logged first (the
// lowest node first among equals), until none is ready or a problem
// stops the Watcher. It takes the earliest only once no record still to
// come could be earlier: every node has a record waiting, or the run is
// finished, or the watermark is past it. So the order, and the verdict,
// are the logs' own, whatever the interleaving their records came in.
func (w *Watcher) takeReady() {
	for !w.stopped {
		next := -1
		for i, nd := range w.nodes {
			if len(nd.pending) == 0 || !w.ready(nd.pending[0]) {
				continue
			}
			if next < 0 || nd.pending[0].Time.Before(w.nodes[next].pending[0].Time) {
				next = i
			}
		}
		if next < 0 {
			return
		}
		nd := w.nodes[next]
		rec := nd.pending[0]
		if !w.finished && !rec.Time.Before(w.watermark) {
			for _, other := range w.nodes {
				if len(other.pending) == 0 {
					return // it may yet log an earlier event
				}
			}
		}
		nd.pending = nd.pending[1:]
		w.take(next, rec)
	}
}

// Watermark tells the Watcher that every record logged before t has been
// added: it may take the events logged before t without waiting for the
// nodes that have logged nothing since. A runner that streams the records
// of a run under way calls it as it goes, so that nodes that fall silent
// (waiting for a timer that never fires, say) hold up no check.
func (w *Watcher) Watermark(t time.Time) {
	if w.bad != nil || w.stopped || !t.After(w.watermark) {
		return
	}
	w.watermark = t
	w.takeReady()
}

// ready reports whether rec, the next event of its node, may be taken: a
// receive once its send has been.
func (w *Watcher) ready(rec tracelog.Logged) bool {
	return rec.Event != tracelog.Receive || len(w.nodes[*rec.From].taken) >= rec.Sent
}

// take takes event rec of node i: finds its place in the run, replays it
// on the node, checking its effects against the model's, follows it in
// the run, and judges the world it leads to.
func (w *Watcher) take(i int, rec tracelog.Logged) {
	nd := w.nodes[i]
	at := placeOf(rec, nd.file)
	differ := func(what string) { w.stop(&Discrepancy{Place: at, What: what}) }
	if what := nd.admit(rec); what != "" {
		differ(what)
		return
	}
	var msg checker.Message
	if rec.Event == tracelog.Receive {
		var err error
		if msg, err = w.m.DecodeMessage(rec.Msg); err != nil {
			differ(fmt.Sprintf("the logged message is none of the model's: %v", err))
			return
		}
	}
	t := &taken{node: i, rec: rec, prev: -1, from: -1}
	if k := len(nd.taken); k > 0 {
		t.prev = nd.taken[k-1]
	}
	// the event's place in the run first: a message received must have
	// been sent, whatever the receiver made of it
	if what := w.place(t, msg); what != "" || w.stopped {
		if !w.stopped {
			differ(what)
		}
		return
	}
	st, d := nd.replay(w.m, rec, msg)
	if d != nil {
		d.Place = at
		w.stop(d)
		return
	}
	k := len(w.order)
	w.order = append(w.order, t)
	nd.taken = append(nd.taken, k)
	w.report.Events++
	w.report.Nodes[i]++
	if t.hasStep {
		if _, err := w.follow.Step(t.step); err != nil {
			w.stopAt(at, "the model cannot take this step here", err)
			return
		}
	}
	w.record(k, st)
	w.judge(k)
}

// place finds event t's step in the run, and its place among the faults
// the configuration allows, or says why the model has none.
func (w *Watcher) place(t *taken, msg checker.Message) string {
	i, rec := t.node, t.rec.Record
	switch rec.Event {
	case tracelog.Receive:
		return w.receive(t, msg)
	case tracelog.Timeout:
		t.step, t.hasStep = checker.TraceStep{Kind: "timeout", Node: i, Timer: rec.Timer}, true
	case tracelog.Action:
		t.step, t.hasStep = checker.TraceStep{Kind: "action", Node: i, Action: rec.Action}, true
	case tracelog.Crash:
		if w.crashes == w.cfg.Crashes {
			return fmt.Sprintf("the run's crash %d, where the configuration allows %d", w.crashes+1, w.cfg.Crashes)
		}
		w.crashes++
		t.step, t.hasStep = checker.TraceStep{Kind: "crash", Node: i}, true
	case tracelog.Recover:
		if w.recoveries == w.cfg.Recoveries {
			return fmt.Sprintf("the run's recovery %d, where the configuration allows %d", w.recoveries+1, w.cfg.Recoveries)
		}
		w.recoveries++
		t.step, t.hasStep = checker.TraceStep{Kind: "recover", Node: i}, true
	}
	return ""
}

// receive places the receipt of msg, which t's log says some event of its
// sender sent: the model must have that message in flight. A second
// receipt of one send needs a copy of it made while it was in flight,
// one of the duplicates the configuration allows, made right before its
// first receipt: the run is followed again from the start with it.
func (w *Watcher) receive(t *taken, msg checker.Message) string {
	i, rec := t.node, t.rec.Record
	from := *rec.From
	sender := w.order[w.nodes[from].taken[rec.Sent-1]]
	t.from = w.nodes[from].taken[rec.Sent-1]
	var match *sent
	for _, s := range w.sends[[2]int{from, rec.Sent}] {
		if s.to != i || s.msg != msg {
			continue
		}
		if match == nil || match.delivered > 0 && s.delivered == 0 && s.dropped == "" {
			match = s
		}
	}
	text := w.m.MessageText(msg)
	if match == nil {
		return fmt.Sprintf("n%d's event %d (%s:%d, %s) sent no %s to n%d: it sent %s",
			from, rec.Sent, w.nodes[from].file, sender.rec.Line, eventText(sender.rec.Record), text, i, w.sentText(from, rec.Sent))
	}
	if match.dropped != "" {
		return fmt.Sprintf("the model has lost this %s from n%d: %s", text, from, match.dropped)
	}
	t.step, t.hasStep = checker.TraceStep{Kind: "deliver", Node: i, From: from, Msg: text}, true
	match.delivered++
	if match.delivered == 1 {
		match.first = len(w.order)
		return ""
	}
	if w.cfg.Channels == model.Set {
		return "" // a set delivers a message any number of times
	}
	if w.duplicates == w.cfg.Duplicates {
		return fmt.Sprintf("receives again the %s n%d sent once (first received at %s:%d): the run's duplicate %d, where the configuration allows %d",
			text, from, w.nodes[i].file, w.order[match.first].rec.Line, w.duplicates+1, w.cfg.Duplicates)
	}
	w.duplicates++
	first := w.order[match.first]
	first.dups = append(first.dups, checker.TraceStep{Kind: "duplicate", Node: i, From: from, Msg: text})
	first.dupFrom = append(first.dupFrom, t.from)
	return w.refollow()
}

// refollow follows the run again from its initial world, with the
// duplicates now placed, judging each world. The run so far was followed
// without the copies, so its steps are the model's; a property may fail
// where a copy is in flight, and the run then stops there.
func (w *Watcher) refollow() string {
	f, err := checker.Follow(w.m)
	if err != nil {
		return "the model faults at start-up: " + err.Error()
	}
	w.follow = f
	for k, t := range w.order {
		for _, d := range t.dups {
			if _, err := f.Step(d); err != nil {
				return fmt.Sprintf("the model cannot copy the message at %s:%d: %v", w.nodes[t.node].file, t.rec.Line, err)
			}
		}
		if t.hasStep {
			if _, err := f.Step(t.step); err != nil {
				return fmt.Sprintf("with the copy in flight, the model cannot take %s:%d: %v", w.nodes[t.node].file, t.rec.Line, err)
			}
		}
		if w.judge(k); w.stopped {
			return ""
		}
	}
	return ""
}

// record notes what event k sent, as its log says and the model agrees:
// a message to a node that is down is lost, as is one in flight to a
// node that crashes (a set keeps both).
func (w *Watcher) record(k int, st checker.Step) {
	t := w.order[k]
	i, rec := t.node, t.rec
	if rec.Event == tracelog.Crash && w.cfg.Channels != model.Set {
		why := fmt.Sprintf("n%d crashed (%s:%d) while it was in flight: the model drops the messages in flight to a node that crashes", i, w.nodes[i].file, rec.Line)
		for _, s := range w.nodes[i].inFlight {
			if s.dropped == "" {
				s.dropped = why
			}
		}
		w.nodes[i].inFlight = nil
	}
	if len(st.Sends) == 0 {
		return
	}
	var out []*sent
	for _, snd := range st.Sends {
		s := &sent{to: int(snd.To), msg: snd.Msg}
		to := w.nodes[s.to]
		switch {
		case w.cfg.Channels == model.Set:
		case rec.Event == tracelog.Start && to.crashedAt > 0:
			// sent at start-up, which the model's initial world holds:
			// in flight since before the receiver's crash
			s.dropped = fmt.Sprintf("n%d crashed (%s:%d) while it was in flight: the model drops the messages in flight to a node that crashes", s.to, to.file, to.crashedAt)
		case to.crashed:
			s.dropped = fmt.Sprintf("n%d was down when it was sent (it crashed at %s:%d): the model loses a message to a node that is down", s.to, to.file, to.crashedAt)
		default:
			to.inFlight = append(to.inFlight, s)
		}
		out = append(out, s)
	}
	w.sends[[2]int{i, rec.Clock[i]}] = out
}

// sentText lists what node i's event e sent, for a discrepancy.
func (w *Watcher) sentText(i, e int) string {
	ss := w.sends[[2]int{i, e}]
	if len(ss) == 0 {
		return "nothing"
	}
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("%s to n%d", w.m.MessageText(s.msg), s.to))
	}
	return strings.Join(parts, ", ")
}

// judge judges the properties in the world the run has reached, after
// event k of order (-1: the initial world), and stops at a violation.
func (w *Watcher) judge(k int) {
	prop, detail, err := w.follow.Judge()
	at := Place{Node: -1, Event: "start-up"}
	if k >= 0 {
		t := w.order[k]
		at = placeOf(t.rec, w.nodes[t.node].file)
	}
	switch {
	case err != nil:
		w.stopAt(at, "judging the properties", err)
	case prop != "":
		w.violation(prop, detail, k)
	}
}

// stopAt stops at a problem of the model's met at place at: a fault of a
// handler, a monitor or a property (err wraps a *checker.Fault), or a step
// the model cannot take.
func (w *Watcher) stopAt(at Place, doing string, err error) {
	d := &Discrepancy{Place: at, What: doing + ": " + err.Error()}
	if errors.As(err, &d.Fault) {
		d.What = "the model faults: " + d.Fault.Error()
	}
	w.stop(d)
}

func (w *Watcher) stop(d *Discrepancy) {
	w.report.Discrepancy, w.stopped = d, true
}

// violation stops at property prop's violation after event k (-1: in
// the initial world), and shows it by the causal past of event k when
// the property fails there too, else by the whole run to it.
func (w *Watcher) violation(prop, detail string, k int) {
	w.stopped = true
	t := w.follow.Trace()
	t.Property, t.Detail = prop, detail
	w.report.Violation = t
	if k < 0 {
		w.report.Notes = append(w.report.Notes, fmt.Sprintf("%s fails in the initial world, every node started", prop))
		return
	}
	ev := w.order[k]
	at := placeOf(ev.rec, w.nodes[ev.node].file)
	w.report.ViolatedAt = &at
	past := w.causalPast(k)
	if cut, ok := w.followCut(past, prop); ok {
		w.report.Violation, w.report.CausalPast = cut, true
		w.report.Notes = append(w.report.Notes, fmt.Sprintf("%s fails at %s; the counterexample is its causal past: it and the events that happen before it, %d of the run's %d",
			prop, at, len(past), len(w.order)))
		return
	}
	w.report.Notes = append(w.report.Notes, fmt.Sprintf("%s fails at %s, and not in its causal past alone: the counterexample is the whole run to it, %d events",
		prop, at, len(w.order)))
}

// causalPast lists, in the order taken, the events that happen before
// event k of order, with it: a downward closed set, a consistent cut of
// the run.
func (w *Watcher) causalPast(k int) []int {
	in := map[int]bool{k: true}
	todo := []int{k}
	for len(todo) > 0 {
		t := w.order[todo[len(todo)-1]]
		todo = todo[:len(todo)-1]
		for _, p := range []int{t.prev, t.from} {
			if p >= 0 && !in[p] {
				in[p] = true
				todo = append(todo, p)
			}
		}
	}
	past := make([]int, 0, len(in))
	for p := range in {
		past = append(past, p)
	}
	sort.Ints(past)
	return past
}

// followCut follows the events of past, a consistent cut of the run, from
// the initial world, and returns its trace if prop fails in the world it
// reaches. A consistent cut is a run of the model of its own, but one in
// which a timeout or action may no longer stutter, or stutter where it
// did not: the Follower decides that afresh.
func (w *Watcher) followCut(past []int, prop string) (*checker.Trace, bool) {
	f, err := checker.Follow(w.m)
	if err != nil {
		return nil, false
	}
	in := map[int]bool{}
	for _, k := range past {
		in[k] = true
	}
	for _, k := range past {
		t := w.order[k]
		for j, d := range t.dups {
			if in[t.dupFrom[j]] {
				if _, err := f.Step(d); err != nil {
					return nil, false
				}
			}
		}
		if t.hasStep {
			if _, err := f.Step(t.step); err != nil {
				return nil, false
			}
		}
	}
	got, detail, err := f.Judge()
	if err != nil || got != prop {
		return nil, false
	}
	t := f.Trace()
	t.Property, t.Detail = got, detail
	return t, true
}

// Finish ends the run and returns the report. A record still waiting for
// its send is a discrepancy: the sender's log does not hold the send (or
// the receives wait on each other, which no run does).
func (w *Watcher) Finish() *Report {
	if w.bad != nil {
		return &Report{Discrepancy: &Discrepancy{Place: Place{Node: -1}, What: w.bad.Error()}}
	}
	w.finished = true
	w.takeReady()
	if !w.stopped {
		w.unsent()
	}
	if !w.stopped {
		w.notes()
	}
	r := w.report
	r.Nodes, r.Notes, r.NotJudged = slices.Clone(r.Nodes), slices.Clone(r.Notes), slices.Clone(r.NotJudged)
	return &r
}

// unsent reports the first receive, by node, whose send never came.
func (w *Watcher) unsent() {
	var waiting *tracelog.Logged
	for _, nd := range w.nodes {
		if len(nd.pending) == 0 {
			continue
		}
		rec := nd.pending[0]
		at := placeOf(rec, nd.file)
		sender := w.nodes[*rec.From]
		if sender.arrived < rec.Sent {
			held := "holds no event"
			if sender.arrived > 0 {
				held = fmt.Sprintf("ends at its event %d", sender.arrived)
			}
			if sender.file == "" {
				held = "is empty or missing"
			}
			w.stop(&Discrepancy{Place: at, What: fmt.Sprintf("receives a message from n%d's event %d, which n%d's log does not hold (it %s)", *rec.From, rec.Sent, *rec.From, held)})
			return
		}
		if waiting == nil {
			waiting = &rec
		}
	}
	if waiting != nil {
		nd := w.nodes[waiting.Node]
		w.stop(&Discrepancy{Place: placeOf(*waiting, nd.file), What: fmt.Sprintf("receives a message from n%d's event %d, which waits in turn, with the receives it needs, on this one: the logs' receives wait on each other, which no run does",
			*waiting.From, waiting.Sent)})
	}
}

// notes says what the check of a run that passed leaves out.
func (w *Watcher) notes() {
	for i, nd := range w.nodes {
		if nd.arrived == 0 {
			w.report.Notes = append(w.report.Notes, fmt.Sprintf("n%d left no log: the model starts it with the others all the same", i))
		}
	}
	var eventually []string
	for _, p := range w.m.Properties() {
		if p.When == properties.Eventually {
			eventually = append(eventually, p.Name)
		}
	}
	if len(eventually) == 0 {
		return
	}
	if quiescent, err := w.follow.Quiescent(); err == nil && quiescent {
		w.report.Notes = append(w.report.Notes, fmt.Sprintf("the run ends quiescent, nothing left to happen but faults: %s judged there, where it ends", strings.Join(eventually, ", ")))
		return
	}
	w.report.NotJudged = eventually
	w.report.Notes = append(w.report.Notes, fmt.Sprintf("not judged: %s, which a finite run that stops while events are still enabled (messages in flight, timers armed, actions enabled) can neither show nor refute", strings.Join(eventually, ", ")))
}

// Check checks the logs of a finished run with a Watcher of m (see New),
// taking the records of every node in the order they were logged.
func Check(m *checker.Machine, run *tracelog.Run) (*Report, error) {
	w := New(m, run.N)
	// the earliest logged first, each node's in the order of its log
	// (whose times may go back, if its clock did)
	next := make([]int, run.N)
	for {
		i := -1
		for j, recs := range run.Nodes {
			if next[j] < len(recs) && (i < 0 || recs[next[j]].Time.Before(run.Nodes[i][next[i]].Time)) {
				i = j
			}
		}
		if i < 0 {
			break
		}
		if err := w.Add(run.Nodes[i][next[i]], run.Files[i]); err != nil {
			return nil, err
		}
		next[i]++
	}
	return w.Finish(), nil
}
