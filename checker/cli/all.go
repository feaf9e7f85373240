package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
)

// scenarioResult is one line of check --all, and its JSON form.
type scenarioResult struct {
	Protocol   string                 `json:"protocol"`
	Scenario   string                 `json:"scenario"`
	Expect     checker.Verdict        `json:"expect"`
	Verdict    checker.Verdict        `json:"verdict"`
	Failed     []string               `json:"failed,omitempty"`
	Unexpected string                 `json:"unexpected,omitempty"` // why the result is not the one expected
	Cut        checker.Cut            `json:"cut,omitempty"`
	Stats      checker.Stats          `json:"stats"`
	Messages   []checker.MessageRange `json:"messages,omitempty"`
	Coverage   *checker.Coverage      `json:"coverage,omitempty"`
}

// checkAll runs every scenario of every protocol exhaustively (of one,
// if only names it) and prints a table, or JSON; it fails unless every
// verdict is the expected one. It tells of each scenario on stderr as it
// ends, for one who would otherwise wait for the table in silence. Once
// ctx is canceled, it prints the table
// of the scenarios run so far.
func checkAll(ctx context.Context, r *suite.Registry, only string, out, stderr io.Writer, f *checkFlags) error {
	ps := r.All()
	if only != "" {
		p, err := r.Lookup(only)
		if err != nil {
			return usageError{err}
		}
		ps = []*suite.Protocol{p}
	}
	opt := checker.Options{MaxStates: f.maxStates, Time: f.timeLimit, MaxMemory: f.memoryMB << 20, Workers: f.workers, Messages: true}
	if err := checker.CheckExhaustiveFits(opt); err != nil {
		return badInput("%v", err)
	}
	var results []scenarioResult
	bad := 0
	var untaken []string // per protocol, the declared kinds no scenario took
	for _, p := range ps {
		if ctx.Err() != nil {
			break // a signal: the table so far
		}
		never := map[string]int{}
		for _, sc := range p.Scenarios {
			if ctx.Err() != nil {
				break
			}
			r, err := suite.Exhaustive(ctx, p, &sc, opt)
			if err != nil {
				return err
			}
			res := scenarioResult{Protocol: p.Path(), Scenario: sc.Name, Expect: sc.Expect, Verdict: r.Verdict,
				Unexpected: suite.Judge(&sc, r), Cut: r.Cut, Stats: r.Stats, Messages: r.Messages, Coverage: r.Coverage}
			for _, pr := range r.Failed() {
				res.Failed = append(res.Failed, pr.Name)
			}
			if res.Unexpected != "" {
				bad++
			}
			results = append(results, res)
			fmt.Fprintf(stderr, "vigil: %s [%s]: %s\n", res.Protocol, res.Scenario, res.line())
			for _, v := range r.Vacuous {
				fmt.Fprintf(stderr, "vigil: %s [%s]: warning: %s\n", res.Protocol, res.Scenario, v)
			}
			for _, k := range r.Coverage.Never {
				never[k]++
			}
		}
		var none []string
		for k, n := range never {
			if n == len(p.Scenarios) {
				none = append(none, k)
			}
		}
		if len(none) > 0 {
			slices.Sort(none)
			untaken = append(untaken, fmt.Sprintf("  %s: %s", p.Path(), strings.Join(none, ", ")))
		}
	}
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	} else {
		printAll(out, results, untaken, bad)
	}
	if bad > 0 {
		return errFailed
	}
	return nil
}

// line says how a scenario ended: its verdict, whether it was the one
// expected, and what the search took.
func (res *scenarioResult) line() string {
	got := strings.Join(append([]string{string(res.Verdict)}, res.Failed...), " ")
	judged := "as expected"
	if res.Unexpected != "" {
		judged = "UNEXPECTED: " + res.Unexpected
	}
	return fmt.Sprintf("%s, %s (%d states, %.2fs)", got, judged, res.Stats.States, res.Stats.Seconds)
}

func printAll(out io.Writer, results []scenarioResult, untaken []string, bad int) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "protocol\tscenario\texpect\tgot\tstates\tdepth\tseconds\tmessages\t")
	for _, res := range results {
		got := strings.Join(append([]string{string(res.Verdict)}, res.Failed...), " ")
		mark := ""
		if res.Unexpected != "" {
			mark = "UNEXPECTED: " + res.Unexpected
		}
		msgs := "-"
		if len(res.Messages) > 0 {
			msgs = res.Messages[0].String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%.2f\t%s\t%s\n", res.Protocol, res.Scenario, res.Expect, got,
			res.Stats.States, res.Stats.Depth, res.Stats.Seconds, msgs, mark)
	}
	tw.Flush()
	if len(untaken) > 0 {
		fmt.Fprintf(out, "declared kinds of events that no scenario takes:\n%s\n", strings.Join(untaken, "\n"))
	}
	if bad > 0 {
		fmt.Fprintf(out, "%d scenario(s) with an unexpected verdict\n", bad)
		return
	}
	fmt.Fprintln(out, "every verdict is the expected one")
}
