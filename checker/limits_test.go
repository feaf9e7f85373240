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

// Compile rejects what cannot be checked: an invalid configuration, state
// or message types without a canonical encoding, and property lists whose
// verdicts could not be told apart; a Machine checks another set of
// properties only if it feeds the monitors they read.
func TestCompileRejects(t *testing.T) {
	cases := []struct {
		name  string
		cfg   model.Config
		props []*properties.Property
		want  string
	}{
		{"no nodes", model.Config{N: 0}, nil, "n must be"},
		{"bad ranks", model.Config{N: 2, Ranks: []int{1, 1}}, nil, "distinct"},
		{"two properties of one name", model.Config{N: 2}, []*properties.Property{properties.Agreement, properties.Agreement}, "two properties are named agreement"},
		{"a property without a check", model.Config{N: 2}, []*properties.Property{{Name: "empty"}}, "property empty has no Check"},
	}
	for _, c := range cases {
		_, err := checker.Compile("flood", Flood{}, c.cfg, c.props...)
		require.ErrorContains(t, err, c.want, c.name)
	}
	_, err := checker.Compile("pointers", pointerState{}, model.Config{N: 2})
	require.ErrorContains(t, err, "plain values")

	m, err := checker.Compile("flood", Flood{}, model.Config{N: 3}, properties.Agreement)
	require.NoError(t, err)
	_, err = m.WithProperties(properties.PoolSize)
	require.ErrorContains(t, err, "monitor pool, which a property reads, is not attached to flood")
	only, err := m.WithProperties(properties.Termination)
	require.NoError(t, err)
	require.Equal(t, []*properties.Property{properties.Termination}, only.Properties())
}

type pointerState struct{}

func (pointerState) Init(*model.Ctx[int]) *int                                     { return nil }
func (pointerState) Receive(_ *model.Ctx[int], s *int, _ model.NodeID, _ int) *int { return s }
func (pointerState) Timeout(_ *model.Ctx[int], s *int, _ model.Timer) *int         { return s }
func (pointerState) Recover(_ *model.Ctx[int], s *int) *int                        { return s }

// A random search whose walks all run into the depth bound never judges
// what is judged where runs end: those verdicts are unknown, not pass, the
// walks cut are counted, and when nothing else is left to judge the search
// stops after its first batch (4 walks) instead of walking on for nothing.
func TestRandomWalksCutAreNotPasses(t *testing.T) {
	m, err := checker.Compile("flood", Flood{}, model.Config{N: 4}, properties.Agreement, properties.Termination)
	require.NoError(t, err)
	r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: 200, MaxDepth: 3, Workers: 1})
	require.Equal(t, checker.Pass, r.Property("agreement").Verdict, "an invariant is judged in every world walked")
	term := r.Property("termination")
	require.Equal(t, checker.Unknown, term.Verdict)
	require.Equal(t, "not judged: no walk reached the end of a run (200 of 200 cut by the depth bound of 3 steps)", term.Detail)
	require.Equal(t, 200, r.Stats.WalksCut)
	require.Equal(t, checker.Unknown, r.Verdict)

	only, err := m.WithProperties(properties.Termination)
	require.NoError(t, err)
	r = checker.Random(context.Background(), only, checker.RandomOptions{Walks: 1000, MaxDepth: 3, Workers: 2})
	require.Equal(t, checker.Unknown, r.Property("termination").Verdict)
	require.Equal(t, 4, r.Stats.Walks, "the first batch shows that walks do not end")

	r = checker.Random(context.Background(), m, checker.RandomOptions{Walks: 50, Workers: 1})
	require.Equal(t, checker.Pass, r.Verdict, "with the default depth the runs end and are judged")
	require.Zero(t, r.Stats.WalksCut)
	require.Equal(t, 100_000, checker.DefaultWalkDepth(50))
	require.Equal(t, 2_000_000, checker.DefaultWalkDepth(1000))
}

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

// A fault in any part of an auto search ends the search with it (the
// other ends, on the shipped protocols, are internal/regress's
// TestAutoEnds).
func TestAutoEndsAtAFault(t *testing.T) {
	faulty := func() *checker.Machine {
		m, err := checker.Compile("pingpong", pingPong{"receive-panic"}, model.Config{N: 2, Crashes: 1, Timing: model.Async}, quiet)
		require.NoError(t, err)
		return m
	}
	for _, c := range []struct {
		name  string
		probe time.Duration
		part  string // the one part the search ran
	}{
		{"fault in the probe", time.Minute, "probe"},
		{"fault in the exhaustive search", -1, "exhaustive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := checker.Auto(context.Background(), faulty(), checker.AutoOptions{Probe: c.probe, Exhaustive: checker.Options{MaxStates: 1000},
				Random: checker.RandomOptions{Walks: 20, Workers: 1}})
			require.Equal(t, checker.ModeAuto, res.Mode)
			require.Equal(t, checker.CutNone, res.Cut)
			require.Equal(t, checker.Error, res.Verdict)
			require.Len(t, res.Parts, 1)
			require.Equal(t, c.part, res.Parts[0].Part)
			require.NotNil(t, res.Fault)
			require.Equal(t, checker.Unknown, res.Properties[0].Verdict)
		})
	}
}
