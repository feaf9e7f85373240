package changroberts_test

import (
	. "github.com/vigil-check/vigil/protocols/election/changroberts"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

// The guarded commands of the Leader Election notes, one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 4, Ranks: []int{10, 30, 20, 40}, Initiators: []bool{true, true, false, true}}
	tok := func(rank int, node model.NodeID) Msg { return Msg{Rank: rank, Node: node} }
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: cfg}
	handlers.Receive(t, []step{
		{Name: "a lower token is removed", Self: 1, In: State{Cand, model.None}, From: 0, Msg: tok(10, 0),
			Want: State{Cand, model.None}},
		{Name: "a higher token: resign and forward", Self: 1, In: State{Cand, model.None}, From: 0, Msg: tok(40, 3),
			Want: State{Lost, model.None}, Sent: checktest.SentTo(tok(40, 3), 2)},
		{Name: "a non-initiator forwards even lower tokens", Self: 2, In: State{Sleep, model.None}, From: 0, Msg: tok(10, 0),
			Want: State{Lost, model.None}, Sent: checktest.SentTo(tok(10, 0), 3)},
		{Name: "own token back: leader, announced", Self: 3, In: State{Cand, model.None}, From: 0, Msg: tok(40, 3),
			Want: State{Leader, 3}, Sent: checktest.SentTo(Msg{Elected: true, Node: 3}, 0), Observed: []model.Obs{model.Leader(3)}},
		{Name: "elected: record and forward", Self: 0, In: State{Lost, model.None}, From: 0, Msg: Msg{Elected: true, Node: 3},
			Want: State{Lost, 3}, Sent: checktest.SentTo(Msg{Elected: true, Node: 3}, 1), Observed: []model.Obs{model.Leader(3)}},
		{Name: "elected back at the leader: stop", Self: 3, In: State{Leader, 3}, From: 0, Msg: Msg{Elected: true, Node: 3},
			Want: State{Leader, 3}},
	})
}

func TestInit(t *testing.T) {
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3, Initiators: []bool{false, true, false}}}
	handlers.Init(t, []step{
		{Name: "an initiator sends its token to its successor", Self: 1, Want: State{Cand, model.None}, Sent: checktest.SentTo(Msg{Rank: 1, Node: 1}, 2)},
		{Name: "a non-initiator sleeps", Self: 0, Want: State{Sleep, model.None}},
	})
}
