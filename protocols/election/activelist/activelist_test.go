package activelist

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// The three cases of Silberschatz et al., one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Ranks: []int{10, 30, 20}}
	id := func(n model.NodeID) ID { return ID{Rank: cfg.Ranks[n], Node: n} }
	elect := func(n model.NodeID) Msg { return Msg{id(n)} }
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"case 1: first elect: list {i, j}, send elect(i) then elect(j)", 2, State{Coordinator: model.None}, elect(1),
			State{true, []ID{id(2), id(1)}, model.None}, []model.Sent[Msg]{{To: 0, Msg: elect(2)}, {To: 0, Msg: elect(1)}}, nil},
		{"case 2: add j and forward", 0, State{true, []ID{id(0)}, model.None}, elect(2),
			State{true, []ID{id(0), id(2)}, model.None}, []model.Sent[Msg]{{To: 1, Msg: elect(2)}}, nil},
		{"case 3: own number back: the largest coordinates", 0, State{true, []ID{id(0), id(2), id(1)}, model.None}, elect(0),
			State{true, []ID{id(0), id(2), id(1)}, 1}, nil, []model.Obs{model.Leader(1)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, Protocol{}.Receive(ctx, c.in, 0, c.m), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}
