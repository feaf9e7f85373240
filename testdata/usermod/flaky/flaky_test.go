package flaky_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"example.com/commit/flaky"
	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
)

// recorder stands in for a test the kit is expected to fail: it records
// the failures instead of failing the real test. FailNow ends the
// goroutine that calls it, so the kit runs on one of its own (see record).
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.FailNow()
}

func (r *recorder) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// record runs f against a recorder standing in for t, and returns what it
// reported.
func record(t *testing.T, f func(tb testing.TB)) (failed bool, output string) {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed, strings.Join(r.msgs, "\n")
}

var cases = []struct {
	p    *suite.Protocol
	want []string // what the report says, in order
}{
	{flaky.Stamped, []string{"protocol commit/twopc-stamped: Do of vote yes on n", " is not deterministic: two calls on equal inputs returned states that differ at .VotedAt: ",
		"; a handler must not read clocks, randomness or map order"}},
	{flaky.Unordered, []string{"protocol commit/twopc-unordered: Receive of canCommit? from n0 on n", " is not deterministic: two calls on equal inputs returned states that differ at .Locked[",
		"; a handler must not read clocks, randomness or map order"}},
}

// containsInOrder reports whether s holds each of parts, one after another.
func containsInOrder(s string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// The kit fails a test of a handler that reads the clock or follows map
// order, naming the handler, the event and the field, with the run to
// it, in either engine.
func TestTheKitReportsNondeterminism(t *testing.T) {
	engines := []struct {
		name string
		opt  checktest.Option
	}{
		{"exhaustive", checktest.Exhaustive(checker.Options{})},
		{"random", checktest.Random(checker.RandomOptions{Walks: 20})},
	}
	for _, c := range cases {
		for _, e := range engines {
			t.Run(c.p.Name+"/"+e.name, func(t *testing.T) {
				failed, out := record(t, func(tb testing.TB) { checktest.Check(tb, c.p, suite.Scenario{N: 3}, e.opt) })
				if !failed || !containsInOrder(out, c.want) {
					t.Fatalf("failed: %v, want %q in:\n%s", failed, c.want, out)
				}
				if !strings.Contains(out, "(the fault is in this last step: nothing came of it)") {
					t.Errorf("no run to the fault:\n%s", out)
				}
			})
		}
	}
}

// vigil's command line ends a check of either with exit code 2 and says
// which handler and which field.
func TestTheCommandReportsNondeterminism(t *testing.T) {
	var r suite.Registry
	r.MustRegister(flaky.Stamped, flaky.Unordered)
	for _, c := range cases {
		for _, mode := range []string{"exhaustive", "random"} {
			t.Run(c.p.Name+"/"+mode, func(t *testing.T) {
				var out, errs bytes.Buffer
				code := cli.Main(&r, []string{"check", c.p.Name, "-n", "3", "-mode", mode}, &out, &errs)
				if code != 2 || !containsInOrder(out.String(), append([]string{"fault: "}, c.want...)) ||
					!strings.Contains(out.String(), "verdict: error\n") {
					t.Fatalf("exit code %d, want 2 and %q in:\n%s%s", code, c.want, out.String(), errs.String())
				}
			})
		}
	}
}

// Without their flaws the variants are two-phase commit, and pass.
func TestWithoutTheFlawsTheyPass(t *testing.T) {
	p := *flaky.Stamped
	p.Compile = suite.Compiler[flaky.State, twopc.Msg]("commit/twopc-plain", flaky.Protocol{}, nil)
	checktest.Check(t, &p, suite.Scenario{N: 3})
	checktest.Check(t, &p, suite.Scenario{N: 3, Crashes: 1, Channels: model.Unordered}, checktest.Random(checker.RandomOptions{Walks: 50}))
}
