package static

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/work"
)

// The notes' static sharing, one handler call each, on four nodes with
// five tasks: node 0 divides and analyses, nodes 1..3 work.
func TestHandlers(t *testing.T) {
	cfg := model.Config{N: 4, Params: map[string]int{properties.TasksParam: 5}}
	set := func(ts ...int) work.Set {
		var s work.Set
		for _, t := range ts {
			s |= work.Of(t)
		}
		return s
	}
	share := func(to model.NodeID, ts ...int) model.Sent[Msg] {
		return model.Sent[Msg]{To: to, Msg: Msg{K: Share, Tasks: set(ts...)}}
	}
	p := Protocol{}
	cases := []struct {
		name     string
		self     model.NodeID
		call     func(ctx *model.Ctx[Msg]) State
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"divide the tasks by the number of processors and submit each its share", 0,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) },
			State{Analysing: true}, []model.Sent[Msg]{share(1, 0, 3), share(2, 1, 4), share(3, 2)}, nil},
		{"a worker starts with nothing", 2,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) }, State{}, nil, nil},
		{"a worker is given its share", 1,
			func(ctx *model.Ctx[Msg]) State { return p.Receive(ctx, State{}, 0, Msg{K: Share, Tasks: set(0, 3)}) },
			State{Todo: set(0, 3)}, nil, nil},
		{"a worker computes one task and returns the result to the single place to analyse", 1,
			func(ctx *model.Ctx[Msg]) State { return p.Do(ctx, State{Todo: set(0, 3)}, work.Compute) },
			State{Todo: set(3)}, []model.Sent[Msg]{{To: 0, Msg: Msg{K: Result, Task: 0}}}, nil},
		{"the analyser counts a result", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Analysing: true, Results: set(1)}, 2, Msg{K: Result, Task: 4})
			},
			State{Analysing: true, Results: set(1, 4)}, nil, []model.Obs{properties.CountedResult(4)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, c.call(ctx), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Nil(t, ctx.Timers(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
	require.Equal(t, []model.Action{work.Compute}, p.Actions(nil, State{Todo: set(3)}))
	require.Nil(t, p.Actions(nil, State{}))
}

// With the default number of tasks, N-1, each worker gets one.
func TestDefaultShares(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3}, 0)
	Protocol{}.Init(ctx)
	require.Equal(t, []model.Sent[Msg]{{To: 1, Msg: Msg{K: Share, Tasks: work.Of(0)}}, {To: 2, Msg: Msg{K: Share, Tasks: work.Of(1)}}}, ctx.Sent())
}
