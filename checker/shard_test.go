package checker_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/shardtest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want checker.Shard
		err  bool
	}{
		{in: "0/1", want: checker.Shard{Index: 0, Count: 1}},
		{in: "2/7", want: checker.Shard{Index: 2, Count: 7}},
		{in: "7/7", err: true},
		{in: "-1/3", err: true},
		{in: "1/0", err: true},
		{in: "1", err: true},
		{in: "a/b", err: true},
	} {
		got, err := checker.ParseShard(c.in)
		if c.err {
			require.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got)
		require.Equal(t, c.in, got.String())
	}
}

// Walk i belongs to shard i mod K, and each shard reports every walk of
// its own, in order, plus none of the others.
func TestShardsSplitTheWalks(t *testing.T) {
	m := floodMachine(t, 4)
	opt := checker.RandomOptions{Walks: 30, Seed: 5, Workers: 2}
	runs := shardtest.Runs(t, m, opt, 4)
	seen := 0
	for i, r := range runs {
		for j, w := range r.Walks {
			require.Equal(t, i+4*j, w.Walk, "shard %d", i)
			seen++
		}
		require.Equal(t, 4, r.Batches, "30 walks: batches of 4, 8 and 16, then 2")
	}
	require.Equal(t, 30, seen)
	whole := checker.Random(context.Background(), m, opt)
	merged, err := checker.MergeShards(m, opt, runs)
	require.NoError(t, err)
	require.Equal(t, comparableResult(whole), comparableResult(merged))
	require.Equal(t, 30, merged.Stats.Walks)
}

// Shards that are not the parts of one search are not merged.
func TestMergeShardsRejects(t *testing.T) {
	m := floodMachine(t, 3)
	opt := checker.RandomOptions{Walks: 20, Seed: 1, Workers: 1}
	three := func() []*checker.ShardRun { return shardtest.Runs(t, m, opt, 3) }
	other := opt
	other.Seed = 2
	cases := []struct {
		name string
		runs []*checker.ShardRun
		opt  checker.RandomOptions
		m    *checker.Machine
		err  string
	}{
		{"none", nil, opt, m, "no shard"},
		{"missing", three()[:2], opt, m, "shard 2/3 is missing"},
		{"twice", append(three(), three()[1]), opt, m, "shard 1/3 is given twice"},
		{"counts", append(three()[:2], shardtest.Runs(t, m, opt, 2)[0]), opt, m, "not one of 3 shards"},
		{"other seed", three(), other, m, "of another search"},
		{"other protocol", three(), opt, otherFlood(t), "of another search"},
		{"stopped early", func() []*checker.ShardRun {
			r := three()
			r[1].Batches, r[1].Walks = 1, r[1].Walks[:1]
			return r
		}(), opt, m, "shard 1/3 stopped after 1 batches"},
		{"lost record", func() []*checker.ShardRun {
			r := three()
			r[2].Walks = append(r[2].Walks[:1], r[2].Walks[2:]...)
			return r
		}(), opt, m, "shard 2/3 has no record of walk 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := checker.MergeShards(c.m, c.opt, c.runs)
			require.ErrorContains(t, err, c.err)
		})
	}
}

// A shard cut by its time limit cuts the merged search where it stopped:
// the walks of the batches every shard finished, and no verdict beyond.
func TestMergeShardsCutByTime(t *testing.T) {
	m := floodMachine(t, 3)
	opt := checker.RandomOptions{Walks: 100, Seed: 1, Workers: 1}
	runs := shardtest.Runs(t, m, opt, 2)
	cut := runs[1]
	cut.Cut, cut.Batches = checker.CutTime, 2
	kept := 0
	for _, w := range cut.Walks {
		if w.Walk < 12 { // batches 0 and 1: walks 0..11
			kept++
		}
	}
	cut.Walks = cut.Walks[:kept]
	r, err := checker.MergeShards(m, opt, runs)
	require.NoError(t, err)
	require.Equal(t, checker.CutTime, r.Cut)
	require.Equal(t, 12, r.Stats.Walks)
	require.Equal(t, checker.Unknown, r.Verdict)
}

func floodMachine(t *testing.T, n int) *checker.Machine {
	t.Helper()
	m, err := checker.Compile("flood", Flood{}, model.Config{N: n, Channels: model.Unordered},
		properties.Agreement, properties.Termination, properties.UniqueLeader)
	require.NoError(t, err)
	return m
}

func otherFlood(t *testing.T) *checker.Machine {
	t.Helper()
	m, err := checker.Compile("flood2", Flood{}, model.Config{N: 3, Channels: model.Unordered},
		properties.Agreement, properties.Termination, properties.UniqueLeader)
	require.NoError(t, err)
	return m
}

// comparableResult is r without its timing.
func comparableResult(r *checker.Result) checker.Result {
	c := *r
	c.Stats.Seconds, c.Stats.StatesPerS = 0, 0
	return c
}
