package checktest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"pgregory.net/rapid"
)

// Space is the configurations rapid draws from: Base, with what the other
// fields ask drawn anew for each test case. rapid shrinks a failing case
// towards the smallest N, sorted ranks, every node an initiator, no fault
// and the first enabled event at each step, so a failure is reported at a
// small size.
type Space struct {
	// Base gives what is not drawn: channels, timing, topology, parameters, the
	// properties (nil: the protocol's claims), and N, ranks, initiators
	// and fault budgets where they are not drawn.
	Base suite.Scenario
	// MinN and MaxN bound the number of nodes drawn (0: Base.N).
	MinN, MaxN int
	// Ranks draws a permutation of ranks; Initiators draws every node or a
	// non-empty subset as initiators; Channels draws FIFO or unordered.
	Ranks, Initiators, Channels bool
	// Crashes, Recoveries and Partitions, if positive, draw the budget
	// from 0 to that many.
	Crashes, Recoveries, Partitions int
	// Losses and Duplicates, if positive, draw the message fault budgets
	// from 0 to that many.
	Losses, Duplicates int
	// Topologies, if set, draws the network among these specs (see
	// model.ParseTopology); a "random" entry stands for random:SEED with
	// a drawn seed. Draw them first so that rapid shrinks towards the
	// first.
	Topologies []string
	// MaxSteps bounds a schedule (0: 10 000 steps); a run cut there is
	// not judged where it would have ended.
	MaxSteps int
}

// Draw draws a scenario from the space.
func (s Space) Draw(t *rapid.T) suite.Scenario {
	sc := s.Base
	sc.Name = "drawn"
	if s.MaxN > 0 {
		sc.N = rapid.IntRange(max(s.MinN, 1), s.MaxN).Draw(t, "n")
	}
	if s.Ranks {
		ids := make([]int, sc.N)
		for i := range ids {
			ids[i] = i
		}
		perm := rapid.Permutation(ids).Draw(t, "ranks")
		sc.Ranks = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(perm)), ","), "[]")
	}
	if s.Initiators && !rapid.Bool().Draw(t, "all initiate") {
		var ids []string
		for i := range sc.N {
			if rapid.Bool().Draw(t, fmt.Sprintf("n%d initiates", i)) {
				ids = append(ids, fmt.Sprint(i))
			}
		}
		if ids == nil {
			ids = []string{fmt.Sprint(rapid.IntRange(0, sc.N-1).Draw(t, "the initiator"))}
		}
		sc.Initiators = strings.Join(ids, ",")
	}
	if len(s.Topologies) > 0 {
		sc.Topology = rapid.SampledFrom(s.Topologies).Draw(t, "topology")
		if sc.Topology == "random" {
			sc.Topology = fmt.Sprintf("random:%d", rapid.IntRange(0, 1<<20).Draw(t, "topology seed"))
		}
	}
	if s.Channels && rapid.Bool().Draw(t, "unordered") {
		sc.Channels = model.Unordered
	}
	budget := func(max int, base *int, name string) {
		if max > 0 {
			*base = rapid.IntRange(0, max).Draw(t, name)
		}
	}
	budget(s.Crashes, &sc.Crashes, "crashes")
	budget(s.Recoveries, &sc.Recoveries, "recoveries")
	if sc.N >= 2 {
		budget(s.Partitions, &sc.Partitions, "partitions")
	}
	budget(s.Losses, &sc.Losses, "losses")
	budget(s.Duplicates, &sc.Duplicates, "duplicates")
	return sc
}

// Schedule runs m under a schedule drawn from t, step by step: which
// enabled event to take (the protocol's events come first, faults last,
// so rapid shrinks towards a run without faults) and, in a quiescent world
// where a fault may still happen, whether to go on with one. It judges m's
// properties in every world, as the engines do, and fails t at the first
// violation with the run so far. It returns the run.
func Schedule(t *rapid.T, m *checker.Machine, maxSteps int) *checker.Run {
	if maxSteps <= 0 {
		maxSteps = 10000
	}
	r := m.Start()
	for {
		p, d := r.Violation()
		if f := r.Fault(); f != nil {
			t.Fatalf("%v\n%s", f, renderFault(f))
		}
		if p != nil {
			t.Fatalf("%s fails after %d steps (n=%d): %s\n%s", p.Name, r.Steps(), m.Config().N, d, render(r.Trace(p.Name, d)))
		}
		n, nproto := r.Enabled()
		if r.Steps() >= maxSteps || n == 0 || (nproto == 0 && !rapid.Bool().Draw(t, "go on with a fault")) {
			return r
		}
		r.Take(rapid.IntRange(0, n-1).Draw(t, "event"))
	}
}

// Property is the rapid property that checks p over space: it draws a
// scenario, compiles p for it and runs one drawn schedule (see Schedule).
// Run it with rapid.Check, or use Rapid.
func Property(p *suite.Protocol, space Space) func(*rapid.T) {
	err := p.Validate()
	return func(t *rapid.T) {
		if err != nil {
			t.Fatalf("%v", err)
		}
		sc := space.Draw(t)
		m, err := suite.Compile(p, &sc)
		if err != nil {
			t.Fatalf("%s: drawn scenario %+v: %v", p.Path(), sc, err)
		}
		r := Schedule(t, m, space.MaxSteps)
		t.Logf("%s n=%d topology=%q ranks=%q initiators=%q crashes=%d: %d steps", p.Path(), sc.N, sc.Topology, sc.Ranks, sc.Initiators, sc.Crashes, r.Steps())
	}
}

// Rapid checks p with rapid over space: each test case a configuration and
// a schedule; a violation fails t with the case rapid shrank it to, which
// replays from rapid's fail file (-rapid.failfile).
func Rapid(t *testing.T, p *suite.Protocol, space Space) {
	t.Helper()
	valid(t, p)
	rapid.Check(t, Property(p, space))
}
