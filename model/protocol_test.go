package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Prev undoes Next: on the ring 0, 1, ..., N-1, 0 node 0's predecessor is
// N-1, and N-1's successor is 0.
func TestEnvNextPrev(t *testing.T) {
	cases := []struct {
		n          int
		self       NodeID
		next, prev NodeID
	}{
		{1, 0, 0, 0},
		{2, 0, 1, 1},
		{2, 1, 0, 0},
		{3, 0, 1, 2},
		{3, 1, 2, 0},
		{3, 2, 0, 1},
		{5, 0, 1, 4},
		{5, 2, 3, 1},
		{5, 4, 0, 3},
	}
	for _, c := range cases {
		env := &NewCtx[int](Config{N: c.n}, c.self).Env
		require.Equal(t, c.next, env.Next(), "n=%d node %d: Next", c.n, c.self)
		require.Equal(t, c.prev, env.Prev(), "n=%d node %d: Prev", c.n, c.self)
	}
	// Prev and Next are inverse on every ring up to 8 nodes.
	for n := 1; n <= 8; n++ {
		for i := range n {
			self := NodeID(i)
			next := NewCtx[int](Config{N: n}, self).Next()
			require.Equal(t, self, NewCtx[int](Config{N: n}, next).Prev(), "n=%d: Prev(Next(%d))", n, i)
			prev := NewCtx[int](Config{N: n}, self).Prev()
			require.Equal(t, self, NewCtx[int](Config{N: n}, prev).Next(), "n=%d: Next(Prev(%d))", n, i)
		}
	}
}

// Higher and Lower are the nodes ranked above and below, as Nodes would
// find them by comparing ranks, with ranks by id and permuted.
func TestEnvHigherLower(t *testing.T) {
	ranks := map[string][]int{
		"by id":    nil,
		"reversed": {4, 3, 2, 1, 0},
		"shuffled": {2, 40, 7, 0, 13},
	}
	for name, r := range ranks {
		for n := 1; n <= 5; n++ {
			cfg := Config{N: n}
			if r != nil {
				cfg.Ranks = r[:n]
			}
			for i := range n {
				env := &NewCtx[int](cfg, NodeID(i)).Env
				up := env.Nodes(func(j NodeID) bool { return env.Rank(j) > env.MyRank() })
				down := env.Nodes(func(j NodeID) bool { return env.Rank(j) < env.MyRank() })
				require.Equal(t, up, env.Higher(), "%s, n=%d, node %d: Higher", name, n, i)
				require.Equal(t, down, env.Lower(), "%s, n=%d, node %d: Lower", name, n, i)
			}
		}
	}
	// by id, spelled out
	env := &NewCtx[int](Config{N: 4}, 1).Env
	require.Equal(t, []NodeID{2, 3}, env.Higher())
	require.Equal(t, []NodeID{0}, env.Lower())
	// the caller's to keep
	up := env.Higher()
	up[0] = 0
	require.Equal(t, []NodeID{2, 3}, env.Higher())
}

func TestNeedsRefuseOnlySetChannels(t *testing.T) {
	cases := []struct {
		name  string
		needs Needs
		ch    Channels
		want  string // "" when allowed
	}{
		{"nothing needed", Needs{}, Set, ""},
		{"fifo under fifo", Needs{FIFO: true}, FIFO, ""},
		// the unordered runs of a FIFO protocol are its known counterexamples
		{"fifo under unordered", Needs{FIFO: true}, Unordered, ""},
		{"exactly-once under unordered", Needs{ExactlyOnce: true}, Unordered, ""},
		{"fifo under set", Needs{FIFO: true, Why: "the notes"}, Set, "channels the protocol does not assume: it needs FIFO channels (the notes), which set channels do not give"},
		{"exactly-once under set", Needs{ExactlyOnce: true}, Set, "it needs exactly-once delivery, which set channels do not give"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.needs.Refuses(c.ch)
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrNetwork)
			require.ErrorContains(t, err, c.want)
		})
	}
}
