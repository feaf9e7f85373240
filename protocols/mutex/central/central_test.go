package central

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

var (
	request = Msg{Request}
	grant   = Msg{Grant}
	release = Msg{Release}
)

// server is node 0's state: its client half released, the token at holder.
func server(holder model.NodeID, queue ...model.NodeID) State {
	return State{Phase: Released, Server: true, Holder: holder, Queue: queue}
}

func client(p Phase, asked int) State { return State{Phase: p, Asked: asked, Holder: model.None} }

// Vlassov and Montelius's server and client, one handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3}
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		from     model.NodeID
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"server, token free: grant at once", 0, server(model.None), 2, request,
			server(2), []model.Sent[Msg]{{To: 2, Msg: grant}}, nil},
		{"server, token out: queue the client", 0, server(1, 2), 0, request,
			server(1, 2, 0), nil, nil},
		{"server, release: grant to the head of the queue", 0, server(1, 2, 0), 1, release,
			server(2, 0), []model.Sent[Msg]{{To: 2, Msg: grant}}, nil},
		{"server, release, nobody waits: the token is free", 0, server(2), 2, release,
			server(model.None), nil, nil},
		{"server, release of the last queued: the queue empties", 0, server(2, 0), 2, release,
			server(0), []model.Sent[Msg]{{To: 0, Msg: grant}}, nil},
		{"client, grant: enter", 1, client(Wanted, 1), 0, grant,
			client(Held, 1), nil, []model.Obs{model.EnterCS()}},
		{"the server is a client too: it grants itself", 0,
			State{Phase: Wanted, Asked: 1, Server: true, Holder: 0}, 0, grant,
			State{Phase: Held, Asked: 1, Server: true, Holder: 0}, nil, []model.Obs{model.EnterCS()}},
	}
	for _, c := range cases {
		before := c.in
		before.Queue = slices.Clone(c.in.Queue)
		ctx := model.NewCtx[Msg](cfg, c.self)
		got := Protocol{}.Receive(ctx, c.in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, c.in, "%s: the input state changed", c.name)
	}
}

// The client's local steps: "request a token from the server" and "exit
// the critical section and return the token".
func TestDo(t *testing.T) {
	twice := model.Config{N: 3, Params: map[string]int{"requests": 2}}
	forever := model.Config{N: 3, Params: map[string]int{"requests": 0}}
	cases := []struct {
		name     string
		cfg      model.Config
		self     model.NodeID
		in       State
		a        model.Action
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"request: ask the server", twice, 2, client(Released, 1), mutex.Request,
			client(Wanted, 2), []model.Sent[Msg]{{To: 0, Msg: request}}, []model.Obs{model.RequestCS(0)}},
		{"request forever: no counter", forever, 2, client(Released, 0), mutex.Request,
			client(Wanted, 0), []model.Sent[Msg]{{To: 0, Msg: request}}, []model.Obs{model.RequestCS(0)}},
		{"the server asks itself by message", twice, 0, server(1), mutex.Request,
			State{Phase: Wanted, Asked: 1, Server: true, Holder: 1}, []model.Sent[Msg]{{To: 0, Msg: request}}, []model.Obs{model.RequestCS(0)}},
		{"exit: return the token", twice, 1, client(Held, 1), mutex.Exit,
			client(Released, 1), []model.Sent[Msg]{{To: 0, Msg: release}}, []model.Obs{model.ExitCS()}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](c.cfg, c.self)
		got := Protocol{}.Do(ctx, c.in, c.a)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

func TestActions(t *testing.T) {
	env := func(requests int, init []bool) *model.Env {
		return &model.NewCtx[Msg](model.Config{N: 3, Initiators: init, Params: map[string]int{"requests": requests}}, 1).Env
	}
	cases := []struct {
		name string
		env  *model.Env
		in   State
		want []model.Action
	}{
		{"released with requests left", env(2, nil), client(Released, 1), []model.Action{mutex.Request}},
		{"released, all requests made", env(2, nil), client(Released, 2), nil},
		{"released, forever", env(0, nil), client(Released, 0), []model.Action{mutex.Request}},
		{"released, not an initiator", env(2, []bool{true, false, false}), client(Released, 0), nil},
		{"waiting for the grant", env(2, nil), client(Wanted, 1), nil},
		{"in the critical section", env(2, nil), client(Held, 1), []model.Action{mutex.Exit}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Protocol{}.Actions(c.env, c.in), c.name)
	}
}

func TestInit(t *testing.T) {
	cfg := model.Config{N: 3}
	ctx := model.NewCtx[Msg](cfg, 0)
	require.Equal(t, server(model.None), Protocol{}.Init(ctx))
	require.Empty(t, ctx.Sent())
	ctx = model.NewCtx[Msg](cfg, 2)
	require.Equal(t, client(Released, 0), Protocol{}.Init(ctx))
	require.Equal(t, "released asked=0 | token at n2 queue=[n0 n1]", server(2, 0, 1).String())
}
