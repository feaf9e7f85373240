package tokenring_test

import (
	. "github.com/vigil-check/vigil/protocols/mutex/tokenring"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/mutextest"
)

type step = checktest.Step[State, Msg]

var (
	handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3}}
	twice    = mutextest.Requests(3, 2)
	forever  = mutextest.Requests(3, 0)
)

var token = Msg{}

func passTo(to model.NodeID) []model.Sent[Msg] { return checktest.SentTo(token, to) }

// Vlassov and Montelius's ring: the token arrives, is kept or passed on; one
// handler call each.
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "wanted: remove the token and enter", Self: 1, In: State{mutex.Wanted, 1}, From: 0, Msg: token,
			Want: State{mutex.Held, 1}, Observed: []model.Obs{model.EnterCS()}},
		{Name: "not wanted: pass it on", Self: 1, In: State{mutex.Released, 1}, From: 0, Msg: token,
			Want: State{mutex.Released, 1}, Sent: passTo(2)},
		{Name: "the last node passes to node 0", Self: 2, In: State{mutex.Released, 0}, From: 1, Msg: token,
			Want: State{mutex.Released, 0}, Sent: passTo(0)},
	})
}

func TestDo(t *testing.T) {
	handlers.Do(t, []step{
		{Name: "request: wait for the token, no message", Config: twice, Self: 1, In: State{mutex.Released, 1}, Action: mutex.Request,
			Want: State{mutex.Wanted, 2}, Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "request forever: no counter", Config: forever, Self: 1, In: State{mutex.Released, 0}, Action: mutex.Request,
			Want: State{mutex.Wanted, 0}, Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "exit: release the token to the successor", Config: twice, Self: 2, In: State{mutex.Held, 1}, Action: mutex.Exit,
			Want: State{mutex.Released, 1}, Sent: passTo(0), Observed: []model.Obs{model.ExitCS()}},
	})
}

// The client's local actions, as every mutual-exclusion protocol lists
// them.
func TestActions(t *testing.T) {
	client := func(p mutex.Phase, asked int) State { return State{p, asked} }
	mutextest.Client[State, Msg]{Handlers: handlers, Self: 1, State: client, Forever: true}.Actions(t)
}

// Node 0 holds the token at start and, wanting nothing yet, passes it on.
func TestInit(t *testing.T) {
	handlers.Init(t, []step{
		{Name: "node 0 passes the token on", Self: 0, Want: State{}, Sent: passTo(1)},
		{Name: "the others wait", Self: 1, Want: State{}},
	})
}
