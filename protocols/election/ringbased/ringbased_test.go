package ringbased

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// The rules of Vlassov and Montelius's ring-based election, one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Ranks: []int{10, 30, 20}}
	election := func(rank int, node model.NodeID) Msg { return Msg{Rank: rank, Node: node} }
	elected := func(node model.NodeID) Msg { return Msg{Elected: true, Node: node} }
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"a higher rank is forwarded", 0, State{false, model.None}, election(30, 1),
			State{true, model.None}, []model.Sent[Msg]{{To: 1, Msg: election(30, 1)}}, nil},
		{"a lower rank at a non-participant: substitute own", 1, State{false, model.None}, election(10, 0),
			State{true, model.None}, []model.Sent[Msg]{{To: 2, Msg: election(30, 1)}}, nil},
		{"a lower rank at a participant: extinguished", 1, State{true, model.None}, election(10, 0),
			State{true, model.None}, nil, nil},
		{"own rank back: coordinator", 1, State{true, model.None}, election(30, 1),
			State{false, 1}, []model.Sent[Msg]{{To: 2, Msg: elected(1)}}, []model.Obs{model.Leader(1)}},
		{"elected: record, stop participating, forward", 2, State{true, model.None}, elected(1),
			State{false, 1}, []model.Sent[Msg]{{To: 0, Msg: elected(1)}}, []model.Obs{model.Leader(1)}},
		{"elected back at the coordinator: stop", 1, State{false, 1}, elected(1),
			State{false, 1}, nil, nil},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, Protocol{}.Receive(ctx, c.in, 0, c.m), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}
