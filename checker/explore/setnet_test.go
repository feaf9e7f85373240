package explore_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// Under set channels the explorer offers the steps that move and no
// stutter: Chang-Roberts on two nodes (n0 rank 0, n1 rank 1) first offers
// n1's token to n0 alone, as n1 drops n0's token without changing; each
// step offers the next, every message staying in the set, and after three
// the run is over though every message can still be delivered again,
// with a leader elected.
func TestWalkOverSetChannels(t *testing.T) {
	p, err := protocols.Lookup("changroberts")
	require.NoError(t, err)
	sc := suite.Scenario{Name: "set", N: 2, Channels: model.Set}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	var choices []int
	for _, want := range []string{"n1 → n0  tok⟨rank 1 of n1⟩", "n0 → n1  tok⟨rank 1 of n1⟩", "n1 → n0  elected⟨n1⟩"} {
		pos, err := m.Walk(choices)
		require.NoError(t, err)
		require.False(t, pos.Quiescent, "after %v", choices)
		require.Len(t, pos.Enabled, 1, "after %v: %v", choices, pos.Enabled)
		require.Equal(t, want, pos.Enabled[0].String())
		choices = append(choices, 0)
	}
	pos, err := m.Walk(choices)
	require.NoError(t, err)
	require.True(t, pos.Quiescent)
	require.Empty(t, pos.Enabled)
	for _, j := range pos.Judged {
		want := "holds"
		if j.Property == properties.Elected.Name {
			want = "reached" // a sometimes-property: a leader is elected
		}
		require.Equal(t, want, j.Verdict, j.Property)
	}
}
