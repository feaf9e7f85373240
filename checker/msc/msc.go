// Package msc lays out a counterexample as a message-sequence chart: one
// lifeline per node, an arrow from each send to its delivery (or to its
// loss, or to nowhere when the run ends first), and a mark for every other
// event of the run: timeouts, local actions, crashes, recoveries,
// partitions, heals and what the nodes observed. Layout is the chart's
// model; Mermaid writes it as Mermaid text, and vigil's HTML report draws it
// as SVG.
package msc

import (
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
	Lost bool // lost by the network (a lose event), not delivered
	Copy bool // a copy the network made (a duplicate event)
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
	send := func(a Arrow) {
		k := key{a.From, a.To, a.Msg}
		inFlight[k] = append(inFlight[k], len(l.Arrows))
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
		}
		for _, s := range ev.Sent {
			send(Arrow{From: s.From, To: s.To, Msg: s.Msg, Sent: step})
		}
	}
	return l
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
