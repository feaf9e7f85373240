package regress

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/sync/alpha"
	"github.com/vigil-check/vigil/protocols/sync/beta"
	"github.com/vigil-check/vigil/protocols/sync/round"
	"github.com/vigil-check/vigil/protocols/sync/simple"
)

// Chang and Roberts' election, in asynchronous rounds, over every
// interleaving: with every node initiating at the start, the leader's token
// is back after N rounds and its elected message goes round in N more, 2N
// in all, however the ranks lie and whatever the channels. (The Leader
// Election notes' 2N-1 counts the election alone, from the first
// initiator's start to the last one's, which may start N-1 rounds later:
// a start no message causes, so no chain of messages counts it.)
func TestChangRobertsRounds(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("changroberts")
	require.NoError(t, err)
	for n := 2; n <= 6; n++ {
		for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
			for _, ranks := range []string{"sorted", "reverse", "random:3"} {
				sc := suite.Scenario{N: n, Channels: ch, Ranks: ranks}
				r, err := suite.Exhaustive(context.Background(), p, &sc, checker.Options{Rounds: true})
				require.NoError(t, err)
				require.NotNil(t, r.Rounds, "n=%d %v %s", n, ch, ranks)
				require.Equal(t, [2]int{2 * n, 2 * n}, [2]int{r.Rounds.Min, r.Rounds.Max}, "n=%d %v %s", n, ch, ranks)
			}
		}
	}
}

// flood sends on every link in every pulse: every pulse a synchronizer
// simulates is a full one, so the run's time is T_pulse·T_synch.
type flood struct{ pulses int }

func (flood) Start(ctx *round.Ctx[int]) int {
	ctx.SendAll(ctx.Neighbors(), 0)
	return 0
}

func (flood) Pulse(ctx *round.Ctx[int], _ int, i int, _ []round.In[int]) int {
	ctx.SendAll(ctx.Neighbors(), i)
	return i
}

func (f flood) Pulses(*model.Env) int { return f.pulses }

// The synchronizers' time and messages per pulse, as the notes give them
// (T_asynch =
// T_init + T_pulse·T_synch, with no T_init: β's tree is given), exact over
// every interleaving: the simple synchronizer takes one round a pulse; α
// three (m, ack, safe); β 2(d+1) on a tree of depth d: m(j) down the tree,
// the algorithm's messages and their acks, safe(j) back up; the notes'
// "T(β) = depth of the tree" is its order. Pulse 0 has no m(j) and the
// last pulse sends nothing but m(j) and ack(j), so a run of P sending
// pulses takes P·2(d+1) + 1 rounds over β. The messages follow M_asynch =
// M_init + M_synch + M_pulse·T_synch exactly: M_pulse is 2E for the simple
// synchronizer (which carries the algorithm's messages in its packets), 4E
// for α (acks and safes) and 2E + 3(N-1) for β. The quick tier runs one
// sending pulse, -long two.
func TestSynchronizerRounds(t *testing.T) {
	t.Parallel()
	for _, top := range []string{"ring", "line", "star", "tree"} {
		n := 4
		g, err := model.ParseTopology(top, n)
		require.NoError(t, err)
		tree := beta.SpanningTree(g, 0)
		e := len(g.Edges())
		d := 0
		for i := range n {
			k := 0
			for j := model.NodeID(i); tree.Parent[j] != model.None; j = tree.Parent[j] {
				k++
			}
			d = max(d, k)
		}
		for pulses := 1; pulses <= tier.Pick(1, 2); pulses++ { // (two pulses: four times the states)
			alg := flood{pulses}
			cases := []struct {
				name    string
				compile func(model.Config) (*checker.Machine, error)
				want    int // rounds
				// M_asynch = M_init + M_synch + M_pulse·T_synch, with
				// M_synch = 2E·P and no M_init
				messages int
			}{
				{"simple", func(c model.Config) (*checker.Machine, error) {
					return checker.Compile("flood-simple", simple.Over[int, int](alg), c)
				}, pulses, 2 * e * pulses}, // the algorithm's messages ride in the pulse's 2E packets
				{"alpha", func(c model.Config) (*checker.Machine, error) {
					return checker.Compile("flood-alpha", alpha.Over[int, int](alg), c)
				}, 3 * pulses, 2*e*pulses + (2*e+2*e)*pulses}, // M(α): an ack per message, a safe each way per link
				{"beta", func(c model.Config) (*checker.Machine, error) {
					return checker.Compile("flood-beta", beta.Over[int, int](alg, tree), c)
				}, pulses*2*(d+1) + 1, 2*e*pulses + (2*e+3*(n-1))*pulses}, // M(β): acks, and m, ack, safe per tree edge
			}
			for _, c := range cases {
				m, err := c.compile(model.Config{N: n, Topology: top, Channels: model.Unordered})
				require.NoError(t, err)
				r := checker.Exhaustive(context.Background(), m, checker.Options{Rounds: true, Messages: true})
				require.Equal(t, checker.Pass, r.Verdict)
				total := r.Messages[0]
				require.Equal(t, "total", total.Kind)
				require.Equal(t, [2]int{c.messages, c.messages}, [2]int{total.Min, total.Max}, "%s on %s, %d pulses: M_asynch", c.name, top, pulses)
				require.NotNil(t, r.Rounds, "%s on %s, %d pulses: %s", c.name, top, pulses, r.RoundsCut)
				require.Equal(t, c.want, r.Rounds.Max, "%s on %s (depth %d), %d pulses", c.name, top, d, pulses)
			}
		}
	}
}

// TestGoldenRounds keeps the rounds of the synchronizers' and the ring
// elections' scenarios in testdata/rounds.golden, a line each. The quick
// tier searches those of up to quickRoundStates states with causal clocks
// (30 of 33) and compares their lines.
func TestGoldenRounds(t *testing.T) {
	t.Parallel()
	var cases []goldenCase
	for _, name := range []string{"sync/bfs", "sync/bfs-simple", "sync/bfs-alpha", "sync/bfs-beta", "changroberts", "lelann"} {
		p, err := protocols.Lookup(name)
		require.NoError(t, err)
		for _, s := range p.Scenarios {
			if s.Duplicates > 0 {
				continue // a message and its copy are received in different rounds: no one round to measure
			}
			cases = append(cases, goldenCase{name, s})
		}
	}
	for n := 2; n <= 6; n++ {
		cases = append(cases, goldenCase{"lelann", suite.Scenario{Name: "sweep", N: n}})
	}
	var want strings.Builder
	if !tier.IsLong() {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rounds.golden"))
		require.NoError(t, err)
		lines := strings.SplitAfter(string(b), "\n")
		require.GreaterOrEqual(t, len(lines), len(cases))
		var small []goldenCase
		for i, gc := range cases {
			var states int
			_, err := fmt.Sscanf(lines[i][strings.LastIndex(lines[i], ", ")+2:], "%d states with causal clocks", &states)
			require.NoError(t, err, "rounds.golden line %d: %q", i+1, lines[i])
			if states <= quickRoundStates {
				small = append(small, gc)
				want.WriteString(lines[i])
			}
		}
		cases = small
	}
	var out bytes.Buffer
	for _, gc := range cases {
		p, err := protocols.Lookup(gc.protocol)
		require.NoError(t, err)
		r, err := suite.Exhaustive(context.Background(), p, &gc.sc, checker.Options{Rounds: true})
		require.NoError(t, err)
		require.NotNil(t, r.Rounds, "%s %s: %s", gc.protocol, gc.sc.Name, r.RoundsCut)
		cfg, _ := gc.sc.Config()
		top := ""
		if cfg.Topology != "" {
			top = " topology=" + cfg.Topology
		}
		fmt.Fprintf(&out, "%s %s n=%d %v%s: %s, %d states with causal clocks (%d without)\n",
			p.Path(), gc.sc.Name, cfg.N, cfg.Channels, top, r.Rounds, r.Rounds.States, r.Stats.States)
	}
	if tier.IsLong() {
		golden(t, "rounds.golden", out.Bytes())
	} else if want.String() != out.String() {
		t.Fatalf("rounds.golden changed in the scenarios of up to %d states; if intended, run go test ./internal/regress -long -update and review the diff:\n%s",
			quickRoundStates, lineDiff(want.String(), out.String()))
	}
}

// quickRoundStates bounds the searches of TestGoldenRounds' quick tier.
const quickRoundStates = 200_000

// The synchronizers' cost per pulse, as the Leader Election notes state it,
// over every interleaving explored: SynchBfsTree runs N pulses, of which
// pulses 0..N-1 send (the last sends nothing), so each figure is per pulse
// times N.
func TestSynchronizerMessages(t *testing.T) {
	t.Parallel()
	type figure struct {
		kind string
		want func(n, e int) int
	}
	perPulse := func(f func(n, e int) int) func(n, e int) int {
		return func(n, e int) int { return f(n, e) * n }
	}
	cases := []struct {
		protocol string
		figures  []figure
		why      string
	}{
		{"bfs-simple", []figure{{"total", perPulse(func(_, e int) int { return 2 * e })}},
			"the simple synchronizer: M_pulse = 2E, one packet each way on every link"},
		{"bfs-alpha", []figure{{"safe", perPulse(func(_, e int) int { return 2 * e })}},
			"α: a safe message each way on every link, M(α) = O(E)"},
		{"bfs-beta", []figure{
			{"pulse", perPulse(func(n, _ int) int { return n - 1 })},
			{"pulse-ack", perPulse(func(n, _ int) int { return n - 1 })},
			{"safe", perPulse(func(n, _ int) int { return n - 1 })},
		}, "β: M(β) = 3(N-1), m, ack and safe on every tree edge"},
	}
	for _, c := range cases {
		p, err := protocols.Lookup("sync/" + c.protocol)
		require.NoError(t, err)
		for _, top := range []string{"ring", "line", "star", "grid:2x2", "complete"} {
			n := 4
			g, err := model.ParseTopology(top, n)
			require.NoError(t, err)
			s := suite.Scenario{N: n, Topology: top, Channels: model.Unordered}
			r, err := suite.Exhaustive(context.Background(), p, &s, checker.Options{Messages: true})
			require.NoError(t, err)
			require.Equal(t, checker.Pass, r.Verdict, "%s %s", c.protocol, top)
			for _, f := range c.figures {
				m := checktest.Messages(t, r, f.kind)
				want := f.want(n, len(g.Edges()))
				require.Equal(t, want, m.Min, "%s %s %s min: %s", c.protocol, top, f.kind, c.why)
				require.Equal(t, want, m.Max, "%s %s %s max: %s", c.protocol, top, f.kind, c.why)
			}
			if c.protocol != "bfs-simple" {
				m, a := checktest.Messages(t, r, "message"), checktest.Messages(t, r, "ack")
				require.Equal(t, [2]int{m.Min, m.Max}, [2]int{a.Min, a.Max}, "%s %s: an ack per algorithm message", c.protocol, top)
			}
		}
	}
}

// Larger networks, by random walks: SynchBfsTree builds the BFS tree over
// each synchronizer on a seeded random graph of 10 nodes, a 3x4 grid, and
// rings and grids of 30 nodes; ABD on bounded delay with d the network's
// bound.
func TestSynchronizersRandom(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"bfs-simple", "bfs-alpha", "bfs-beta", "bfs-abd"} {
		p, err := protocols.Lookup("sync/" + name)
		require.NoError(t, err)
		for _, sc := range []suite.Scenario{
			{N: 10, Topology: "random:3:0.3", Channels: model.Unordered},
			{N: 12, Topology: "grid:3x4"},
			{N: 30, Topology: "ring", Channels: model.Unordered},
			{N: 30, Topology: "grid:5x6"},
		} {
			walks := 200
			if sc.N == 30 {
				walks = 20
			}
			if name == "bfs-abd" {
				sc.Timing, sc.Delay, sc.Params = model.Bounded, 1, map[string]int{"abd-delay": 1}
			}
			checktest.Check(t, p, sc, checktest.Random(checker.RandomOptions{Walks: walks, Seed: 1}))
		}
	}
}

// The synchronizers through the kit: every claim holds on the rings,
// lines, stars, trees and random graphs, channel orders and schedules
// rapid draws.
func TestSynchronizersRapid(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"bfs-simple", "bfs-alpha", "bfs-beta"} {
		t.Run(name, func(t *testing.T) {
			p, err := protocols.Lookup("sync/" + name)
			require.NoError(t, err)
			checktest.Rapid(t, p, checktest.Space{MinN: 1, MaxN: 7, Channels: true,
				Topologies: []string{"ring", "line", "star", "tree", "random"}})
		})
	}
}
