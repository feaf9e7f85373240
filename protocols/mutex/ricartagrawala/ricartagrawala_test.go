package ricartagrawala_test

import (
	. "github.com/vigil-check/vigil/protocols/mutex/ricartagrawala"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/mutextest"
)

type step = checktest.Step[State, Msg]

var (
	handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3}}
	twice    = mutextest.Requests(3, 2)
)

func req(t int, p model.NodeID) Msg { return Msg{T: t, P: p} }
func reply(t int) Msg               { return Msg{Reply: true, T: t} }

func replyTo(to model.NodeID, t int) []model.Sent[Msg] {
	return checktest.SentTo(reply(t), to)
}

// Vlassov and Montelius's "On receipt of a request ⟨Ti, pi⟩ at pj", and the
// wait for N-1 replies, one handler call each (N = 3).
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "released: reply at once, clock := max", Self: 1, In: State{Phase: mutex.Released, Clock: 2}, From: 0, Msg: req(5, 0),
			Want: State{Phase: mutex.Released, Clock: 5}, Sent: replyTo(0, 5)},
		{Name: "released, own clock ahead: max keeps it", Self: 1, In: State{Phase: mutex.Released, Clock: 7}, From: 0, Msg: req(5, 0),
			Want: State{Phase: mutex.Released, Clock: 7}, Sent: replyTo(0, 7)},
		{Name: "held: queue without replying", Self: 1, In: State{Phase: mutex.Held, Clock: 4, T: 3, Replies: 2}, From: 2, Msg: req(1, 2),
			Want: State{Phase: mutex.Held, Clock: 4, T: 3, Replies: 2, Queue: []model.NodeID{2}}},
		{Name: "wanted, (T, pj) < (Ti, pi): queue", Self: 1, In: State{Phase: mutex.Wanted, Clock: 3, T: 3, Queue: []model.NodeID{0}}, From: 2, Msg: req(4, 2),
			Want: State{Phase: mutex.Wanted, Clock: 4, T: 3, Queue: []model.NodeID{0, 2}}},
		{Name: "wanted, the other request is smaller: reply", Self: 1, In: State{Phase: mutex.Wanted, Clock: 3, T: 3}, From: 0, Msg: req(2, 0),
			Want: State{Phase: mutex.Wanted, Clock: 3, T: 3}, Sent: replyTo(0, 3)},
		{Name: "wanted, equal timestamps, smaller id here: queue", Self: 1, In: State{Phase: mutex.Wanted, Clock: 3, T: 3}, From: 2, Msg: req(3, 2),
			Want: State{Phase: mutex.Wanted, Clock: 3, T: 3, Queue: []model.NodeID{2}}},
		{Name: "wanted, equal timestamps, smaller id there: reply", Self: 1, In: State{Phase: mutex.Wanted, Clock: 3, T: 3}, From: 0, Msg: req(3, 0),
			Want: State{Phase: mutex.Wanted, Clock: 3, T: 3}, Sent: replyTo(0, 3)},
		{Name: "a reply, more to come: count it", Self: 1, In: State{Phase: mutex.Wanted, Clock: 3, T: 3}, From: 0, Msg: reply(6),
			Want: State{Phase: mutex.Wanted, Clock: 6, T: 3, Replies: 1}},
		{Name: "the (N-1)th reply: state := HELD", Self: 1, In: State{Phase: mutex.Wanted, Clock: 7, T: 3, Replies: 1}, From: 2, Msg: reply(5),
			Want: State{Phase: mutex.Held, Clock: 7, T: 3, Replies: 2}, Observed: []model.Obs{model.EnterCS()}},
	})
}

// "To enter the critical section" and "To exit the critical section".
func TestDo(t *testing.T) {
	handlers.Do(t, []step{
		{Name: "request: tick, T := clock, multicast ⟨T, p⟩ to the others", Config: twice, Self: 1,
			In: State{Phase: mutex.Released, Clock: 3, Asked: 1}, Action: mutex.Request,
			Want: State{Phase: mutex.Wanted, Clock: 4, T: 4, Asked: 2},
			Sent: []model.Sent[Msg]{{To: 0, Msg: req(4, 1)}, {To: 2, Msg: req(4, 1)}}, Observed: []model.Obs{model.RequestCS(4)}},
		{Name: "alone: no reply to wait for", Config: model.Config{N: 1}, Self: 0, In: State{Phase: mutex.Released}, Action: mutex.Request,
			Want: State{Phase: mutex.Held, Clock: 1, T: 1, Asked: 1}, Observed: []model.Obs{model.RequestCS(1), model.EnterCS()}},
		{Name: "exit: reply to every queued request", Config: twice, Self: 1,
			In: State{Phase: mutex.Held, Clock: 9, T: 4, Replies: 2, Queue: []model.NodeID{2, 0}, Asked: 1}, Action: mutex.Exit,
			Want: State{Phase: mutex.Released, Clock: 9, Asked: 1},
			Sent: []model.Sent[Msg]{{To: 2, Msg: reply(9)}, {To: 0, Msg: reply(9)}}, Observed: []model.Obs{model.ExitCS()}},
		{Name: "exit, nothing queued", Config: twice, Self: 1, In: State{Phase: mutex.Held, Clock: 9, T: 4, Replies: 2, Asked: 1}, Action: mutex.Exit,
			Want: State{Phase: mutex.Released, Clock: 9, Asked: 1}, Observed: []model.Obs{model.ExitCS()}},
	})
}

// The client's local actions, as every mutual-exclusion protocol lists
// them; a node asks a bounded number of times.
func TestActions(t *testing.T) {
	client := func(p mutex.Phase, asked int) State { return State{Phase: p, Asked: asked} }
	mutextest.Client[State, Msg]{Handlers: handlers, Self: 1, State: client}.Actions(t)
	require.Equal(t, "held clock=3 T=2 replies=2 queue=[n1] asked=1",
		State{Phase: mutex.Held, Clock: 3, T: 2, Replies: 2, Queue: []model.NodeID{1}, Asked: 1}.String())
}
