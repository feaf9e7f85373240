package regress

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
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
