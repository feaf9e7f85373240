package lelann_test

import (
	. "github.com/vigil-check/vigil/protocols/election/lelann"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

// The branches of the program in the Leader Election notes, one handler
// call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Ranks: []int{5, 7, 3}, Initiators: []bool{true, true, false}}
	id := func(n model.NodeID) ID { return ID{Rank: cfg.Ranks[n], Node: n} }
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: cfg}
	handlers.Receive(t, []step{
		{Name: "an initiator collects and forwards", Self: 0, In: State{Cand, []ID{id(0)}}, From: 0, Msg: Msg{id(1)},
			Want: State{Cand, []ID{id(0), id(1)}}, Sent: checktest.SentTo(Msg{id(1)}, 1)},
		{Name: "own token back, best of the list: leader", Self: 1, In: State{Cand, []ID{id(0), id(1)}}, From: 0, Msg: Msg{id(1)},
			Want: State{Leader, []ID{id(0), id(1)}}, Observed: []model.Obs{model.Leader(1)}},
		{Name: "own token back, someone better: lost, knows the leader", Self: 0, In: State{Cand, []ID{id(0), id(1)}}, From: 0, Msg: Msg{id(0)},
			Want: State{Lost, []ID{id(0), id(1)}}, Observed: []model.Obs{model.Leader(1)}},
		{Name: "a non-initiator forwards and loses", Self: 2, In: State{Sleep, nil}, From: 0, Msg: Msg{id(0)},
			Want: State{Lost, nil}, Sent: checktest.SentTo(Msg{id(0)}, 0)},
		{Name: "a decided node routes late tokens", Self: 1, In: State{Leader, []ID{id(0), id(1)}}, From: 0, Msg: Msg{id(0)},
			Want: State{Leader, []ID{id(0), id(1)}}, Sent: checktest.SentTo(Msg{id(0)}, 2)},
	})
}
