package activelist_test

import (
	. "github.com/vigil-check/vigil/protocols/election/activelist"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

// The three cases of Silberschatz et al., one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Ranks: []int{10, 30, 20}}
	id := func(n model.NodeID) ID { return ID{Rank: cfg.Ranks[n], Node: n} }
	elect := func(n model.NodeID) Msg { return Msg{id(n)} }
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: cfg}
	handlers.Receive(t, []step{
		{Name: "case 1: first elect: list {i, j}, send elect(i) then elect(j)", Self: 2, In: State{Coordinator: model.None}, From: 0, Msg: elect(1),
			Want: State{true, []ID{id(2), id(1)}, model.None}, Sent: []model.Sent[Msg]{{To: 0, Msg: elect(2)}, {To: 0, Msg: elect(1)}}},
		{Name: "case 2: add j and forward", Self: 0, In: State{true, []ID{id(0)}, model.None}, From: 0, Msg: elect(2),
			Want: State{true, []ID{id(0), id(2)}, model.None}, Sent: checktest.SentTo(elect(2), 1)},
		{Name: "case 3: own number back: the largest coordinates", Self: 0, In: State{true, []ID{id(0), id(2), id(1)}, model.None}, From: 0, Msg: elect(0),
			Want: State{true, []ID{id(0), id(2), id(1)}, 1}, Observed: []model.Obs{model.Leader(1)}},
	})
}
