package regress

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// TestSetChannelsExhaustiveAgainstRandom cross-checks the two engines on
// small runs over set channels: every property the exhaustive search
// decides fails in random walks exactly when it fails exhaustively (the
// runs are small enough for 400 walks to meet every violation), every
// counterexample replays to its violation, and the messages per complete
// run that walks count lie within the exhaustive search's range, kind by
// kind.
func TestSetChannelsExhaustiveAgainstRandom(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		cfg      model.Config
		fails    []string // the properties the exhaustive search fails
	}{
		{"changroberts", model.Config{N: 3}, nil},
		{"reliable", model.Config{N: 2, Crashes: 1}, nil},
		{"bully", model.Config{N: 3, Crashes: 1}, nil},
		// an unreliable failure detector fails bully whatever the channels
		{"bully", model.Config{N: 3, Crashes: 1, Timing: model.Async}, []string{"unique-leader", "agreement"}},
	}
	for _, c := range cases {
		c.cfg.Channels = model.Set
		name := fmt.Sprintf("%s %+v", c.protocol, c.cfg)
		m := claimsMachine(t, lookup(t, c.protocol), c.cfg)
		ex := checker.Exhaustive(context.Background(), m, checker.Options{Workers: 1, MaxStates: 2_000_000, Messages: true})
		require.True(t, ex.Complete, "%s: the exhaustive search is complete", name)
		rnd := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 400, Seed: 5, MaxDepth: 500, Workers: 1})
		var exFails, rndFails []string
		for _, pr := range ex.Failed() {
			exFails = append(exFails, pr.Name)
		}
		for _, pr := range rnd.Failed() {
			rndFails = append(rndFails, pr.Name)
			one, err := m.WithProperties(propertyNamed(t, m, pr.Name))
			require.NoError(t, err)
			again, err := checker.Replay(one, pr.Counterexample)
			require.NoError(t, err, name)
			require.Equal(t, pr.Name, again.Property, "%s: the walk's counterexample replays to its violation", name)
		}
		require.ElementsMatch(t, c.fails, exFails, "%s: exhaustive", name)
		require.ElementsMatch(t, exFails, rndFails, "%s: random", name)
		if len(c.fails) > 0 {
			continue // walks end at their violations: their figures are not of complete runs
		}
		require.NotEmpty(t, rnd.Messages, name)
		for _, r := range rnd.Messages {
			e := messageRange(ex.Messages, r.Kind)
			require.NotNil(t, e, "%s: kind %s", name, r.Kind)
			require.LessOrEqual(t, e.Min, r.Min, "%s: kind %s", name, r.Kind)
			if !e.Unbounded { // a cycle of the state graph sends without end
				require.GreaterOrEqual(t, e.Max, r.Max, "%s: kind %s", name, r.Kind)
			}
		}
	}
}

func messageRange(ms []checker.MessageRange, kind string) *checker.MessageRange {
	for i := range ms {
		if ms[i].Kind == kind {
			return &ms[i]
		}
	}
	return nil
}

// ping is a protocol for counting by hand: n0 sends ping to n1 at start-up,
// and n1 observes each ping it receives, its state unchanged.
type ping struct{}

func (ping) Init(ctx *model.Ctx[string]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, "ping")
	}
	return 0
}

func (ping) Receive(ctx *model.Ctx[string], s int, _ model.NodeID, _ string) int {
	ctx.Observe(model.EnterCS())
	return s
}

// TestRedeliveryThatOnlyObservesIsAStep counts by hand the worlds of ping
// over set channels, with a monitor that counts the receipts up to 3. The
// receiver never changes and the set is {ping} throughout, so only the
// monitor tells the worlds apart: a redelivery moves it from 0 to 1, 2, 3
// (3 transitions, 4 states, depth 3), and once it is at 3 a redelivery is
// the same world, a stutter, so that world is quiescent. Under unordered
// channels ping is delivered once: 2 states, 1 transition.
func TestRedeliveryThatOnlyObservesIsAStep(t *testing.T) {
	counter := properties.NewMonitor("receipts", func(*model.Config) int { return 0 },
		func(_ *model.Config, st int, _ model.NodeID, o model.Obs) int {
			if o.Kind == model.ObsEnter && st < 3 {
				return st + 1
			}
			return st
		})
	prop := &properties.Property{Name: "receipts", Doc: "counts receipts", When: properties.Always, Monitor: counter,
		Check: func(properties.View) string { return "" }}
	for _, c := range []struct {
		ch                             model.Channels
		states, transitions, quiescent int64
		depth                          int
	}{
		{model.Set, 4, 3, 1, 3},
		{model.Unordered, 2, 1, 1, 1},
	} {
		m, err := checker.Compile("ping", ping{}, model.Config{N: 2, Channels: c.ch}, prop)
		require.NoError(t, err)
		r := checker.Exhaustive(context.Background(), m, checker.Options{Workers: 1, Reduce: checker.ReduceNone})
		require.True(t, r.Complete, "%v", c.ch)
		require.Equal(t, c.states, r.Stats.States, "%v states", c.ch)
		require.Equal(t, c.transitions, r.Stats.Transitions, "%v transitions", c.ch)
		require.Equal(t, c.quiescent, r.Stats.Quiescent, "%v quiescent worlds", c.ch)
		require.Equal(t, c.depth, r.Stats.Depth, "%v depth", c.ch)
	}
}
