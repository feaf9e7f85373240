// Package tracelog writes and reads the logs of real runs of a protocol:
// one file per node, one JSON object per line, one line per event the node
// took (it started, received a message, a timer fired, it took a local
// action, it crashed, it recovered) with the effects of that event (the
// messages it sent, the timers it set and cancelled, what it observed) and
// a vector clock. vigil validate replays such a log through a protocol's
// model: every node's handlers must produce exactly the logged effects, and
// the run, in an order consistent with happens-before, must keep the
// properties.
//
// vigil's runtime writes these logs for the nodes it runs. A service that is
// not built on it writes them with a Logger, from its own code: it calls
// Start, Receive, Timeout, Action or Recover as an event begins, records the
// event's effects on the Entry, and closes the Entry when the event is done.
// The Stamp that Entry.Send returns travels with the message, so that the
// receiver's Receive can name the send it takes.
//
// A line is a Record; see its fields for the format.
package tracelog

import (
	"encoding/json"
	"fmt"
	"time"
)

// The kinds of event (Record.Event).
const (
	Start   = "start"   // the node started: the model's Init
	Receive = "receive" // a message arrived: From, Sent, Msg
	Timeout = "timeout" // a timer fired: Timer
	Action  = "action"  // a local action: Action
	Crash   = "crash"   // the node stopped (written by whoever saw it stop)
	Recover = "recover" // the node restarted after a crash: the model's Recover
)

// Record is one line of a node's log: one event and its effects.
type Record struct {
	// Node is the node's id, 0..N-1; Clock its vector clock after the
	// event, N entries: Clock[Node] counts the node's events, this one
	// included, across restarts; Clock[j] the events of node j that
	// happen before this one.
	Node  int   `json:"node"`
	Clock []int `json:"clock"`
	// PID is the process that took the event (of the process that
	// stopped, for a crash); Time when it did, read by people only.
	PID  int       `json:"pid,omitempty"`
	Time time.Time `json:"time"`
	// Event is the kind of event: Start, Receive, Timeout, Action, Crash
	// or Recover.
	Event string `json:"event"`
	// From, Sent and Msg: a receive's sender, the sender's event that
	// sent the message (its Clock[From]), and the message, as the JSON of
	// the model's message type.
	From *int            `json:"from,omitempty"`
	Sent int             `json:"sent,omitempty"`
	Msg  json.RawMessage `json:"msg,omitempty"`
	// Timer: the timer that fired, as the model prints it (%v); Action:
	// the local action taken, as the model prints it.
	Timer  string `json:"timer,omitempty"`
	Action string `json:"action,omitempty"`
	// The event's effects, each kind in the order they were made.
	Sends    []Send    `json:"sends,omitempty"`
	Timers   []TimerOp `json:"timers,omitempty"`
	Observed []string  `json:"observed,omitempty"`
	// State, if logged, is the node's state after the event, as the JSON
	// of the model's state type. vigil's runtime recovers a restarted
	// node from it; validate does not compare it, since a service's own
	// state need not be the model's.
	State json.RawMessage `json:"state,omitempty"`
}

// Send is a message sent: its receiver and the JSON of the model's message.
type Send struct {
	To  int             `json:"to"`
	Msg json.RawMessage `json:"msg"`
}

// TimerOp is a timer set (Op "set", with the nodes it waits on or the
// ticks it waits for, as the model's SetTimer and SetTimerAfter take them)
// or cancelled (Op "cancel"). Timer is as the model prints it (%v).
type TimerOp struct {
	Op     string `json:"op"`
	Timer  string `json:"timer"`
	WaitOn []int  `json:"wait_on,omitempty"`
	Ticks  int    `json:"ticks,omitempty"`
}

// Stamp goes with a message from its sender to its receiver: the sender,
// its event that sent the message, and its vector clock then.
type Stamp struct {
	From  int   `json:"from"`
	Event int   `json:"event"`
	Clock []int `json:"clock"`
}

// Check reports what makes r malformed in a run of n nodes: a node or a
// sender outside 0..n-1, a clock of another length or that does not count
// the event, an unknown event, a field missing or out of place for its
// event.
func (r *Record) Check(n int) error {
	node := func(i int) bool { return i >= 0 && i < n }
	switch {
	case !node(r.Node):
		return fmt.Errorf("node %d is outside 0..%d", r.Node, n-1)
	case len(r.Clock) != n:
		return fmt.Errorf("the clock has %d entries for %d nodes", len(r.Clock), n)
	case r.Clock[r.Node] < 1:
		return fmt.Errorf("the clock's own entry is %d: it counts the node's events, this one included", r.Clock[r.Node])
	}
	for j, c := range r.Clock {
		if c < 0 {
			return fmt.Errorf("the clock's entry for n%d is negative", j)
		}
	}
	receive := r.Event == Receive
	switch {
	case receive && (r.From == nil || !node(*r.From)):
		return fmt.Errorf("a receive needs a sender in 0..%d", n-1)
	case receive && (r.Sent < 1 || r.Sent > r.Clock[*r.From]):
		return fmt.Errorf("a receive from n%d names its send as event %d, which its clock (%d) does not hold", *r.From, r.Sent, r.Clock[*r.From])
	case receive && len(r.Msg) == 0:
		return fmt.Errorf("a receive needs the message")
	case !receive && (r.From != nil || r.Sent != 0 || len(r.Msg) != 0):
		return fmt.Errorf("a %s has no sender or message", r.Event)
	case (r.Event == Timeout) != (r.Timer != ""):
		return fmt.Errorf("a timer belongs to a timeout, and a timeout needs one")
	case (r.Event == Action) != (r.Action != ""):
		return fmt.Errorf("an action name belongs to an action event, and an action event needs one")
	}
	switch r.Event {
	case Start, Receive, Timeout, Action, Recover:
	case Crash:
		if len(r.Sends)+len(r.Timers)+len(r.Observed) > 0 || len(r.State) != 0 {
			return fmt.Errorf("a crash has no effects")
		}
	default:
		return fmt.Errorf("unknown event %q", r.Event)
	}
	for _, s := range r.Sends {
		if !node(s.To) || len(s.Msg) == 0 {
			return fmt.Errorf("a send to %d: needs a receiver in 0..%d and a message", s.To, n-1)
		}
	}
	for _, t := range r.Timers {
		if t.Op != "set" && t.Op != "cancel" || t.Timer == "" {
			return fmt.Errorf("a timer operation needs op set or cancel and a timer, not %q %q", t.Op, t.Timer)
		}
		for _, j := range t.WaitOn {
			if !node(j) {
				return fmt.Errorf("timer %s waits on node %d, outside 0..%d", t.Timer, j, n-1)
			}
		}
	}
	return nil
}
