package regress

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
)

// depthWorld is a plain world with the rounds of its run kept beside it,
// by a bookkeeping of its own: each node's clock and peak, and the depth
// of each message in flight, per channel in send order.
type depthWorld struct {
	w           sim.World
	clock, peak []int
	chans       map[[2]model.NodeID][][2]uint32 // (message id, depth)
}

func (d *depthWorld) key(fifo bool) string {
	var b strings.Builder
	fmt.Fprint(&b, d.w, d.clock, d.peak)
	keys := make([][2]model.NodeID, 0, len(d.chans))
	for k := range d.chans {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, c [2]model.NodeID) int { return int(a[0]-c[0])*1000 + int(a[1]-c[1]) })
	for _, k := range keys {
		ms := slices.Clone(d.chans[k])
		if !fifo {
			slices.SortFunc(ms, func(a, c [2]uint32) int { return int(a[0]-c[0])*1000 + int(a[1]-c[1]) })
		}
		fmt.Fprint(&b, k, ms)
	}
	return b.String()
}

func (d *depthWorld) clone() *depthWorld {
	c := &depthWorld{w: slices.Clone(d.w), clock: slices.Clone(d.clock), peak: slices.Clone(d.peak), chans: map[[2]model.NodeID][][2]uint32{}}
	for k, v := range d.chans {
		c.chans[k] = slices.Clone(v)
	}
	return c
}

// send files a step's messages from node at its clock.
func (d *depthWorld) send(node model.NodeID, step *sim.Step) {
	for _, s := range step.Sends {
		k := [2]model.NodeID{node, sim.SendTo(s)}
		d.chans[k] = append(d.chans[k], [2]uint32{sim.SendMsg(s), uint32(d.clock[node] + 1)})
	}
}

// naiveRounds enumerates the runs of m (no crashes, losses or
// duplicates) with its own reckoning of rounds on the plain worlds, and
// returns the least and most rounds of the runs that end: an independent
// check of the clocked worlds of sim.Machine.Clocked.
func naiveRounds(t *testing.T, m *sim.Machine) (lo, hi int) {
	st := m.NewStepper()
	fifo := m.Config().Channels == model.FIFO
	w0, steps := st.Init()
	n := m.Config().N
	d0 := &depthWorld{w: w0, clock: make([]int, n), peak: make([]int, n), chans: map[[2]model.NodeID][][2]uint32{}}
	for i, step := range steps {
		d0.send(model.NodeID(i), step)
	}
	lo, hi = math.MaxInt, -1
	seen := map[string]bool{d0.key(fifo): true}
	for frontier := []*depthWorld{d0}; len(frontier) > 0; {
		var next []*depthWorld
		for _, d := range frontier {
			evs, nproto := st.Enabled(d.w, nil)
			if nproto == 0 {
				lo, hi = min(lo, slices.Max(d.peak)), max(hi, slices.Max(d.peak))
			}
			for _, ev := range evs {
				require.Contains(t, []sim.EventKind{sim.Deliver, sim.Timeout, sim.Act}, ev.Kind, "naiveRounds knows no faults")
				// a delivery may take any copy of the message, each of its
				// depths a different run (the oldest under FIFO)
				var depths []int
				if ev.Kind == sim.Deliver {
					ch := d.chans[[2]model.NodeID{ev.From, ev.Node}]
					for i, md := range ch {
						if md[0] == ev.Arg && !slices.Contains(depths, i) {
							if !slices.ContainsFunc(depths, func(j int) bool { return ch[j] == md }) {
								depths = append(depths, i)
							}
							if fifo {
								break
							}
						}
					}
					require.NotEmpty(t, depths, "a delivery of a message not in flight")
				} else {
					depths = []int{-1}
				}
				for _, at := range depths {
					c := d.clone()
					var step *sim.Step
					c.w, step = st.Apply(d.w, ev, nil)
					if at >= 0 {
						k := [2]model.NodeID{ev.From, ev.Node}
						depth := int(c.chans[k][at][1])
						c.chans[k] = slices.Delete(c.chans[k], at, at+1)
						c.clock[ev.Node], c.peak[ev.Node] = depth, max(c.peak[ev.Node], depth)
					}
					c.send(ev.Node, step)
					if k := c.key(fifo); !seen[k] {
						seen[k] = true
						next = append(next, c)
					}
				}
			}
		}
		frontier = next
		require.Less(t, len(seen), 200_000, "naiveRounds: too many worlds")
	}
	return lo, hi
}

// The rounds the engines report, against the naive reckoning, on ring
// elections, the synchronizers and BFS; random walks stay within the
// exhaustive range.
func TestRoundsAgainstNaive(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		sc       suite.Scenario
	}{
		{"changroberts", suite.Scenario{N: 3, Ranks: "reverse"}},
		{"changroberts", suite.Scenario{N: 4, Ranks: "sorted", Channels: model.Unordered}},
		{"lelann", suite.Scenario{N: 3}},
		{"sync/bfs", suite.Scenario{N: 4, Topology: "edges:0-1,1-2,2-3,3-0,0-2", Channels: model.Unordered}},
		{"sync/bfs-simple", suite.Scenario{N: 3, Topology: "line", Channels: model.Unordered}},
		{"sync/bfs-alpha", suite.Scenario{N: 3, Topology: "line", Channels: model.Unordered}},
		{"sync/bfs-beta", suite.Scenario{N: 4, Topology: "star", Channels: model.Unordered}},
		{"central", suite.Scenario{N: 3}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-n%d-%s", c.protocol, c.sc.N, c.sc.Topology), func(t *testing.T) {
			p := lookup(t, c.protocol)
			m, err := suite.Compile(p, &c.sc)
			require.NoError(t, err)
			lo, hi := naiveRounds(t, testhook.Model(m))
			require.GreaterOrEqual(t, hi, 0, "no run ends")
			for _, sweep := range []bool{false, true} {
				r := checker.Exhaustive(context.Background(), m, checker.Options{Rounds: true, Sweep: sweep})
				require.Empty(t, r.RoundsCut)
				require.NotNil(t, r.Rounds, "sweep %v", sweep)
				require.Equal(t, [2]int{lo, hi}, [2]int{r.Rounds.Min, r.Rounds.Max}, "sweep %v", sweep)
			}
			r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, Seed: 1, Rounds: true})
			require.NotNil(t, r.Rounds)
			require.GreaterOrEqual(t, r.Rounds.Min, lo)
			require.LessOrEqual(t, r.Rounds.Max, hi)
		})
	}
}

// A random search gives the same result, message figures and
// counterexamples included, whatever the number of workers: each worker
// walks on tables of its own, renewed as it goes, and a walk's figures
// are named by content, not by the ids its tables gave.
func TestRandomIndependentOfWorkers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		protocol string
		sc       suite.Scenario
	}{
		{"bully", suite.Scenario{N: 5, Crashes: 1}},
		{"ricartagrawala", suite.Scenario{N: 4, Params: map[string]int{"requests": 1}}},
		{"reliable", suite.Scenario{N: 4, Crashes: 1}},
		{"central", suite.Scenario{N: 3, Losses: 1}},
		{"changroberts", suite.Scenario{N: 6, Ranks: "random:2"}},
	} {
		p := lookup(t, c.protocol)
		m, err := suite.Compile(p, &c.sc)
		require.NoError(t, err)
		var base *checker.Result
		for _, workers := range []int{1, 2} {
			r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 150, Seed: 3, Workers: workers, Rounds: true})
			require.NotEmpty(t, r.Messages, c.protocol)
			if base == nil {
				base = r
				continue
			}
			require.Equal(t, comparableResult(base), comparableResult(r), "%s: workers=%d", c.protocol, workers)
		}
	}
}

// Where some runs never end, their clocks grow without bound: rounds are
// not measured (and the search for them ends), whether the endless runs
// are all the runs (the token ring asked forever) or some (a duplicated
// LeLann token that circles after the election).
func TestRoundsOfEndlessRuns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ protocol, scenario string }{{"tokenring", "forever"}, {"lelann", "duplicate"}} {
		p := lookup(t, c.protocol)
		sc, err := p.Scenario(c.scenario)
		require.NoError(t, err)
		for _, figures := range []bool{true, false} {
			r, err := suite.Exhaustive(context.Background(), p, &sc, checker.Options{Rounds: true, Messages: figures})
			require.NoError(t, err)
			require.Nil(t, r.Rounds, "%s %s", c.protocol, c.scenario)
			require.Equal(t, checker.CutCycle, r.RoundsCut, "%s %s", c.protocol, c.scenario)
		}
	}
}
