package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/report"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/tracelog"
)

const validateUsage = "vigil validate [PROTOCOL [check flags]] [-format text|mermaid] [-html FILE] [-trace FILE] DIR"

// validateFlags are the flags of check that validate reads besides those
// that give the run (runFlags): how to show the result.
var validateFlags = []string{"props", "format", "html", "trace"}

// runFlags are the flags of check that give the run's configuration, as
// they give a check's.
var runFlags = []string{"scenario", "n", "crashes", "recoveries", "partitions", "losses", "duplicates", "traitors",
	"timing", "channels", "topology", "ranks", "initiators", "param"}

// validateCmd checks the logs of a real run in a directory against the
// protocol's model (package checker/validate). The directory's run.json
// names the protocol, its configuration and properties; without it the
// protocol and the flags of vigil check give them. It exits 0 when the
// logs agree with the model and no property fails, 1 at a discrepancy or
// a violation (printed as check prints a counterexample), 2 at bad input.
func validateCmd(r *suite.Registry, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[len(args)-1], "-") {
		// no directory: -h, or a usage error
		if _, _, err := parseCheck(r, "validate", args, stderr); err != nil {
			return err
		}
		return badInput("validate needs the directory of a run's logs: %s", validateUsage)
	}
	dir := args[len(args)-1]
	f, name, err := parseCheck(r, "validate", args[:len(args)-1], stderr)
	if err != nil {
		return err
	}
	if f.json {
		return badInput("validate prints text or mermaid, not json")
	}
	for flag := range f.set {
		param := slices.ContainsFunc(declaredParams(r), func(d declared) bool { return d.name == flag })
		if !slices.Contains(validateFlags, flag) && !slices.Contains(runFlags, flag) && !param {
			return badInput("-%s is a flag of check's search: it does not apply to validate", flag)
		}
	}
	p, cfg, props, err := validatedRun(r, dir, name, f)
	if err != nil {
		return err
	}
	run, err := tracelog.ReadDir(dir)
	if err != nil {
		return usageError{err}
	}
	if run.N != cfg.N {
		return badInput("the logs in %s are of %d nodes, the configuration's of %d", dir, run.N, cfg.N)
	}
	m, err := p.Compile(validate.Widen(cfg), props)
	if err != nil {
		return usageError{err}
	}
	rep, err := validate.Check(m, run)
	if err != nil {
		return usageError{err}
	}
	head := fmt.Sprintf("%s %s: the logs in %s", p.Path(), describeConfig(cfg), dir)
	return showValidation(f, p, m, cfg, props, rep, head, stdout, stderr)
}

// showValidation prints rep as f asks (text or mermaid, an HTML page,
// a trace file of the counterexample), and returns errFailed unless the
// run passed. m is the machine the run was followed on, under the
// widened configuration of cfg.
func showValidation(f *checkFlags, p *suite.Protocol, m *checker.Machine, cfg model.Config, props []*properties.Property, rep *validate.Report, head string, stdout, stderr io.Writer) error {
	var page, traceFile *outputFile
	var err error
	if f.html != "" {
		if page, err = openOutput(f.html, "HTML report (-html)"); err != nil {
			return usageError{err}
		}
		defer page.Close()
	}
	if f.trace != "" {
		if traceFile, err = openOutput(f.trace, "counterexample (-trace)"); err != nil {
			return usageError{err}
		}
		defer traceFile.Close()
	}
	var text bytes.Buffer
	printValidation(&text, head, validate.Widen(cfg), props, rep)
	if f.format == "mermaid" {
		err = validationMermaid(stdout, head, cfg, rep)
	} else {
		_, err = stdout.Write(text.Bytes())
	}
	if err != nil {
		return err
	}
	if page != nil {
		if err := validationHTML(page, p, cfg, props, rep, text.String()); err != nil {
			fmt.Fprintf(stderr, "vigil: warning: %v\n", err)
		}
	}
	if traceFile != nil && rep.Violation != nil {
		// a run of the model under the configuration it was followed
		// under, which vigil replay replays
		js, err := suite.NewTraceFile(p, m.Config(), props, rep.Violation).JSON()
		if err == nil {
			err = traceFile.Commit(js)
		}
		if err != nil {
			fmt.Fprintf(stderr, "vigil: warning: %v\n", err)
		}
	}
	if !rep.OK() {
		return errFailed
	}
	return nil
}

// validatedRun is the protocol, configuration and properties of the run
// whose logs are in dir: its run.json's, or else those the protocol name
// and the check flags f give. With a run.json, a protocol named must be
// its own and -props alone may change what it says.
func validatedRun(r *suite.Registry, dir, name string, f *checkFlags) (*suite.Protocol, model.Config, []*properties.Property, error) {
	var cfg model.Config
	switch st, err := os.Stat(dir); {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, cfg, nil, badInput("cannot read the logs in %s: %v", dir, err)
	case !st.IsDir():
		return nil, cfg, nil, badInput("%s is no directory: give the directory of a run's logs", dir)
	}
	path := filepath.Join(dir, validate.RunFileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if name == "" {
			return nil, cfg, nil, badInput("%s holds no %s: give the protocol and its flags (%s)", dir, validate.RunFileName, validateUsage)
		}
		p, err := r.Lookup(name)
		if err != nil {
			return nil, cfg, nil, usageError{err}
		}
		sc, err := f.scenarioFor(p)
		if err != nil {
			return nil, cfg, nil, err
		}
		if cfg, err = sc.Config(); err != nil {
			return nil, cfg, nil, usageError{err}
		}
		props, err := p.Props(cfg, sc.Props)
		if err != nil {
			return nil, cfg, nil, usageError{err}
		}
		return p, cfg, props, nil
	}
	rf, err := validate.ReadRunFile(path)
	if err != nil {
		return nil, cfg, nil, usageError{err}
	}
	p, err := r.Lookup(rf.Protocol)
	if err != nil {
		return nil, cfg, nil, badInput("%s: %v", path, err)
	}
	if name != "" {
		if q, err := r.Lookup(name); err != nil || q != p {
			return nil, cfg, nil, badInput("%s is a run of %s, not %s", path, p.Path(), name)
		}
	}
	for flag := range f.set {
		if !slices.Contains(validateFlags, flag) {
			return nil, cfg, nil, badInput("%s gives the run's configuration: -%s does not apply", path, flag)
		}
	}
	names := rf.Properties
	if f.set["props"] {
		if names, err = suite.ParseProps(f.props); err != nil {
			return nil, cfg, nil, usageError{err}
		}
	}
	props, err := p.Props(rf.Config, names)
	if err != nil {
		return nil, cfg, nil, badInput("%s: %v", path, err)
	}
	return p, rf.Config, props, nil
}

// printValidation writes the report of a validation for a person: the
// verdict, then the discrepancy or the counterexample, then the notes.
func printValidation(out io.Writer, head string, widened model.Config, props []*properties.Property, rep *validate.Report) {
	fmt.Fprintln(out, head)
	var counts []string
	for i, n := range rep.Nodes {
		counts = append(counts, fmt.Sprintf("n%d %d", i, n))
	}
	fmt.Fprintf(out, "  %d events taken (%s), followed under %v timing and %v channels\n", rep.Events, strings.Join(counts, ", "), widened.Timing, widened.Channels)
	var names []string
	for _, p := range props {
		names = append(names, p.Name)
	}
	switch {
	case rep.Discrepancy != nil:
		fmt.Fprintf(out, "discrepancy: %s\n", rep.Discrepancy)
		if f := rep.Discrepancy.Fault; f != nil && f.Stack != "" {
			fmt.Fprintf(out, "  the handler's stack:\n%s\n", indent(f.Stack))
		}
	case rep.Violation != nil:
		checker.Render(out, rep.Violation)
	default:
		fmt.Fprintf(out, "the logs agree with the model, and no property fails: %s\n", strings.Join(names, ", "))
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	verdict := "pass"
	if !rep.OK() {
		verdict = "fail"
	}
	fmt.Fprintf(out, "verdict: %s\n", verdict)
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// validationMermaid draws the counterexample of a validation, or, when
// there is none, the lifelines with the verdict.
func validationMermaid(out io.Writer, head string, cfg model.Config, rep *validate.Report) error {
	if rep.Violation != nil {
		return msc.Mermaid(out, msc.New(rep.Violation), head)
	}
	say := "the logs agree with the model, and no property fails"
	if d := rep.Discrepancy; d != nil {
		say = "discrepancy at " + fmt.Sprintf("%s:%d", filepath.Base(d.File), d.Line)
	}
	fmt.Fprintf(out, "%%%% %s\nsequenceDiagram\n", head)
	for i := range cfg.N {
		fmt.Fprintf(out, "    participant n%d\n", i)
	}
	fmt.Fprintf(out, "    Note over n0,n%d: %s: no counterexample to draw\n", cfg.N-1, say)
	return nil
}

// validationHTML writes the HTML report of a validation: the properties,
// the counterexample's chart if a property fails, and the text report.
func validationHTML(page *outputFile, p *suite.Protocol, cfg model.Config, props []*properties.Property, rep *validate.Report, text string) error {
	res := &checker.Result{Mode: checker.ModeReplay, Verdict: checker.Pass}
	if !rep.OK() {
		res.Verdict = checker.Fail
	}
	for _, prop := range props {
		pr := checker.PropertyResult{Name: prop.Name, Verdict: checker.Pass, Detail: "holds in every world of the run"}
		switch {
		case rep.Violation != nil && prop.Name == rep.Violation.Property:
			pr = checker.PropertyResult{Name: prop.Name, Verdict: checker.Fail, Detail: rep.Violation.Detail, Counterexample: rep.Violation}
		case !rep.OK():
			pr = checker.PropertyResult{Name: prop.Name, Verdict: checker.Unknown, Detail: "not judged past the problem"}
		case slices.Contains(rep.NotJudged, prop.Name):
			pr = checker.PropertyResult{Name: prop.Name, Verdict: checker.Unknown, Detail: "not judged: the run stops with events still enabled"}
		}
		res.Properties = append(res.Properties, pr)
	}
	var b bytes.Buffer
	if err := report.Write(&b, report.Page{Title: p.Path() + " (the logs of a real run)", Run: describeConfig(cfg), Result: res, Text: text}); err != nil {
		return fmt.Errorf("making the HTML report: %w", err)
	}
	return page.Commit(b.Bytes())
}
