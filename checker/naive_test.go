package checker_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// naiveResult is what a naive breadth-first enumeration finds.
type naiveResult struct {
	states      int64
	transitions int64
	quiescent   int64
	depth       int // the deepest level holding a world
	// failDepth: for each property that fails, the depth of the shallowest
	// world that violates it (a quiescent one for AtQuiescence properties).
	failDepth map[string]int
	truncated bool // more than limit worlds
}

func worldKey(w model.World) string {
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return string(b)
}

// naiveExplore enumerates every world reachable in m, level by level,
// keeping the full worlds in a map keyed by their encoding: no fingerprints
// and nothing of the engine. It judges invariants in every world and
// quiescence properties in the worlds where no protocol event is enabled.
// It gives up after limit worlds.
func naiveExplore(m *model.Machine, props []*properties.Property, limit int) naiveResult {
	st := m.NewStepper()
	res := naiveResult{failDepth: map[string]int{}}
	judge := func(w model.World, depth int, quiescent bool) {
		for _, p := range props {
			if p.When == properties.AtQuiescence && !quiescent {
				continue
			}
			if _, failed := res.failDepth[p.Name]; failed {
				continue // BFS: the first violation found is the shallowest
			}
			if p.Check(properties.View{S: st, W: w}) != "" {
				res.failDepth[p.Name] = depth
			}
		}
	}
	w0, _ := st.Init()
	seen := map[string]bool{worldKey(w0): true}
	level := []model.World{w0}
	for depth := 0; len(level) > 0; depth++ {
		res.depth = depth
		var next []model.World
		for _, w := range level {
			evs, nproto := st.Enabled(w, nil)
			res.transitions += int64(len(evs))
			if nproto == 0 {
				res.quiescent++
			}
			judge(w, depth, nproto == 0)
			for _, ev := range evs {
				succ, _ := st.Apply(w, ev, nil)
				if k := worldKey(succ); !seen[k] {
					seen[k] = true
					next = append(next, succ)
				}
			}
			if len(seen) > limit {
				res.truncated = true
				return res
			}
		}
		level = next
	}
	res.states = int64(len(seen))
	return res
}

// replayTrace re-runs a counterexample on a fresh Stepper of m, finding each
// event among the enabled ones by its text, and returns the last world and
// whether it is quiescent.
func replayTrace(t *testing.T, m *model.Machine, tr *checker.Trace) (*model.Stepper, model.World, bool) {
	t.Helper()
	st := m.NewStepper()
	w, _ := st.Init()
	require.Len(t, tr.Initial, m.Config().N)
	for i, step := range tr.Events {
		evs, _ := st.Enabled(w, nil)
		var match []model.Event
		for _, ev := range evs {
			if ev.Kind.String() != step.Kind || int(ev.Node) != step.Node {
				continue
			}
			switch ev.Kind {
			case model.Deliver:
				if int(ev.From) != step.From || m.FormatMsg(ev.Arg) != step.Msg {
					continue
				}
			case model.Timeout:
				if string(m.TimerName(ev.Arg)) != step.Timer {
					continue
				}
			case model.Act:
				if string(m.ActionName(ev.Node, st.NodeState(w, ev.Node), ev.Arg)) != step.Action {
					continue
				}
			}
			match = append(match, ev)
		}
		require.Len(t, match, 1, "event %d (%s) of the counterexample to %s", i+1, step, tr.Property)
		w, _ = st.Apply(w, match[0], nil)
	}
	_, nproto := st.Enabled(w, nil)
	return st, w, nproto == 0
}

// Properties of no protocol, checked along with the claims so that every
// configuration has counterexamples of several depths, the initial world's
// included.
var (
	fewInFlight = &properties.Property{
		Name: "test:at-most-3-in-flight", When: properties.Always,
		Check: func(v properties.View) string {
			if n := len(v.S.Msgs(v.W)); n > 3 {
				return fmt.Sprintf("%d messages in flight", n)
			}
			return ""
		},
	}
	never = &properties.Property{
		Name: "test:never", When: properties.Always,
		Check: func(properties.View) string { return "no world satisfies it" },
	}
	endsCrashed = &properties.Property{
		Name: "test:runs-end-with-a-crash", When: properties.AtQuiescence,
		Check: func(v properties.View) string {
			for i := range model.NodeID(v.N()) {
				if !v.Alive(i) {
					return ""
				}
			}
			return "every node is up"
		},
	}
)

// naiveCase is one configuration of one protocol.
type naiveCase struct {
	name  string
	cfg   model.Config
	props []string // nil: the protocol's claims
	// guessed: a configuration of a protocol this test does not know,
	// skipped rather than failed when too large.
	guessed bool
}

// naiveCases returns the small configurations of p to cross-check.
func naiveCases(t *testing.T, p *protocols.Protocol) []naiveCase {
	ranks := func(spec string, n int) []int {
		r, err := model.ParseRanks(spec, n)
		require.NoError(t, err)
		return r
	}
	var cs []naiveCase
	switch p.Name {
	case "changroberts", "lelann":
		for n := 2; n <= 4; n++ {
			for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
				for _, rk := range []string{"sorted", "reverse"} {
					cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-%v-%s", n, ch, rk),
						cfg: model.Config{N: n, Channels: ch, Ranks: ranks(rk, n)}})
				}
			}
		}
	case "bully":
		for n := 2; n <= 4; n++ {
			for crashes := 0; crashes <= 1; crashes++ {
				cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-sync-crash%d", n, crashes),
					cfg: model.Config{N: n, Timing: model.Sync, Crashes: crashes, Ranks: ranks("sorted", n)}})
			}
		}
		for n := 2; n <= 3; n++ {
			for crashes := 0; crashes <= 1; crashes++ {
				// Unordered channels: n1 can have two identical
				// coordinator messages in flight to n0.
				cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-sync-unordered-crash%d", n, crashes),
					cfg: model.Config{N: n, Channels: model.Unordered, Crashes: crashes}})
			}
		}
		// 2749 worlds; at N = 4 the same scenario has about 6.3 million.
		recovery := model.Config{N: 3, Timing: model.Sync, Crashes: 1, Recoveries: 1, Ranks: ranks("sorted", 3)}
		cs = append(cs, naiveCase{name: "n3-sync-crash1-recovery1", cfg: recovery},
			// Both properties fail (the sync-recovery scenario at N = 3).
			naiveCase{name: "n3-sync-crash1-recovery1-safety", cfg: recovery, props: []string{"unique-leader", "agreement"}})
	default:
		// A protocol added since: small fault-free rings (skipped below if
		// they turn out too large).
		for n := 2; n <= 3; n++ {
			for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
				cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-%v", n, ch), cfg: model.Config{N: n, Channels: ch}, guessed: true})
			}
		}
	}
	return cs
}

// comparableResult clears what legitimately differs between two runs.
func comparableResult(r *checker.Result) checker.Result {
	c := *r
	c.Stats.Seconds, c.Stats.StatesPerS = 0, 0
	return c
}

// TestExhaustiveAgainstNaive checks the engine, with one worker and with
// two, against the naive enumeration: the same worlds, transitions,
// quiescent worlds and depth; the same verdicts; counterexamples that are
// among the shortest and replay to a violation; and results that do not
// depend on the number of workers.
func TestExhaustiveAgainstNaive(t *testing.T) {
	const limit = 300_000
	require.NotEmpty(t, protocols.All())
	for _, p := range protocols.All() {
		for _, tc := range naiveCases(t, p) {
			t.Run(p.Name+"/"+tc.name, func(t *testing.T) {
				props, err := suite.Props(p, tc.props)
				require.NoError(t, err)
				if tc.props == nil {
					props = append(props, fewInFlight, never, endsCrashed)
				}
				compile := func() *model.Machine {
					m, err := suite.Compile(p, tc.cfg, props)
					require.NoError(t, err)
					return m
				}
				naive := naiveExplore(compile(), props, limit)
				if naive.truncated {
					if tc.guessed {
						t.Skipf("more than %d worlds: too large for the naive enumeration", limit)
					}
					t.Fatalf("more than %d worlds", limit)
				}
				allFail := len(naive.failDepth) == len(props)
				if allFail {
					t.Logf("every property fails")
				}

				byMessages := map[bool]*checker.Result{}
				for _, opt := range []checker.Options{{Workers: 1}, {Workers: 2}, {Workers: 1, Messages: true}, {Workers: 2, Messages: true}} {
					opt.MaxStates = 2 * limit // fail rather than hang
					m := compile()
					r := checker.Exhaustive(context.Background(), m, props, opt)
					what := fmt.Sprintf("workers=%d messages=%v", opt.Workers, opt.Messages)
					require.Empty(t, r.Cut, "%s: the search was cut", what)
					if allFail {
						// Once every property has failed the engine stops
						// expanding: it has seen part of the worlds only.
						require.Positive(t, r.Stats.States, what)
						require.LessOrEqual(t, r.Stats.States, naive.states, "%s: states", what)
						require.LessOrEqual(t, r.Stats.Transitions, naive.transitions, "%s: transitions", what)
					} else {
						require.Equal(t, naive.states, r.Stats.States, "%s: states", what)
						require.Equal(t, naive.transitions, r.Stats.Transitions, "%s: transitions", what)
						require.Equal(t, naive.quiescent, r.Stats.Quiescent, "%s: quiescent worlds", what)
						require.Equal(t, naive.depth, r.Stats.Depth, "%s: depth", what)
					}
					require.Len(t, r.Properties, len(props))
					wantVerdict := checker.Pass
					for i, prop := range props {
						pr := r.Properties[i]
						require.Equal(t, prop.Name, pr.Name)
						depth, fails := naive.failDepth[prop.Name]
						if !fails {
							require.Equal(t, checker.Pass, pr.Verdict, "%s: %s", what, prop.Name)
							require.Nil(t, pr.Counterexample, "%s: %s", what, prop.Name)
							continue
						}
						wantVerdict = checker.Fail
						require.Equal(t, checker.Fail, pr.Verdict, "%s: %s", what, prop.Name)
						cx := pr.Counterexample
						require.NotNil(t, cx, "%s: %s", what, prop.Name)
						require.Equal(t, prop.Name, cx.Property)
						require.Equal(t, pr.Detail, cx.Detail)
						require.Len(t, cx.Events, depth, "%s: the counterexample to %s is not among the shortest", what, prop.Name)
						st, w, quiescent := replayTrace(t, compile(), cx)
						require.Equal(t, quiescent, cx.Quiescent, "%s: %s", what, prop.Name)
						if prop.When == properties.AtQuiescence {
							require.True(t, quiescent, "%s: the counterexample to %s does not end a run", what, prop.Name)
						}
						require.Equal(t, pr.Detail, prop.Check(properties.View{S: st, W: w}), "%s: the counterexample to %s does not replay to its violation", what, prop.Name)
					}
					require.Equal(t, wantVerdict, r.Verdict, what)
					if opt.Messages && !allFail {
						require.NotEmpty(t, r.Messages, what)
						require.Equal(t, "total", r.Messages[0].Kind, what)
						for _, mr := range r.Messages {
							require.True(t, mr.Unbounded || mr.Min <= mr.Max, "%s: %v", what, mr)
						}
					} else if !opt.Messages {
						require.Nil(t, r.Messages, what)
					}

					// The same with any number of workers, traces included.
					if base := byMessages[opt.Messages]; base != nil {
						require.Equal(t, comparableResult(base), comparableResult(r), "%s differs from workers=1", what)
						continue
					}
					byMessages[opt.Messages] = r
					if other := byMessages[!opt.Messages]; other != nil {
						// Keeping the state graph changes nothing else.
						a, b := comparableResult(other), comparableResult(r)
						a.Messages, a.Stats.VisitedBytes, a.Stats.GraphBytes = b.Messages, b.Stats.VisitedBytes, b.Stats.GraphBytes
						require.Equal(t, a, b, "%s differs from the run without the state graph", what)
					}
				}
			})
		}
	}
}
