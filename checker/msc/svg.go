package msc

import (
	_ "embed"
	"fmt"
	"html"
	"io"
	"strings"
)

// Geometry of the SVG chart, in pixels: a row per step (row 0 is
// start-up), a column per node.
const (
	gutter  = 80 // left of the first column: step numbers and the cycle's bracket
	top     = 44 // the node names
	rowH    = 30
	noteGap = 8
	tail    = 1 // rows below the last step, where messages still in flight end
)

// colW is the width of a node's column: narrower as nodes grow, so that
// the chart stays readable up to a few dozen lifelines.
func (l *Layout) colW() int { return max(64, min(150, 960/max(1, l.N))) }

func (l *Layout) x(node int) int { return gutter + l.colW()/2 + node*l.colW() }
func (l *Layout) y(step int) int { return top + rowH/2 + step*rowH }

// Size is the SVG chart's width and height.
func (l *Layout) Size() (w, h int) {
	rows := len(l.Trace.Events) + 1 + tail
	return gutter + l.N*l.colW() + 220, top + rows*rowH + 56
}

// SVG writes the layout as an SVG chart drawn to scale: a lifeline per
// node, greyed and dashed while the node is down; each message a line from
// the row that sent it to the row that delivered it, slanted when it was in
// flight across several steps; a lost message ends in a cross, one still
// in flight runs to the chart's foot; partitions are bands, from the cut
// to the heal; a cycle that repeats forever is bracketed; the violation is
// the last row. Every row is a group with class "row" and attribute
// data-step (0: start-up), so that a page can highlight a step.
func SVG(w io.Writer, l *Layout) error {
	b := &strings.Builder{}
	t := l.Trace
	width, height := l.Size()
	last := len(t.Events)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="msc" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	b.WriteString(`<defs>` +
		`<marker id="msc-head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f4e8c"/></marker>` +
		`<marker id="msc-cross" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="11" markerHeight="11" markerUnits="userSpaceOnUse"><path d="M1,1 L9,9 M9,1 L1,9" stroke="#b3261e" stroke-width="2"/></marker>` +
		`</defs>` + "\n")

	// rows: a highlight band and the step's number
	for k := 0; k <= last; k++ {
		label := fmt.Sprint(k)
		if k == 0 {
			label = "start"
		}
		fmt.Fprintf(b, `<g class="row" data-step="%d"><rect class="band" x="0" y="%d" width="%d" height="%d"/><text class="num" x="%d" y="%d" text-anchor="end">%s</text></g>`+"\n",
			k, l.y(k)-rowH/2, width, rowH, gutter-40, l.y(k)+4, label)
	}

	// partitions: a band from the cut to the heal (or the chart's end)
	cut := -1
	band := func(from, to int, groups string) {
		fmt.Fprintf(b, `<g class="partition"><rect x="%d" y="%d" width="%d" height="%d"/><text x="%d" y="%d">partition %s</text></g>`+"\n",
			gutter, l.y(from), l.N*l.colW(), l.y(to)-l.y(from), gutter+4, l.y(from)+14, esc(groups))
	}
	groups := ""
	for i, ev := range t.Events {
		switch ev.Kind {
		case "partition":
			if cut >= 0 {
				band(cut, i+1, groups)
			}
			cut, groups = i+1, ev.Groups
		case "heal":
			if cut >= 0 {
				band(cut, i+1, groups)
			}
			cut = -1
		}
	}
	if cut >= 0 {
		band(cut, last+tail, groups)
	}

	// lifelines, dashed while the node is down
	for i := range l.N {
		x := l.x(i)
		fmt.Fprintf(b, `<g class="node" data-node="%d"><rect x="%d" y="6" width="%d" height="24" rx="4"/><text x="%d" y="22" text-anchor="middle">n%d</text></g>`+"\n",
			i, x-l.colW()/2+8, l.colW()-16, x, i)
		from, up := 0, true
		seg := func(to int) {
			class := "life"
			if !up {
				class = "life down"
			}
			fmt.Fprintf(b, `<line class="%s" x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", class, x, l.y(from)-rowH/2, x, l.y(to)-rowH/2)
		}
		for k, ev := range t.Events {
			if ev.Node != i || (ev.Kind != "crash" && ev.Kind != "recover") {
				continue
			}
			seg(k + 1)
			from, up = k+1, ev.Kind == "recover"
		}
		seg(last + tail + 1)
	}

	// messages
	for _, a := range l.Arrows {
		l.arrow(b, a)
	}

	// the other events, and what the acting node observed
	for k, ev := range t.Events {
		step := k + 1
		x, y := l.x(ev.Node), l.y(step)
		switch ev.Kind {
		case "crash":
			fmt.Fprintf(b, `<g class="crash"><path d="M%d,%d L%d,%d M%d,%d L%d,%d"/><text x="%d" y="%d">crash</text></g>`+"\n",
				x-8, y-8, x+8, y+8, x+8, y-8, x-8, y+8, x+noteGap+6, y+4)
		case "timeout", "action", "recover", "duplicate":
			what := map[string]string{"timeout": "timeout " + ev.Timer, "action": ev.Action, "recover": "recovers", "duplicate": "the network duplicates " + ev.Msg}[ev.Kind]
			fmt.Fprintf(b, `<g class="event %s"><circle cx="%d" cy="%d" r="5"/><text x="%d" y="%d">%s</text></g>`+"\n", ev.Kind, x, y, x+noteGap, y+4, esc(what))
		case "traitor":
			fmt.Fprintf(b, `<g class="crash traitor"><circle cx="%d" cy="%d" r="7"/><text x="%d" y="%d">turns traitor</text></g>`+"\n", x, y, x+noteGap+6, y+4)
		case "heal", "tick":
			what := map[string]string{"heal": "the network heals", "tick": "a tick of the clock"}[ev.Kind]
			fmt.Fprintf(b, `<text class="event %s" x="%d" y="%d">%s</text>`+"\n", ev.Kind, gutter+4, y+4, what)
		}
		if len(ev.Observed) > 0 {
			fmt.Fprintf(b, `<text class="obs" x="%d" y="%d">%s</text>`+"\n", x+noteGap, y-6, esc("observed "+strings.Join(ev.Observed, ", ")))
		}
	}
	for i, obs := range t.StartObserved {
		if len(obs) > 0 {
			fmt.Fprintf(b, `<text class="obs" x="%d" y="%d">%s</text>`+"\n", l.x(i)+noteGap, l.y(0)+4, esc(strings.Join(obs, ", ")))
		}
	}

	// a cycle: a bracket over its rows, pointing back to where it starts
	if t.Cycle > 0 {
		y0, y1 := l.y(last-t.Cycle+1)-rowH/2, l.y(last)+rowH/2
		fmt.Fprintf(b, `<g class="cycle"><path d="M%d,%d L%d,%d L%d,%d L%d,%d" marker-end="url(#msc-head)"/><text x="%d" y="%d" transform="rotate(-90 %d %d)" text-anchor="middle">repeats forever</text></g>`+"\n",
			gutter-4, y1, gutter-18, y1, gutter-18, y0, gutter-4, y0, gutter-26, (y0+y1)/2, gutter-26, (y0+y1)/2)
	}

	// the violation, if the run has one
	end := fmt.Sprintf("%s fails: %s", t.Property, t.Detail)
	if t.Fault != "" {
		end = "fault: " + t.Fault
	}
	vy := l.y(last+tail) + rowH/2 + 8
	if t.Property != "" || t.Fault != "" {
		fmt.Fprintf(b, `<g class="violation"><rect x="%d" y="%d" width="%d" height="36" rx="4"/><text x="%d" y="%d">%s</text></g>`+"\n",
			gutter, vy, width-gutter-8, gutter+10, vy+22, esc(end))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// arrow draws one message: from its sender's lifeline at the row that sent
// it to its receiver's at the row that delivered or lost it, or to the
// chart's foot if it was still in flight.
func (l *Layout) arrow(b *strings.Builder, a Arrow) {
	end, class, marker := a.End, "msg", "msc-head"
	switch {
	case a.End == 0:
		end, class, marker = len(l.Trace.Events)+tail, "msg inflight", "msc-cross"
	case a.Lost:
		class, marker = "msg lost", "msc-cross"
	}
	if a.Copy {
		class += " copy"
	}
	x1, y1, x2, y2 := l.x(a.From), l.y(a.Sent), l.x(a.To), l.y(end)
	label := a.Msg + a.forgery()
	if a.Written != "" {
		class += " forged"
	}
	switch {
	case a.Cause != "":
		label += " (lost: " + a.Cause + ")"
	case a.End > 0:
	case l.Trace.Quiescent || l.Trace.Cycle > 0:
		label += " (never delivered)"
	default:
		label += " (in flight)"
	}
	if a.From == a.To { // a message to oneself: a loop to the right
		fmt.Fprintf(b, `<g class="%s" data-end="%d"><title>%s</title><path d="M%d,%d L%d,%d L%d,%d L%d,%d" fill="none" marker-end="url(#%s)"/><text x="%d" y="%d">%s</text></g>`+"\n",
			class, a.End, esc(fmt.Sprintf("n%d → n%d %s", a.From, a.To, label)), x1, y1, x1+24, y1, x1+24, y2, x2+2, y2, marker, x1+28, (y1+y2)/2+4, esc(label))
		return
	}
	// the label sits near the sender, where the arrow starts; messages
	// left in flight, which run to the foot and cross many others, are
	// named in their tooltip only
	text := ""
	if a.End > 0 {
		lx, ly := x1+(x2-x1)/5, y1+(y2-y1)/5-4
		anchor := "start"
		if x2 < x1 {
			anchor = "end"
		}
		shown := a.Msg
		if a.Written != "" {
			shown += " (forged; wrote " + a.Written + ")"
		}
		text = fmt.Sprintf(`<text x="%d" y="%d" text-anchor="%s">%s</text>`, lx, ly, anchor, esc(shown))
	}
	fmt.Fprintf(b, `<g class="%s" data-end="%d"><title>%s</title><line x1="%d" y1="%d" x2="%d" y2="%d" marker-end="url(#%s)"/>%s</g>`+"\n",
		class, a.End, esc(fmt.Sprintf("n%d → n%d %s", a.From, a.To, label)), x1, y1, x2, y2, marker, text)
}

var esc = html.EscapeString

// CSS styles the SVG chart: a page that shows one includes it.
//
//go:embed msc.css
var CSS string
