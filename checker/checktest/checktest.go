// Package checktest checks protocols in go test. One call compiles a
// protocol with its properties, runs the exhaustive search or random
// walks, and on a violation fails the test with the counterexample, as
// vigil check prints it, and a trace file that vigil replay reads:
//
//	func TestTwoPhaseCommit(t *testing.T) {
//		checktest.Check(t, twopc.Description, suite.Scenario{N: 3, Crashes: 1})
//	}
//
// Fails is the other half: a known counterexample, which the test expects
// the checker to find. Expect and Scenarios check scenarios against the
// verdicts they expect; Rapid lets rapid draw the configuration and the
// schedule, so that a failure shrinks to a small one (see Space).
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

// run checks scenario sc of p; a scenario or option that cannot run fails
// t at once.
func run(t testing.TB, p *suite.Protocol, sc *suite.Scenario, s settings) (*checker.Result, *checker.Machine) {
	t.Helper()
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
// property, for vigil replay; a property left unknown by a bound fails
// too, for nothing was shown. It returns the result.
func Check(t testing.TB, p *suite.Protocol, sc suite.Scenario, opts ...Option) *checker.Result {
	t.Helper()
	s := configure(opts)
	r, m := run(t, p, &sc, s)
	for _, pr := range r.Failed() {
		path := filepath.Join(s.traceDir, fileName(t.Name())+"-"+pr.Name+".json")
		where := "replay it with vigil replay " + path
		if err := suite.NewTraceFile(p, m.Config(), m.Properties(), pr.Counterexample).Write(path); err != nil {
			where = fmt.Sprintf("its trace file could not be written: %v", err)
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
// Expect), each as a subtest named after it.
func Scenarios(t *testing.T, p *suite.Protocol, opts ...Option) {
	t.Helper()
	for _, sc := range p.Scenarios {
		t.Run(sc.Name, func(t *testing.T) { Expect(t, p, sc, opts...) })
	}
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
