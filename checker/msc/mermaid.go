package msc

import (
	"fmt"
	"io"
	"strings"
)

// Mermaid writes the layout as a Mermaid sequenceDiagram, headed by the
// comment lines of header (a description of the run, say). Each event is
// numbered as in vigil's text trace: a delivery is an arrow from its sender
// drawn where it arrives, labelled with the step that sent it; a lost
// message is an arrow ending in a cross, and one lost to a crash or a
// partition a dotted one where it was lost; a message still in flight when
// the run stops, a dotted arrow ending in a cross after the last step. Other
// events are notes on the lifelines they concern; a cycle that repeats
// forever is a loop; the violation (or fault) closes the chart, shaded.
func Mermaid(w io.Writer, l *Layout, header ...string) error {
	b := &strings.Builder{}
	for _, h := range header {
		for line := range strings.SplitSeq(h, "\n") {
			fmt.Fprintf(b, "%%%% %s\n", line)
		}
	}
	b.WriteString("sequenceDiagram\n")
	for i := range l.N {
		fmt.Fprintf(b, "    participant n%d\n", i)
	}
	t := l.Trace
	for i, obs := range t.StartObserved {
		if len(obs) > 0 {
			fmt.Fprintf(b, "    Note right of n%d: start-up: observed %s\n", i, text(strings.Join(obs, ", ")))
		}
	}
	loop := len(t.Events) - t.Cycle
	for i, ev := range t.Events {
		step := i + 1
		if t.Cycle > 0 && i == loop {
			fair := orDefault(t.Fairness, "weak") + " fairness"
			if t.Fairness == "none" {
				fair = "no fairness assumed"
			}
			fmt.Fprintf(b, "    loop the cycle repeats forever (%s)\n", fair)
		}
		if t.Hot > 0 && i == len(t.Events)-t.Hot {
			fmt.Fprintf(b, "    Note over %s: from here the obligation stays outstanding to the end, %d steps, past the hot bound of %d: a possible livelock, not a proof\n", l.all(), t.Hot, t.HotBound)
		}
		switch ev.Kind {
		case "deliver":
			a := l.Arrows[l.At[i]]
			fmt.Fprintf(b, "    n%d->>n%d: %d. %s%s\n", a.From, a.To, step, text(a.Msg), sentAt(a))
		case "lose":
			a := l.Arrows[l.At[i]]
			fmt.Fprintf(b, "    n%d-xn%d: %d. lost: %s%s\n", a.From, a.To, step, text(a.Msg), sentAt(a))
		case "duplicate":
			fmt.Fprintf(b, "    Note over %s: %d. the network duplicates %s\n", span(ev.From, ev.Node), step, text(ev.Msg))
		case "timeout":
			fmt.Fprintf(b, "    Note over n%d: %d. timeout %s\n", ev.Node, step, text(ev.Timer))
		case "action":
			fmt.Fprintf(b, "    Note over n%d: %d. %s\n", ev.Node, step, text(ev.Action))
		case "crash":
			fmt.Fprintf(b, "    rect rgb(255, 236, 236)\n    Note over n%d: %d. CRASH\n    end\n", ev.Node, step)
		case "recover":
			fmt.Fprintf(b, "    Note over n%d: %d. recovers\n", ev.Node, step)
		case "partition":
			fmt.Fprintf(b, "    Note over %s: %d. partition %s\n", l.all(), step, text(ev.Groups))
		case "heal":
			fmt.Fprintf(b, "    Note over %s: %d. the network heals\n", l.all(), step)
		case "tick":
			fmt.Fprintf(b, "    Note over %s: %d. a tick of the clock\n", l.all(), step)
		case "traitor":
			fmt.Fprintf(b, "    rect rgb(255, 236, 236)\n    Note over n%d: %d. TURNS TRAITOR\n    end\n", ev.Node, step)
		default:
			fmt.Fprintf(b, "    Note over n%d: %d. %s\n", ev.Node, step, text(ev.Kind))
		}
		if len(ev.Observed) > 0 {
			fmt.Fprintf(b, "    Note right of n%d: observed %s\n", ev.Node, text(strings.Join(ev.Observed, ", ")))
		}
		for _, a := range l.LostAt(step) {
			fmt.Fprintf(b, "    n%d--xn%d: %s%s, lost: %s\n", a.From, a.To, text(a.Msg), sentAt(a), text(a.Cause))
		}
		if t.Cycle > 0 && step == len(t.Events) {
			b.WriteString("    end\n")
		}
	}
	fate := "still in flight" // the violation cut the run short
	if t.Quiescent || t.Cycle > 0 {
		fate = "never delivered"
	}
	for _, a := range l.Undelivered() {
		fmt.Fprintf(b, "    n%d--xn%d: %s%s, %s\n", a.From, a.To, text(a.Msg), sentAt(a), fate)
	}
	end := fmt.Sprintf("%s fails: %s", t.Property, t.Detail)
	switch {
	case t.Fault != "":
		end = "fault: " + t.Fault
	case t.Cycle == 0 && t.Quiescent:
		end += " (the run is over)"
	}
	fmt.Fprintf(b, "    rect rgb(255, 214, 214)\n    Note over %s: %s\n    end\n", l.all(), text(end))
	_, err := io.WriteString(w, b.String())
	return err
}

// all is the span of every lifeline.
func (l *Layout) all() string { return span(0, l.N-1) }

// span is a note's place over lifelines i and j.
func span(i, j int) string {
	if i == j {
		return fmt.Sprintf("n%d", i)
	}
	return fmt.Sprintf("n%d,n%d", min(i, j), max(i, j))
}

func sentAt(a Arrow) string {
	switch {
	case a.Copy:
		return fmt.Sprintf(" (a copy made at %d)", a.Sent)
	case a.Sent == 0:
		return " (sent at start-up)"
	}
	return fmt.Sprintf(" (sent at %d%s)", a.Sent, a.forgery())
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// text escapes what Mermaid reads as syntax in a label: '#' starts an
// entity, ';' ends a statement, '<' and '>' open HTML, and a label is one
// line.
var text = strings.NewReplacer("#", "#35;", ";", "#59;", "<", "#lt;", ">", "#gt;", "\n", " ").Replace
