package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
)

// checkAll runs every scenario of every protocol exhaustively and prints a
// table; it fails unless every verdict is the expected one.
func checkAll(r *suite.Registry, out, stderr io.Writer, f *checkFlags) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "protocol\tscenario\texpect\tgot\tstates\tdepth\tseconds\tmessages\t")
	bad := 0
	var untaken []string // per protocol, the declared kinds no scenario took
	for _, p := range r.All() {
		never := map[string]int{}
		for _, sc := range p.Scenarios {
			r, err := suite.Exhaustive(context.Background(), p, &sc, checker.Options{
				MaxStates: f.maxStates, Time: f.timeLimit, MaxMemory: f.memoryMB << 20, Workers: f.workers, Messages: true})
			if err != nil {
				return err
			}
			got := string(r.Verdict)
			for _, pr := range r.Failed() {
				got += " " + pr.Name
			}
			mark := ""
			if why := suite.Judge(&sc, r); why != "" {
				mark = "UNEXPECTED: " + why
				bad++
			}
			msgs := "-"
			if len(r.Messages) > 0 {
				msgs = r.Messages[0].String()
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%.2f\t%s\t%s\n", p.Path(), sc.Name, sc.Expect, got,
				r.Stats.States, r.Stats.Depth, r.Stats.Seconds, msgs, mark)
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
	tw.Flush()
	if len(untaken) > 0 {
		fmt.Fprintf(out, "declared kinds of events that no scenario takes:\n%s\n", strings.Join(untaken, "\n"))
	}
	if bad > 0 {
		fmt.Fprintf(out, "%d scenario(s) with an unexpected verdict\n", bad)
		return errFailed
	}
	fmt.Fprintln(out, "every verdict is the expected one")
	return nil
}
