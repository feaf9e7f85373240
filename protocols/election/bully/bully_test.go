package bully

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// The guarded commands of the Leader Election notes with the refinements of
// Silberschatz et al. and of Vlassov and Montelius,
// one handler call each, on four nodes ranked by id.
func TestHandlers(t *testing.T) {
	cfg := model.Config{N: 4}
	send := func(to model.NodeID, k Kind) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: Msg{k}} }
	cancel := func(t model.Timer) model.TimerEffect { return model.TimerEffect{Timer: t} }
	arm := func(t model.Timer, waitOn ...model.NodeID) model.TimerEffect {
		return model.TimerEffect{Timer: t, Armed: true, WaitOn: waitOn}
	}
	cases := []struct {
		name     string
		self     model.NodeID
		call     func(ctx *model.Ctx[Msg]) State
		want     State
		sent     []model.Sent[Msg]
		timers   []model.TimerEffect
		observed []model.Obs
	}{
		{"command 1: election to every higher node, wait for an answer", 1,
			func(ctx *model.Ctx[Msg]) State { return Protocol{}.Init(ctx) },
			State{WaitReply, model.None},
			[]model.Sent[Msg]{send(2, Election), send(3, Election)},
			[]model.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), arm(AnswerTimer, 2, 3)},
			[]model.Obs{model.Leader(model.None)}},
		{"the highest node has no one to ask: it leads at once", 3,
			func(ctx *model.Ctx[Msg]) State { return Protocol{}.Init(ctx) },
			State{Idle, 3},
			[]model.Sent[Msg]{send(0, Coordinator), send(1, Coordinator), send(2, Coordinator)},
			[]model.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), cancel(AnswerTimer)},
			[]model.Obs{model.Leader(model.None), model.Leader(3)}},
		{"command 2: answer, and join the election when idle", 2,
			func(ctx *model.Ctx[Msg]) State {
				return Protocol{}.Receive(ctx, State{Idle, model.None}, 0, Msg{Election})
			},
			State{WaitReply, model.None},
			[]model.Sent[Msg]{send(0, Answer), send(3, Election)},
			[]model.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), arm(AnswerTimer, 3)},
			[]model.Obs{model.Leader(model.None)}},
		{"command 2 while electing: only answer", 2,
			func(ctx *model.Ctx[Msg]) State {
				return Protocol{}.Receive(ctx, State{WaitReply, model.None}, 0, Msg{Election})
			},
			State{WaitReply, model.None}, []model.Sent[Msg]{send(0, Answer)}, nil, nil},
		{"a leader answers and tells the asker who leads", 3,
			func(ctx *model.Ctx[Msg]) State { return Protocol{}.Receive(ctx, State{Idle, 3}, 1, Msg{Election}) },
			State{Idle, 3}, []model.Sent[Msg]{send(1, Answer), send(1, Coordinator)}, nil, nil},
		{"command 3: an answer means wait for the coordinator", 1,
			func(ctx *model.Ctx[Msg]) State {
				return Protocol{}.Receive(ctx, State{WaitReply, model.None}, 2, Msg{Answer})
			},
			State{WaitLeader, model.None}, nil,
			[]model.TimerEffect{cancel(AnswerTimer), arm(CoordinatorTimer, 2, 3)}, nil},
		{"command 4: no answer in time, elect yourself", 1,
			func(ctx *model.Ctx[Msg]) State {
				return Protocol{}.Timeout(ctx, State{WaitReply, model.None}, AnswerTimer)
			},
			State{Idle, 1}, []model.Sent[Msg]{send(0, Coordinator)},
			[]model.TimerEffect{cancel(AnswerTimer)}, []model.Obs{model.Leader(1)}},
		{"command 5: the coordinator is believed and watched", 0,
			func(ctx *model.Ctx[Msg]) State {
				return Protocol{}.Receive(ctx, State{WaitLeader, model.None}, 3, Msg{Coordinator})
			},
			State{Idle, 3}, nil,
			[]model.TimerEffect{cancel(AnswerTimer), cancel(CoordinatorTimer), arm(LeaderCheck, 3)},
			[]model.Obs{model.Leader(3)}},
		{"command 6: no coordinator in time, start again", 2,
			func(ctx *model.Ctx[Msg]) State {
				return Protocol{}.Timeout(ctx, State{WaitLeader, model.None}, CoordinatorTimer)
			},
			State{WaitReply, model.None}, []model.Sent[Msg]{send(3, Election)},
			[]model.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), arm(AnswerTimer, 3)},
			[]model.Obs{model.Leader(model.None)}},
		{"a recovered node starts an election (Silberschatz et al.)", 3,
			func(ctx *model.Ctx[Msg]) State { return Protocol{}.Recover(ctx, State{Idle, 2}) },
			State{Idle, 3},
			[]model.Sent[Msg]{send(0, Coordinator), send(1, Coordinator), send(2, Coordinator)},
			[]model.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), cancel(AnswerTimer)},
			[]model.Obs{model.Leader(model.None), model.Leader(3)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, c.call(ctx), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.timers, ctx.Timers(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

// An enclosing protocol's message type carries bully's messages.
type outer struct {
	Bully Msg
	Other int
}

// The Elector sends the same messages, wrapped, arms the same timers and
// reports the same observations as Protocol; Follow starts a node that
// knows its leader already.
func TestElector(t *testing.T) {
	cfg := model.Config{N: 4}
	e := Elector[outer](func(m Msg) outer { return outer{Bully: m} })

	ctx := model.NewCtx[outer](cfg, 1)
	require.Equal(t, State{WaitReply, model.None}, e.Start(ctx))
	require.Equal(t, []model.Sent[outer]{{To: 2, Msg: outer{Bully: Msg{Election}}}, {To: 3, Msg: outer{Bully: Msg{Election}}}}, ctx.Sent())
	require.Equal(t, []model.Obs{model.Leader(model.None)}, ctx.Observed())

	ctx = model.NewCtx[outer](cfg, 2)
	require.Equal(t, State{Idle, 2}, e.Timeout(ctx, State{WaitReply, model.None}, AnswerTimer))
	require.Equal(t, []model.Sent[outer]{{To: 0, Msg: outer{Bully: Msg{Coordinator}}}, {To: 1, Msg: outer{Bully: Msg{Coordinator}}}}, ctx.Sent())

	ctx = model.NewCtx[outer](cfg, 0)
	require.Equal(t, State{Idle, 3}, e.Follow(ctx, 3))
	require.Nil(t, ctx.Sent())
	require.Equal(t, []model.TimerEffect{{Timer: LeaderCheck, Armed: true, WaitOn: []model.NodeID{3}}}, ctx.Timers())
	require.Equal(t, []model.Obs{model.Leader(3)}, ctx.Observed())

	ctx = model.NewCtx[outer](cfg, 3)
	require.Equal(t, State{Idle, 3}, e.Follow(ctx, 3))
	require.Nil(t, ctx.Timers())
	require.Equal(t, []model.Obs{model.Leader(3)}, ctx.Observed())
}
