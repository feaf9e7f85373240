package round_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// eager is no synchronizer: a node simulates its next pulse on every
// message it receives, without waiting for the others of the pulse.
type eager struct {
	alg round.Algorithm[bfs.State, bfs.Msg]
}

type eagerState struct {
	Pulse int
	Alg   bfs.State
}

func (p eager) Init(ctx *model.Ctx[bfs.Msg]) eagerState {
	alg, out := round.Simulate(ctx, p.alg, bfs.State{}, 0, nil)
	for _, o := range out {
		ctx.Send(o.To, o.Msg)
	}
	return eagerState{Alg: alg}
}

func (p eager) Receive(ctx *model.Ctx[bfs.Msg], s eagerState, from model.NodeID, m bfs.Msg) eagerState {
	if s.Pulse >= p.alg.Pulses(&ctx.Env) {
		return s
	}
	s.Pulse++
	var out []model.Sent[bfs.Msg]
	s.Alg, out = round.Simulate(ctx, p.alg, s.Alg, s.Pulse, []round.In[bfs.Msg]{{From: from, Msg: m}})
	for _, o := range out {
		ctx.Send(o.To, o.Msg)
	}
	return s
}

func (eager) Timeout(_ *model.Ctx[bfs.Msg], s eagerState, _ model.Timer) eagerState { return s }
func (eager) Recover(_ *model.Ctx[bfs.Msg], s eagerState) eagerState                { return s }

// pulse-order is a known counterexample to a node that does not wait: the
// checker must find it, and SynchBfsTree then builds no BFS tree either,
// nor do the nodes run their pulses to the end.
func TestPulseOrderCatchesAnEagerNode(t *testing.T) {
	cfg := model.Config{N: 4, Topology: "edges:0-1,1-2,2-3,3-0,0-2", Channels: model.Unordered}
	m, err := checker.Compile("eager", eager{bfs.Round{}}, cfg, round.PulseOrder, bfs.BFSTree, round.AllPulses(bfs.Round{}))
	require.NoError(t, err)
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	require.Equal(t, checker.Fail, r.Property("pulse-order").Verdict)
	require.Equal(t, checker.Fail, r.Property("bfs-tree").Verdict)
	require.Equal(t, checker.Fail, r.Property("all-pulses").Verdict)
	t.Log(r.Property("pulse-order").Detail, "; ", r.Property("bfs-tree").Detail)
}
