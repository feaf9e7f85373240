package changroberts

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// The guarded commands of the Leader Election notes, one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 4, Ranks: []int{10, 30, 20, 40}, Initiators: []bool{true, true, false, true}}
	tok := func(rank int, node model.NodeID) Msg { return Msg{Rank: rank, Node: node} }
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"a lower token is removed", 1, State{Cand, model.None}, tok(10, 0),
			State{Cand, model.None}, nil, nil},
		{"a higher token: resign and forward", 1, State{Cand, model.None}, tok(40, 3),
			State{Lost, model.None}, []model.Sent[Msg]{{To: 2, Msg: tok(40, 3)}}, nil},
		{"a non-initiator forwards even lower tokens", 2, State{Sleep, model.None}, tok(10, 0),
			State{Lost, model.None}, []model.Sent[Msg]{{To: 3, Msg: tok(10, 0)}}, nil},
		{"own token back: leader, announced", 3, State{Cand, model.None}, tok(40, 3),
			State{Leader, 3}, []model.Sent[Msg]{{To: 0, Msg: Msg{Elected: true, Node: 3}}}, []model.Obs{model.Leader(3)}},
		{"elected: record and forward", 0, State{Lost, model.None}, Msg{Elected: true, Node: 3},
			State{Lost, 3}, []model.Sent[Msg]{{To: 1, Msg: Msg{Elected: true, Node: 3}}}, []model.Obs{model.Leader(3)}},
		{"elected back at the leader: stop", 3, State{Leader, 3}, Msg{Elected: true, Node: 3},
			State{Leader, 3}, nil, nil},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		got := Protocol{}.Receive(ctx, c.in, 0, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

func TestInit(t *testing.T) {
	cfg := model.Config{N: 3, Initiators: []bool{false, true, false}}
	ctx := model.NewCtx[Msg](cfg, 1)
	require.Equal(t, State{Cand, model.None}, Protocol{}.Init(ctx))
	require.Equal(t, []model.Sent[Msg]{{To: 2, Msg: Msg{Rank: 1, Node: 1}}}, ctx.Sent())
	ctx = model.NewCtx[Msg](cfg, 0)
	require.Equal(t, State{Sleep, model.None}, Protocol{}.Init(ctx))
	require.Empty(t, ctx.Sent())
}
