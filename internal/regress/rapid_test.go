// Property-based runs with rapid: drawn election scenarios and schedules
// under the protocols' claims, the textbook's bully violation found that
// way, and every built-in protocol through the kit a user has.

package regress

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
	"pgregory.net/rapid"
)

// rapidMaxSteps bounds a drawn schedule.
const rapidMaxSteps = 2000

// rapidSchedules is the number of schedules drawn per scenario: runs are
// cheap next to the breadth of schedules worth trying. For a longer search
// run go test ./internal/regress -run Rapid -rapid.checks=10000.
const rapidSchedules = 10

// rapidScenario is a protocol and a configuration drawn by rapid.
type rapidScenario struct {
	p   *suite.Protocol
	cfg model.Config
	// lateFaults: faults only in quiescent worlds, so that a crash comes
	// after an election has finished (rapid otherwise tends to crash a node
	// early: faults come last among the enabled events and rapid favours
	// the bounds of a range).
	lateFaults bool
}

func (s rapidScenario) allInitiators() bool {
	return s.cfg.Initiators == nil || !slices.Contains(s.cfg.Initiators, false)
}

// topInitiator is the initiator of highest rank.
func (s rapidScenario) topInitiator() model.NodeID {
	best := model.None
	for i := range model.NodeID(s.cfg.N) {
		if s.cfg.Initiator(i) && (best == model.None || s.cfg.Rank(i) > s.cfg.Rank(best)) {
			best = i
		}
	}
	return best
}

// topNode is the node of highest rank.
func (s rapidScenario) topNode() model.NodeID {
	best := model.NodeID(0)
	for i := range model.NodeID(s.cfg.N) {
		if s.cfg.Rank(i) > s.cfg.Rank(best) {
			best = i
		}
	}
	return best
}

// drawRanks draws a permutation of 0..n-1.
func drawRanks(t *rapid.T, n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return rapid.Permutation(ids).Draw(t, "ranks")
}

// drawElectionScenario draws Chang-Roberts (FIFO or unordered), LeLann (FIFO
// only: the Leader Election notes assume FIFO channels) or bully (sync timing, FIFO or
// unordered, at most one crash) on 2 to 8 nodes, with every node an
// initiator or a non-empty random subset.
func drawElectionScenario(t *rapid.T) rapidScenario {
	name := rapid.SampledFrom([]string{"changroberts", "lelann", "bully"}).Draw(t, "protocol")
	p, err := protocols.Lookup(name)
	require.NoError(t, err)
	n := rapid.IntRange(2, 8).Draw(t, "n")
	cfg := model.Config{N: n, Ranks: drawRanks(t, n)}
	if name != "lelann" && rapid.Bool().Draw(t, "unordered") {
		cfg.Channels = model.Unordered
	}
	late := false
	if name == "bully" {
		cfg.Timing = model.Sync
		cfg.Crashes = rapid.IntRange(0, 1).Draw(t, "crashes")
		late = cfg.Crashes > 0 && rapid.Bool().Draw(t, "faults only at quiescence")
	}
	if !rapid.Bool().Draw(t, "all initiators") {
		cfg.Initiators = rapid.SliceOfN(rapid.Bool(), n, n).Draw(t, "initiators")
		cfg.Initiators[rapid.IntRange(0, n-1).Draw(t, "one initiator for sure")] = true
	}
	require.NoError(t, cfg.Validate())
	return rapidScenario{p: p, cfg: cfg, lateFaults: late}
}

// rapidRun is the outcome of one drawn schedule.
type rapidRun struct {
	steps     int
	quiescent bool           // the schedule ended in a quiescent world
	judged    int            // quiescent worlds judged on the way
	sent      map[string]int // messages sent, by kind
	crashed   bool           // a node crashed on the way
}

// runDrawnSchedule runs m under a schedule rapid draws: at each step the
// index of the enabled event to take (a protocol event only, with
// lateFaults, unless the world is quiescent); in a quiescent world rapid
// decides whether to stop or to go on with a fault (when one is left).
// every is called on every world, quiescent on every quiescent one; either
// may stop the run by returning true.
func runDrawnSchedule(t *rapid.T, m *checker.Machine, lateFaults bool, every, quiescent func(v properties.View, step int) bool) (run rapidRun) {
	r := m.Start()
	defer func() { run.sent = r.Sent() }()
	if every(r.View(), 0) {
		return run
	}
	for ; ; run.steps++ {
		n, nproto := r.Enabled()
		if nproto == 0 {
			run.judged++
			if quiescent(r.View(), run.steps) || n == 0 || !rapid.Bool().Draw(t, "go on with a fault") {
				run.quiescent = true
				return run
			}
		}
		if run.steps == rapidMaxSteps {
			return run
		}
		choices := n
		if lateFaults && nproto > 0 {
			choices = nproto
		}
		if r.Take(rapid.IntRange(0, choices-1).Draw(t, "event")).Kind == "crash" {
			run.crashed = true
		}
		if every(r.View(), run.steps+1) {
			return run
		}
	}
}

// predictedTokens is how many election messages Chang-Roberts sends: each
// initiator's token travels to the first initiator of higher rank along
// the ring, where it is dropped; the winner's goes all the way round (N).
func predictedTokens(cfg model.Config) int {
	total := 0
	for i := range cfg.N {
		if !cfg.Initiator(model.NodeID(i)) {
			continue
		}
		d, j := 1, (i+1)%cfg.N
		for j != i && !(cfg.Initiator(model.NodeID(j)) && cfg.Rank(model.NodeID(j)) > cfg.Rank(model.NodeID(i))) {
			d, j = d+1, (j+1)%cfg.N
		}
		total += d
	}
	return total
}

func TestPredictedTokens(t *testing.T) {
	t.Parallel()
	ranks := func(spec string, n int) []int {
		r, err := model.ParseRanks(spec, n)
		require.NoError(t, err)
		return r
	}
	for n := 1; n <= 8; n++ {
		// the figures of the Leader Election notes: rising ranks 2N-1, falling
		// ranks N(N+1)/2
		require.Equal(t, 2*n-1, predictedTokens(model.Config{N: n, Ranks: ranks("sorted", n)}), "n=%d sorted", n)
		require.Equal(t, n*(n+1)/2, predictedTokens(model.Config{N: n, Ranks: ranks("reverse", n)}), "n=%d reverse", n)
	}
	// initiators 0 and 2 on a sorted ring of 4: t0 dies at n2, t2 goes round
	require.Equal(t, 2+4, predictedTokens(model.Config{N: 4, Initiators: []bool{true, false, true, false}}))
}

// Rapid draws election scenarios and schedules; the protocols' claimed
// invariants hold in every world and, at every quiescent world, the
// outcome is the one the algorithm promises, down to the messages sent.
func TestRapidElectionSchedules(t *testing.T) {
	t.Parallel()
	var scenarios, runs, complete, judged, partial, crashes, longest int
	rapid.Check(t, func(t *rapid.T) {
		s := drawElectionScenario(t)
		props, err := s.p.Props(model.Config{}, nil) // every claim, whoever initiates
		require.NoError(t, err)
		props = withoutSometimes(props)
		m, err := s.p.Compile(s.cfg, props)
		require.NoError(t, err)
		var invariants, atEnd []*properties.Property
		for _, p := range props {
			if p.When == properties.Always {
				invariants = append(invariants, p)
			} else {
				atEnd = append(atEnd, p)
			}
		}
		require.NotEmpty(t, invariants)
		require.NotEmpty(t, atEnd)
		every := func(v properties.View, step int) bool {
			for _, p := range invariants {
				d := p.Check(v)
				require.Empty(t, d, "%s after %d steps of %s %+v", p.Name, step, s.p.Name, s.cfg)
			}
			return false
		}
		quiescent := func(v properties.View, step int) bool {
			what := fmt.Sprintf("quiescent after %d steps of %s %+v", step, s.p.Name, s.cfg)
			beliefs := v.Monitor(properties.Leaders).([]model.NodeID)
			switch {
			case s.p.Name == "bully" || s.allInitiators():
				// every claim holds
				for _, p := range atEnd {
					require.Empty(t, p.Check(v), "%s: %s", p.Name, what)
				}
			case s.p.Name == "changroberts":
				// Non-initiators only forward: every node follows the
				// initiator of highest rank, which is the highest-leader
				// the property asks for only when it is the top node.
				for i := range model.NodeID(s.cfg.N) {
					require.Equal(t, s.topInitiator(), beliefs[i], "n%d's leader: %s", i, what)
				}
				require.Empty(t, properties.Termination.Check(v), what)
				require.Equal(t, s.topInitiator() == s.topNode(), properties.HighestLeader.Check(v) == "", what)
			case s.p.Name == "lelann":
				// Initiators decide on the initiator of highest rank; a
				// non-initiator forwards and never learns (package doc).
				for i := range model.NodeID(s.cfg.N) {
					want := model.None
					if s.cfg.Initiator(i) {
						want = s.topInitiator()
					}
					require.Equal(t, want, beliefs[i], "n%d's leader: %s", i, what)
				}
				require.Contains(t, properties.Termination.Check(v), "has not decided", what)
				require.Equal(t, s.topInitiator() == s.topNode(), properties.HighestLeader.Check(v) == "", what)
			default:
				t.Fatalf("no expectation for %s", s.p.Name)
			}
			return false
		}
		scenarios++
		if !s.allInitiators() {
			partial++
		}
		k := 0
		for i := range s.cfg.N {
			if s.cfg.Initiator(model.NodeID(i)) {
				k++
			}
		}
		for range rapidSchedules {
			run := runDrawnSchedule(t, m, s.lateFaults, every, quiescent)
			runs++
			longest = max(longest, run.steps)
			judged += run.judged
			if run.crashed {
				crashes++
			}
			// Every run ends: the faults are bounded, and none of these
			// protocols can go round a cycle (the exhaustive engine finds
			// their message counts bounded); the longest runs take a few
			// hundred steps.
			require.True(t, run.quiescent, "a run of %s %+v did not end after %d steps", s.p.Name, s.cfg, run.steps)
			complete++
			switch s.p.Name {
			case "changroberts":
				require.Equal(t, predictedTokens(s.cfg), run.sent["election"], "election messages, ranks %v initiators %v", s.cfg.Ranks, s.cfg.Initiators)
				require.Equal(t, s.cfg.N, run.sent["elected"], "the leader's announcement goes round once")
			case "lelann":
				require.Equal(t, s.cfg.N*k, run.sent["token"], "every initiator's token goes round once")
			case "bully":
				if s.cfg.Crashes == 0 {
					require.Equal(t, run.sent["election"], run.sent["answer"], "each election message is answered once")
				}
			}
		}
	})
	t.Logf("%d scenarios (%d with partial initiators), %d runs, %d complete, %d quiescent worlds judged, %d with a crash, longest %d steps",
		scenarios, partial, runs, complete, judged, crashes, longest)
	require.Positive(t, complete)
	require.Positive(t, judged)
}

// The same search finds what the textbook predicts: bully with an
// unreliable failure detector (Async timing) lets two nodes lead at once.
// The property never fails the check; it counts the schedules that break
// unique-leader, and the test asks for at least one.
func TestRapidFindsBullyAsyncViolation(t *testing.T) {
	t.Parallel()
	p := lookup(t, "bully")
	props := []*properties.Property{properties.UniqueLeader}
	var runs, violations int
	var example string
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 8).Draw(t, "n")
		cfg := model.Config{N: n, Ranks: drawRanks(t, n), Timing: model.Async, Crashes: rapid.IntRange(0, 1).Draw(t, "crashes")}
		m, err := p.Compile(cfg, props)
		require.NoError(t, err)
		violated := false
		stopAt := func(v properties.View, step int) bool {
			if d := properties.UniqueLeader.Check(v); d != "" {
				violated = true
				if example == "" {
					example = fmt.Sprintf("%s after %d steps, ranks %v", d, step, cfg.Ranks)
				}
			}
			return violated
		}
		runDrawnSchedule(t, m, false, stopAt, stopAt)
		runs++
		if violated {
			violations++
		}
	})
	t.Logf("%d of %d schedules violate unique-leader; e.g. %s", violations, runs, example)
	require.Positive(t, runs)
	require.Positive(t, violations, "no schedule of bully under Async timing broke unique-leader")
}

// The built-in protocols through the kit a user has: each claim holds on
// every configuration and schedule rapid draws, within the assumptions the
// protocol's scenarios name (FIFO channels for LeLann and the active
// lists, no crash where the algorithm assumes none); R-multicast also
// under duplicated messages, which it drops.
func TestKitRapidOnBuiltins(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		space    checktest.Space
	}{
		{"changroberts", checktest.Space{MinN: 1, MaxN: 8, Ranks: true, Channels: true, Initiators: true}},
		{"lelann", checktest.Space{Base: suite.Scenario{Props: []string{"unique-leader", "agreement"}}, MinN: 1, MaxN: 7, Ranks: true, Initiators: true}},
		{"ringbased", checktest.Space{MinN: 1, MaxN: 8, Ranks: true, Channels: true}},
		{"bully", checktest.Space{MinN: 1, MaxN: 7, Ranks: true, Channels: true, Crashes: 1}},
		{"ring", checktest.Space{MinN: 2, MaxN: 6, Ranks: true, Crashes: 1}},
		{"central", checktest.Space{Base: suite.Scenario{Params: map[string]int{"requests": 2}}, MinN: 1, MaxN: 6}},
		{"ricartagrawala", checktest.Space{Base: suite.Scenario{Params: map[string]int{"requests": 2}}, MinN: 1, MaxN: 6, Channels: true}},
		{"sequencer", checktest.Space{Base: suite.Scenario{Channels: model.Unordered, Params: map[string]int{"msgs": 2}}, MinN: 1, MaxN: 5, Initiators: true}},
		{"reliable", checktest.Space{Base: suite.Scenario{Channels: model.Unordered}, MinN: 1, MaxN: 5, Initiators: true, Crashes: 1, Duplicates: 2}},
	}
	for _, c := range cases {
		t.Run(c.protocol, func(t *testing.T) {
			p := lookup(t, c.protocol)
			checktest.Rapid(t, p, c.space)
		})
	}
}
