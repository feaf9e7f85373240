package dynamic_test

import (
	. "github.com/vigil-check/vigil/protocols/work/dynamic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/protocols/work"
)

type step = checktest.Step[State, Msg]

const none = model.None

func ids(xs ...model.NodeID) []model.NodeID { return xs }

// The notes' dynamic sharing, one handler call each, on four nodes ranked by
// id with three tasks: n3 the first coordinator, n0 the first analyser.
func TestHandlers(t *testing.T) {
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 4, Params: map[string]int{properties.TasksParam: 3}}}
	send := func(to model.NodeID, m Msg) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: m} }
	cancel, arm := checktest.Cancelled, checktest.Armed
	task := func(t int, a model.NodeID) Msg { return Msg{K: Task, Task: t, Analyser: a} }
	done := func(t int, a model.NodeID) Msg { return Msg{K: Done, Task: t, Analyser: a} }
	election := func(k bully.Kind) Msg { return Msg{K: Bully, B: bully.Msg{K: k}} } // bully's, wrapped
	follower := func(l model.NodeID) bully.State { return bully.State{Status: bully.Idle, Leader: l} }
	coord := func(self model.NodeID, out []model.NodeID, d work.Set, dead ...model.NodeID) State {
		return State{Election: follower(self), Coordinating: true, Out: out, Done: d, Analyser: 0, Dead: dead}
	}
	formerAnalyser := coord(3, ids(0, 1, 2), 0)
	formerAnalyser.Analyser = 1
	handlers.Init(t, []step{
		{Name: "the first coordinator delegates the analysis to the lowest node and sends a task to each empty machine", Self: 3,
			Want: coord(3, ids(0, 1, 2), 0), Sent: []model.Sent[Msg]{send(0, task(0, 0)), send(1, task(1, 0)), send(2, task(2, 0))},
			Timers:   []checktest.TimerEffect{arm(AnalyserTimer, 0), arm(WorkerTimer(0), 0), arm(WorkerTimer(1), 1), arm(WorkerTimer(2), 2)},
			Observed: []model.Obs{model.Leader(3)}},
		{Name: "the others know the coordinator and watch it (bully's leader-check)", Self: 1,
			Want: State{Election: follower(3)}, Timers: []checktest.TimerEffect{arm(bully.LeaderCheck, 3)}, Observed: []model.Obs{model.Leader(3)}},
	})
	handlers.Receive(t, []step{
		{Name: "an empty machine is given a task", Self: 1, In: State{Election: follower(3)}, From: 3, Msg: task(1, 0),
			Want: State{Election: follower(3), Jobs: []Job{{Task: 1, Analyser: 0, From: 3}}}},
		{Name: "the analyser counts a result", Self: 0, In: State{Election: follower(3), Results: work.Of(0)}, From: 1, Msg: Msg{K: Result, Task: 1},
			Want: State{Election: follower(3), Results: work.Of(0, 1)}, Observed: []model.Obs{properties.CountedResult(1)}},
		{Name: "the analyser drops a result it counted already (dedup)", Self: 0, In: State{Election: follower(3), Results: work.Of(0, 1)}, From: 2,
			Msg:  Msg{K: Result, Task: 1},
			Want: State{Election: follower(3), Results: work.Of(0, 1)}},
		{Name: "done: the machine is empty, and gets the next task", Self: 3, In: coord(3, ids(0, none, none), 0, 1, 2), From: 0, Msg: done(0, 0),
			Want: coord(3, ids(none, 0, none), work.Of(0), 1, 2), Sent: []model.Sent[Msg]{send(0, task(1, 0))},
			Timers: []checktest.TimerEffect{cancel(WorkerTimer(0)), arm(WorkerTimer(0), 0)}},
		{Name: "done naming a former analyser: the result is lost, the task is handed out again", Self: 3, In: formerAnalyser, From: 1, Msg: done(1, 0),
			Want: formerAnalyser, Sent: []model.Sent[Msg]{send(1, task(1, 1))},
			Timers: []checktest.TimerEffect{cancel(WorkerTimer(1)), arm(WorkerTimer(1), 1)}},
		{Name: "an appointed analyser says what it holds", Self: 1, In: State{Election: follower(3), Results: work.Of(1)}, From: 3, Msg: Msg{K: Appoint},
			Want: State{Election: follower(3), Results: work.Of(1)}, Sent: []model.Sent[Msg]{send(3, Msg{K: Holding, Results: work.Of(1)})}},
		{Name: "what the analyser holds is done, the rest is handed out", Self: 3,
			In: State{Election: follower(3), Coordinating: true, Out: ids(none, none, none), Analyser: 1, Appointing: true, Dead: ids(0)}, From: 1,
			Msg:  Msg{K: Holding, Results: work.Of(1)},
			Want: State{Election: follower(3), Coordinating: true, Out: ids(1, none, 2), Done: work.Of(1), Analyser: 1, Dead: ids(0)},
			Sent: []model.Sent[Msg]{send(1, task(0, 1)), send(2, task(2, 1))}, Timers: []checktest.TimerEffect{arm(WorkerTimer(1), 1), arm(WorkerTimer(2), 2)}},
	})
	handlers.Timeout(t, []step{
		{Name: "a worker has crashed: its task goes to an empty machine", Self: 3, In: coord(3, ids(0, 1, none), work.Of(2)), Timer: WorkerTimer(1),
			Want: coord(3, ids(0, 2, none), work.Of(2), 1), Sent: []model.Sent[Msg]{send(2, task(1, 0))}, Timers: []checktest.TimerEffect{arm(WorkerTimer(2), 2)}},
		{Name: "the analyser has crashed with all results: appoint the next lowest node and ask what it holds", Self: 3,
			In: coord(3, ids(none, 1, none), work.Of(0, 2)), Timer: AnalyserTimer,
			Want: State{Election: follower(3), Coordinating: true, Out: ids(none, 1, none), Analyser: 1, Appointing: true, Dead: ids(0)},
			Sent: []model.Sent[Msg]{send(1, Msg{K: Appoint})}, Timers: []checktest.TimerEffect{arm(AnalyserTimer, 1)}},
		{Name: "bully elects a new coordinator, which asks the analyser what it holds", Self: 2,
			In: State{Election: bully.State{Status: bully.WaitReply, Leader: none}, Jobs: []Job{{Task: 2, Analyser: 0, From: 3}}}, Timer: bully.AnswerTimer,
			Want: State{Election: follower(2), Jobs: []Job{{Task: 2, Analyser: 0, From: 3}}, Coordinating: true, Out: ids(none, none, none),
				Analyser: 0, Appointing: true},
			Sent:   append(checktest.SentTo(election(bully.Coordinator), 0, 1), send(0, Msg{K: Appoint})),
			Timers: []checktest.TimerEffect{cancel(bully.AnswerTimer), arm(AnalyserTimer, 0)}, Observed: []model.Obs{model.Leader(2)}},
		{Name: "the coordinator fails: bully's leader-check starts an election", Self: 1, In: State{Election: follower(3)}, Timer: bully.LeaderCheck,
			Want:     State{Election: bully.State{Status: bully.WaitReply, Leader: none}},
			Sent:     checktest.SentTo(election(bully.Election), 2, 3),
			Timers:   []checktest.TimerEffect{cancel(bully.CoordinatorTimer), cancel(bully.LeaderCheck), arm(bully.AnswerTimer, 2, 3)},
			Observed: []model.Obs{model.Leader(none)}},
	})
	handlers.Do(t, []step{
		{Name: "a worker computes its task: the result to the analyser, done to the coordinator", Self: 1,
			In: State{Election: follower(3), Jobs: []Job{{Task: 1, Analyser: 0, From: 3}}}, Action: work.Compute,
			Want: State{Election: follower(3)}, Sent: []model.Sent[Msg]{send(0, Msg{K: Result, Task: 1}), send(3, done(1, 0))}},
	})
	handlers.Recover(t, []step{
		{Name: "a recovered node remembers nothing and starts an election", Self: 0,
			In:       State{Election: follower(3), Results: work.Of(0, 1), Jobs: []Job{{Task: 2, Analyser: 0, From: 3}}},
			Want:     State{Election: bully.State{Status: bully.WaitReply, Leader: none}},
			Sent:     checktest.SentTo(election(bully.Election), 1, 2, 3),
			Timers:   []checktest.TimerEffect{cancel(bully.CoordinatorTimer), cancel(bully.LeaderCheck), arm(bully.AnswerTimer, 1, 2, 3)},
			Observed: []model.Obs{model.Leader(none)}},
	})
}

// With dedup off the analyser counts every copy of a result.
func TestNoDedup(t *testing.T) {
	cfg := model.Config{N: 3, Params: map[string]int{DedupParam: 0}}
	ctx := model.NewCtx[Msg](cfg, 0)
	s := State{Election: bully.State{Leader: 2}, Results: work.Of(0)}
	require.Equal(t, s, Protocol{}.Receive(ctx, s, 1, Msg{K: Result, Task: 0}))
	require.Equal(t, []model.Obs{properties.CountedResult(0)}, checktest.Observed(ctx))
}
