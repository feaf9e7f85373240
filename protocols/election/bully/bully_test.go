package bully_test

import (
	. "github.com/vigil-check/vigil/protocols/election/bully"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

// The guarded commands of the Leader Election notes with the refinements of
// Silberschatz et al. and of Vlassov and Montelius,
// one handler call each, on four nodes ranked by id.
func TestHandlers(t *testing.T) {
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 4}}
	send := func(to model.NodeID, k Kind) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: Msg{k}} }
	cancel, arm := checktest.Cancelled, checktest.Armed
	handlers.Init(t, []step{
		{Name: "command 1: election to every higher node, wait for an answer", Self: 1,
			Want: State{WaitReply, model.None}, Sent: []model.Sent[Msg]{send(2, Election), send(3, Election)},
			Timers:   []checktest.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), arm(AnswerTimer, 2, 3)},
			Observed: []model.Obs{model.Leader(model.None)}},
		{Name: "the highest node has no one to ask: it leads at once", Self: 3,
			Want: State{Idle, 3}, Sent: []model.Sent[Msg]{send(0, Coordinator), send(1, Coordinator), send(2, Coordinator)},
			Timers:   []checktest.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), cancel(AnswerTimer)},
			Observed: []model.Obs{model.Leader(model.None), model.Leader(3)}},
	})
	handlers.Receive(t, []step{
		{Name: "command 2: answer, and join the election when idle", Self: 2, In: State{Idle, model.None}, From: 0, Msg: Msg{Election},
			Want: State{WaitReply, model.None}, Sent: []model.Sent[Msg]{send(0, Answer), send(3, Election)},
			Timers: []checktest.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), arm(AnswerTimer, 3)}, Observed: []model.Obs{model.Leader(model.None)}},
		{Name: "command 2 while electing: only answer", Self: 2, In: State{WaitReply, model.None}, From: 0, Msg: Msg{Election},
			Want: State{WaitReply, model.None}, Sent: []model.Sent[Msg]{send(0, Answer)}},
		{Name: "a leader answers and tells the asker who leads", Self: 3, In: State{Idle, 3}, From: 1, Msg: Msg{Election},
			Want: State{Idle, 3}, Sent: []model.Sent[Msg]{send(1, Answer), send(1, Coordinator)}},
		{Name: "command 3: an answer means wait for the coordinator", Self: 1, In: State{WaitReply, model.None}, From: 2, Msg: Msg{Answer},
			Want: State{WaitLeader, model.None}, Timers: []checktest.TimerEffect{cancel(AnswerTimer), arm(CoordinatorTimer, 2, 3)}},
		{Name: "command 5: the coordinator is believed and watched", Self: 0, In: State{WaitLeader, model.None}, From: 3, Msg: Msg{Coordinator},
			Want: State{Idle, 3}, Timers: []checktest.TimerEffect{cancel(AnswerTimer), cancel(CoordinatorTimer), arm(LeaderCheck, 3)},
			Observed: []model.Obs{model.Leader(3)}},
	})
	handlers.Timeout(t, []step{
		{Name: "command 4: no answer in time, elect yourself", Self: 1, In: State{WaitReply, model.None}, Timer: AnswerTimer,
			Want: State{Idle, 1}, Sent: []model.Sent[Msg]{send(0, Coordinator)}, Timers: []checktest.TimerEffect{cancel(AnswerTimer)},
			Observed: []model.Obs{model.Leader(1)}},
		{Name: "command 6: no coordinator in time, start again", Self: 2, In: State{WaitLeader, model.None}, Timer: CoordinatorTimer,
			Want: State{WaitReply, model.None}, Sent: []model.Sent[Msg]{send(3, Election)},
			Timers: []checktest.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), arm(AnswerTimer, 3)}, Observed: []model.Obs{model.Leader(model.None)}},
	})
	handlers.Recover(t, []step{
		{Name: "a recovered node starts an election (Silberschatz et al.)", Self: 3, In: State{Idle, 2},
			Want: State{Idle, 3}, Sent: []model.Sent[Msg]{send(0, Coordinator), send(1, Coordinator), send(2, Coordinator)},
			Timers:   []checktest.TimerEffect{cancel(CoordinatorTimer), cancel(LeaderCheck), cancel(AnswerTimer)},
			Observed: []model.Obs{model.Leader(model.None), model.Leader(3)}},
	})
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
	require.Equal(t, []model.Sent[outer]{{To: 2, Msg: outer{Bully: Msg{Election}}}, {To: 3, Msg: outer{Bully: Msg{Election}}}}, checktest.Sent(ctx))
	require.Equal(t, []model.Obs{model.Leader(model.None)}, checktest.Observed(ctx))

	ctx = model.NewCtx[outer](cfg, 2)
	require.Equal(t, State{Idle, 2}, e.Timeout(ctx, State{WaitReply, model.None}, AnswerTimer))
	require.Equal(t, []model.Sent[outer]{{To: 0, Msg: outer{Bully: Msg{Coordinator}}}, {To: 1, Msg: outer{Bully: Msg{Coordinator}}}}, checktest.Sent(ctx))

	ctx = model.NewCtx[outer](cfg, 0)
	require.Equal(t, State{Idle, 3}, e.Follow(ctx, 3))
	require.Nil(t, checktest.Sent(ctx))
	require.Equal(t, []checktest.TimerEffect{{Timer: LeaderCheck, Armed: true, WaitOn: []model.NodeID{3}}}, checktest.Timers(ctx))
	require.Equal(t, []model.Obs{model.Leader(3)}, checktest.Observed(ctx))

	ctx = model.NewCtx[outer](cfg, 3)
	require.Equal(t, State{Idle, 3}, e.Follow(ctx, 3))
	require.Nil(t, checktest.Timers(ctx))
	require.Equal(t, []model.Obs{model.Leader(3)}, checktest.Observed(ctx))
}
