package bfs

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// The notes' simple algorithm, one handler call each, on the 4-cycle with
// the chord 0-2.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 4, Topology: "edges:0-1,1-2,2-3,3-0,0-2"}
	none := State{Parent: model.None}
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		from     model.NodeID
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"first invite: take its sender as parent, invite the other neighbours", 2, none, 1, Msg{2},
			State{Parent: 1, Level: 2}, []model.Sent[Msg]{{To: 0, Msg: Msg{3}}, {To: 3, Msg: Msg{3}}}, []model.Obs{Parent(1, 2)}},
		{"a later invite is ignored, however short its path", 2, State{Parent: 1, Level: 2}, 0, Msg{1},
			State{Parent: 1, Level: 2}, nil, nil},
		{"the root ignores invites", 0, State{Parent: 0}, 1, Msg{2}, State{Parent: 0}, nil, nil},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		got := Protocol{}.Receive(ctx, c.in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
	ctx := model.NewCtx[Msg](cfg, 0)
	require.Equal(t, State{Parent: 0}, Protocol{}.Init(ctx), "the root")
	require.Equal(t, []model.Sent[Msg]{{To: 1, Msg: Msg{1}}, {To: 2, Msg: Msg{1}}, {To: 3, Msg: Msg{1}}}, ctx.Sent(), "the root invites all neighbours")
}

// SynchBfsTree's pulses: the first invite of a pulse wins, in sender order.
func TestPulse(t *testing.T) {
	cfg := model.Config{N: 4, Topology: "ring"}
	in := []round.In[Msg]{{From: 1, Msg: Msg{2}}, {From: 3, Msg: Msg{2}}}
	ctx := round.NewCtx[Msg](cfg, 2)
	got := Round{}.Pulse(ctx, State{Parent: model.None}, 2, in)
	require.Equal(t, State{Parent: 1, Level: 2}, got)
	require.Equal(t, []model.Sent[Msg]{{To: 3, Msg: Msg{3}}}, ctx.Sent())
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
