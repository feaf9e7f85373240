package tokenring_test

import (
	. "github.com/vigil-check/vigil/protocols/mutex/tokenring"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

type step = checktest.Step[State, Msg]

var (
	handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3}}
	twice    = model.Config{N: 3, Params: map[string]int{"requests": 2}}
	forever  = model.Config{N: 3, Params: map[string]int{"requests": 0}}
)

var token = Msg{}

func passTo(to model.NodeID) []model.Sent[Msg] { return checktest.SentTo(token, to) }

// Vlassov and Montelius's ring: the token arrives, is kept or passed on; one
// handler call each.
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "wanted: remove the token and enter", Self: 1, In: State{Wanted, 1}, From: 0, Msg: token,
			Want: State{Held, 1}, Observed: []model.Obs{model.EnterCS()}},
		{Name: "not wanted: pass it on", Self: 1, In: State{Released, 1}, From: 0, Msg: token,
			Want: State{Released, 1}, Sent: passTo(2)},
		{Name: "the last node passes to node 0", Self: 2, In: State{Released, 0}, From: 1, Msg: token,
			Want: State{Released, 0}, Sent: passTo(0)},
	})
}

func TestDo(t *testing.T) {
	handlers.Do(t, []step{
		{Name: "request: wait for the token, no message", Config: twice, Self: 1, In: State{Released, 1}, Action: mutex.Request,
			Want: State{Wanted, 2}, Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "request forever: no counter", Config: forever, Self: 1, In: State{Released, 0}, Action: mutex.Request,
			Want: State{Wanted, 0}, Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "exit: release the token to the successor", Config: twice, Self: 2, In: State{Held, 1}, Action: mutex.Exit,
			Want: State{Released, 1}, Sent: passTo(0), Observed: []model.Obs{model.ExitCS()}},
	})
}

func TestActions(t *testing.T) {
	handlers.Actions(t, []step{
		{Name: "released with requests left", Config: twice, Self: 1, In: State{Released, 1}, Enabled: []model.Action{mutex.Request}},
		{Name: "released, all requests made", Config: twice, Self: 1, In: State{Released, 2}},
		{Name: "released, forever", Config: forever, Self: 1, In: State{Released, 0}, Enabled: []model.Action{mutex.Request}},
		{Name: "waiting for the token", Config: twice, Self: 1, In: State{Wanted, 1}},
		{Name: "in the critical section", Config: twice, Self: 1, In: State{Held, 1}, Enabled: []model.Action{mutex.Exit}},
	})
}

// Node 0 holds the token at start and, wanting nothing yet, passes it on.
func TestInit(t *testing.T) {
	handlers.Init(t, []step{
		{Name: "node 0 passes the token on", Self: 0, Want: State{}, Sent: passTo(1)},
		{Name: "the others wait", Self: 1, Want: State{}},
	})
}
