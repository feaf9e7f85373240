// Package report writes the result of a check as one self-contained HTML
// page: the verdict of every property, the figures, and each counterexample
// as a message-sequence chart (checker/msc) with a step slider that
// highlights a step and shows every node's state at that point, what
// changed marked. Scripts and styles are inline and nothing is fetched, so
// the file opens offline and can be mailed or kept as a CI artifact.
package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
)

// Page is what a report shows.
type Page struct {
	Title  string // the protocol and scenario, e.g. "election/bully [async-crash]"
	Run    string // the run's configuration, in words
	Result *checker.Result
	// Text, if set, is the check's text report, shown folded at the end.
	Text string
}

// Write writes p's report to w.
func Write(w io.Writer, p Page) error {
	v := view{Page: p, Style: template.CSS(style + msc.CSS), Script: template.JS(script)}
	r := p.Result
	if f := r.Fault; f != nil && f.Trace != nil {
		run, err := newRun("fault", f.Trace)
		if err != nil {
			return err
		}
		v.Runs = append(v.Runs, run)
	}
	for _, pr := range r.Failed() {
		if pr.Counterexample == nil {
			continue
		}
		run, err := newRun(pr.Name, pr.Counterexample)
		if err != nil {
			return err
		}
		v.Runs = append(v.Runs, run)
	}
	for _, m := range r.Messages {
		v.Messages = append(v.Messages, m.String())
	}
	if r.Rounds != nil {
		v.Figures = append(v.Figures, "time of a complete run, in asynchronous rounds: "+r.Rounds.String())
	} else if r.RoundsCut != checker.CutNone {
		v.Figures = append(v.Figures, "time of a complete run not measured: "+string(r.RoundsCut))
	}
	if e := r.Entry; e != nil {
		v.Figures = append(v.Figures, e.String())
	}
	if l := r.Linearizability; l != nil {
		v.Figures = append(v.Figures, fmt.Sprintf("%s client histories (porcupine): %s, %d histories of %d operations", l.Object, l.Verdict, l.Histories, l.Operations))
	}
	return page.Execute(w, v)
}

type view struct {
	Page
	Runs     []run
	Messages []string // per kind, over complete runs
	Figures  []string // time, entries, client histories
	Style    template.CSS
	Script   template.JS
}

// run is one counterexample: its chart, and for the slider each step's
// label and every node's state after it (step 0: start-up).
type run struct {
	ID       string
	Property string
	Detail   string
	Chart    template.HTML
	Steps    []step
	Cycle    int // the cycle's first step, 0 if the run is no lasso
}

type step struct {
	Label string `json:"label"`
	Nodes []cell `json:"nodes"`
}

type cell struct {
	State   string `json:"state"`
	Alive   bool   `json:"alive"`
	Changed bool   `json:"changed"`
}

func newRun(id string, t *checker.Trace) (run, error) {
	var svg bytes.Buffer
	if err := msc.SVG(&svg, msc.New(t)); err != nil {
		return run{}, err
	}
	r := run{ID: id, Property: t.Property, Detail: t.Detail, Chart: template.HTML(svg.String())}
	if t.Fault != "" {
		r.Property, r.Detail = "fault", t.Fault
	}
	if t.Cycle > 0 {
		r.Cycle = len(t.Events) - t.Cycle + 1
	}
	nodes := make([]cell, len(t.Initial))
	for i, n := range t.Initial {
		nodes[i] = cell{State: n.State, Alive: n.Alive}
	}
	start := "start-up: every node has run its start-up handler"
	if len(t.Start) > 0 {
		start += fmt.Sprintf(" and sent %d message%s", len(t.Start), map[bool]string{true: "s"}[len(t.Start) != 1])
	}
	r.Steps = append(r.Steps, step{Label: start, Nodes: nodes})
	for k, ev := range t.Events {
		next := make([]cell, len(nodes))
		for i, c := range nodes {
			next[i] = cell{State: c.State, Alive: c.Alive}
		}
		for _, ch := range ev.Changes {
			next[ch.Node] = cell{State: ch.State, Alive: ch.Alive, Changed: true}
		}
		if ev.Kind == "crash" || ev.Kind == "recover" {
			next[ev.Node].Alive, next[ev.Node].Changed = ev.Kind == "recover", true
		}
		label := fmt.Sprintf("%d. %s", k+1, ev)
		if len(ev.Observed) > 0 {
			label += fmt.Sprintf("; n%d observed %s", ev.Node, strings.Join(ev.Observed, ", "))
		}
		r.Steps = append(r.Steps, step{Label: label, Nodes: next})
		nodes = next
	}
	return r, nil
}

//go:embed report.css
var style string

//go:embed report.js
var script string

//go:embed report.html
var pageText string

var page = template.Must(template.New("report").Funcs(template.FuncMap{"dec": func(n int) int { return n - 1 }}).Parse(pageText))
