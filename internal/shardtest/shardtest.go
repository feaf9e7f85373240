// Package shardtest runs a random search as shards for vigil's own tests:
// each shard's run goes through JSON, as it does between the machines of a
// CI matrix, before the shards are merged, so the tests of sharding see
// exactly what vigil merge reads.
package shardtest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
)

// Runs runs the k shards of the search opt describes on m, each sent
// through JSON.
func Runs(t testing.TB, m *checker.Machine, opt checker.RandomOptions, k int) []*checker.ShardRun {
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
	return runs
}

// Merged runs the k shards as Runs does and merges them.
func Merged(t testing.TB, m *checker.Machine, opt checker.RandomOptions, k int) *checker.Result {
	t.Helper()
	r, err := checker.MergeShards(m, opt, Runs(t, m, opt, k))
	require.NoError(t, err)
	return r
}
