package regress

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/protocols"
)

// A random search split in K shards and merged is the search run on one
// machine: the same verdicts, counterexamples, figures and counts, for
// every scenario of every built-in protocol, K = 1, 2 and 7, and with the
// options that change how walks run or stop. Searches of 40 walks of at
// most 1 500 steps on each protocol's first two scenarios by default
// (five batches, so every way a search stops is met); 70 walks of 5 000
// steps on every scenario with -long (minutes: CI runs it).
func TestShardsMergeToTheWholeSearch(t *testing.T) {
	t.Parallel()
	walks, depth := tier.Pick(40, 70), tier.Pick(1500, 5000)
	variants := []struct {
		name string
		opt  func(*checker.RandomOptions)
	}{
		{"uniform", func(*checker.RandomOptions) {}},
		{"first", func(o *checker.RandomOptions) { o.First = true }},
		{"pct", func(o *checker.RandomOptions) { o.Scheduler = checker.Scheduler{Kind: "pct", Depth: 3} }},
		{"swarm-rounds", func(o *checker.RandomOptions) { o.Scheduler.Kind, o.Rounds = "swarm", true }},
	}
	cases := 0
	for _, p := range protocols.All() {
		for i, s := range p.Scenarios {
			v := variants[cases%len(variants)]
			cases++
			if (testing.Short() && i > 0) || (!tier.IsLong() && i > 1) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s/%s", p.Path(), s.Name, v.name), func(t *testing.T) {
				m, err := suite.Compile(p, &s)
				require.NoError(t, err)
				opt := checker.RandomOptions{Walks: walks, Seed: 3, MaxDepth: depth, Workers: 2, EntryFigures: p.EntryFigures}
				if p.Object != nil {
					cfg, err := s.Config()
					require.NoError(t, err)
					opt.Object = p.Object(cfg)
				}
				v.opt(&opt)
				whole := checker.Random(context.Background(), m, opt)
				for _, k := range []int{1, 2, 7} {
					merged := mergeShards(t, m, opt, k)
					require.Equal(t, comparable(t, whole), comparable(t, merged), "%d shards", k)
				}
			})
		}
	}
}

// mergeShards runs the k shards of a search, each sent through JSON as
// between machines, and merges them.
func mergeShards(t *testing.T, m *checker.Machine, opt checker.RandomOptions, k int) *checker.Result {
	t.Helper()
	var runs []*checker.ShardRun
	for i := range k {
		o := opt
		o.Shard = checker.Shard{Index: i, Count: k}
		r := checker.Random(context.Background(), m, o)
		require.NotNil(t, r.Shard)
		b, err := json.Marshal(r.Shard)
		require.NoError(t, err)
		var run checker.ShardRun
		require.NoError(t, json.Unmarshal(b, &run))
		runs = append(runs, &run)
	}
	merged, err := checker.MergeShards(m, opt, runs)
	require.NoError(t, err)
	return merged
}

// comparable is a result as JSON, without its times.
func comparable(t *testing.T, r *checker.Result) string {
	t.Helper()
	c := *r
	c.Stats.Seconds, c.Stats.StatesPerS = 0, 0
	if c.Fault != nil {
		f := *c.Fault
		f.Stack = ""
		c.Fault = &f
	}
	b, err := json.MarshalIndent(c, "", " ")
	require.NoError(t, err)
	return string(b)
}
