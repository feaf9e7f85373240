package checker_test

import (
	"context"
	"testing"

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
