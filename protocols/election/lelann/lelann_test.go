package lelann

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// The branches of the program in the Leader Election notes, one handler
// call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Ranks: []int{5, 7, 3}, Initiators: []bool{true, true, false}}
	id := func(n model.NodeID) ID { return ID{Rank: cfg.Ranks[n], Node: n} }
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"an initiator collects and forwards", 0, State{Cand, []ID{id(0)}}, Msg{id(1)},
			State{Cand, []ID{id(0), id(1)}}, []model.Sent[Msg]{{To: 1, Msg: Msg{id(1)}}}, nil},
		{"own token back, best of the list: leader", 1, State{Cand, []ID{id(0), id(1)}}, Msg{id(1)},
			State{Leader, []ID{id(0), id(1)}}, nil, []model.Obs{model.Leader(1)}},
		{"own token back, someone better: lost, knows the leader", 0, State{Cand, []ID{id(0), id(1)}}, Msg{id(0)},
			State{Lost, []ID{id(0), id(1)}}, nil, []model.Obs{model.Leader(1)}},
		{"a non-initiator forwards and loses", 2, State{Sleep, nil}, Msg{id(0)},
			State{Lost, nil}, []model.Sent[Msg]{{To: 0, Msg: Msg{id(0)}}}, nil},
		{"a decided node routes late tokens", 1, State{Leader, []ID{id(0), id(1)}}, Msg{id(0)},
			State{Leader, []ID{id(0), id(1)}}, []model.Sent[Msg]{{To: 2, Msg: Msg{id(0)}}}, nil},
	}
	for _, c := range cases {
		in := State{c.in.Status, append([]ID(nil), c.in.List...)}
		ctx := model.NewCtx[Msg](cfg, c.self)
		got := Protocol{}.Receive(ctx, in, 0, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.in, in, "%s: the input state was mutated", c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}
