package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
)

// replay re-runs a counterexample file and prints it step by step. It exits
// 1 when the run still violates a property, 0 when it no longer does, and
// 2 when a handler or monitor fails on the way (the run to the fault is
// printed).
func replay(r *suite.Registry, args []string, out io.Writer) error {
	if len(args) != 1 {
		return badInput("replay needs exactly one trace file")
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
		fmt.Fprintf(out, "%s %s\n", p.Path(), describeConfig(tf.Config))
		checker.Render(out, t)
		return errFaulted
	}
	if err != nil {
		return badInput("%s does not replay: %v", args[0], err)
	}
	fmt.Fprintf(out, "%s %s\n", p.Path(), describeConfig(tf.Config))
	if t.Property == "" {
		fmt.Fprintf(out, "the run replays, %d steps, and violates none of %v\n", len(t.Events), tf.Properties)
		return nil
	}
	checker.Render(out, t)
	return errFailed
}
