package ricartagrawala

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

func req(t int, p model.NodeID) Msg { return Msg{T: t, P: p} }
func reply(t int) Msg               { return Msg{Reply: true, T: t} }

// Vlassov and Montelius's "On receipt of a request ⟨Ti, pi⟩ at pj", and the
// wait for N-1 replies, one handler call each (N = 3).
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
		{"released: reply at once, clock := max", 1, State{Phase: Released, Clock: 2}, 0, req(5, 0),
			State{Phase: Released, Clock: 5}, []model.Sent[Msg]{{To: 0, Msg: reply(5)}}, nil},
		{"released, own clock ahead: max keeps it", 1, State{Phase: Released, Clock: 7}, 0, req(5, 0),
			State{Phase: Released, Clock: 7}, []model.Sent[Msg]{{To: 0, Msg: reply(7)}}, nil},
		{"held: queue without replying", 1, State{Phase: Held, Clock: 4, T: 3, Replies: 2}, 2, req(1, 2),
			State{Phase: Held, Clock: 4, T: 3, Replies: 2, Queue: []model.NodeID{2}}, nil, nil},
		{"wanted, (T, pj) < (Ti, pi): queue", 1, State{Phase: Wanted, Clock: 3, T: 3, Queue: []model.NodeID{0}}, 2, req(4, 2),
			State{Phase: Wanted, Clock: 4, T: 3, Queue: []model.NodeID{0, 2}}, nil, nil},
		{"wanted, the other request is smaller: reply", 1, State{Phase: Wanted, Clock: 3, T: 3}, 0, req(2, 0),
			State{Phase: Wanted, Clock: 3, T: 3}, []model.Sent[Msg]{{To: 0, Msg: reply(3)}}, nil},
		{"wanted, equal timestamps, smaller id here: queue", 1, State{Phase: Wanted, Clock: 3, T: 3}, 2, req(3, 2),
			State{Phase: Wanted, Clock: 3, T: 3, Queue: []model.NodeID{2}}, nil, nil},
		{"wanted, equal timestamps, smaller id there: reply", 1, State{Phase: Wanted, Clock: 3, T: 3}, 0, req(3, 0),
			State{Phase: Wanted, Clock: 3, T: 3}, []model.Sent[Msg]{{To: 0, Msg: reply(3)}}, nil},
		{"a reply, more to come: count it", 1, State{Phase: Wanted, Clock: 3, T: 3}, 0, reply(6),
			State{Phase: Wanted, Clock: 6, T: 3, Replies: 1}, nil, nil},
		{"the (N-1)th reply: state := HELD", 1, State{Phase: Wanted, Clock: 7, T: 3, Replies: 1}, 2, reply(5),
			State{Phase: Held, Clock: 7, T: 3, Replies: 2}, nil, []model.Obs{model.EnterCS()}},
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

// "To enter the critical section" and "To exit the critical section".
func TestDo(t *testing.T) {
	three := model.Config{N: 3, Params: map[string]int{"requests": 2}}
	alone := model.Config{N: 1}
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
		{"request: tick, T := clock, multicast ⟨T, p⟩ to the others", three, 1, State{Phase: Released, Clock: 3, Asked: 1}, mutex.Request,
			State{Phase: Wanted, Clock: 4, T: 4, Asked: 2},
			[]model.Sent[Msg]{{To: 0, Msg: req(4, 1)}, {To: 2, Msg: req(4, 1)}}, []model.Obs{model.RequestCS(4)}},
		{"alone: no reply to wait for", alone, 0, State{Phase: Released}, mutex.Request,
			State{Phase: Held, Clock: 1, T: 1, Asked: 1}, nil, []model.Obs{model.RequestCS(1), model.EnterCS()}},
		{"exit: reply to every queued request", three, 1, State{Phase: Held, Clock: 9, T: 4, Replies: 2, Queue: []model.NodeID{2, 0}, Asked: 1}, mutex.Exit,
			State{Phase: Released, Clock: 9, Asked: 1},
			[]model.Sent[Msg]{{To: 2, Msg: reply(9)}, {To: 0, Msg: reply(9)}}, []model.Obs{model.ExitCS()}},
		{"exit, nothing queued", three, 1, State{Phase: Held, Clock: 9, T: 4, Replies: 2, Asked: 1}, mutex.Exit,
			State{Phase: Released, Clock: 9, Asked: 1}, nil, []model.Obs{model.ExitCS()}},
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
	env := &model.NewCtx[Msg](model.Config{N: 3, Params: map[string]int{"requests": 2}}, 1).Env
	require.Equal(t, []model.Action{mutex.Request}, Protocol{}.Actions(env, State{Phase: Released, Asked: 1}))
	require.Nil(t, Protocol{}.Actions(env, State{Phase: Released, Asked: 2}))
	require.Nil(t, Protocol{}.Actions(env, State{Phase: Wanted, Asked: 1}))
	require.Equal(t, []model.Action{mutex.Exit}, Protocol{}.Actions(env, State{Phase: Held, Asked: 1}))
	require.Equal(t, "held clock=3 T=2 replies=2 queue=[n1] asked=1",
		State{Phase: Held, Clock: 3, T: 2, Replies: 2, Queue: []model.NodeID{1}, Asked: 1}.String())
}
