package dynamic

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/protocols/work"
)

const none = model.None

func ids(xs ...model.NodeID) []model.NodeID { return xs }

func set(ts ...int) work.Set {
	var s work.Set
	for _, t := range ts {
		s |= work.Of(t)
	}
	return s
}

// The notes' dynamic sharing, one handler call each, on four nodes ranked by
// id with three tasks: n3 the first coordinator, n0 the first analyser.
func TestHandlers(t *testing.T) {
	cfg := model.Config{N: 4, Params: map[string]int{properties.TasksParam: 3}}
	send := func(to model.NodeID, m Msg) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: m} }
	cancel := func(t model.Timer) model.TimerEffect { return model.TimerEffect{Timer: t} }
	arm := func(t model.Timer, waitOn ...model.NodeID) model.TimerEffect {
		return model.TimerEffect{Timer: t, Armed: true, WaitOn: waitOn}
	}
	task := func(t int, a model.NodeID) Msg { return Msg{K: Task, Task: t, Analyser: a} }
	done := func(t int, a model.NodeID) Msg { return Msg{K: Done, Task: t, Analyser: a} }
	follower := func(l model.NodeID) bully.State { return bully.State{Status: bully.Idle, Leader: l} }
	coord := func(self model.NodeID, out []model.NodeID, d work.Set, dead ...model.NodeID) State {
		return State{Election: follower(self), Coordinating: true, Out: out, Done: d, Analyser: 0, Dead: dead}
	}
	p := Protocol{}
	cases := []struct {
		name     string
		self     model.NodeID
		call     func(ctx *model.Ctx[Msg]) State
		want     State
		sent     []model.Sent[Msg]
		timers   []model.TimerEffect
		observed []model.Obs
	}{
		{"the first coordinator delegates the analysis to the lowest node and sends a task to each empty machine", 3,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) },
			coord(3, ids(0, 1, 2), 0),
			[]model.Sent[Msg]{send(0, task(0, 0)), send(1, task(1, 0)), send(2, task(2, 0))},
			[]model.TimerEffect{arm(AnalyserTimer, 0), arm(WorkerTimer(0), 0), arm(WorkerTimer(1), 1), arm(WorkerTimer(2), 2)},
			[]model.Obs{model.Leader(3)}},
		{"the others know the coordinator and watch it (bully's leader-check)", 1,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) },
			State{Election: follower(3)}, nil,
			[]model.TimerEffect{arm(bully.LeaderCheck, 3)}, []model.Obs{model.Leader(3)}},
		{"an empty machine is given a task", 1,
			func(ctx *model.Ctx[Msg]) State { return p.Receive(ctx, State{Election: follower(3)}, 3, task(1, 0)) },
			State{Election: follower(3), Jobs: []Job{{Task: 1, Analyser: 0, From: 3}}}, nil, nil, nil},
		{"a worker computes its task: the result to the analyser, done to the coordinator", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Do(ctx, State{Election: follower(3), Jobs: []Job{{Task: 1, Analyser: 0, From: 3}}}, work.Compute)
			},
			State{Election: follower(3)},
			[]model.Sent[Msg]{send(0, Msg{K: Result, Task: 1}), send(3, done(1, 0))}, nil, nil},
		{"the analyser counts a result", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Election: follower(3), Results: set(0)}, 1, Msg{K: Result, Task: 1})
			},
			State{Election: follower(3), Results: set(0, 1)}, nil, nil, []model.Obs{properties.CountedResult(1)}},
		{"the analyser drops a result it counted already (dedup)", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Election: follower(3), Results: set(0, 1)}, 2, Msg{K: Result, Task: 1})
			},
			State{Election: follower(3), Results: set(0, 1)}, nil, nil, nil},
		{"done: the machine is empty, and gets the next task", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, coord(3, ids(0, none, none), 0, 1, 2), 0, done(0, 0))
			},
			coord(3, ids(none, 0, none), set(0), 1, 2),
			[]model.Sent[Msg]{send(0, task(1, 0))},
			[]model.TimerEffect{cancel(WorkerTimer(0)), arm(WorkerTimer(0), 0)}, nil},
		{"done naming a former analyser: the result is lost, the task is handed out again", 3,
			func(ctx *model.Ctx[Msg]) State {
				s := coord(3, ids(0, 1, 2), 0)
				s.Analyser = 1
				return p.Receive(ctx, s, 1, done(1, 0))
			},
			func() State { s := coord(3, ids(0, 1, 2), 0); s.Analyser = 1; return s }(),
			[]model.Sent[Msg]{send(1, task(1, 1))},
			[]model.TimerEffect{cancel(WorkerTimer(1)), arm(WorkerTimer(1), 1)}, nil},
		{"a worker has crashed: its task goes to an empty machine", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, coord(3, ids(0, 1, none), set(2)), WorkerTimer(1))
			},
			coord(3, ids(0, 2, none), set(2), 1),
			[]model.Sent[Msg]{send(2, task(1, 0))},
			[]model.TimerEffect{arm(WorkerTimer(2), 2)}, nil},
		{"the analyser has crashed with all results: appoint the next lowest node and ask what it holds", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, coord(3, ids(none, 1, none), set(0, 2)), AnalyserTimer)
			},
			State{Election: follower(3), Coordinating: true, Out: ids(none, 1, none), Analyser: 1, Appointing: true, Dead: ids(0)},
			[]model.Sent[Msg]{send(1, Msg{K: Appoint})},
			[]model.TimerEffect{arm(AnalyserTimer, 1)}, nil},
		{"an appointed analyser says what it holds", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Election: follower(3), Results: set(1)}, 3, Msg{K: Appoint})
			},
			State{Election: follower(3), Results: set(1)},
			[]model.Sent[Msg]{send(3, Msg{K: Holding, Results: set(1)})}, nil, nil},
		{"what the analyser holds is done, the rest is handed out", 3,
			func(ctx *model.Ctx[Msg]) State {
				s := State{Election: follower(3), Coordinating: true, Out: ids(none, none, none), Analyser: 1, Appointing: true, Dead: ids(0)}
				return p.Receive(ctx, s, 1, Msg{K: Holding, Results: set(1)})
			},
			State{Election: follower(3), Coordinating: true, Out: ids(1, none, 2), Done: set(1), Analyser: 1, Dead: ids(0)},
			[]model.Sent[Msg]{send(1, task(0, 1)), send(2, task(2, 1))},
			[]model.TimerEffect{arm(WorkerTimer(1), 1), arm(WorkerTimer(2), 2)}, nil},
		{"bully elects a new coordinator, which asks the analyser what it holds", 2,
			func(ctx *model.Ctx[Msg]) State {
				s := State{Election: bully.State{Status: bully.WaitReply, Leader: none}, Jobs: []Job{{Task: 2, Analyser: 0, From: 3}}}
				return p.Timeout(ctx, s, bully.AnswerTimer)
			},
			State{Election: follower(2), Jobs: []Job{{Task: 2, Analyser: 0, From: 3}}, Coordinating: true,
				Out: ids(none, none, none), Analyser: 0, Appointing: true},
			[]model.Sent[Msg]{send(0, Msg{K: Bully, B: bully.Msg{K: bully.Coordinator}}), send(1, Msg{K: Bully, B: bully.Msg{K: bully.Coordinator}}),
				send(0, Msg{K: Appoint})},
			[]model.TimerEffect{cancel(bully.AnswerTimer), arm(AnalyserTimer, 0)}, []model.Obs{model.Leader(2)}},
		{"the coordinator fails: bully's leader-check starts an election", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Election: follower(3)}, bully.LeaderCheck)
			},
			State{Election: bully.State{Status: bully.WaitReply, Leader: none}},
			[]model.Sent[Msg]{send(2, Msg{K: Bully, B: bully.Msg{K: bully.Election}}), send(3, Msg{K: Bully, B: bully.Msg{K: bully.Election}})},
			[]model.TimerEffect{cancel(bully.CoordinatorTimer), cancel(bully.LeaderCheck), arm(bully.AnswerTimer, 2, 3)},
			[]model.Obs{model.Leader(none)}},
		{"a recovered node remembers nothing and starts an election", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Recover(ctx, State{Election: follower(3), Results: set(0, 1), Jobs: []Job{{Task: 2, Analyser: 0, From: 3}}})
			},
			State{Election: bully.State{Status: bully.WaitReply, Leader: none}},
			[]model.Sent[Msg]{send(1, Msg{K: Bully, B: bully.Msg{K: bully.Election}}), send(2, Msg{K: Bully, B: bully.Msg{K: bully.Election}}),
				send(3, Msg{K: Bully, B: bully.Msg{K: bully.Election}})},
			[]model.TimerEffect{cancel(bully.CoordinatorTimer), cancel(bully.LeaderCheck), arm(bully.AnswerTimer, 1, 2, 3)},
			[]model.Obs{model.Leader(none)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, c.call(ctx), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.timers, ctx.Timers(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

// With dedup off the analyser counts every copy of a result.
func TestNoDedup(t *testing.T) {
	cfg := model.Config{N: 3, Params: map[string]int{DedupParam: 0}}
	ctx := model.NewCtx[Msg](cfg, 0)
	s := State{Election: bully.State{Leader: 2}, Results: set(0)}
	require.Equal(t, s, Protocol{}.Receive(ctx, s, 1, Msg{K: Result, Task: 0}))
	require.Equal(t, []model.Obs{properties.CountedResult(0)}, ctx.Observed())
}
