// Package checktest checks protocols in go test. One call compiles a
// protocol with its properties, runs the exhaustive search or random
// walks, and on a violation fails the test with the counterexample, as
// vigil check prints it, and a trace file that a vigil binary holding the
// protocol replays (see suite.Protocol.Binary):
//
//	func TestTwoPhaseCommit(t *testing.T) {
//		checktest.Check(t, twopc.Description, suite.Scenario{N: 3, Crashes: 1})
//	}
//
// Fails is the other half: a known counterexample, which the test expects
// the checker to find. Expect and Scenarios check scenarios against the
// verdicts they expect; Rapid lets rapid draw the configuration and the
// schedule, so that a failure shrinks to a small one (see Space).
//
// Handlers is the unit test of a protocol's handlers: tables of Steps,
// one handler call each, with the state and the effects it must give.
//
// Every entry point first holds the description to the rule a registry
// holds it to (suite.Protocol.Validate), and fails the test at once where
// it breaks it.
package checktest

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
)

// Option tunes a check.
type Option func(*settings)

type settings struct {
	random     bool
	exhaustive checker.Options
	walks      checker.RandomOptions
	first      bool
	traceDir   string
}

// Exhaustive bounds and tunes the exhaustive search, the default engine;
// the scenario's depth bound and sweep settings apply as well.
func Exhaustive(opt checker.Options) Option {
	return func(s *settings) { s.random, s.exhaustive = false, opt }
}

// Random checks with seeded random walks instead of the exhaustive search,
// tuned by opt (its zero value: the engine's defaults).
func Random(opt checker.RandomOptions) Option {
	return func(s *settings) { s.random, s.walks = true, opt }
}

// First stops the search at the first violation of any property.
func First() Option { return func(s *settings) { s.first = true } }

// TraceDir is the directory failing checks write trace files to (default
// testdata/vigil, next to the test's other test data).
func TraceDir(dir string) Option { return func(s *settings) { s.traceDir = dir } }

func configure(opts []Option) settings {
	s := settings{traceDir: filepath.Join("testdata", "vigil")}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// valid fails t at once unless p holds together (see
// suite.Protocol.Validate).
func valid(t testing.TB, p *suite.Protocol) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatalf("%v", err)
	}
}

// run checks scenario sc of p; a description, scenario or option that
// cannot run fails t at once.
func run(t testing.TB, p *suite.Protocol, sc *suite.Scenario, s settings) (*checker.Result, *checker.Machine) {
	t.Helper()
	valid(t, p)
	m, err := suite.Compile(p, sc)
	if err != nil {
		t.Fatalf("%s: %v", p.Path(), err)
	}
	r := engine(m, sc, s)
	if f := r.Fault; f != nil {
		// a bug of the protocol's, to fix before any verdict means anything
		t.Errorf("%s: a handler or monitor failed; the run to it:\n%s", label(p, sc), renderFault(f))
	}
	return r, m
}

func engine(m *checker.Machine, sc *suite.Scenario, s settings) *checker.Result {
	if s.random {
		opt := s.walks
		opt.First = opt.First || s.first
		if opt.MaxDepth == 0 {
			opt.MaxDepth = sc.MaxDepth
		}
		return checker.Random(context.Background(), m, opt)
	}
	opt := s.exhaustive
	opt.First = opt.First || s.first
	if opt.MaxDepth == 0 {
		opt.MaxDepth = sc.MaxDepth
	}
	opt.Sweep = opt.Sweep || sc.Sweep
	opt.Window = max(opt.Window, sc.Window)
	opt.Messages = opt.Messages || sc.Messages != "" // figures the scenario asserts
	return checker.Exhaustive(context.Background(), m, opt)
}

// Check checks scenario sc of p (its Props, or p's claims) and fails t
// unless every property holds: for each violation it reports the
// counterexample and writes a trace file named after the test and the
// property, and says how to replay it (see replayHint); a property left
// unknown by a bound fails too, for nothing was shown. It returns the
// result.
func Check(t testing.TB, p *suite.Protocol, sc suite.Scenario, opts ...Option) *checker.Result {
	t.Helper()
	s := configure(opts)
	r, m := run(t, p, &sc, s)
	shown := false // the hint on making a binary, once
	for _, pr := range r.Failed() {
		if pr.Counterexample == nil { // a sometimes-property no run reaches: no run to show
			t.Errorf("%s: %s fails: %s", label(p, &sc), pr.Name, pr.Detail)
			continue
		}
		path := filepath.Join(s.traceDir, fileName(t.Name())+"-"+pr.Name+".json")
		var where string
		if err := suite.NewTraceFile(p, m.Config(), m.Properties(), pr.Counterexample).Write(path); err != nil {
			where = fmt.Sprintf("its trace file could not be written: %v", err)
		} else {
			where, shown = replayHint(p, path, shown), true
		}
		t.Errorf("%s: %s fails: %s\n%s%s", label(p, &sc), pr.Name, pr.Detail, render(pr.Counterexample), where)
	}
	if r.Verdict == checker.Unknown && r.Fault == nil {
		t.Errorf("%s: no verdict: %s; the search was cut by its %s bound", label(p, &sc), suite.Describe(r), r.Cut)
	}
	return r
}

// Fails checks scenario sc of p and fails t unless the checker finds a
// counterexample to property, which it returns: a known counterexample,
// where the algorithm is known to break. Other properties may fail too.
func Fails(t testing.TB, p *suite.Protocol, sc suite.Scenario, property string, opts ...Option) *checker.Trace {
	t.Helper()
	if sc.Props == nil {
		sc.Props = []string{property}
	}
	r, _ := run(t, p, &sc, configure(opts))
	pr := r.Property(property)
	if pr == nil {
		t.Fatalf("%s: %s is not among the properties checked (%v)", label(p, &sc), property, sc.Props)
	}
	if pr.Verdict != checker.Fail && r.Fault == nil {
		t.Errorf("%s: expected a counterexample to %s, got %s", label(p, &sc), property, suite.Describe(r))
		return nil
	}
	return pr.Counterexample
}

// Expect checks scenario sc of p and fails t unless the result is the
// one the scenario expects (see suite.Judge): pass, or a counterexample to
// the property it Shows and to no other than those it Violates.
func Expect(t testing.TB, p *suite.Protocol, sc suite.Scenario, opts ...Option) *checker.Result {
	t.Helper()
	valid(t, p)
	if err := p.ValidateScenario(&sc); err != nil {
		t.Fatalf("%v", err)
	}
	r, _ := run(t, p, &sc, configure(opts))
	if why := suite.Judge(&sc, r); why != "" {
		var cx strings.Builder
		for _, pr := range r.Failed() {
			if pr.Name != sc.Shows {
				cx.WriteString(render(pr.Counterexample))
			}
		}
		t.Errorf("%s: %s\n%s", label(p, &sc), why, cx.String())
	}
	return r
}

// Scenarios checks every scenario of p against its expectation (see
// Expect), each as a subtest named after the protocol's path and the
// scenario: TestScenarios/election/bully/sync-crash, which go test -run
// selects level by level (-run 'TestScenarios/election/bully/' for one
// protocol's), and which stays distinct when two protocols have
// scenarios of one name.
func Scenarios(t *testing.T, p *suite.Protocol, opts ...Option) {
	t.Helper()
	valid(t, p)
	for _, sc := range p.Scenarios {
		t.Run(p.Path()+"/"+sc.Name, func(t *testing.T) { Expect(t, p, sc, opts...) })
	}
}

// replayHint says how to replay the trace file at path of a check of p:
// with the binary p names, or with one of one's own, for the stock vigil
// binary knows only vigil's protocols; how to make one is said once per
// check (shown).
func replayHint(p *suite.Protocol, path string, shown bool) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // a test runs in its package's directory, the binary anywhere
	}
	switch {
	case p.Binary != "":
		return fmt.Sprintf("replay it with: %s replay %s", p.Binary, path)
	case shown:
		return fmt.Sprintf("replay it with your vigil binary (see above): go run ./cmd/yourvigil replay %s", path)
	}
	return fmt.Sprintf("replay it with a vigil binary of your own (the stock one knows only vigil's protocols), "+
		"a main that calls cli.Main over a suite.Registry holding %s:\n"+
		"\tvar r suite.Registry; r.MustRegister(Description)\n"+
		"\tos.Exit(cli.Main(&r, os.Args[1:], os.Stdout, os.Stderr))\n"+
		"as in: go run ./cmd/yourvigil replay %s\n"+
		"(set the description's Binary to that command and this hint names it)",
		p.Path(), path)
}

// label names a check: the protocol, and the scenario if it has a name.
func label(p *suite.Protocol, sc *suite.Scenario) string {
	if sc.Name == "" {
		return p.Path()
	}
	return p.Path() + " [" + sc.Name + "]"
}

// renderFault is the run to a fault, as vigil check prints it.
func renderFault(f *checker.Fault) string {
	out := render(f.Trace)
	if where := f.Where(); where != "" {
		out += "  panicked in " + where + "\n"
	}
	return out
}

func render(t *checker.Trace) string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	checker.Render(&b, t)
	return b.String()
}

var unsafeInFileName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// fileName turns a test's name, with its subtests, into a file name.
func fileName(test string) string { return unsafeInFileName.ReplaceAllString(test, "_") }

// Messages is the range of messages of kind in r's complete runs, the
// figure a search with messages counted (checker.Options.Messages) keeps.
// It fails t if r has no figure for kind.
func Messages(t testing.TB, r *checker.Result, kind string) checker.MessageRange {
	t.Helper()
	for _, m := range r.Messages {
		if m.Kind == kind {
			return m
		}
	}
	t.Fatalf("no %q messages in %v", kind, r.Messages)
	return checker.MessageRange{}
}
