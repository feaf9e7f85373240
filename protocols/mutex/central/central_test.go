package central_test

import (
	. "github.com/vigil-check/vigil/protocols/mutex/central"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/mutextest"
)

type step = checktest.Step[State, Msg]

var handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3}}

var (
	request = Msg{Request}
	grant   = Msg{Grant}
	release = Msg{Release}

	twice   = mutextest.Requests(3, 2)
	forever = mutextest.Requests(3, 0)
)

// server is node 0's state: its client half released, the token at holder.
func server(holder model.NodeID, queue ...model.NodeID) State {
	return State{Phase: mutex.Released, Server: true, Holder: holder, Queue: queue}
}

func client(p mutex.Phase, asked int) State { return State{Phase: p, Asked: asked, Holder: model.None} }

// Vlassov and Montelius's server and client, one handler call each.
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "server, token free: grant at once", Self: 0, In: server(model.None), From: 2, Msg: request,
			Want: server(2), Sent: checktest.SentTo(grant, 2)},
		{Name: "server, token out: queue the client", Self: 0, In: server(1, 2), From: 0, Msg: request,
			Want: server(1, 2, 0)},
		{Name: "server, release: grant to the head of the queue", Self: 0, In: server(1, 2, 0), From: 1, Msg: release,
			Want: server(2, 0), Sent: checktest.SentTo(grant, 2)},
		{Name: "server, release, nobody waits: the token is free", Self: 0, In: server(2), From: 2, Msg: release,
			Want: server(model.None)},
		{Name: "server, release of the last queued: the queue empties", Self: 0, In: server(2, 0), From: 2, Msg: release,
			Want: server(0), Sent: checktest.SentTo(grant, 0)},
		{Name: "client, grant: enter", Self: 1, In: client(mutex.Wanted, 1), From: 0, Msg: grant,
			Want: client(mutex.Held, 1), Observed: []model.Obs{model.EnterCS()}},
		{Name: "the server is a client too: it grants itself", Self: 0,
			In: State{Phase: mutex.Wanted, Asked: 1, Server: true, Holder: 0}, From: 0, Msg: grant,
			Want: State{Phase: mutex.Held, Asked: 1, Server: true, Holder: 0}, Observed: []model.Obs{model.EnterCS()}},
	})
}

// The client's local steps: "request a token from the server" and "exit
// the critical section and return the token".
func TestDo(t *testing.T) {
	handlers.Do(t, []step{
		{Name: "request: ask the server", Config: twice, Self: 2, In: client(mutex.Released, 1), Action: mutex.Request,
			Want: client(mutex.Wanted, 2), Sent: checktest.SentTo(request, 0), Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "request forever: no counter", Config: forever, Self: 2, In: client(mutex.Released, 0), Action: mutex.Request,
			Want: client(mutex.Wanted, 0), Sent: checktest.SentTo(request, 0), Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "the server asks itself by message", Config: twice, Self: 0, In: server(1), Action: mutex.Request,
			Want: State{Phase: mutex.Wanted, Asked: 1, Server: true, Holder: 1}, Sent: checktest.SentTo(request, 0), Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "exit: return the token", Config: twice, Self: 1, In: client(mutex.Held, 1), Action: mutex.Exit,
			Want: client(mutex.Released, 1), Sent: checktest.SentTo(release, 0), Observed: []model.Obs{model.ExitCS()}},
	})
}

// The client's local actions, as every mutual-exclusion protocol lists
// them.
func TestActions(t *testing.T) {
	mutextest.Client[State, Msg]{Handlers: handlers, Self: 1, State: client, Forever: true}.Actions(t)
}

func TestInit(t *testing.T) {
	handlers.Init(t, []step{
		{Name: "node 0 serves, the token free", Self: 0, Want: server(model.None)},
		{Name: "the others are clients", Self: 2, Want: client(mutex.Released, 0)},
	})
	require.Equal(t, "released asked=0 | token at n2 queue=[n0 n1]", server(2, 0, 1).String())
}
