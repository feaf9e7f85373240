package regress

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/tier"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/testhook"
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
	// cycle: the Eventually properties whose shallowest violation is a
	// fair cycle rather than a run that ends.
	cycle     map[string]bool
	truncated bool // more than limit worlds
	// acyclic: every run ends; graded: moreover every edge goes from one
	// depth to the next, so each world is reached at one depth only.
	acyclic, graded bool
}

// naiveExplore enumerates every world reachable in m, level by level,
// keeping the full worlds in a map keyed by their encoding: no fingerprints
// and nothing of the engine. It judges invariants in every world and
// quiescence properties in the worlds where no protocol event is enabled.
// It gives up after limit worlds.
func naiveExplore(m *sim.Machine, props []*properties.Property, limit int) naiveResult {
	st := m.NewStepper()
	res := naiveResult{failDepth: map[string]int{}, cycle: map[string]bool{}}
	judge := func(w sim.World, depth int, quiescent bool) {
		for _, p := range props {
			if p.When != properties.Always && !quiescent {
				continue
			}
			if _, failed := res.failDepth[p.Name]; failed {
				continue // BFS: the first violation found is the shallowest
			}
			if p.Check(st.View(w)) != "" {
				res.failDepth[p.Name] = depth
			}
		}
	}
	w0, _ := st.Init()
	seen := map[string]int{testhook.WorldKey(w0): 0} // world -> its index
	var all []naiveWorld
	level := []sim.World{w0}
	for depth := 0; len(level) > 0; depth++ {
		res.depth = depth
		var next []sim.World
		for _, w := range level {
			evs, nproto := st.Enabled(w, nil)
			res.transitions += int64(len(evs))
			if nproto == 0 {
				res.quiescent++
			}
			judge(w, depth, nproto == 0)
			nw := naiveWorld{depth: depth}
			for _, p := range props {
				if p.When == properties.Eventually {
					nw.pending = append(nw.pending, p.Pending(st.View(w)))
				}
			}
			for _, ev := range evs {
				succ, _ := st.Apply(w, ev, nil)
				k := testhook.WorldKey(succ)
				to, ok := seen[k]
				if !ok {
					to = len(seen)
					seen[k] = to
					next = append(next, succ)
				}
				nw.succ = append(nw.succ, to)
				nw.events = append(nw.events, st.Identity(w, ev))
				nw.faults = append(nw.faults, ev.Kind >= sim.Crash)
			}
			all = append(all, nw)
			if len(seen) > limit {
				res.truncated = true
				return res
			}
		}
		level = next
	}
	res.states = int64(len(seen))
	res.acyclic, res.graded = naiveShape(all)
	k := 0
	for _, p := range props {
		if p.When != properties.Eventually {
			continue
		}
		if _, failed := res.failDepth[p.Name]; !failed {
			if d := naiveFairCycle(all, k); d >= 0 {
				res.failDepth[p.Name], res.cycle[p.Name] = d, true
			}
		}
		k++
	}
	return res
}

// naiveShape says whether the worlds' edges make an acyclic graph (Kahn's
// algorithm: peel worlds without predecessors until none is left) and
// whether every edge goes one depth down.
func naiveShape(all []naiveWorld) (acyclic, graded bool) {
	graded = true
	preds := make([]int, len(all))
	for _, w := range all {
		for _, j := range w.succ {
			preds[j]++
			graded = graded && all[j].depth == w.depth+1
		}
	}
	var free []int
	for i, n := range preds {
		if n == 0 {
			free = append(free, i)
		}
	}
	peeled := 0
	for len(free) > 0 {
		i := free[len(free)-1]
		free = free[:len(free)-1]
		peeled++
		for _, j := range all[i].succ {
			if preds[j]--; preds[j] == 0 {
				free = append(free, j)
			}
		}
	}
	return peeled == len(all), graded
}

// naiveWorld is a world of the naive enumeration: its depth, its
// obligations per Eventually property, and per enabled event its
// successor's index, identity and whether it is a fault.
type naiveWorld struct {
	depth   int
	pending []uint64
	succ    []int
	events  []uint64
	faults  []bool
}

// naiveFairCycle returns the depth of the shallowest world lying on a fair
// cycle that keeps an obligation of Eventually property k outstanding
// forever (weak fairness), or -1. For each obligation, the worlds keeping it
// are split into strongly connected components by Kosaraju's two passes
// (the engine uses Tarjan's); a component is fair when it has an inner
// edge and every non-fault event enabled in all its worlds is taken by an
// inner edge.
func naiveFairCycle(all []naiveWorld, k int) int {
	var bits uint64
	for i := range all {
		bits |= all[i].pending[k]
	}
	pred := make([][]int, len(all))
	for i := range all {
		for _, j := range all[i].succ {
			if j < len(all) {
				pred[j] = append(pred[j], i)
			}
		}
	}
	best := -1
	for b := range 64 {
		if bits>>b&1 == 0 {
			continue
		}
		keeps := func(i int) bool { return i < len(all) && all[i].pending[k]>>b&1 == 1 }
		// Pass 1: worlds in order of finishing a depth-first search.
		var order []int
		visited := make([]bool, len(all))
		type frame struct{ u, next int }
		for r := range all {
			if !keeps(r) || visited[r] {
				continue
			}
			visited[r] = true
			stack := []frame{{r, 0}}
			for len(stack) > 0 {
				f := &stack[len(stack)-1]
				if f.next < len(all[f.u].succ) {
					v := all[f.u].succ[f.next]
					f.next++
					if keeps(v) && !visited[v] {
						visited[v] = true
						stack = append(stack, frame{v, 0})
					}
					continue
				}
				order = append(order, f.u)
				stack = stack[:len(stack)-1]
			}
		}
		// Pass 2: on the reversed edges, in reverse finishing order, each
		// search collects one component.
		comp := make([]int, len(all))
		for i := range comp {
			comp[i] = -1
		}
		for i := len(order) - 1; i >= 0; i-- {
			r := order[i]
			if comp[r] >= 0 {
				continue
			}
			members := []int{r}
			comp[r] = r
			for j := 0; j < len(members); j++ {
				for _, v := range pred[members[j]] {
					if keeps(v) && comp[v] < 0 {
						comp[v] = r
						members = append(members, v)
					}
				}
			}
			inner, shallowest := false, all[r].depth
			taken := map[uint64]bool{}
			count := map[uint64]int{}
			for _, v := range members {
				shallowest = min(shallowest, all[v].depth)
				for e, id := range all[v].events {
					if to := all[v].succ[e]; to < len(all) && comp[to] == r {
						inner = true
						taken[id] = true
					}
					if !all[v].faults[e] {
						count[id]++
					}
				}
			}
			fair := inner
			for id, c := range count {
				if c == len(members) && !taken[id] {
					fair = false
				}
			}
			if fair && (best < 0 || shallowest < best) {
				best = shallowest
			}
		}
	}
	return best
}

// replayTrace re-runs a counterexample on a fresh Stepper of m, finding each
// event among the enabled ones by its text, and returns the last world and
// whether it is quiescent.
func replayTrace(t *testing.T, m *sim.Machine, tr *checker.Trace) (*sim.Stepper, sim.World, bool) {
	t.Helper()
	st := m.NewStepper()
	w, _ := st.Init()
	require.Len(t, tr.Initial, m.Config().N)
	for i, step := range tr.Events {
		evs, _ := st.Enabled(w, nil)
		var match []sim.Event
		for _, ev := range evs {
			if ev.Kind.String() != step.Kind || int(ev.Node) != step.Node {
				continue
			}
			switch ev.Kind {
			case sim.Deliver:
				if int(ev.From) != step.From || m.FormatMsg(ev.Arg) != step.Msg {
					continue
				}
			case sim.Timeout:
				if fmt.Sprint(m.TimerName(ev.Arg)) != step.Timer {
					continue
				}
			case sim.Act:
				if fmt.Sprint(m.ActionName(ev.Node, st.NodeState(w, ev.Node), ev.Arg)) != step.Action {
					continue
				}
			case sim.Lose:
				pos := 0
				if m.Config().Channels == model.FIFO {
					pos = int(ev.Arg)
				}
				if int(ev.From) != step.From || m.FormatMsg(st.LostMessage(w, ev)) != step.Msg || pos != step.Pos {
					continue
				}
			case sim.Duplicate:
				if int(ev.From) != step.From || m.FormatMsg(ev.Arg) != step.Msg {
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
			if n := v.InFlight(); n > 3 {
				return fmt.Sprintf("%d messages in flight", n)
			}
			return ""
		},
	}
	never = &properties.Property{
		Name: "test:never", When: properties.Always,
		Check: func(properties.View) string { return "no world satisfies it" },
	}
	busy        = testhook.Busy
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

// electionNaiveCases are the configurations of the ring elections and of
// bully, or nil for another protocol.
func electionNaiveCases(t *testing.T, name string) []naiveCase {
	ranks := func(spec string, n int) []int {
		r, err := model.ParseRanks(spec, n)
		require.NoError(t, err)
		return r
	}
	var cs []naiveCase
	switch name {
	case "changroberts", "lelann":
		for n := 2; n <= 4; n++ {
			for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
				for _, rk := range []string{"sorted", "reverse"} {
					cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-%v-%s", n, ch, rk),
						cfg: model.Config{N: n, Channels: ch, Ranks: ranks(rk, n)}})
				}
			}
			// the ring they are written for, on which partial order
			// reduces
			cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-uniring", n),
				cfg: model.Config{N: n, Topology: "uniring", Ranks: ranks("reverse", n)}})
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
		// Bounded timing: messages age and time ticks; bully's timers,
		// armed with SetTimer, behave as under Sync timing.
		for _, c := range []struct{ n, delay, crashes int }{{2, 1, 1}, {3, 1, 0}, {3, 2, 1}} {
			cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-bounded%d-crash%d", c.n, c.delay, c.crashes),
				cfg: model.Config{N: c.n, Timing: model.Bounded, Delay: c.delay, Crashes: c.crashes, Channels: model.Unordered}})
		}
		// A lost or duplicated message: a lost election or answer expires
		// the timers waiting on its sender, so two nodes may lead.
		cs = append(cs, naiveCase{name: "n3-sync-loss1", cfg: model.Config{N: 3, Losses: 1}},
			naiveCase{name: "n3-sync-unordered-duplicate1", cfg: model.Config{N: 3, Channels: model.Unordered, Duplicates: 1}})
		// 2749 worlds; at N = 4 the same scenario has about 6.3 million.
		recovery := model.Config{N: 3, Timing: model.Sync, Crashes: 1, Recoveries: 1, Ranks: ranks("sorted", 3)}
		cs = append(cs, naiveCase{name: "n3-sync-crash1-recovery1", cfg: recovery},
			// Both properties fail (the sync-recovery scenario at N = 3).
			naiveCase{name: "n3-sync-crash1-recovery1-safety", cfg: recovery, props: []string{"unique-leader", "agreement"}})
	}
	return cs
}

// naiveCases returns the small configurations of p to cross-check.
func naiveCases(t *testing.T, p *suite.Protocol) []naiveCase {
	if cs := electionNaiveCases(t, p.Name); cs != nil {
		return cs
	}
	var cs []naiveCase
	switch p.Name {
	case "central", "tokenring", "ricartagrawala", "maekawa":
		// asking forever (where the state stays finite) makes cycles
		// for no-starvation; asking twice makes runs that end
		for n := 2; n <= 3; n++ {
			for _, req := range []int{0, 1, 2} {
				if req == 0 && (p.Name == "ricartagrawala" || p.Name == "maekawa") {
					continue
				}
				cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-requests%d", n, req),
					cfg: model.Config{N: n, Params: map[string]int{"requests": req}}})
			}
		}
		cs = append(cs, naiveCase{name: "n2-unordered-requests2",
			cfg: model.Config{N: 2, Channels: model.Unordered, Params: map[string]int{"requests": 2}}})
		// a lost request, grant or reply, a duplicated one
		for _, c := range []struct {
			name string
			cfg  model.Config
		}{
			{"n3-requests1-loss1", model.Config{N: 3, Losses: 1, Params: map[string]int{"requests": 1}}},
			{"n2-requests2-loss2", model.Config{N: 2, Losses: 2, Params: map[string]int{"requests": 2}}},
			{"n3-requests1-duplicate1", model.Config{N: 3, Duplicates: 1, Params: map[string]int{"requests": 1}}},
			{"n2-unordered-requests2-loss1-duplicate1", model.Config{N: 2, Channels: model.Unordered, Losses: 1, Duplicates: 1, Params: map[string]int{"requests": 2}}},
		} {
			if p.Name == "maekawa" && c.cfg.N == 3 && c.cfg.Duplicates > 0 {
				continue // seconds, and nothing the others do not cover
			}
			cs = append(cs, naiveCase{name: c.name, cfg: c.cfg})
		}
	case "basic", "reliable", "fifo", "causal", "sequencer", "isis":
		// one or two senders, a crash mid-loop, unordered channels
		for _, c := range []struct {
			n, msgs, crashes int
			init             string
		}{{2, 1, 0, "all"}, {2, 1, 1, "all"}, {2, 2, 0, "1"}, {3, 1, 0, "0,1"}, {3, 1, 1, "0"}, {3, 2, 0, "1"}} {
			init, err := model.ParseInitiators(c.init, c.n)
			require.NoError(t, err)
			cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-msgs%d-crash%d-init%s", c.n, c.msgs, c.crashes, c.init),
				cfg: model.Config{N: c.n, Channels: model.Unordered, Crashes: c.crashes, Initiators: init, Params: map[string]int{"msgs": c.msgs}}})
		}
		// a lost message, a duplicated one (FIFO, so that a loss may leave a gap)
		for _, c := range []struct{ losses, dups int }{{1, 0}, {0, 1}, {1, 1}} {
			cs = append(cs, naiveCase{name: fmt.Sprintf("n3-fifo-msgs1-init0-loss%d-duplicate%d", c.losses, c.dups),
				cfg: model.Config{N: 3, Losses: c.losses, Duplicates: c.dups, Initiators: []bool{true, false, false}, Params: map[string]int{"msgs": 1}}})
		}
	case "static", "dynamic":
		// work sharing: a crash at any point, a few tasks; dynamic also
		// without deduplication, where a task re-issued by a new
		// coordinator is counted twice
		for _, c := range []struct{ n, tasks, crashes int }{{2, 1, 1}, {3, 2, 0}, {3, 2, 1}, {3, 3, 1}} {
			cs = append(cs, naiveCase{name: fmt.Sprintf("n%d-tasks%d-crash%d", c.n, c.tasks, c.crashes),
				cfg: model.Config{N: c.n, Crashes: c.crashes, Params: map[string]int{"tasks": c.tasks}}})
		}
		if p.Name == "dynamic" {
			cs = append(cs, naiveCase{name: "n4-tasks2-crash1",
				cfg: model.Config{N: 4, Crashes: 1, Params: map[string]int{"tasks": 2}}},
				naiveCase{name: "n3-tasks2-crash1-nodedup",
					cfg: model.Config{N: 3, Crashes: 1, Params: map[string]int{"tasks": 2, "dedup": 0}}})
		}
	case "bfs-abd":
		// the ABD synchronizer on bounded delay: right when the network's
		// bound is the d assumed, a known counterexample when it exceeds it
		for _, delay := range []int{1, 2} {
			cs = append(cs, naiveCase{name: fmt.Sprintf("n3-line-bounded%d", delay),
				cfg: model.Config{N: 3, Topology: "line", Channels: model.Unordered, Timing: model.Bounded, Delay: delay, Params: map[string]int{"abd-delay": 1}}})
		}
	case "bfs", "bfs-simple", "bfs-alpha", "bfs-beta":
		// The BFS tree and the synchronizers: small graphs, both channel
		// orders; the flooding fails bfs-tree on the triangle and the ring
		// (first: the quick tier takes the first of every four cases).
		for _, top := range []string{"ring", "line"} {
			for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
				cs = append(cs, naiveCase{name: fmt.Sprintf("n3-%s-%v", top, ch), cfg: model.Config{N: 3, Topology: top, Channels: ch}})
			}
		}
		cs = append(cs, naiveCase{name: "n4-star-unordered", cfg: model.Config{N: 4, Topology: "star", Channels: model.Unordered}})
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
// depend on the number of workers. The quick tier compares the first of
// every four configurations of each protocol, of at most 5 000 worlds:
// between them they still take every channel order, timing and fault the
// cases have, and the lassos, sweeps and partial order the cleanup counts
// (of the sweeps partial order reduces, those of bully's recovery and the
// central server's n3-requests1); -long, every one, of up to 300 000.
func TestExhaustiveAgainstNaive(t *testing.T) {
	t.Parallel()
	limit := tier.Pick(5_000, 300_000)
	require.NotEmpty(t, protocols.All())
	// Counted over the configurations, which run in parallel: the
	// cleanup reads them once every one has finished.
	var lassos atomic.Int64  // lasso counterexamples compared: some must be
	var sweeps atomic.Int64  // sweeps that ran to the end
	var reduced atomic.Int64 // searches that partial order reduced
	var reducedSweeps atomic.Int64
	t.Cleanup(func() {
		if !t.Failed() {
			require.Positive(t, lassos.Load(), "no configuration had a fair cycle to compare")
			require.Positive(t, sweeps.Load(), "no configuration was swept to the end")
			require.Positive(t, reduced.Load(), "partial order reduced no configuration")
			require.Positive(t, reducedSweeps.Load(), "partial order reduced no sweep")
			t.Logf("partial order reduced %d configurations, and %d sweeps", reduced.Load(), reducedSweeps.Load())
		}
	})
	for _, p := range protocols.All() {
		for i, tc := range naiveCases(t, p) {
			if !sampled(i, 4, 0) {
				continue
			}
			t.Run(p.Name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				props, err := p.Props(tc.cfg, tc.props)
				require.NoError(t, err)
				props = withoutSometimes(props)
				if tc.props == nil {
					props = append(props, fewInFlight, never, endsCrashed, busy)
				}
				compile := func() *checker.Machine {
					m, err := p.Compile(tc.cfg, props)
					require.NoError(t, err)
					return m
				}
				naive := naiveExplore(testhook.Model(compile()), props, limit)
				if naive.truncated {
					if tc.guessed {
						t.Skipf("more than %d worlds: too large for the naive enumeration", limit)
					}
					tier.Long(t, fmt.Sprintf("more than %d worlds to enumerate", limit))
					t.Fatalf("more than %d worlds", limit)
				}
				allFail := len(naive.failDepth) == len(props)
				if allFail {
					t.Logf("every property fails")
				}

				byMessages := map[bool]*checker.Result{}
				for _, opt := range []checker.Options{{Workers: 1}, {Workers: 2}, {Workers: 1, Messages: true}, {Workers: 2, Messages: true}} {
					// every world, as the naive enumeration counts them
					// (compareSymmetry checks the reduced search)
					opt.MaxStates, opt.Reduce = 2*int64(limit), checker.ReduceNone
					m := compile()
					r := checker.Exhaustive(context.Background(), m, opt)
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
					wantVerdict, cycles := compareVerdicts(t, what, props, r, naive, compile)
					lassos.Add(int64(cycles))
					require.Equal(t, wantVerdict, r.Verdict, what)
					if opt.Messages && !allFail && naive.quiescent > 0 {
						// Figures need a run that ends: a token that
						// circulates forever gives none.
						require.NotEmpty(t, r.Messages, what)
						require.Equal(t, "total", r.Messages[0].Kind, what)
						for _, mr := range r.Messages {
							require.True(t, mr.Unbounded || mr.Min <= mr.Max, "%s: %v", what, mr)
						}
					} else if !opt.Messages || naive.quiescent == 0 {
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
				ended, swept := compareSweep(t, compile, props, naive, byMessages[true])
				sweeps.Add(int64(ended))
				reducedSweeps.Add(int64(swept))
				compareWindow(t, compile, props, naive, byMessages[true])
				compareSymmetry(t, compile, props, naive, byMessages[true])
				reduced.Add(int64(comparePartialOrder(t, p, tc.cfg, tc.props, limit)))
			})
		}
	}
}

// compareVerdicts checks each property's verdict and counterexample in r
// against the naive enumeration: a counterexample among the shortest (a
// lasso entered soonest) that replays to its violation. It returns the
// verdict r must have and how many lassos it compared.
func compareVerdicts(t *testing.T, what string, props []*properties.Property, r *checker.Result, naive naiveResult, compile func() *checker.Machine) (wantVerdict checker.Verdict, cycles int) {
	require.Len(t, r.Properties, len(props))
	wantVerdict = checker.Pass
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
		if naive.cycle[prop.Name] {
			cycles++
			require.Positive(t, cx.Cycle, "%s: the counterexample to %s is no lasso", what, prop.Name)
			require.Len(t, cx.Events[:len(cx.Events)-cx.Cycle], depth, "%s: the lasso to %s is not entered soonest", what, prop.Name)
			rt, err := checker.Replay(compile(), cx)
			require.NoError(t, err, "%s: %s", what, prop.Name)
			require.Equal(t, prop.Name, rt.Property, "%s: the lasso does not replay to its violation", what)
			require.Equal(t, pr.Detail, rt.Detail, what)
			continue
		}
		require.Zero(t, cx.Cycle, "%s: %s", what, prop.Name)
		require.Len(t, cx.Events, depth, "%s: the counterexample to %s is not among the shortest", what, prop.Name)
		st, w, quiescent := replayTrace(t, testhook.Model(compile()), cx)
		require.Equal(t, quiescent, cx.Quiescent, "%s: %s", what, prop.Name)
		detail := prop.Check(st.View(w))
		if prop.When != properties.Always {
			require.True(t, quiescent, "%s: the counterexample to %s does not end a run", what, prop.Name)
		}
		if prop.When == properties.Eventually {
			detail = "the run ends while " + detail
		}
		require.Equal(t, pr.Detail, detail, "%s: the counterexample to %s does not replay to its violation", what, prop.Name)
	}
	return wantVerdict, cycles
}

// compareSweep checks a sweep (Options.Sweep), with one worker and with
// two, with partial order and without, against the naive enumeration and
// the full search with messages. Where every run ends, it must reach the
// same verdicts, counterexamples as short and the same message figures;
// without partial order, the same worlds and transitions when each world
// lies at one depth only, at least as many otherwise (it meets a world once
// per depth); with it, no more than without, and the same quiescent worlds
// where each lies at one depth. Where runs do not end it must not claim a
// verdict it cannot back: it is cut, or it stops because everything
// failed, and what it says fails does fail. It returns the number of
// sweeps that ran to the end, and of those partial order reduced.
func compareSweep(t *testing.T, compile func() *checker.Machine, props []*properties.Property, naive naiveResult, full *checker.Result) (ended, reduced int) {
	var plain int64 // the states of the sweep without partial order
	for _, reduce := range []checker.Reduction{checker.ReduceNone, checker.ReduceAll} {
		var first *checker.Result
		for _, workers := range []int{1, 2} {
			what := fmt.Sprintf("sweep workers=%d reduce=%v", workers, reduce)
			r := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: workers, Sweep: true, Reduce: reduce,
				Messages: true, MaxDepth: 3*naive.depth + 4, MaxStates: 30*naive.states + 1000})
			require.True(t, r.Sweep, what)
			for i, pr := range r.Properties {
				if pr.Verdict == checker.Fail {
					require.Equal(t, checker.Fail, full.Properties[i].Verdict, "%s: %s fails in the sweep only", what, pr.Name)
				}
			}
			if first != nil {
				require.Equal(t, comparableResult(first), comparableResult(r), "%s differs from workers=1", what)
			}
			first = r
			if !naive.acyclic {
				require.True(t, r.Cut != checker.CutNone || r.Stopped, "%s: a sweep of runs that do not end ended", what)
				continue
			}
			require.Empty(t, r.Cut, what)
			if reduce == checker.ReduceNone {
				ended++
				plain = r.Stats.States
			} else if strings.HasPrefix(r.PartialOrder, "partial order") && r.Stats.States < plain {
				reduced++
			}
			t.Logf("%s: %d states (naive %d), depth %d (naive %d), graded %v", what, r.Stats.States, naive.states, r.Stats.Depth, naive.depth, naive.graded)
			allFail := len(naive.failDepth) == len(props)
			switch {
			case allFail:
				require.LessOrEqual(t, r.Stats.Depth, naive.depth, what)
			case reduce == checker.ReduceAll:
				require.LessOrEqual(t, r.Stats.States, plain, "%s: states", what)
				// (symmetry counts families of worlds: see compareSymmetry)
				if naive.graded && r.Reduction.Kind != checker.SymmetryUsed {
					require.Equal(t, naive.quiescent, r.Stats.Quiescent, "%s: quiescent worlds", what)
				}
			case naive.graded:
				require.Equal(t, naive.states, r.Stats.States, "%s: states", what)
				require.Equal(t, naive.transitions, r.Stats.Transitions, "%s: transitions", what)
				require.Equal(t, naive.quiescent, r.Stats.Quiescent, "%s: quiescent worlds", what)
				require.Equal(t, naive.depth, r.Stats.Depth, "%s: depth", what)
			default:
				require.Greater(t, r.Stats.States, naive.states, "%s: states of a graph that is not graded", what)
				require.GreaterOrEqual(t, r.Stats.Depth, naive.depth, "%s: depth", what)
			}
			for i, pr := range r.Properties {
				want := full.Properties[i]
				require.Equal(t, want.Verdict, pr.Verdict, "%s: %s", what, pr.Name)
				if want.Verdict == checker.Fail {
					require.Equal(t, want.Detail, pr.Detail, "%s: %s", what, pr.Name)
					require.Len(t, pr.Counterexample.Events, len(want.Counterexample.Events), "%s: %s", what, pr.Name)
				}
			}
			if !allFail {
				require.Equal(t, full.Messages, r.Messages, "%s: message figures", what)
			}
		}
	}
	return ended, reduced
}

// compareWindow checks sweeps that keep earlier levels (Options.Window).
// A window deeper than the search keeps every level, so it must explore
// exactly the naive enumeration's worlds and transitions, whatever the
// shape of the state graph, and agree with the full search on every
// invariant and quiescence property; an Eventually property keeps its
// verdict when nothing was met again (every run ends), else it may only
// fail where the full search fails, or stay unknown. A window of three
// levels lies between the plain sweep and the full search.
func compareWindow(t *testing.T, compile func() *checker.Machine, props []*properties.Property, naive naiveResult, full *checker.Result) {
	allFail := len(naive.failDepth) == len(props)
	var states []int64
	for _, window := range []int{3, naive.depth + 2} {
		what := fmt.Sprintf("sweep window=%d", window)
		r := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: 2, Sweep: true, Window: window, Reduce: checker.ReduceNone,
			Messages: true, MaxDepth: 3*naive.depth + 4, MaxStates: 30*naive.states + 1000})
		if window == 3 {
			if !naive.acyclic && r.Cut != checker.CutNone {
				continue // a cycle longer than the window: the sweep cannot end
			}
			require.Empty(t, r.Cut, what)
			states = append(states, r.Stats.States)
			continue
		}
		require.Empty(t, r.Cut, what)
		if !allFail {
			require.Equal(t, naive.states, r.Stats.States, "%s: states", what)
			require.Equal(t, naive.transitions, r.Stats.Transitions, "%s: transitions", what)
			require.Equal(t, naive.quiescent, r.Stats.Quiescent, "%s: quiescent worlds", what)
			require.Equal(t, naive.depth, r.Stats.Depth, "%s: depth", what)
			require.Equal(t, naive.graded && naive.acyclic, r.Stats.Revisits == 0, "%s: revisits %d", what, r.Stats.Revisits)
			for _, s := range states {
				require.GreaterOrEqual(t, s, naive.states, "%s: a narrower window found fewer states", what)
			}
		}
		for i, pr := range r.Properties {
			want := full.Properties[i]
			if props[i].When == properties.Eventually && r.Stats.Revisits > 0 {
				if pr.Verdict == checker.Fail {
					require.Equal(t, checker.Fail, want.Verdict, "%s: %s fails in the sweep only", what, pr.Name)
				} else {
					require.Equal(t, checker.Unknown, pr.Verdict, "%s: %s", what, pr.Name)
				}
				continue
			}
			require.Equal(t, want.Verdict, pr.Verdict, "%s: %s", what, pr.Name)
			if want.Verdict == checker.Fail {
				require.Equal(t, want.Detail, pr.Detail, "%s: %s", what, pr.Name)
				require.Len(t, pr.Counterexample.Events, len(want.Counterexample.Events), "%s: %s", what, pr.Name)
			}
		}
		if r.Stats.Revisits == 0 && !allFail {
			require.Equal(t, full.Messages, r.Messages, "%s: message figures", what)
		} else {
			require.Nil(t, r.Messages, what)
		}
	}
}

// compareSymmetry checks, for a protocol that declares interchangeable
// nodes, the search reduced by them, with one worker and with two,
// against the full search with messages and the naive enumeration: the
// same verdicts, counterexamples as short that replay to their
// violations, the same figures, and as many states and quiescent states
// as the naive enumeration has families of worlds and of quiescent worlds.
func compareSymmetry(t *testing.T, compile func() *checker.Machine, props []*properties.Property, naive naiveResult, full *checker.Result) {
	if full.Reduction.Kind != checker.SymmetryDeclined {
		return // no symmetry declared, or none that holds here
	}
	var first *checker.Result
	for _, workers := range []int{1, 2} {
		what := fmt.Sprintf("symmetry workers=%d", workers)
		r := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: workers, Messages: true, MaxStates: 2 * naive.states})
		require.Empty(t, r.Cut, what)
		require.Nil(t, r.Fault, what)
		for i, pr := range r.Properties {
			want := full.Properties[i]
			require.Equal(t, want.Verdict, pr.Verdict, "%s: %s", what, pr.Name)
			require.Equal(t, want.Counterexample == nil, pr.Counterexample == nil, "%s: %s", what, pr.Name)
			if cx := pr.Counterexample; cx != nil && cx.Cycle == 0 {
				require.Len(t, cx.Events, len(want.Counterexample.Events), "%s: the counterexample to %s", what, pr.Name)
				st, w, quiescent := replayTrace(t, testhook.Model(compile()), cx)
				require.Equal(t, quiescent, cx.Quiescent, "%s: %s", what, pr.Name)
				detail := props[i].Check(st.View(w))
				if props[i].When == properties.Eventually {
					detail = "the run ends while " + detail
				}
				require.Equal(t, pr.Detail, detail, "%s: the counterexample to %s does not replay to its violation", what, pr.Name)
			}
		}
		require.Equal(t, full.Messages, r.Messages, what)
		if first != nil {
			require.Equal(t, comparableResult(first), comparableResult(r), "%s differs from workers=1", what)
		}
		first = r
		if r.Reduction.Kind != checker.SymmetryUsed {
			require.Equal(t, full.Stats.States, r.Stats.States, "%s: searched again in full (%s)", what, r.Reduction)
			continue
		}
		if len(naive.failDepth) < len(props) {
			states, quiet := testhook.Families(testhook.Model(compile()))
			require.Equal(t, [2]int64{int64(states), int64(quiet)}, [2]int64{r.Stats.States, r.Stats.Quiescent},
				"%s: the families of worlds and of quiescent worlds", what)
		}
	}
}

// comparePartialOrder checks a search reduced by partial order, with one
// worker and with two, with figures and without, against the naive
// enumeration of every world under the properties partial order allows
// (the protocol's own, and the tests' but their invariants, which read
// what every step changes): the same verdicts, counterexamples among the
// shortest that replay to their violations, the same quiescent worlds (each met once), no more worlds
// than there are, the full search's message figures, and results that do
// not depend on the number of workers. It returns 1 if the search was
// reduced.
func comparePartialOrder(t *testing.T, p *suite.Protocol, cfg model.Config, names []string, limit int) int {
	props, err := p.Props(cfg, names)
	require.NoError(t, err)
	props = withoutSometimes(props)
	if names == nil {
		props = append(props, endsCrashed, busy)
	}
	compile := func() *checker.Machine {
		m, err := p.Compile(cfg, props)
		require.NoError(t, err)
		return m
	}
	naive := naiveExplore(testhook.Model(compile()), props, limit)
	require.False(t, naive.truncated)
	allFail := len(naive.failDepth) == len(props)
	full := checker.Exhaustive(context.Background(), compile(), checker.Options{Workers: 1, Messages: true, Reduce: checker.ReduceNone})
	reduced := 0
	first := map[bool]*checker.Result{}
	for _, opt := range []checker.Options{{Workers: 1}, {Workers: 2}, {Workers: 1, Messages: true}, {Workers: 2, Messages: true}} {
		what := fmt.Sprintf("partial order workers=%d messages=%v", opt.Workers, opt.Messages)
		opt.MaxStates = 2 * naive.states
		r := checker.Exhaustive(context.Background(), compile(), opt)
		require.Empty(t, r.Cut, what)
		require.Nil(t, r.Fault, what)
		require.NotEmpty(t, r.PartialOrder, what)
		if r.Reduction.Kind == checker.SymmetryUsed {
			return 0 // families of worlds, not worlds: see compareSymmetry
		}
		if strings.HasPrefix(r.PartialOrder, "partial order: ") && r.Stats.States < naive.states {
			reduced = 1
		}
		require.LessOrEqual(t, r.Stats.States, naive.states, what)
		if !allFail && !r.Stopped {
			require.Equal(t, naive.quiescent, r.Stats.Quiescent, "%s: quiescent worlds", what)
		}
		for i, pr := range r.Properties {
			depth, fails := naive.failDepth[pr.Name]
			if !fails {
				require.Equal(t, checker.Pass, pr.Verdict, "%s: %s", what, pr.Name)
				continue
			}
			require.Equal(t, checker.Fail, pr.Verdict, "%s: %s", what, pr.Name)
			cx := pr.Counterexample
			require.NotNil(t, cx, "%s: %s", what, pr.Name)
			if cx.Cycle > 0 { // (judged on the graph, searched again without the reduction)
				rt, err := checker.Replay(compile(), cx)
				require.NoError(t, err, "%s: %s", what, pr.Name)
				require.Equal(t, pr.Name, rt.Property, "%s: the lasso does not replay to its violation", what)
				continue
			}
			// (its run is searched for again without the reduction)
			require.Len(t, cx.Events, depth, "%s: the counterexample to %s is not among the shortest", what, pr.Name)
			st, w, quiescent := replayTrace(t, testhook.Model(compile()), cx)
			require.Equal(t, quiescent, cx.Quiescent, "%s: %s", what, pr.Name)
			detail := props[i].Check(st.View(w))
			if props[i].When != properties.Always {
				require.True(t, quiescent, "%s: the counterexample to %s does not end a run", what, pr.Name)
			}
			if props[i].When == properties.Eventually {
				detail = "the run ends while " + detail
			}
			require.Equal(t, pr.Detail, detail, "%s: the counterexample to %s does not replay to its violation", what, pr.Name)
		}
		if opt.Messages {
			// (kinds are listed in the order the search met them)
			require.Equal(t, byKind(full.Messages), byKind(r.Messages), "%s: the figures", what)
		}
		if base := first[opt.Messages]; base != nil {
			require.Equal(t, comparableResult(base), comparableResult(r), "%s differs from workers=1", what)
		}
		first[opt.Messages] = r
	}
	return reduced
}

// byKind is figures sorted by kind.
func byKind(ms []checker.MessageRange) []checker.MessageRange {
	return slices.SortedFunc(slices.Values(ms), func(a, b checker.MessageRange) int { return strings.Compare(a.Kind, b.Kind) })
}
