package checker_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/internal/shardtest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// batting bats a count between n0 and n1: n0 sends 1 at start-up, and
// each node that receives m keeps it and sends m+1 back, up to limit (a
// run of limit deliveries, one event enabled at a time, the world after
// k of them the first where a node holds k). n1 also has a timer that,
// under asynchronous timing, fires noise times at any moment and changes
// only its own count of firings: steps that a shrunk run leaves out.
type batting struct{ limit, noise int }

type batState struct{ Count, Fired int }

func (p batting) Init(ctx *model.Ctx[int]) batState {
	switch {
	case ctx.Self() == 0:
		ctx.Send(1, 1)
	case p.noise > 0:
		ctx.SetTimer("noise")
	}
	return batState{}
}

func (p batting) Receive(ctx *model.Ctx[int], s batState, from model.NodeID, m int) batState {
	if m < p.limit {
		ctx.Send(from, m+1)
	}
	s.Count = m
	return s
}

func (p batting) Timeout(ctx *model.Ctx[int], s batState, _ model.Timer) batState {
	if s.Fired++; s.Fired < p.noise {
		ctx.SetTimer("noise")
	}
	return s
}

// counted is the eventually-property "some node holds goal", whose one
// obligation is outstanding while a node holds from or more and none
// holds goal: hot from the world after from deliveries to the one
// before goal.
func counted(from, goal int) *properties.Property {
	pend := func(v properties.View) uint64 {
		most := 0
		for i := range v.N() {
			most = max(most, properties.StateOf[batState](v, model.NodeID(i)).Count)
		}
		if most >= from && most < goal {
			return 1
		}
		return 0
	}
	return &properties.Property{Name: "counted", Doc: fmt.Sprintf("some node eventually holds %d", goal), When: properties.Eventually,
		Pending: pend,
		Check: func(v properties.View) string {
			if pend(v) != 0 {
				return fmt.Sprintf("no node holds %d", goal)
			}
			return ""
		},
		Obligation: func(int) string { return fmt.Sprintf("no node holds %d", goal) }}
}

// A walk is a hot counterexample exactly when an obligation stays
// outstanding for more than the hot bound: hot from the initial world,
// the bound of 10 is exceeded at step 11, and a count that cools at step
// 10 passes. Counted by hand: the obligation of counted(0, g) is
// outstanding in the worlds after 0..g-1 deliveries, g-1 steps.
func TestHotWalkByHand(t *testing.T) {
	const never, bound = 1 << 30, 10
	cases := []struct {
		name        string
		limit, goal int
		hot         int
		want        checker.Verdict
		steps       int // of the counterexample
		detail      string
		repeats     []string
		repeatTimes int
	}{
		{name: "hot for ever", limit: never, goal: never, hot: bound, want: checker.Fail, steps: bound + 1,
			detail:  "possible livelock (not a proof): no node holds 1073741824 for 11 steps in a row, past the hot bound of 10",
			repeats: []string{"n1 → n0 msg", "n0 → n1 msg"}, repeatTimes: 5},
		{name: "one step past the bound", limit: 20, goal: bound + 2, hot: bound, want: checker.Fail, steps: bound + 1,
			detail:  "possible livelock (not a proof): no node holds 12 for 11 steps in a row, past the hot bound of 10",
			repeats: []string{"n1 → n0 msg", "n0 → n1 msg"}, repeatTimes: 5},
		{name: "cools at the bound", limit: 20, goal: bound + 1, hot: bound, want: checker.Pass},
		{name: "no bound: a walk judges where it ends", limit: 20, goal: never, hot: 0, want: checker.Fail, steps: 20,
			detail: "the run ends while no node holds 1073741824"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := checker.Compile("batting", batting{limit: c.limit}, model.Config{N: 2}, counted(0, c.goal))
			require.NoError(t, err)
			res := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 4, Seed: 1, MaxDepth: 100, HotBound: c.hot, Workers: 1})
			pr := res.Property("counted")
			require.Equal(t, c.want, pr.Verdict, pr.Detail)
			if c.want == checker.Pass {
				require.Nil(t, pr.Counterexample)
				return
			}
			ce := pr.Counterexample
			require.Len(t, ce.Events, c.steps)
			require.Equal(t, c.detail, ce.Detail)
			if c.hot == 0 {
				require.Zero(t, ce.Hot)
				return
			}
			require.Equal(t, c.steps, ce.Hot)
			require.Equal(t, c.hot, ce.HotBound)
			require.Equal(t, c.repeats, ce.Repeats)
			require.Equal(t, c.repeatTimes, ce.RepeatTimes)
			require.Equal(t, []checker.EventCount{{Event: "receive msg", N: int64(c.steps)}}, ce.HotEvents)
		})
	}
}

// The text of a hot counterexample says where the stretch starts, that it
// proves nothing, what repeats and the stretch's events by kind, and
// leaves out the middle of a long stretch.
func TestHotWalkRendered(t *testing.T) {
	cases := []struct {
		name     string
		bound    int
		want     []string
		wantNot  []string
		numbered int // the steps shown
	}{
		{"short: every step", 10, []string{
			"counterexample to counted: possible livelock (not a proof): no node holds 1073741824 for 11 steps in a row, past the hot bound of 10\n",
			"  -- from here the obligation stays outstanding to the end: 11 steps, past the hot bound of 10 --\n   1. n0 → n1  1\n",
			"  11. n0 → n1  11\n",
			"  (a possible livelock, not a proof: the walk stayed hot for 11 steps, past the hot bound of 10, and a longer walk might yet meet the obligation)\n",
			"  repeats to the end, 5 times: n1 → n0 msg, n0 → n1 msg\n",
			"  the hot steps by kind: receive msg 11\n"}, []string{"left out"}, 11},
		{"long: the ends of the stretch", 60, []string{
			"      n0 {Count:10 Fired:0}\n  ... steps 11 to 51 left out (the JSON trace, -trace FILE, has every step)\n  52. n1 → n0  52\n",
			"  61. n0 → n1  61\n",
			"  repeats to the end, 30 times: n1 → n0 msg, n0 → n1 msg\n"}, []string{"  11. ", "  51. "}, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := checker.Compile("batting", batting{limit: 1 << 30}, model.Config{N: 2}, counted(0, 1<<30))
			require.NoError(t, err)
			res := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 4, Seed: 1, MaxDepth: 200, HotBound: c.bound, Workers: 1})
			var b bytes.Buffer
			checker.Render(&b, res.Property("counted").Counterexample)
			for _, w := range c.want {
				require.Contains(t, b.String(), w)
			}
			for _, w := range c.wantNot {
				require.NotContains(t, b.String(), w)
			}
			require.Equal(t, c.numbered, bytes.Count(b.Bytes(), []byte(". n")))
			var chart bytes.Buffer
			require.NoError(t, msc.Mermaid(&chart, msc.New(res.Property("counted").Counterexample)))
			require.Contains(t, chart.String(), fmt.Sprintf("    Note over n0,n1: from here the obligation stays outstanding to the end, %d steps, past the hot bound of %d: a possible livelock, not a proof\n    n0->>n1: 1. 1", c.bound+1, c.bound))
		})
	}
}

// Shrinking a hot walk keeps a run that stays hot past the bound: the
// timer's firings before the obligation comes up are left out, so the
// shrunk run is the 3 deliveries that make it outstanding and the bound's
// 11 more, where the walk's own run was longer.
func TestHotWalkShrunk(t *testing.T) {
	const bound = 10
	cases := []struct {
		name   string
		shrink time.Duration
		check  func(t *testing.T, steps int)
	}{
		{"not shrunk", time.Nanosecond, func(t *testing.T, steps int) { require.Greater(t, steps, 3+bound+1) }},
		{"shrunk", 10 * time.Second, func(t *testing.T, steps int) { require.Equal(t, 3+bound+1, steps) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := checker.Compile("batting", batting{limit: 1 << 30, noise: 8}, model.Config{N: 2, Timing: model.Async}, counted(3, 1<<30))
			require.NoError(t, err)
			res := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 1, MaxDepth: 200, HotBound: bound,
				Workers: 1, ShrinkTime: c.shrink, Seed: 2})
			ce := res.Property("counted").Counterexample
			require.NotNil(t, ce)
			require.Equal(t, bound+1, ce.Hot)
			require.Contains(t, ce.Detail, "for 11 steps in a row, past the hot bound of 10")
			c.check(t, len(ce.Events))
			// it replays as the same hot counterexample
			again, err := checker.Replay(m, ce)
			require.NoError(t, err)
			require.Equal(t, "counted", again.Property)
			require.Equal(t, ce.Detail, again.Detail)
			require.Equal(t, ce.Hot, again.Hot)
		})
	}
}

// Shards of a random search keep a hot walk's verdict and counterexample
// through JSON and the merge, and shards of another hot bound are another
// search.
func TestHotWalkSharded(t *testing.T) {
	cases := []struct {
		name  string
		shard int
		walks int
	}{
		{"two shards", 2, 12},
		{"three shards", 3, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := checker.Compile("batting", batting{limit: 1 << 30, noise: 3}, model.Config{N: 2, Timing: model.Async}, counted(3, 1<<30))
			require.NoError(t, err)
			opt := checker.RandomOptions{Walks: c.walks, Seed: 7, MaxDepth: 100, HotBound: 10, Workers: 1}
			whole := checker.Random(context.Background(), m, opt)
			merged := shardtest.Merged(t, m, opt, c.shard)
			want, got := whole.Property("counted"), merged.Property("counted")
			require.Equal(t, checker.Fail, got.Verdict)
			require.Equal(t, want.Detail, got.Detail)
			require.Equal(t, want.Counterexample.Hot, got.Counterexample.Hot)
			require.Equal(t, want.Counterexample.Repeats, got.Counterexample.Repeats)
			require.Equal(t, want.Counterexample.Events, got.Counterexample.Events)
			other := opt
			other.HotBound = 20
			_, err = checker.MergeShards(m, other, shardtest.Runs(t, m, opt, c.shard))
			require.ErrorContains(t, err, "of another search")
		})
	}
}
