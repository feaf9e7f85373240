package beta

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

type (
	st   = State[bfs.State, bfs.Msg]
	msg  = Msg[bfs.Msg]
	sent = model.Sent[msg]
	recv = round.Received[bfs.Msg]
)

func TestSpanningTree(t *testing.T) {
	g, err := model.ParseTopology("grid:2x2", 4)
	require.NoError(t, err)
	require.Equal(t, Tree{Parent: []model.NodeID{model.None, 0, 0, 1}, Children: [][]model.NodeID{{1, 2}, {3}, nil, nil}}, SpanningTree(g, 0))
}

// The notes' β on the line 0 - 1 - 2 (tree: the line itself) with
// SynchBfsTree (3 pulses).
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line"}
	g, err := model.ParseTopology(cfg.Topology, cfg.N)
	require.NoError(t, err)
	p := Over[bfs.State, bfs.Msg](bfs.Round{}, SpanningTree(g, 0))
	orphan := bfs.State{Parent: model.None}
	pulseObs := func(i int) model.Obs { return model.Obs{Kind: round.ObsPulse, Arg: i} }
	sendObs := func(to int) model.Obs { return model.Obs{Kind: round.ObsSend, Arg: to} }
	takeObs := func(from int) model.Obs { return model.Obs{Kind: round.ObsTake, Arg: from} }
	invite := func(pulse, level int) msg { return msg{Type: Message, Pulse: pulse, Payload: bfs.Msg{Level: level}} }
	cases := []struct {
		name     string
		self     model.NodeID
		in       st
		from     model.NodeID
		m        msg
		want     st
		sent     []sent
		observed []model.Obs
	}{
		{"an algorithm message: ack it, keep it", 1, st{Alg: orphan}, 0, invite(0, 1),
			st{Alg: orphan, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}},
			[]sent{{To: 0, Msg: msg{Type: Ack}}}, nil},
		{"a leaf's last ack: its subtree is safe, safe(j) to the parent", 2, st{Pulse: 1, Alg: orphan, Unacked: 1}, 1, msg{Type: Ack},
			st{Pulse: 1, Alg: orphan, SentUp: true}, []sent{{To: 1, Msg: msg{Type: SafeUp, Pulse: 1}}}, nil},
		{"safe(j) without ack(j) from the child: wait", 1, st{Pulse: 1, Alg: orphan}, 2, msg{Type: SafeUp, Pulse: 1},
			st{Pulse: 1, Alg: orphan, Safe: 1}, nil, nil},
		{"ack(j) and safe(j) from every child, and safe: tell the parent", 1, st{Pulse: 1, Alg: orphan, Safe: 1}, 2, msg{Type: PulseAck, Pulse: 1},
			st{Pulse: 1, Alg: orphan, Safe: 1, Acks: 1, SentUp: true}, []sent{{To: 0, Msg: msg{Type: SafeUp, Pulse: 1}}}, nil},
		{"the root, every child safe: m(j+1) down the tree, simulate pulse j+1", 0, st{Alg: bfs.State{Parent: 0}}, 1, msg{Type: SafeUp, Pulse: 0},
			st{Pulse: 1, Alg: bfs.State{Parent: 0}},
			[]sent{{To: 1, Msg: msg{Type: Pulse, Pulse: 1}}}, []model.Obs{pulseObs(1)}},
		{"m(j) from the parent: ack(j), pass it down, simulate pulse j on the messages kept", 1,
			st{Alg: orphan, SentUp: true, Safe: 1, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}}, 0, msg{Type: Pulse, Pulse: 1},
			st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}, Unacked: 1},
			[]sent{{To: 0, Msg: msg{Type: PulseAck, Pulse: 1}}, {To: 2, Msg: msg{Type: Pulse, Pulse: 1}}, {To: 2, Msg: invite(1, 2)}},
			[]model.Obs{takeObs(0), pulseObs(1), bfs.Parent(0, 1), sendObs(2)}},
		{"the last pulse (N = 3): m and ack, nothing else", 2, st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}, SentUp: true}, 1, msg{Type: Pulse, Pulse: 3},
			st{Pulse: 3, Alg: bfs.State{Parent: 1, Level: 2}}, []sent{{To: 1, Msg: msg{Type: PulseAck, Pulse: 3}}}, []model.Obs{pulseObs(3)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[msg](cfg, c.self)
		got := p.Receive(ctx, c.in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}
