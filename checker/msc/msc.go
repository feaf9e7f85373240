// Package msc lays out a counterexample as a message-sequence chart: one
// lifeline per node, an arrow from each send to its delivery (or to its
// loss, or to nowhere when the run ends first), and a mark for every other
// event of the run: timeouts, local actions, crashes, recoveries,
// partitions, heals, nodes turning traitor and what the nodes observed. A
// traitor's lie is drawn as the message it sent, labelled with the one its
// handler wrote. Layout is the chart's
// model; Mermaid writes it as Mermaid text, and vigil's HTML report draws it
// as SVG.
package msc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-check/vigil/checker"
)

// Arrow is one message: who sent it to whom, when it was sent and what
// became of it. Steps count the trace's events from 1; 0 is start-up.
type Arrow struct {
	From, To int
	Msg      string
	Sent     int // the step that sent it (0: start-up); for a copy, the step that made it
	// End is the step that delivered or lost it; 0: the run ended with
	// the message still in flight.
	End  int
	Lost bool // not delivered: lost by the network, a crash or a cut
	// Cause says why a message was lost other than by a lose event: its
	// receiver crashed while it was in flight, or was down when it was
	// sent, or a partition cut it off ("" for a lose event).
	Cause string
	Copy  bool // a copy the network made (a duplicate event)
	// Written: a traitor's lie, the message its handler wrote, which it
	// sent Msg in place of ("" for any other message).
	Written string
}

// forgery says what a traitor's lie replaced: ", forged in place of
// attack"; "" for any other message.
func (a Arrow) forgery() string {
	if a.Written == "" {
		return ""
	}
	return fmt.Sprintf(", forged by traitor n%d in place of %s", a.From, a.Written)
}

// Delivered reports whether the arrow's message reached its receiver.
func (a Arrow) Delivered() bool { return a.End > 0 && !a.Lost }

// Layout is a trace laid out as a chart.
type Layout struct {
	Trace  *checker.Trace
	N      int     // lifelines: the nodes n0 … n(N-1)
	Arrows []Arrow // in the order sent
	// At[k] is the arrow that step k+1 delivered or lost, or -1.
	At []int
}

// New lays t out. Each delivery is matched with the earliest message of
// the same sender, receiver and text still in flight, as the network
// delivers copies of one message interchangeably.
func New(t *checker.Trace) *Layout {
	l := &Layout{Trace: t, N: len(t.Initial), At: make([]int, len(t.Events))}
	type key struct {
		from, to int
		msg      string
	}
	inFlight := map[key][]int{} // arrow indices, oldest first
	down := make([]bool, l.N)
	var side []int // each node's side of the partition; nil: the network is whole
	apart := func(i, j int) bool { return side != nil && side[i] != side[j] }
	// drop loses, at step, every message in flight that cut says is lost
	drop := func(step int, cause string, cut func(a Arrow) bool) {
		for k, q := range inFlight {
			kept := q[:0:0]
			for _, i := range q {
				if a := &l.Arrows[i]; cut(*a) {
					a.End, a.Lost, a.Cause = step, true, cause
				} else {
					kept = append(kept, i)
				}
			}
			inFlight[k] = kept
		}
	}
	send := func(a Arrow) {
		switch {
		case down[a.To]: // as the network does: a message to a node that is down is lost
			a.End, a.Lost, a.Cause = a.Sent, true, fmt.Sprintf("n%d is down", a.To)
		case apart(a.From, a.To):
			a.End, a.Lost, a.Cause = a.Sent, true, "the partition cuts it off"
		default:
			k := key{a.From, a.To, a.Msg}
			inFlight[k] = append(inFlight[k], len(l.Arrows))
		}
		l.Arrows = append(l.Arrows, a)
	}
	for _, s := range t.Start {
		send(Arrow{From: s.From, To: s.To, Msg: s.Msg})
	}
	for i, ev := range t.Events {
		step := i + 1
		l.At[i] = -1
		switch ev.Kind {
		case "deliver", "lose":
			k := key{ev.From, ev.Node, ev.Msg}
			if q := inFlight[k]; len(q) > 0 {
				l.At[i], inFlight[k] = q[0], q[1:]
			} else {
				// a message the trace does not say was sent (a trace file
				// written before sends were recorded): drawn from this step
				l.At[i] = len(l.Arrows)
				l.Arrows = append(l.Arrows, Arrow{From: ev.From, To: ev.Node, Msg: ev.Msg, Sent: step})
			}
			a := &l.Arrows[l.At[i]]
			a.End, a.Lost = step, ev.Kind == "lose"
		case "duplicate":
			send(Arrow{From: ev.From, To: ev.Node, Msg: ev.Msg, Sent: step, Copy: true})
		case "crash":
			down[ev.Node] = true
			drop(step, fmt.Sprintf("n%d crashed", ev.Node), func(a Arrow) bool { return a.To == ev.Node })
		case "recover":
			down[ev.Node] = false
		case "partition":
			side = sides(l.N, ev.Groups)
			drop(step, "the partition cut it off", func(a Arrow) bool { return apart(a.From, a.To) })
		case "heal":
			side = nil
		}
		for _, s := range ev.Sent {
			a := Arrow{From: s.From, To: s.To, Msg: s.Msg, Sent: step}
			if s.Forged() {
				a.Written = s.Written
			}
			send(a)
		}
	}
	return l
}

// sides reads a partition's groups, "n0 n2 | n1", as each node's side.
func sides(n int, groups string) []int {
	side := make([]int, n)
	for g, part := range strings.Split(groups, "|") {
		for f := range strings.FieldsSeq(part) {
			if i, err := strconv.Atoi(strings.TrimPrefix(f, "n")); err == nil && i >= 0 && i < n {
				side[i] = g
			}
		}
	}
	return side
}

// LostAt returns the arrows that step lost by a crash or a cut, or that
// were lost as the step sent them.
func (l *Layout) LostAt(step int) []Arrow {
	var out []Arrow
	for _, a := range l.Arrows {
		if a.Cause != "" && a.End == step {
			out = append(out, a)
		}
	}
	return out
}

// Undelivered returns the arrows whose messages were still in flight when
// the run ended.
func (l *Layout) Undelivered() []Arrow {
	var out []Arrow
	for _, a := range l.Arrows {
		if a.End == 0 {
			out = append(out, a)
		}
	}
	return out
}
