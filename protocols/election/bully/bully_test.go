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
