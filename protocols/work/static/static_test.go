package static_test

import (
	. "github.com/vigil-check/vigil/protocols/work/static"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/work"
)

type step = checktest.Step[State, Msg]

// The notes' static sharing, one handler call each, on four nodes with
// five tasks: node 0 divides and analyses, nodes 1..3 work.
func TestHandlers(t *testing.T) {
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 4, Params: map[string]int{properties.TasksParam: 5}}}
	share := func(to model.NodeID, ts ...int) model.Sent[Msg] {
		return model.Sent[Msg]{To: to, Msg: Msg{K: Share, Tasks: work.Of(ts...)}}
	}
	handlers.Init(t, []step{
		{Name: "divide the tasks by the number of processors and submit each its share", Self: 0,
			Want: State{Analysing: true}, Sent: []model.Sent[Msg]{share(1, 0, 3), share(2, 1, 4), share(3, 2)}},
		{Name: "a worker starts with nothing", Self: 2,
			Want: State{}},
	})
	handlers.Receive(t, []step{
		{Name: "a worker is given its share", Self: 1, In: State{}, From: 0, Msg: Msg{K: Share, Tasks: work.Of(0, 3)},
			Want: State{Todo: work.Of(0, 3)}},
		{Name: "the analyser counts a result", Self: 0, In: State{Analysing: true, Results: work.Of(1)}, From: 2, Msg: Msg{K: Result, Task: 4},
			Want: State{Analysing: true, Results: work.Of(1, 4)}, Observed: []model.Obs{properties.CountedResult(4)}},
	})
	handlers.Do(t, []step{
		{Name: "a worker computes one task and returns the result to the single place to analyse", Self: 1, In: State{Todo: work.Of(0, 3)},
			Action: work.Compute,
			Want:   State{Todo: work.Of(3)}, Sent: checktest.SentTo(Msg{K: Result, Task: 0}, 0)},
	})
	handlers.Actions(t, []step{
		{Name: "a task to compute", Self: 1, In: State{Todo: work.Of(3)}, Enabled: []model.Action{work.Compute}},
		{Name: "nothing to compute", Self: 1, In: State{}},
	})
}

// With the default number of tasks, N-1, each worker gets one.
func TestDefaultShares(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3}, 0)
	Protocol{}.Init(ctx)
	require.Equal(t, []model.Sent[Msg]{{To: 1, Msg: Msg{K: Share, Tasks: work.Of(0)}}, {To: 2, Msg: Msg{K: Share, Tasks: work.Of(1)}}}, checktest.Sent(ctx))
}
