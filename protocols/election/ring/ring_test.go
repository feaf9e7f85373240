package ring_test

import (
	. "github.com/vigil-check/vigil/protocols/election/ring"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

var cfg = model.Config{N: 4, Ranks: []int{10, 40, 20, 30}}

func election(list ...int) Msg { return Msg{K: Election, List: list} }

func coordinator(c model.NodeID, list ...int) Msg { return Msg{K: Coordinator, List: list, Coord: c} }

type sent = []model.Sent[Msg]

type step = checktest.Step[State, Msg]

var handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: cfg}

// An initiator circulates ELECTION([its rank]) and watches its successor;
// the others only watch theirs.
func TestInit(t *testing.T) {
	init := model.Config{N: 4, Ranks: cfg.Ranks, Initiators: []bool{true, false, false, false}}
	handlers.Init(t, []step{
		{Name: "initiator", Config: init, Self: 0, Want: State{Leader: model.None, Succ: 1, Pending: []Msg{election(10)}},
			Sent: sent{{To: 1, Msg: election(10)}}, Timers: []checktest.TimerEffect{checktest.Armed(SuccCheck, 1)}},
		{Name: "non-initiator", Config: init, Self: 3, Want: State{Leader: model.None, Succ: 0},
			Timers: []checktest.TimerEffect{checktest.Armed(SuccCheck, 0)}},
	})
}

// Kesden's rules, one Receive call each. Node 1 (rank 40) is the highest;
// the sender is the receiver's predecessor, of an ack its successor.
func TestReceive(t *testing.T) {
	idle := func(succ model.NodeID) State { return State{Leader: model.None, Succ: succ} }
	handlers.Receive(t, []step{
		{Name: "election without its rank: add it, pass it on, ack", Self: 2, In: idle(3), From: 1, Msg: election(10, 40),
			Want: State{Leader: model.None, Succ: 3, Pending: []Msg{election(10, 40, 20)}},
			Sent: sent{{To: 1, Msg: election(10, 40).Ack()}, {To: 3, Msg: election(10, 40, 20)}}},
		{Name: "election without its rank behind an unacknowledged message: it waits", Self: 2,
			In: State{Leader: model.None, Succ: 3, Pending: []Msg{election(20)}}, From: 1, Msg: election(10, 40),
			Want: State{Leader: model.None, Succ: 3, Pending: []Msg{election(20), election(10, 40, 20)}}, Sent: sent{{To: 1, Msg: election(10, 40).Ack()}}},
		{Name: "election with its rank: the highest in the list coordinates, and this is circulated", Self: 0, In: idle(1), From: 3,
			Msg:    election(10, 40, 20, 30),
			Want:   State{Leader: 1, Succ: 1, Pending: []Msg{coordinator(1, 10, 40, 20, 30)}, Passed: []model.NodeID{1}},
			Sent:   sent{{To: 3, Msg: election(10, 40, 20, 30).Ack()}, {To: 1, Msg: coordinator(1, 10, 40, 20, 30)}},
			Timers: []checktest.TimerEffect{checktest.Armed(LeaderCheck, 1)}, Observed: []model.Obs{model.Leader(1)}},
		{Name: "election with its rank, at the coordinator itself", Self: 1, In: idle(2), From: 0, Msg: election(40, 20, 30, 10),
			Want:   State{Leader: 1, Succ: 2, Pending: []Msg{coordinator(1, 40, 20, 30, 10)}, Passed: []model.NodeID{1}},
			Sent:   sent{{To: 0, Msg: election(40, 20, 30, 10).Ack()}, {To: 2, Msg: coordinator(1, 40, 20, 30, 10)}},
			Timers: []checktest.TimerEffect{checktest.Cancelled(LeaderCheck)}, Observed: []model.Obs{model.Leader(1)}},
		{Name: "coordinator the first time: adopt it, watch it, pass it on", Self: 3, In: idle(0), From: 2, Msg: coordinator(1, 10, 40, 20, 30),
			Want:   State{Leader: 1, Succ: 0, Pending: []Msg{coordinator(1, 10, 40, 20, 30)}, Passed: []model.NodeID{1}},
			Sent:   sent{{To: 2, Msg: coordinator(1, 10, 40, 20, 30).Ack()}, {To: 0, Msg: coordinator(1, 10, 40, 20, 30)}},
			Timers: []checktest.TimerEffect{checktest.Armed(LeaderCheck, 1)}, Observed: []model.Obs{model.Leader(1)}},
		{Name: "coordinator already passed on: it has gone round, removed", Self: 0, In: State{Leader: 1, Succ: 1, Passed: []model.NodeID{1}}, From: 3,
			Msg:  coordinator(1, 10, 40, 20, 30),
			Want: State{Leader: 1, Succ: 1, Passed: []model.NodeID{1}}, Sent: sent{{To: 3, Msg: coordinator(1, 10, 40, 20, 30).Ack()}}},
		{Name: "coordinator already passed on, at a node that lost its coordinator: adopt, remove", Self: 0,
			In: State{Leader: model.None, Succ: 1, Pending: []Msg{election(10)}, Passed: []model.NodeID{1}}, From: 3, Msg: coordinator(1, 40, 20, 30),
			Want: State{Leader: 1, Succ: 1, Pending: []Msg{election(10)}, Passed: []model.NodeID{1}},
			Sent: sent{{To: 3, Msg: coordinator(1, 40, 20, 30).Ack()}}, Timers: []checktest.TimerEffect{checktest.Armed(LeaderCheck, 1)},
			Observed: []model.Obs{model.Leader(1)}},
		{Name: "ack of the last message: nothing left in custody", Self: 0, In: State{Leader: model.None, Succ: 1, Pending: []Msg{election(10)}}, From: 1,
			Msg:  election(10).Ack(),
			Want: idle(1)},
		{Name: "ack: the next message goes", Self: 0, In: State{Leader: 1, Succ: 1, Pending: []Msg{election(10), coordinator(1, 40, 20, 30, 10)}}, From: 1,
			Msg:  election(10).Ack(),
			Want: State{Leader: 1, Succ: 1, Pending: []Msg{coordinator(1, 40, 20, 30, 10)}}, Sent: sent{{To: 1, Msg: coordinator(1, 40, 20, 30, 10)}}},
		{Name: "a stray ack changes nothing", Self: 0, In: State{Leader: model.None, Succ: 2, Pending: []Msg{election(10)}}, From: 2,
			Msg:  election(30, 10).Ack(),
			Want: State{Leader: model.None, Succ: 2, Pending: []Msg{election(10)}}},
	})
}

func TestTimeout(t *testing.T) {
	handlers.Timeout(t, []step{
		{Name: "successor failed: skip it, re-send what it did not ack, watch the next, elect again", Self: 0,
			In: State{Leader: 1, Succ: 1, Pending: []Msg{coordinator(1, 40, 20, 30, 10)}, Passed: []model.NodeID{1}}, Timer: SuccCheck,
			Want: State{Leader: 1, Succ: 2, Pending: []Msg{coordinator(1, 40, 20, 30, 10), election(10)}, Passed: []model.NodeID{1}},
			Sent: sent{{To: 2, Msg: coordinator(1, 40, 20, 30, 10)}}, Timers: []checktest.TimerEffect{checktest.Armed(SuccCheck, 2)}},
		{Name: "successor failed with nothing in custody: skip it and elect", Self: 2, In: State{Leader: 1, Succ: 3, Passed: []model.NodeID{1}},
			Timer: SuccCheck,
			Want:  State{Leader: 1, Succ: 0, Pending: []Msg{election(20)}, Passed: []model.NodeID{1}}, Sent: sent{{To: 0, Msg: election(20)}},
			Timers: []checktest.TimerEffect{checktest.Armed(SuccCheck, 0)}},
		{Name: "the last other node failed: its own successor, watching nobody", Self: 3, In: State{Leader: 2, Succ: 2, Passed: []model.NodeID{2}},
			Timer: SuccCheck,
			Want:  State{Leader: 2, Succ: 3, Pending: []Msg{election(30)}, Passed: []model.NodeID{2}}, Sent: sent{{To: 3, Msg: election(30)}}},
		{Name: "the coordinator failed: forget it and elect", Self: 2, In: State{Leader: 1, Succ: 3, Passed: []model.NodeID{1}}, Timer: LeaderCheck,
			Want: State{Leader: model.None, Succ: 3, Pending: []Msg{election(20)}, Passed: []model.NodeID{1}}, Sent: sent{{To: 3, Msg: election(20)}},
			Observed: []model.Obs{model.Leader(model.None)}},
	})
}

// A recovered node remembers nothing and starts no election.
func TestRecover(t *testing.T) {
	handlers.Recover(t, []step{
		{Name: "recover", Self: 3, In: State{Leader: 1, Succ: 1, Pending: []Msg{election(30)}, Passed: []model.NodeID{1}},
			Want: State{Leader: model.None, Succ: 0}, Timers: []checktest.TimerEffect{checktest.Armed(SuccCheck, 0)}},
	})
}
