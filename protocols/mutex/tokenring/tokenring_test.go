package tokenring

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

var token = Msg{}

// Vlassov and Montelius's ring: the token arrives, is kept or passed on; one
// handler call each.
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3}
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"wanted: remove the token and enter", 1, State{Wanted, 1},
			State{Held, 1}, nil, []model.Obs{model.EnterCS()}},
		{"not wanted: pass it on", 1, State{Released, 1},
			State{Released, 1}, []model.Sent[Msg]{{To: 2, Msg: token}}, nil},
		{"the last node passes to node 0", 2, State{Released, 0},
			State{Released, 0}, []model.Sent[Msg]{{To: 0, Msg: token}}, nil},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		got := Protocol{}.Receive(ctx, c.in, c.self-1, token)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

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
		{"request: wait for the token, no message", twice, 1, State{Released, 1}, mutex.Request,
			State{Wanted, 2}, nil, []model.Obs{model.RequestCS(0)}},
		{"request forever: no counter", forever, 1, State{Released, 0}, mutex.Request,
			State{Wanted, 0}, nil, []model.Obs{model.RequestCS(0)}},
		{"exit: release the token to the successor", twice, 2, State{Held, 1}, mutex.Exit,
			State{Released, 1}, []model.Sent[Msg]{{To: 0, Msg: token}}, []model.Obs{model.ExitCS()}},
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
	env := func(requests int) *model.Env {
		return &model.NewCtx[Msg](model.Config{N: 3, Params: map[string]int{"requests": requests}}, 1).Env
	}
	cases := []struct {
		name string
		env  *model.Env
		in   State
		want []model.Action
	}{
		{"released with requests left", env(2), State{Released, 1}, []model.Action{mutex.Request}},
		{"released, all requests made", env(2), State{Released, 2}, nil},
		{"released, forever", env(0), State{Released, 0}, []model.Action{mutex.Request}},
		{"waiting for the token", env(2), State{Wanted, 1}, nil},
		{"in the critical section", env(2), State{Held, 1}, []model.Action{mutex.Exit}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Protocol{}.Actions(c.env, c.in), c.name)
	}
}

// Node 0 holds the token at start and, wanting nothing yet, passes it on.
func TestInit(t *testing.T) {
	cfg := model.Config{N: 3}
	ctx := model.NewCtx[Msg](cfg, 0)
	require.Equal(t, State{}, Protocol{}.Init(ctx))
	require.Equal(t, []model.Sent[Msg]{{To: 1, Msg: token}}, ctx.Sent())
	ctx = model.NewCtx[Msg](cfg, 1)
	require.Equal(t, State{}, Protocol{}.Init(ctx))
	require.Empty(t, ctx.Sent())
}
