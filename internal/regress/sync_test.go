package regress

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

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
