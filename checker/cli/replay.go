package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/report"
	"github.com/vigil-check/vigil/checker/suite"
)

// replay re-runs a counterexample file and prints it step by step. It exits
// 1 when the run still violates a property, 0 when it no longer does, and
// 2 when a handler or monitor fails on the way (the run to the fault is
// printed). Its -html file is opened before the trace is read; one that
// cannot be written afterwards is reported on stderr, and the exit code
// stands.
func replay(r *suite.Registry, args []string, out, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text, or mermaid (the run as a Mermaid sequence diagram)")
	html := fs.String("html", "", "also write the replayed run as a self-contained HTML report to this file")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if args = fs.Args(); len(args) != 1 {
		return badInput("replay needs exactly one trace file: vigil replay [-format text|mermaid] [-html FILE] FILE")
	}
	if *format != "text" && *format != "mermaid" {
		return badInput("replay -format takes text or mermaid, not %q", *format)
	}
	var page *outputFile
	if *html != "" {
		o, err := openOutput(*html, "HTML report (-html)")
		if err != nil {
			return usageError{err}
		}
		defer o.Close()
		page = o
	}
	show := func(p *suite.Protocol, tf *suite.TraceFile, t *checker.Trace, fault *checker.Fault) error {
		head := fmt.Sprintf("%s %s", p.Path(), describeConfig(tf.Config))
		if *format == "mermaid" {
			if err := msc.Mermaid(out, msc.New(t), head); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(out, head)
			checker.Render(out, t)
		}
		if page != nil {
			if err := replayHTML(page, p, tf, t, fault); err != nil {
				fmt.Fprintf(stderr, "vigil: warning: %v\n", err)
			}
		}
		return nil
	}
	tf, err := suite.ReadTraceFile(args[0])
	if err != nil {
		return usageError{err}
	}
	p, err := r.Lookup(tf.Protocol)
	if err != nil {
		return badInput("%s: %v", args[0], err)
	}
	props, err := p.Props(tf.Config, tf.Properties)
	if err != nil {
		return badInput("%s: %v", args[0], err)
	}
	m, err := p.Compile(tf.Config, props)
	if err != nil {
		return badInput("%s: %v", args[0], err)
	}
	t, err := checker.Replay(m, tf.Trace)
	if f := (*checker.Fault)(nil); errors.As(err, &f) {
		// the run reaches a handler's or monitor's fault: show it
		if err := show(p, tf, t, f); err != nil {
			return err
		}
		return errFaulted
	}
	if err != nil {
		return badInput("%s does not replay: %v", args[0], err)
	}
	if t.Property == "" {
		if *format == "mermaid" {
			return badInput("%s replays, %d steps, and violates none of %v: no counterexample to draw", args[0], len(t.Events), tf.Properties)
		}
		fmt.Fprintf(out, "%s %s\n", p.Path(), describeConfig(tf.Config))
		fmt.Fprintf(out, "the run replays, %d steps, and violates none of %v\n", len(t.Events), tf.Properties)
		return nil
	}
	if err := show(p, tf, t, nil); err != nil {
		return err
	}
	if t.Witness { // (the run reaches a sometimes-property's goal: it holds)
		return nil
	}
	return errFailed
}

// replayHTML writes the HTML report of a replayed run to page: the
// property it violates, or the fault it reaches, and its chart.
func replayHTML(page *outputFile, p *suite.Protocol, tf *suite.TraceFile, t *checker.Trace, fault *checker.Fault) error {
	res := &checker.Result{Mode: checker.ModeReplay, Verdict: checker.Fail}
	if fault != nil {
		res.Verdict, res.Fault = checker.Error, fault
	}
	for _, name := range tf.Properties {
		pr := checker.PropertyResult{Name: name, Verdict: checker.Unknown, Detail: "not violated by this run"}
		switch {
		case name == t.Property && t.Witness:
			res.Verdict = checker.Pass
			pr = checker.PropertyResult{Name: name, Verdict: checker.Pass, Detail: t.Detail, Sometimes: true, Witness: t}
		case name == t.Property:
			pr = checker.PropertyResult{Name: name, Verdict: checker.Fail, Detail: t.Detail, Counterexample: t}
		}
		res.Properties = append(res.Properties, pr)
	}
	var b bytes.Buffer
	if err := report.Write(&b, report.Page{Title: p.Path() + " (a replayed run)", Run: describeConfig(tf.Config), Result: res}); err != nil {
		return fmt.Errorf("making the HTML report: %w", err)
	}
	return page.Commit(b.Bytes())
}
