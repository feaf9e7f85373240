package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

var (
	testVote    = model.NewObsKind("test-vote", nil)
	testDecided = model.NewObsKind("test-decided", func(arg int) string { return [...]string{"abort", "commit"}[arg] })
)

// A protocol's own observation kinds print by name in traces and JSON, and
// their names are unique.
func TestOwnObsKinds(t *testing.T) {
	cases := []struct {
		obs  model.Obs
		want string
	}{
		{model.Obs{Kind: testVote, Arg: 3}, "test-vote=3"},
		{model.Obs{Kind: testDecided, Arg: 1}, "test-decided=commit"},
		{model.Obs{Kind: testDecided}, "test-decided=abort"},
		{model.Leader(2), "leader=n2"},
		{model.Obs{Kind: 200, Arg: 1}, "obs(200,1)"}, // never registered
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.obs.String())
	}
	require.Equal(t, "test-vote", testVote.String())
	require.Equal(t, "enter", model.ObsEnter.String())
	require.NotEqual(t, testVote, testDecided)
	require.Greater(t, testVote, model.ObsReadReturn, "own kinds stay clear of vigil's")

	require.PanicsWithValue(t, "model.NewObsKind: observation kind test-vote registered twice",
		func() { model.NewObsKind("test-vote", nil) })
	require.PanicsWithValue(t, "model.NewObsKind: leader is one of vigil's own observation kinds",
		func() { model.NewObsKind("leader", nil) })
	require.Panics(t, func() { model.NewObsKind("", nil) })
}
