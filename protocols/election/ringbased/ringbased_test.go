package ringbased_test

import (
	. "github.com/vigil-check/vigil/protocols/election/ringbased"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

// The rules of Vlassov and Montelius's ring-based election, one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Ranks: []int{10, 30, 20}}
	election := func(rank int, node model.NodeID) Msg { return Msg{Rank: rank, Node: node} }
	elected := func(node model.NodeID) Msg { return Msg{Elected: true, Node: node} }
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: cfg}
	handlers.Receive(t, []step{
		{Name: "a higher rank is forwarded", Self: 0, In: State{false, model.None}, From: 0, Msg: election(30, 1),
			Want: State{true, model.None}, Sent: checktest.SentTo(election(30, 1), 1)},
		{Name: "a lower rank at a non-participant: substitute own", Self: 1, In: State{false, model.None}, From: 0, Msg: election(10, 0),
			Want: State{true, model.None}, Sent: checktest.SentTo(election(30, 1), 2)},
		{Name: "a lower rank at a participant: extinguished", Self: 1, In: State{true, model.None}, From: 0, Msg: election(10, 0),
			Want: State{true, model.None}},
		{Name: "own rank back: coordinator", Self: 1, In: State{true, model.None}, From: 0, Msg: election(30, 1),
			Want: State{false, 1}, Sent: checktest.SentTo(elected(1), 2), Observed: []model.Obs{model.Leader(1)}},
		{Name: "elected: record, stop participating, forward", Self: 2, In: State{true, model.None}, From: 0, Msg: elected(1),
			Want: State{false, 1}, Sent: checktest.SentTo(elected(1), 0), Observed: []model.Obs{model.Leader(1)}},
		{Name: "elected back at the coordinator: stop", Self: 1, In: State{false, 1}, From: 0, Msg: elected(1),
			Want: State{false, 1}},
	})
}
