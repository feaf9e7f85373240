package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/tracelog"
)

// Report is what a Watcher found in a run's logs: nothing (OK), or the
// first problem, a discrepancy between a log and the model or a property
// the run violates.
type Report struct {
	// Events counts the events taken, every node's; Nodes, each node's.
	// A run stopped at a problem counts those taken before it.
	Events int
	Nodes  []int
	// Discrepancy: a node's log does not do what the model does, or the
	// run is not one the model's configuration allows.
	Discrepancy *Discrepancy
	// Violation: the run violates Violation.Property, at the event
	// ViolatedAt names (nil: in the initial world). The trace is a run of
	// the model: the causal past of that event (CausalPast), the events
	// that happen before it, when the property fails there too, or else
	// the whole run up to it.
	Violation  *checker.Trace
	ViolatedAt *Place
	CausalPast bool
	// NotJudged names the eventually-properties a run that passed leaves
	// unjudged: it stops with events still enabled (see the package doc).
	NotJudged []string
	// Notes say what the check could not judge, and how it showed the
	// violation.
	Notes []string
}

// OK reports whether the logs agree with the model and no property fails.
func (r *Report) OK() bool { return r.Discrepancy == nil && r.Violation == nil }

// Place is one event of a node's log: the line of its file, and the event
// as text ("receive {"K":0} from n1", "timeout answer", "crash"). A
// problem at start-up has no file; one of no node's (a monitor's) has
// Node -1.
type Place struct {
	Node  int
	File  string
	Line  int
	Event string
}

// String is "n2: n2.jsonl:17: timeout answer", leaving out what p has not.
func (p Place) String() string {
	var parts []string
	if p.Node >= 0 {
		parts = append(parts, fmt.Sprintf("n%d", p.Node))
	}
	if p.File != "" {
		parts = append(parts, fmt.Sprintf("%s:%d", p.File, p.Line))
	}
	if p.Event != "" {
		parts = append(parts, p.Event)
	}
	return strings.Join(parts, ": ")
}

// Discrepancy is an event of a node's log whose effects, or whose place in
// the run, the model does not have: What says how, as "logged ..., the
// model ...". Fault is set when a handler of the model failed on the
// event (a panic, nondeterminism, a misuse of its context).
type Discrepancy struct {
	Place
	What  string
	Fault *checker.Fault
}

// String is the discrepancy on one line: "n2: n2.jsonl:17: receive
// {"K":0} from n0: logged ..., the model ...".
func (d *Discrepancy) String() string {
	if at := d.Place.String(); at != "" {
		return at + ": " + d.What
	}
	return d.What
}

// placeOf is the place of record r, read from file.
func placeOf(r tracelog.Logged, file string) Place {
	return Place{Node: r.Node, File: file, Line: r.Line, Event: eventText(r.Record)}
}

// eventText is a record's event as text: a received message as its JSON
// on one line.
func eventText(r tracelog.Record) string {
	switch r.Event {
	case tracelog.Receive:
		return fmt.Sprintf("receive %s from n%d", compact(r.Msg), *r.From)
	case tracelog.Timeout:
		return "timeout " + r.Timer
	case tracelog.Action:
		return "action " + r.Action
	}
	return r.Event
}

// compact is JSON b on one line, without spaces: as it was logged if it
// is no JSON.
func compact(b json.RawMessage) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return string(b)
	}
	return out.String()
}
