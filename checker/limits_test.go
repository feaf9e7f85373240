package checker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// everyone: each node sends a message to every other at start, N² in
// all, and counts those it gets.
type everyone struct{}

type hello struct{}

func (everyone) Init(ctx *model.Ctx[hello]) int {
	for j := range ctx.N() {
		if model.NodeID(j) != ctx.Self() {
			ctx.Send(model.NodeID(j), hello{})
		}
	}
	return 0
}
func (everyone) Receive(_ *model.Ctx[hello], s int, _ model.NodeID, _ hello) int { return s + 1 }
func (everyone) Timeout(_ *model.Ctx[hello], s int, _ model.Timer) int           { return s }
func (everyone) Recover(_ *model.Ctx[hello], s int) int                          { return s }

// Validate rejects bounds that cannot be searched under, of an
// exhaustive and of a random search alike, naming the bound.
func TestOptionsValidate(t *testing.T) {
	many := checker.MaxWorkers() + 1
	for _, tc := range []struct {
		name string
		opt  interface{ Validate() error }
		want string // "" valid
	}{
		{"exhaustive: zero values", checker.Options{}, ""},
		{"exhaustive: bounds", checker.Options{MaxDepth: 3, MaxStates: 10, Time: time.Second, MaxMemory: 1 << 20, Workers: checker.MaxWorkers(), Window: 2}, ""},
		{"exhaustive: negative depth", checker.Options{MaxDepth: -1}, "MaxDepth must not be negative, not -1"},
		{"exhaustive: negative states", checker.Options{MaxStates: -5}, "MaxStates must not be negative, not -5"},
		{"exhaustive: negative window", checker.Options{Window: -2}, "Window must not be negative, not -2"},
		{"exhaustive: negative time", checker.Options{Time: -time.Second}, "the time bound must not be negative, not -1s"},
		{"exhaustive: negative workers", checker.Options{Workers: -1}, "workers must be from 1 to"},
		{"exhaustive: too many workers", checker.Options{Workers: many}, "workers must be from 1 to"},
		{"random: zero values", checker.RandomOptions{}, ""},
		{"random: bounds", checker.RandomOptions{Walks: 5, MaxDepth: 3, Time: time.Second, ShrinkTime: time.Second, Workers: 1, Shard: checker.Shard{Index: 2, Count: 3}}, ""},
		{"random: negative walks", checker.RandomOptions{Walks: -3}, "Walks must not be negative, not -3"},
		{"random: negative depth", checker.RandomOptions{MaxDepth: -1}, "MaxDepth must not be negative, not -1"},
		{"random: negative time", checker.RandomOptions{Time: -time.Second}, "the time bounds must not be negative"},
		{"random: negative shrink time", checker.RandomOptions{ShrinkTime: -time.Second}, "the time bounds must not be negative"},
		{"random: negative workers", checker.RandomOptions{Workers: -2}, "workers must be from 1 to"},
		{"random: too many workers", checker.RandomOptions{Workers: many}, "workers must be from 1 to"},
		{"random: negative shard count", checker.RandomOptions{Shard: checker.Shard{Count: -1}}, "shard 0/-1"},
		{"random: shard index past count", checker.RandomOptions{Shard: checker.Shard{Index: 3, Count: 3}}, "shard 3/3"},
		{"random: negative shard index", checker.RandomOptions{Shard: checker.Shard{Index: -1, Count: 3}}, "shard -1/3"},
	} {
		err := tc.opt.Validate()
		if tc.want == "" {
			require.NoError(t, err, tc.name)
			continue
		}
		require.ErrorContains(t, err, tc.want, tc.name)
	}
}

// The engines refuse what Validate rejects, and say so in the result.
func TestValidOptionsOrRefused(t *testing.T) {
	m, err := checker.Compile("everyone", everyone{}, model.Config{N: 3})
	require.NoError(t, err)
	r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: -1})
	require.Equal(t, checker.Error, r.Verdict)
	require.Contains(t, r.Refused, "Walks must not be negative")
	require.Zero(t, r.Stats.Walks)
	r = checker.Exhaustive(context.Background(), m, checker.Options{Workers: checker.MaxWorkers() + 1})
	require.Equal(t, checker.Error, r.Verdict)
	require.Contains(t, r.Refused, "workers must be from 1 to")
	r = checker.Random(context.Background(), m, checker.RandomOptions{Walks: 2})
	require.Empty(t, r.Refused)
	require.Equal(t, 2, r.Stats.Walks)
}

// A random search whose walkers' channel tables (N² of them) cannot fit
// in its memory bound is refused before it makes one, naming the largest
// N that fits; at that N it is not.
func TestMemoryFitsTheWalkers(t *testing.T) {
	m, err := checker.Compile("everyone", everyone{}, model.Config{N: 2000})
	require.NoError(t, err)
	opt := checker.RandomOptions{Walks: 1, Workers: 1, MaxMemory: 32 << 20}
	err = checker.CheckRandomFits(m, opt)
	require.ErrorContains(t, err, "n = 2000 needs about 47 MiB for the channel tables of its random walker, more than the memory bound of 32 MiB, as the options ask; the largest n that fits is 1448")
	r := checker.Random(context.Background(), m, opt)
	require.Equal(t, err.Error(), r.Refused)

	fits, err := checker.Compile("everyone", everyone{}, model.Config{N: 1448})
	require.NoError(t, err)
	require.NoError(t, checker.CheckRandomFits(fits, opt))
	big, err := checker.Compile("everyone", everyone{}, model.Config{N: 1449})
	require.NoError(t, err)
	require.Error(t, checker.CheckRandomFits(big, opt))

	// two workers with a walk each hold two walkers
	opt.Walks, opt.Workers = 2, 2
	require.ErrorContains(t, checker.CheckRandomFits(fits, opt), "its 2 random walkers (one per worker)")
}

// A memory bound above what this process may hold is refused: the
// search would die before its bound cut it.
func TestMemoryBoundAboveTheLimitIsRefused(t *testing.T) {
	m, err := checker.Compile("everyone", everyone{}, model.Config{N: 3})
	require.NoError(t, err)
	huge := uint64(1) << 60
	require.ErrorContains(t, checker.CheckRandomFits(m, checker.RandomOptions{MaxMemory: huge}), "is more than this process may hold")
	require.ErrorContains(t, checker.CheckExhaustiveFits(checker.Options{MaxMemory: huge}), "is more than this process may hold")
	bound, source := checker.MemoryBound()
	require.Positive(t, bound)
	require.NotEmpty(t, source)
}

// A search whose time bound is over before its walkers are made and their
// initial worlds built is cut by time, having walked nothing. (That setup
// itself stops when the bound is over is TestSetupStopsWalks's to show:
// this one passes whether the clock starts before setup or after it.)
func TestSetupIsBoundedByTime(t *testing.T) {
	calm := properties.Invariant("calm", "nothing happens", func(properties.View) string { return "" })
	m, err := checker.Compile("everyone", everyone{}, model.Config{N: 1500}, calm)
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 4, Workers: workers, Time: time.Nanosecond})
		require.Equal(t, checker.CutTime, r.Cut)
		require.Zero(t, r.Stats.Walks)
		require.Equal(t, checker.Unknown, r.Verdict)
	}
}
