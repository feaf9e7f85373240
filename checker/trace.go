package checker

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Trace is a counterexample: a run from the initial world to a world that
// violates Property. It is self-describing (events name messages, timers and
// actions by their text), so it replays on a fresh Machine of the same
// protocol and scenario.
type Trace struct {
	Property string `json:"property"`
	Detail   string `json:"detail"`
	// Quiescent: the last world is the end of a complete run.
	Quiescent bool `json:"quiescent,omitempty"`
	// Cycle: the last Cycle events form a cycle, back to the world they
	// start from, that the run can go round forever (a lasso: a liveness
	// counterexample).
	Cycle int `json:"cycle,omitempty"`
	// Fairness under which the cycle is fair (see checker.Fairness).
	Fairness string `json:"fairness,omitempty"`
	// Hot: the last Hot events are a stretch of a random walk through
	// which the obligation Detail names stayed outstanding, more than
	// HotBound steps (RandomOptions.HotBound): a possible livelock, not
	// a proof. Repeats is the shortest sequence of events, by node and
	// kind, that repeats back to back to the end of the stretch,
	// RepeatTimes times (nil when none covers half of it), and HotEvents
	// the stretch's events by kind, the most frequent first.
	Hot         int          `json:"hot,omitempty"`
	HotBound    int          `json:"hot_bound,omitempty"`
	Repeats     []string     `json:"repeats,omitempty"`
	RepeatTimes int          `json:"repeat_times,omitempty"`
	HotEvents   []EventCount `json:"hot_events,omitempty"`
	Initial     []NodeState  `json:"initial"`
	// Start: the messages the nodes sent as they started up, and
	// StartObserved what each node (by id) observed then.
	Start         []Send      `json:"start,omitempty"`
	StartObserved [][]string  `json:"start_observed,omitempty"`
	Events        []TraceStep `json:"events"`
	// Seed of the random walk that found it (random mode only).
	Seed *uint64 `json:"seed,omitempty"`
	// ShrinkCut: shrinking stopped at its time budget
	// (RandomOptions.ShrinkTime), so a shorter run may exist.
	ShrinkCut bool `json:"shrink_cut,omitempty"`
	// Fault, instead of Property and Detail, says how a handler or monitor
	// failed at the end of the run (see checker.Fault); FaultInStep: in the
	// last event's step, which changed nothing, rather than while listing
	// the events of the last world.
	Fault       string `json:"fault,omitempty"`
	FaultInStep bool   `json:"fault_in_step,omitempty"`
	// Witness: the run is a sometimes-property's witness, which reaches
	// its goal (Detail), not a counterexample.
	Witness bool `json:"witness,omitempty"`
}

// TraceStep is one event of a trace and the nodes it changed.
type TraceStep struct {
	Kind   string `json:"kind"`             // deliver, timeout, action, crash, recover, partition, heal, lose, duplicate, tick, traitor
	Node   int    `json:"node"`             // deliver, lose, duplicate: the receiver; partition: the first node of the arc cut away
	From   int    `json:"from,omitempty"`   // deliver, lose, duplicate: the sender; partition: the arc's last node
	Groups string `json:"groups,omitempty"` // partition: the groups after the cut
	Msg    string `json:"msg,omitempty"`
	// Pos: lose, under FIFO channels: the lost message's place in its
	// channel, 0 for the oldest (any message of a channel may be lost).
	Pos int `json:"pos,omitempty"`
	// Age: under bounded timing, the ticks a delivered message spent in
	// flight; copies of one message of different ages are different
	// deliveries.
	Age     int         `json:"age,omitempty"`
	Timer   string      `json:"timer,omitempty"`
	Action  string      `json:"action,omitempty"`
	Changes []NodeState `json:"changes,omitempty"`
	// Observed: what the acting node reported to the properties in this
	// step (a delivery, an election, an entry), as text.
	Observed []string `json:"observed,omitempty"`
	// Sent: the messages the acting node sent in this step, in order.
	Sent []Send `json:"sent,omitempty"`
	// Traitor: the acting node is a traitor (see model.Forger), and Sent
	// holds what it chose to send, each with what its handler wrote.
	// Replay reads Sent of such a step, for it tells the choices apart.
	Traitor bool `json:"traitor,omitempty"`
}

// Send is a message sent, as text: replay does not read it (but of a
// traitor's step), and a chart of the run draws an arrow from it to its
// delivery.
type Send struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Msg  string `json:"msg"`
	// Written: sent by a traitor, the message its handler wrote, which it
	// sent as is or replaced by Msg.
	Written string `json:"written,omitempty"`
}

// Forged reports whether a traitor sent s in place of what its handler
// wrote.
func (s Send) Forged() bool { return s.Written != "" && s.Written != s.Msg }

// String says what a traitor sent: "n2 (traitor) sends retreat to n1 in
// place of attack", or "... as written".
func (s Send) String() string {
	if s.Forged() {
		return fmt.Sprintf("n%d (traitor) sends %s to n%d in place of %s", s.From, s.Msg, s.To, s.Written)
	}
	return fmt.Sprintf("n%d (traitor) sends %s to n%d as written", s.From, s.Msg, s.To)
}

// sends lists a step's sends by node from.
func sends(m *sim.Machine, from int, step *sim.Step) []Send {
	if step == nil {
		return nil
	}
	var out []Send
	for _, x := range step.Sends {
		out = append(out, Send{From: from, To: int(sim.SendTo(x)), Msg: m.FormatMsg(sim.SendMsg(x))})
	}
	return out
}

// traitorSends lists what traitor from sent in step forged, written's
// choice of lies, beside what its handler wrote.
func traitorSends(m *sim.Machine, from int, written, forged *sim.Step) []Send {
	out := sends(m, from, forged)
	for i, x := range written.Sends {
		out[i].Written = m.FormatMsg(sim.SendMsg(x))
	}
	return out
}

// NodeState is a node's state as text.
type NodeState struct {
	Node  int    `json:"node"`
	Alive bool   `json:"alive"`
	State string `json:"state"`
}

// key identifies the event, leaving out the states it produced: of a
// traitor's step, what it sent too.
func (s TraceStep) key() string {
	k := fmt.Sprintf("%s|%d|%d|%s|%s|%s|%d|%d", s.Kind, s.Node, s.From, s.Msg, s.Timer, s.Action, s.Pos, s.Age)
	if s.Traitor {
		for _, x := range s.Sent {
			k += fmt.Sprintf("|%d:%s", x.To, x.Msg)
		}
	}
	return k
}

// String renders the event alone, e.g. "n1 → n2  election{rank:1}".
func (s TraceStep) String() string {
	switch s.Kind {
	case "deliver":
		if s.Age > 0 {
			return fmt.Sprintf("n%d → n%d  %s (sent %d ticks before)", s.From, s.Node, s.Msg, s.Age)
		}
		return fmt.Sprintf("n%d → n%d  %s", s.From, s.Node, s.Msg)
	case "tick":
		return "tick"
	case "timeout":
		return fmt.Sprintf("n%d  timeout %s", s.Node, s.Timer)
	case "action":
		return fmt.Sprintf("n%d  %s", s.Node, s.Action)
	case "partition":
		return "partition  " + s.Groups
	case "heal":
		return "heal"
	case "lose":
		if s.Pos > 0 {
			return fmt.Sprintf("lose  n%d → n%d  %s (message %d of the channel)", s.From, s.Node, s.Msg, s.Pos+1)
		}
		return fmt.Sprintf("lose  n%d → n%d  %s", s.From, s.Node, s.Msg)
	case "duplicate":
		return fmt.Sprintf("duplicate  n%d → n%d  %s", s.From, s.Node, s.Msg)
	case "traitor":
		return fmt.Sprintf("n%d  turns traitor", s.Node)
	}
	return fmt.Sprintf("n%d  %s", s.Node, s.Kind)
}

func describe(st *sim.Stepper, w sim.World, ev sim.Event) TraceStep {
	m := st.Machine()
	s := TraceStep{Kind: ev.Kind.String(), Node: int(ev.Node)}
	switch ev.Kind {
	case sim.Deliver:
		s.From, s.Msg, s.Age = int(ev.From), m.FormatMsg(ev.Arg), sim.AgeOf(ev.Arg)
	case sim.Timeout:
		s.Timer = fmt.Sprint(m.TimerName(ev.Arg))
	case sim.Act:
		s.Action = fmt.Sprint(m.ActionName(ev.Node, st.NodeState(w, ev.Node), ev.Arg))
	case sim.Partition:
		s.From = int(ev.From)
		next, _ := st.Apply(w, ev, nil)
		s.Groups = st.Groups(next)
	case sim.Lose:
		s.From, s.Msg = int(ev.From), m.FormatMsg(st.LostMessage(w, ev))
		if m.Config().Channels == model.FIFO {
			s.Pos = int(ev.Arg)
		}
	case sim.Duplicate:
		s.From, s.Msg = int(ev.From), m.FormatMsg(ev.Arg)
	}
	if written, forged, ok := st.TraitorStep(w, ev); ok {
		s.Traitor, s.Sent = true, traitorSends(m, s.Node, written, forged)
	}
	return s
}

func nodeState(st *sim.Stepper, w sim.World, i int) NodeState {
	m := st.Machine()
	rec := st.Nodes(w)[i]
	text := m.FormatState(st.NodeState(w, model.NodeID(i)))
	if t := m.FormatTimers(rec); t != "" {
		text += " " + t
	}
	return NodeState{Node: i, Alive: st.Alive(w, model.NodeID(i)), State: text}
}

// buildTrace replays events from the initial world and records, for each,
// the nodes it changed.
func buildTrace(m *sim.Machine, events []sim.Event) *Trace {
	st := m.NewStepper()
	w, steps := st.Init()
	t, w := replayEvents(st, w, events)
	startUp(t, m, steps)
	_, nproto := st.Enabled(w, nil)
	t.Quiescent = nproto == 0
	return t
}

// startUp records in t what the nodes' start-up steps sent and observed.
func startUp(t *Trace, m *sim.Machine, steps []*sim.Step) {
	for i, step := range steps {
		t.Start = append(t.Start, sends(m, i, step)...)
		if step != nil && len(step.Obs) > 0 {
			for len(t.StartObserved) < i {
				t.StartObserved = append(t.StartObserved, nil)
			}
			var obs []string
			for _, o := range step.Obs {
				obs = append(obs, o.String())
			}
			t.StartObserved = append(t.StartObserved, obs)
		}
	}
}

// replayEvents replays events from w, the initial world, and returns their
// trace and the last world.
func replayEvents(st *sim.Stepper, w sim.World, events []sim.Event) (*Trace, sim.World) {
	t := &Trace{}
	for i := range st.Machine().Config().N {
		t.Initial = append(t.Initial, nodeState(st, w, i))
	}
	var next sim.World
	for _, ev := range events {
		var step *sim.Step
		next, step = st.Apply(w, ev, next)
		t.Events = append(t.Events, traceStep(st, w, next, ev, step))
		w, next = next, w
	}
	return t, w
}

// traceStep is event ev, which took w to next with step, as a trace shows
// it: what the acting node observed and sent, and the nodes it changed.
func traceStep(st *sim.Stepper, w, next sim.World, ev sim.Event, step *sim.Step) TraceStep {
	s := describe(st, w, ev)
	if step != nil {
		for _, o := range step.Obs {
			s.Observed = append(s.Observed, o.String())
		}
		if !s.Traitor {
			s.Sent = sends(st.Machine(), s.Node, step)
		}
	}
	before, after := st.Nodes(w), st.Nodes(next)
	for i := range after {
		if before[i] != after[i] {
			s.Changes = append(s.Changes, nodeState(st, next, i))
		}
	}
	return s
}

// trace rebuilds the run to v: it follows parent links back to the initial
// world, then replays the recorded event positions forward.
func (e *search) trace(v violation, p *properties.Property) *Trace {
	path := e.pathTo(v.src)
	if v.pos >= 0 {
		path = append(path, uint32(v.pos))
	}
	for _, edge := range v.cycle { // an edge's position among its source's is its event's
		path = append(path, edge-e.g.start[e.g.source(edge)])
	}
	events := e.events(path)
	t := buildTrace(e.m, events)
	t.Property, t.Detail, t.Cycle = p.Name, v.detail, len(v.cycle)
	if e.sym != nil && t.Cycle == 0 {
		// the violation as the run's own last world shows it: the
		// representative's names other nodes
		st := e.m.NewStepper()
		w, _ := st.Init()
		for _, ev := range events {
			w, _ = st.Apply(w, ev, nil)
		}
		if d, f := judgeSafely(p, st.View(w), t.Quiescent); f == nil && d != "" {
			t.Detail = d
		}
	}
	if t.Cycle > 0 {
		t.Fairness = e.fair.String()
	}
	return t
}

// pathTo returns the positions, each among the enabled events of its
// world, of the events that lead from the initial world to state s.
func (e *search) pathTo(s int) []uint32 {
	var path []uint32
	for ; s != 0; s = int(e.parent[s]) {
		path = append(path, e.via[s])
	}
	slices.Reverse(path)
	return path
}

// events replays a path of event positions from the initial world. A
// search reduced by symmetry took each from a representative, whose
// successor's representative is the next: the run returned is one of
// worlds, each step the event of the world reached that leads to the
// next representative's family.
func (e *search) events(path []uint32) []sim.Event {
	st := e.m.NewStepper()
	w, _ := st.Init()
	world := w // the run's own, under symmetry
	var events []sim.Event
	for _, pos := range path {
		evs, _ := st.Enabled(w, nil)
		ev := evs[pos]
		w, _ = st.Apply(w, ev, nil)
		if e.sym != nil {
			w = st.Canonical(e.sym, w, nil)
			ev, world = stepInto(st, e.sym, world, w)
		}
		events = append(events, ev)
	}
	return events
}

// stepInto returns the event of world w, and the world it leads to, whose
// representative is rep.
func stepInto(st *sim.Stepper, sym *sim.Symmetry, w, rep sim.World) (sim.Event, sim.World) {
	evs, _ := st.Enabled(w, nil)
	for _, ev := range evs {
		next, _ := st.Apply(w, ev, nil)
		if slices.Equal(st.Canonical(sym, next, nil), rep) {
			return ev, next
		}
	}
	panic("checker: no step of the run leads to the family the search went to")
}

// Render writes t for a person: the initial states, then each event with
// the states of the nodes it changed.
func Render(out io.Writer, t *Trace) {
	if t.Fault != "" {
		fmt.Fprintf(out, "fault: %s\n", t.Fault)
	} else if t.Witness {
		fmt.Fprintf(out, "witness for %s: %s\n", t.Property, t.Detail)
	} else {
		fmt.Fprintf(out, "counterexample to %s: %s\n", t.Property, t.Detail)
	}
	if t.Seed != nil {
		fmt.Fprintf(out, "found by the random walk of seed %d\n", *t.Seed)
	}
	if t.ShrinkCut {
		fmt.Fprintf(out, "shrinking stopped at its time budget (-shrink-time): a shorter run may show it too\n")
	}
	if t.Fault != "" && len(t.Initial) == 0 {
		fmt.Fprintf(out, "  (at start-up: a node's Init or a monitor's Start)\n")
		return
	}
	fmt.Fprintf(out, "  initial:\n")
	for _, n := range t.Initial {
		fmt.Fprintf(out, "      n%d %s\n", n.Node, n.State)
	}
	loop := len(t.Events) - t.Cycle
	for i, s := range t.Events {
		if t.Cycle > 0 && i == loop {
			fmt.Fprintf(out, "  -- from here the run goes round a cycle forever --\n")
		}
		show, note := t.hotShown(i)
		if note != "" {
			fmt.Fprintln(out, note)
		}
		if !show {
			continue
		}
		fmt.Fprintf(out, "  %2d. %s\n", i+1, s)
		if t.FaultInStep && i == len(t.Events)-1 {
			break
		}
		if len(s.Changes) == 0 && len(s.Observed) == 0 && !(s.Traitor && len(s.Sent) > 0) {
			fmt.Fprintf(out, "      (no node changed)\n")
		}
		if s.Traitor {
			for _, x := range s.Sent {
				fmt.Fprintf(out, "      %s\n", x)
			}
		}
		for _, n := range s.Changes {
			state := n.State
			if !n.Alive {
				state = "CRASHED " + state
			}
			fmt.Fprintf(out, "      n%d %s\n", n.Node, state)
		}
		if len(s.Observed) > 0 {
			fmt.Fprintf(out, "      n%d observed: %s\n", s.Node, strings.Join(s.Observed, ", "))
		}
	}
	end := "  (violation in the last world)"
	switch {
	case t.Witness:
		end = "  (the goal is reached in the last world)"
	case t.Fault != "" && t.FaultInStep:
		end = "  (the fault is in this last step: nothing came of it)"
	case t.Fault != "":
		end = "  (the fault is in the last world, listing the events it enables)"
	case t.Cycle > 0:
		end = fmt.Sprintf("  (back to the world after step %d: the cycle repeats forever)", loop)
		if loop == 0 {
			end = "  (back to the initial world: the cycle repeats forever)"
		}
	case t.Hot > 0:
		end = t.hotEnd()
	case t.Quiescent:
		end = "  (the run is over: nothing but faults can happen)"
	}
	fmt.Fprintln(out, end)
}
