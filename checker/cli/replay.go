package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/suite"
)

// replay re-runs a counterexample file and prints it step by step. It exits
// 1 when the run still violates a property, 0 when it no longer does, and
// 2 when a handler or monitor fails on the way (the run to the fault is
// printed).
func replay(r *suite.Registry, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text, or mermaid (the run as a Mermaid sequence diagram)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if args = fs.Args(); len(args) != 1 {
		return badInput("replay needs exactly one trace file: vigil replay [-format text|mermaid] FILE")
	}
	if *format != "text" && *format != "mermaid" {
		return badInput("replay -format takes text or mermaid, not %q", *format)
	}
	show := func(p *suite.Protocol, tf *suite.TraceFile, t *checker.Trace) error {
		head := fmt.Sprintf("%s %s", p.Path(), describeConfig(tf.Config))
		if *format == "mermaid" {
			return msc.Mermaid(out, msc.New(t), head)
		}
		fmt.Fprintln(out, head)
		checker.Render(out, t)
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
		if err := show(p, tf, t); err != nil {
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
	if err := show(p, tf, t); err != nil {
		return err
	}
	return errFailed
}
