package checker_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/shardtest"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
)

// A run that no shard of the search can hold is an error of MergeShards,
// never a panic, and says what is wrong.
func TestMergeShardsRefusesInvalidRuns(t *testing.T) {
	m := floodMachine(t, 3)
	opt := checker.RandomOptions{Walks: 20, Seed: 1, Workers: 1}
	base := shardtest.Runs(t, m, opt, 2)
	require.NotEmpty(t, base[0].Walks[0].Events)
	node7 := &checker.Trace{Property: "agreement", Initial: []checker.NodeState{{Node: 0}, {Node: 1}, {Node: 2}},
		Events: []checker.TraceStep{{Kind: "deliver", Node: 7}}}
	cases := []struct {
		name string
		edit func(r []*checker.ShardRun)
		err  string
	}{
		{"violated index out of range", func(r []*checker.ShardRun) { r[0].Walks[0].Violated = []int{99} }, "violates property 99, outside 0..3"},
		{"negative violated index", func(r []*checker.ShardRun) { r[0].Walks[0].Violated = []int{-1} }, "violates property -1"},
		{"violated not ascending", func(r []*checker.ShardRun) { r[0].Walks[0].Violated = []int{1, 0} }, "are not ascending"},
		{"negative steps", func(r []*checker.ShardRun) { r[0].Walks[0].Steps = -5 }, "-5 steps, outside 0..100000"},
		{"steps past the depth bound", func(r []*checker.ShardRun) { r[0].Walks[0].Steps = 100001 }, "outside 0..100000 (the depth bound)"},
		{"quiescent worlds past the steps", func(r []*checker.ShardRun) { w := &r[0].Walks[0]; w.Quiescent = w.Steps + 2 }, "quiescent worlds in"},
		{"negative message count", func(r []*checker.ShardRun) { r[0].Walks[0].Kinds = []checker.KindCount{{Kind: "msg", N: -7}} }, "-7 messages of kind msg"},
		{"reserved kind", func(r []*checker.ShardRun) { r[0].Walks[0].Kinds = []checker.KindCount{{Kind: "total", N: 1}} }, `message kind "total" is empty, reserved`},
		{"kind twice", func(r []*checker.ShardRun) {
			r[0].Walks[0].Kinds = []checker.KindCount{{Kind: "msg", N: 1}, {Kind: "msg", N: 2}}
		}, "given twice"},
		{"a fault the configuration excludes", func(r []*checker.ShardRun) {
			w := &r[0].Walks[0]
			w.Events = []checker.EventCount{{Event: "crash", N: int64(w.Steps)}}
		}, `event "crash" is given twice, or not one`},
		{"events that do not add up", func(r []*checker.ShardRun) { r[0].Walks[0].Events[0].N-- }, "its events add up to"},
		{"another shard's walk", func(r []*checker.ShardRun) { r[0].Walks[1].Walk = 3 }, "walk 3 is another shard's"},
		{"walk out of range", func(r []*checker.ShardRun) { r[1].Walks[len(r[1].Walks)-1].Walk = 21 }, "walk 21 is outside the 20 walks"},
		{"walks out of order", func(r []*checker.ShardRun) { r[0].Walks[0], r[0].Walks[1] = r[0].Walks[1], r[0].Walks[0] }, "walk 0 comes after walk 2"},
		{"too many batches", func(r []*checker.ShardRun) { r[0].Batches = 1000 }, "ran 1000 batches of a search that has 3"},
		{"negative batches", func(r []*checker.ShardRun) { r[0].Batches = -1 }, "ran -1 batches"},
		{"unknown cut", func(r []*checker.ShardRun) { r[0].Cut = checker.CutMemory }, "only a time limit"},
		{"negative time", func(r []*checker.ShardRun) { r[0].Seconds = -1 }, "ran for -1 seconds"},
		{"rounds not measured", func(r []*checker.ShardRun) { r[0].Walks[0].Rounds = 3 }, "3 rounds"},
		{"entry figures not measured", func(r []*checker.ShardRun) { r[0].Walks[0].Entry = &checker.EntryFigures{Entries: 1, Runs: 1} }, "entry figures, in a search that does not measure them"},
		{"linearizability with no history", func(r []*checker.ShardRun) { r[0].Walks[0].Lin = "Ok" }, `linearizability verdict "Ok"`},
		{"negative operations", func(r []*checker.ShardRun) { r[0].Walks[0].Ops = -1 }, "-1 operations"},
		{"counterexample to a property not checked", func(r []*checker.ShardRun) {
			r[0].Counterexamples = []checker.PropertyResult{{Name: "mutual-exclusion", Verdict: checker.Fail}}
		}, `counterexample to "mutual-exclusion", a property the search does not check`},
		{"counterexample at a node out of range", func(r []*checker.ShardRun) {
			r[0].Counterexamples = []checker.PropertyResult{{Name: "agreement", Verdict: checker.Fail, Counterexample: node7}}
		}, "step 1: node n7 or n0 is outside n0..n2"},
		{"counterexample without its states", func(r []*checker.ShardRun) {
			r[0].Counterexamples = []checker.PropertyResult{{Name: "agreement", Verdict: checker.Fail, Counterexample: &checker.Trace{}}}
		}, "lists no initial states"},
		{"fault at a node out of range", func(r []*checker.ShardRun) { r[1].Fault = &checker.Fault{Fault: model.Fault{Node: 9}} }, "fault is at node 9, outside n0..n2"},
		{"no such shard", func(r []*checker.ShardRun) { r[1].Index = 2 }, "shard 2/2: no such shard"},
		{"zero shards", func(r []*checker.ShardRun) { r[0].Count = 0 }, "shard 0/0: no such shard"},
		{"nil run", func(r []*checker.ShardRun) { r[1] = nil }, "a shard's run is nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs := shardtest.Runs(t, m, opt, 2)
			c.edit(runs)
			_, err := checker.MergeShards(m, opt, runs)
			require.ErrorContains(t, err, c.err)
		})
	}
	// a search split in 2⁴⁰ shards, of which one is given, is refused
	// without a table of 2⁴⁰ shards
	one := base[0]
	one.Count, one.Walks = 1<<40, one.Walks[:1]
	_, err := checker.MergeShards(m, opt, []*checker.ShardRun{one})
	require.ErrorContains(t, err, "shard 1/1099511627776 is missing")
}

// Validate refuses a trace whose nodes, events or cycle are not those of
// a run of n nodes, and takes every trace a search makes.
func TestTraceValidate(t *testing.T) {
	m, err := checker.Compile("lock", lockServer{again: true}, model.Config{N: 3}, oneHolder, testhook.Busy)
	require.NoError(t, err)
	r := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: checker.ReduceNone})
	var made []*checker.Trace
	for _, p := range r.Properties {
		if p.Counterexample != nil {
			made = append(made, p.Counterexample)
		}
	}
	require.NotEmpty(t, made)
	for _, tr := range made {
		require.NoError(t, tr.Validate(3))
	}
	initial := []checker.NodeState{{Node: 0}, {Node: 1}, {Node: 2}}
	step := func(s checker.TraceStep) *checker.Trace {
		return &checker.Trace{Initial: initial, Events: []checker.TraceStep{s}}
	}
	for _, c := range []struct {
		name string
		t    *checker.Trace
		err  string
	}{
		{"valid", step(checker.TraceStep{Kind: "deliver", Node: 1, From: 2}), ""},
		{"no initial states", &checker.Trace{Events: []checker.TraceStep{{Kind: "crash", Node: 2}}}, ""},
		{"too few initial states", &checker.Trace{Initial: initial[:2]}, "2 initial states for 3 nodes"},
		{"initial states out of order", &checker.Trace{Initial: []checker.NodeState{{Node: 0}, {Node: 2}, {Node: 1}}}, "initial state 2 is node 2's"},
		{"start-up send out of range", &checker.Trace{Initial: initial, Start: []checker.Send{{From: 0, To: 3}}}, "a start-up send from n0 to n3"},
		{"start-up observations of too many", &checker.Trace{StartObserved: make([][]string, 4)}, "start-up observations of 4 nodes"},
		{"receiver out of range", step(checker.TraceStep{Kind: "deliver", Node: 3}), "node n3 or n0 is outside n0..n2"},
		{"negative sender", step(checker.TraceStep{Kind: "deliver", From: -1}), "node n0 or n-1 is outside"},
		{"unknown kind", step(checker.TraceStep{Kind: "teleport"}), `unknown kind of event "teleport"`},
		{"negative position", step(checker.TraceStep{Kind: "lose", Pos: -1}), "negative position (-1)"},
		{"negative age", step(checker.TraceStep{Kind: "deliver", Age: -2}), "age (-2)"},
		{"change out of range", step(checker.TraceStep{Kind: "crash", Changes: []checker.NodeState{{Node: 5}}}), "it changes node n5"},
		{"send out of range", step(checker.TraceStep{Kind: "action", Sent: []checker.Send{{From: 0, To: 9}}}), "step 1: a send from n0 to n9"},
		{"cycle longer than the run", &checker.Trace{Initial: initial, Cycle: 1}, "a cycle of 1 steps in a run of 0"},
		{"negative cycle", &checker.Trace{Initial: initial, Cycle: -1}, "a cycle of -1 steps"},
		{"unknown fairness", &checker.Trace{Initial: initial, Fairness: "sometimes"}, `unknown fairness "sometimes"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.t.Validate(3)
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, c.err)
		})
	}
}

// A replay keeps the worlds of the run's cycle alone, and refuses a cycle
// whose worlds outgrow its bound.
func TestReplayBoundsTheWorldsOfItsCycle(t *testing.T) {
	m, err := checker.Compile("lock", lockServer{again: true}, model.Config{N: 3}, oneHolder, testhook.Busy)
	require.NoError(t, err)
	r := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: checker.ReduceNone})
	cx := r.Properties[1].Counterexample
	require.NotNil(t, cx)
	require.Positive(t, cx.Cycle)
	again, err := checker.Replay(m, cx)
	require.NoError(t, err)
	require.Equal(t, cx.Property, again.Property)

	defer checker.SetReplayCycleWords(1)()
	_, err = checker.Replay(m, cx)
	require.ErrorContains(t, err, "too large to replay")
}
