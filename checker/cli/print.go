package cli

// Printing a check's result: text, JSON and Mermaid.

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// present prints the result of a search as f asks, and returns the error
// that gives the exit code. The files a check writes are checkOutputs'.
func present(stdout io.Writer, p *suite.Protocol, scenario string, cfg model.Config, props []*properties.Property, res *checker.Result, f *checkFlags) error {
	switch f.format {
	case "json":
		if err := printJSON(stdout, p, scenario, cfg, res); err != nil {
			return err
		}
	case "mermaid":
		if err := printMermaid(stdout, p, scenario, cfg, res, f.witness); err != nil {
			return err
		}
	default:
		printText(stdout, p, scenario, cfg, res, f.witness)
	}
	switch {
	case res.Fault != nil:
		return errFaulted
	case res.Verdict == checker.Fail:
		return errFailed
	case res.Cut != checker.CutNone || res.Verdict == checker.Unknown:
		return errIncomplete
	}
	return nil
}

func describeConfig(cfg model.Config) string {
	ranks := "sorted"
	if cfg.Ranks != nil {
		ranks = fmt.Sprint(cfg.Ranks)
	}
	init := "all"
	if cfg.Initiators != nil {
		var ids []string
		for i, b := range cfg.Initiators {
			if b {
				ids = append(ids, fmt.Sprint(i))
			}
		}
		init = strings.Join(ids, ",")
	}
	parts := ""
	if cfg.Partitions > 0 {
		parts = fmt.Sprintf(" partitions=%d", cfg.Partitions)
	}
	if cfg.Topology != "" {
		parts += " topology=" + cfg.Topology
	}
	parts += messageFaults(cfg)
	if len(cfg.Params) > 0 {
		parts += fmt.Sprintf(" params=%v", cfg.Params)
	}
	return fmt.Sprintf("n=%d %v %s crashes=%d recoveries=%d%s ranks=%s initiators=%s",
		cfg.N, cfg.Channels, cfg.TimingSpec(), cfg.Crashes, cfg.Recoveries, parts, ranks, init)
}

// messageFaults describes the message fault budgets of cfg that are not 0.
func messageFaults(cfg model.Config) string {
	s := ""
	if cfg.Losses > 0 {
		s += fmt.Sprintf(" losses=%d", cfg.Losses)
	}
	if cfg.Duplicates > 0 {
		s += fmt.Sprintf(" duplicates=%d", cfg.Duplicates)
	}
	if cfg.Traitors > 0 {
		s += fmt.Sprintf(" traitors=%d", cfg.Traitors)
	}
	return s
}

var cutWords = map[checker.Cut]string{
	checker.CutDepth:    "the depth bound (-depth)",
	checker.CutStates:   "the state limit (-max-states)",
	checker.CutTime:     "the time limit (-time)",
	checker.CutMemory:   "the memory limit (-memory)",
	checker.CutCanceled: "a signal (SIGINT or SIGTERM)",
}

// printText prints r for a person: what was searched and how, each
// property's verdict, the figures, what cut or stopped the search, the
// runs to its fault and counterexamples, and the final verdict.
func printText(out io.Writer, p *suite.Protocol, scenario string, cfg model.Config, r *checker.Result, witnesses bool) {
	printHeader(out, p, scenario, cfg, r)
	printProperties(out, r)
	for _, v := range r.Vacuous {
		fmt.Fprintf(out, "warning: %s\n", v)
	}
	printFigures(out, r)
	printStops(out, r)
	printRuns(out, r, witnesses)
	fmt.Fprintf(out, "verdict: %s\n", finalVerdict(r))
}

// printHeader prints the first line: the protocol, scenario and
// configuration, and the search, with the fairness, symmetry and
// scheduler it used.
func printHeader(out io.Writer, p *suite.Protocol, scenario string, cfg model.Config, r *checker.Result) {
	how := "" // the fairness assumed, the scheduler used
	switch r.Fairness {
	case "":
	case "none":
		how = ", no fairness assumed"
	default:
		how = ", " + r.Fairness + " fairness"
	}
	mode := string(r.Mode)
	if r.Sweep && r.Mode != checker.ModeAuto {
		mode += " (sweep)"
	}
	if r.Reduction.Kind == checker.SymmetryUsed {
		how += ", " + r.Reduction.String()
	}
	if r.Scheduler != "" {
		how += ", " + r.Scheduler + " scheduler"
	}
	mode += " search"
	if r.Mode == checker.ModeAuto {
		mode += ": " + autoParts(r)
	}
	fmt.Fprintf(out, "%s [%s] %s, %s%s\n", p.Path(), scenario, describeConfig(cfg), mode, how)
}

// printProperties prints a line per property: its verdict, the part of
// an auto search that decided it, and its detail.
func printProperties(out io.Writer, r *checker.Result) {
	for _, pr := range r.Properties {
		line := fmt.Sprintf("  %-16s %s", pr.Name, verdictWords(r, pr))
		if r.Mode == checker.ModeAuto && pr.By != "" {
			line += " (" + byWords[pr.By] + ")"
		}
		if pr.Detail != "" {
			line += ": " + pr.Detail
		}
		fmt.Fprintln(out, line)
	}
}

// printFigures prints the stats of the search and of its parts, the
// reductions it did not apply and why, and the figures it measured.
func printFigures(out io.Writer, r *checker.Result) {
	s := r.Stats
	switch r.Mode {
	case checker.ModeRandom:
		fmt.Fprintf(out, "  %s\n", walkStats(s))
	case checker.ModeAuto:
		fmt.Fprintf(out, "  %.2fs in all\n", s.Seconds)
	default:
		fmt.Fprintf(out, "  %s\n", stateStats(r, s))
	}
	printParts(out, r)
	if r.Reduction.Kind == checker.SymmetryNotUsed {
		fmt.Fprintf(out, "  no symmetry reduction: %s\n", r.Reduction.Detail)
	}
	if why, ok := strings.CutPrefix(r.PartialOrder, "none: "); ok {
		fmt.Fprintf(out, "  no partial-order reduction: %s\n", why)
	} else if r.PartialOrder != "" {
		fmt.Fprintf(out, "  %s\n", r.PartialOrder)
	}
	if r.Messages != nil {
		var parts []string
		for _, m := range r.Messages {
			parts = append(parts, m.String())
		}
		fmt.Fprintf(out, "  messages per complete run: %s\n", strings.Join(parts, ", "))
	}
	switch {
	case r.Rounds != nil && r.Mode != checker.ModeExhaustive:
		fmt.Fprintf(out, "  time per complete run: %s (over the walks that ended)\n", r.Rounds)
	case r.Rounds != nil:
		fmt.Fprintf(out, "  time per complete run: %s (%d states with causal clocks)\n", r.Rounds, r.Rounds.States)
	case r.RoundsCut == checker.CutCycle:
		fmt.Fprintf(out, "  time per complete run: not measured: some runs go round a cycle of states and never end\n")
	case r.RoundsCut != checker.CutNone:
		fmt.Fprintf(out, "  time per complete run: not measured, the search was cut by %s\n", cutWords[r.RoundsCut])
	}
	if r.Entry != nil {
		fmt.Fprintf(out, "  %s\n", r.Entry)
	}
	if r.Coverage != nil {
		fmt.Fprintf(out, "  %s\n", r.Coverage)
	}
	if l := r.Linearizability; l != nil {
		fmt.Fprintf(out, "  %s client histories (porcupine): %s, %d histories of %d operations", l.Object, l.Verdict, l.Histories, l.Operations)
		if l.Seed != nil {
			fmt.Fprintf(out, "; the history of walk -seed %d is not linearizable", *l.Seed)
		}
		fmt.Fprintln(out)
	}
}

// printStops prints what cut the search, or stopped it early.
func printStops(out io.Writer, r *checker.Result) {
	s := r.Stats
	if r.Cut == checker.CutCanceled && r.Mode == checker.ModeAuto {
		fmt.Fprintf(out, "  search cut by %s after %s: verdicts are for what was explored\n", cutWords[r.Cut], strings.Join(autoExplored(r), " and "))
	} else if r.Cut != checker.CutNone && r.Mode != checker.ModeAuto { // (an auto search says what cut it in its first line)
		if r.Mode == checker.ModeRandom {
			fmt.Fprintf(out, "  search cut by %s after %d walks: verdicts are for what was explored\n", cutWords[r.Cut], s.Walks)
		} else {
			fmt.Fprintf(out, "  search cut by %s after %d states at depth %d: verdicts are for what was explored\n",
				cutWords[r.Cut], s.States, s.Depth)
		}
		if r.MemoryBound != "" {
			fmt.Fprintf(out, "  memory bound: %s\n", r.MemoryBound)
		}
		if r.Mode == checker.ModeExhaustive && r.Cut != checker.CutDepth && r.Cut != checker.CutCanceled {
			// the states outgrew the bound: walks keep none
			fmt.Fprintf(out, "  random walks check this N without keeping its states: -mode random\n")
		}
	}
	if r.Fault != nil {
		fmt.Fprintf(out, "  the search ended at a fault of a handler or monitor (below): properties without a counterexample are unknown\n")
	}
	switch {
	case r.Stopped && len(r.Failed()) == 0: // (see checker.Result.Stopped)
		fmt.Fprintf(out, "  stopped early: every sometimes-property was reached; the figures cover the search so far\n")
	case r.Stopped:
		fmt.Fprintf(out, "  stopped early: every property has a counterexample; the figures cover the search so far\n")
	}
	if r.StoppedFirst {
		fmt.Fprintf(out, "  stopped at the first violation (-first): the other verdicts are unknown; the figures cover the search so far\n")
	}
}

// printRuns prints the run to the search's fault, then each
// counterexample, then, if asked, each witness of a sometimes-property.
func printRuns(out io.Writer, r *checker.Result, witnesses bool) {
	if f := r.Fault; f != nil {
		// the fault first: the search ended there, and it is a bug to fix
		// before any verdict means anything
		fmt.Fprintln(out)
		checker.Render(out, f.Trace)
		if where := f.Where(); where != "" {
			fmt.Fprintf(out, "  panicked in %s\n", where)
		}
	}
	for _, pr := range r.Failed() {
		if pr.Counterexample != nil { // (a sometimes-property fails with none)
			fmt.Fprintln(out)
			checker.Render(out, pr.Counterexample)
		}
	}
	if witnesses {
		for _, pr := range r.Properties {
			if pr.Witness != nil {
				fmt.Fprintln(out)
				checker.Render(out, pr.Witness)
			}
		}
	}
}

// walkStats is the line of stats s of random walks.
func walkStats(s checker.Stats) string {
	line := fmt.Sprintf("%d walks, %d steps, longest %d, %.2fs", s.Walks, s.Transitions, s.Depth, s.Seconds)
	if s.WalksCut > 0 {
		line += fmt.Sprintf("; %d walks cut by the depth bound (-depth) before their runs ended", s.WalksCut)
	}
	if s.WalksCycled > 0 {
		line += fmt.Sprintf("; %d walks ended on a cycle their runs go round for ever", s.WalksCycled)
	}
	return line
}

// stateStats is the line of stats s of the exhaustive search r ran.
func stateStats(r *checker.Result, s checker.Stats) string {
	families := ""
	if r.Reduction.Kind == checker.SymmetryUsed {
		families = " (one per family of renamings)"
	}
	line := fmt.Sprintf("%d states%s, %d transitions, depth %d, %.2fs (%.0f states/s), fingerprint collision probability ≤ %.1g",
		s.States, families, s.Transitions, s.Depth, s.Seconds, s.StatesPerS, s.Collision)
	if s.States >= 1<<16 { // below, the table's initial size dominates
		line += fmt.Sprintf(", %.1f bytes/state visited", s.VisitedBytes)
		if s.GraphBytes > 0 {
			line += fmt.Sprintf(" + %.1f for the state graph", s.GraphBytes)
		}
	}
	return line
}

// verdictWords is how a property's verdict reads in r: a pass of a search
// that was not complete is no counterexample, not a proof; but a
// sometimes-property's witness proves its pass, whatever found it.
func verdictWords(r *checker.Result, pr checker.PropertyResult) string {
	if pr.Verdict == checker.Pass && !r.Complete && pr.Witness == nil {
		return "no counterexample"
	}
	return string(pr.Verdict)
}

// finalVerdict is the last line of a check: the verdict, and for a search
// that passed without being complete, what it searched and that it proves
// nothing.
func finalVerdict(r *checker.Result) string {
	if r.Mode == checker.ModeAuto && r.Verdict == checker.Unknown {
		return fmt.Sprintf("%s: %s: not a proof", r.Verdict, autoSearched(r))
	}
	if r.Verdict != checker.Pass || r.Complete || everyWitnessed(r) {
		return string(r.Verdict)
	}
	switch r.Mode {
	case checker.ModeRandom:
		return fmt.Sprintf("no counterexample in %d walks (%d steps): not a proof", r.Stats.Walks, r.Stats.Transitions)
	case checker.ModeAuto:
		return autoSearched(r) + ": not a proof"
	}
	return fmt.Sprintf("no counterexample in %d states: not a proof", r.Stats.States)
}

// everyWitnessed reports whether every property of r is a sometimes-
// property that a run reached: its witnesses prove its pass, whatever
// searched.
func everyWitnessed(r *checker.Result) bool {
	for _, pr := range r.Properties {
		if pr.Witness == nil {
			return false
		}
	}
	return len(r.Properties) > 0
}

type messageJSON struct {
	Kind      string `json:"kind"`
	Min       int    `json:"min"`
	Max       int    `json:"max"`
	Unbounded bool   `json:"unbounded,omitempty"`
}

func printJSON(out io.Writer, p *suite.Protocol, scenario string, cfg model.Config, r *checker.Result) error {
	doc := struct {
		Protocol       string                   `json:"protocol"`
		Scenario       string                   `json:"scenario"`
		Config         model.Config             `json:"config"`
		Mode           checker.Mode             `json:"mode"`
		Fairness       string                   `json:"fairness,omitempty"`
		Scheduler      string                   `json:"scheduler,omitempty"`
		Verdict        checker.Verdict          `json:"verdict"`
		Complete       bool                     `json:"complete"`
		Cut            checker.Cut              `json:"cut,omitempty"`
		StoppedEarly   bool                     `json:"stopped_early,omitempty"`
		StoppedFirst   bool                     `json:"stopped_at_first,omitempty"`
		Properties     []checker.PropertyResult `json:"properties"`
		Vacuous        []checker.Vacuity        `json:"vacuous,omitempty"`
		Stats          checker.Stats            `json:"stats"`
		Messages       []checker.MessageRange   `json:"messages"`
		Rounds         *checker.Rounds          `json:"rounds,omitempty"`
		RoundsCut      checker.Cut              `json:"rounds_cut,omitempty"`
		EntryFigures   *checker.EntryFigures    `json:"entry_figures,omitempty"`
		Linearizable   *checker.Linearizability `json:"linearizability,omitempty"`
		Coverage       *checker.Coverage        `json:"coverage,omitempty"`
		Parts          []checker.PartStats      `json:"parts,omitempty"`
		Counterexample *checker.Trace           `json:"counterexample,omitempty"`
		Fault          *checker.Fault           `json:"fault,omitempty"`
	}{Parts: r.Parts, Protocol: p.Path(), Scenario: scenario, Config: cfg, Mode: r.Mode, Fairness: r.Fairness, Scheduler: r.Scheduler, Verdict: r.Verdict, Complete: r.Complete, Cut: r.Cut,
		StoppedEarly: r.Stopped, StoppedFirst: r.StoppedFirst, Fault: r.Fault, Properties: r.Properties, Vacuous: r.Vacuous, Stats: r.Stats, Messages: r.Messages, Rounds: r.Rounds, RoundsCut: r.RoundsCut, EntryFigures: r.Entry, Linearizable: r.Linearizability, Coverage: r.Coverage}
	if doc.Messages == nil {
		doc.Messages = []checker.MessageRange{}
	}
	doc.Counterexample = firstTrace(&checker.Result{Properties: r.Properties}, false)
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// firstTrace is the run a result shows first: the run to a handler's or
// monitor's fault, or the first property's counterexample, or, with
// witnesses, the first witness of a sometimes-property; or nil.
func firstTrace(r *checker.Result, witnesses bool) *checker.Trace {
	if r.Fault != nil {
		return r.Fault.Trace
	}
	for _, pr := range r.Failed() {
		if pr.Counterexample != nil {
			return pr.Counterexample
		}
	}
	for _, pr := range r.Properties {
		if pr.Witness != nil && witnesses {
			return pr.Witness
		}
	}
	return nil
}

// printMermaid prints the first counterexample (see firstTrace) as a
// Mermaid sequence diagram, or, when there is none, a diagram of the
// lifelines that says so.
func printMermaid(out io.Writer, p *suite.Protocol, scenario string, cfg model.Config, r *checker.Result, witnesses bool) error {
	head := fmt.Sprintf("%s [%s] %s: %s", p.Path(), scenario, describeConfig(cfg), r.Verdict)
	t := firstTrace(r, witnesses)
	if t == nil {
		fmt.Fprintf(out, "%%%% %s\nsequenceDiagram\n", head)
		for i := range cfg.N {
			fmt.Fprintf(out, "    participant n%d\n", i)
		}
		fmt.Fprintf(out, "    Note over n0,n%d: %s: no counterexample to draw\n", cfg.N-1, r.Verdict)
		return nil
	}
	return msc.Mermaid(out, msc.New(t), head)
}
