package bfs_test

import (
	. "github.com/vigil-check/vigil/protocols/sync/bfs"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

type step = checktest.Step[State, Msg]

// The notes' simple algorithm, one handler call each, on the 4-cycle with
// the chord 0-2.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 4, Topology: "edges:0-1,1-2,2-3,3-0,0-2"}
	none := State{Parent: model.None}
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: cfg}
	handlers.Receive(t, []step{
		{Name: "first invite: take its sender as parent, invite the other neighbours", Self: 2, In: none, From: 1, Msg: Msg{2},
			Want: State{Parent: 1, Level: 2}, Sent: []model.Sent[Msg]{{To: 0, Msg: Msg{3}}, {To: 3, Msg: Msg{3}}}, Observed: []model.Obs{Parent(1, 2)}},
		{Name: "a later invite is ignored, however short its path", Self: 2, In: State{Parent: 1, Level: 2}, From: 0, Msg: Msg{1},
			Want: State{Parent: 1, Level: 2}},
		{Name: "the root ignores invites", Self: 0, In: State{Parent: 0}, From: 1, Msg: Msg{2},
			Want: State{Parent: 0}},
	})
	handlers.Init(t, []step{
		{Name: "the root invites all neighbours", Self: 0, Want: State{Parent: 0}, Sent: checktest.SentTo(Msg{1}, 1, 2, 3),
			Observed: []model.Obs{Parent(0, 0)}},
	})
}

// SynchBfsTree's pulses: the first invite of a pulse wins, in sender order.
func TestPulse(t *testing.T) {
	cfg := model.Config{N: 4, Topology: "ring"}
	in := []round.In[Msg]{{From: 1, Msg: Msg{2}}, {From: 3, Msg: Msg{2}}}
	ctx := round.NewCtx[Msg](cfg, 2)
	got := Round{}.Pulse(ctx, State{Parent: model.None}, 2, in)
	require.Equal(t, State{Parent: 1, Level: 2}, got)
	require.Equal(t, checktest.SentTo(Msg{3}, 3), ctx.Sent())
	require.Equal(t, []model.Obs{Parent(1, 2)}, ctx.Observed())
	require.Equal(t, 4, Round{}.Pulses(&ctx.Env))
}

func TestDistances(t *testing.T) {
	for top, want := range map[string][]int{
		"ring": {0, 1, 2, 1}, "line": {0, 1, 2, 3}, "star": {0, 1, 1, 1}, "grid:2x2": {0, 1, 1, 2},
		"edges:0-1,1-2,2-3,3-0,0-2": {0, 1, 1, 1},
	} {
		d, err := Distances(&model.Config{N: 4, Topology: top})
		require.NoError(t, err)
		require.Equal(t, want, d, top)
	}
}
