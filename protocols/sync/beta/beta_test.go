package beta_test

import (
	. "github.com/vigil-check/vigil/protocols/sync/beta"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

type (
	st   = State[bfs.State, bfs.Msg]
	msg  = Msg[bfs.Msg]
	sent = model.Sent[msg]
	recv = round.Received[bfs.Msg]
	step = checktest.Step[st, msg]
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
	invite := func(pulse, level int) msg { return msg{Type: Message, Pulse: pulse, Payload: bfs.Msg{Level: level}} }
	handlers := checktest.Handlers[st, msg]{Protocol: p, Config: cfg}
	handlers.Receive(t, []step{
		{Name: "an algorithm message: ack it, keep it", Self: 1, In: st{Alg: orphan}, From: 0, Msg: invite(0, 1),
			Want: st{Alg: orphan, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}}, Sent: []sent{{To: 0, Msg: msg{Type: Ack}}}},
		{Name: "a leaf's last ack: its subtree is safe, safe(j) to the parent", Self: 2, In: st{Pulse: 1, Alg: orphan, Unacked: 1}, From: 1,
			Msg:  msg{Type: Ack},
			Want: st{Pulse: 1, Alg: orphan, SentUp: true}, Sent: []sent{{To: 1, Msg: msg{Type: SafeUp, Pulse: 1}}}},
		{Name: "safe(j) without ack(j) from the child: wait", Self: 1, In: st{Pulse: 1, Alg: orphan}, From: 2, Msg: msg{Type: SafeUp, Pulse: 1},
			Want: st{Pulse: 1, Alg: orphan, Safe: 1}},
		{Name: "ack(j) and safe(j) from every child, and safe: tell the parent", Self: 1, In: st{Pulse: 1, Alg: orphan, Safe: 1}, From: 2,
			Msg:  msg{Type: PulseAck, Pulse: 1},
			Want: st{Pulse: 1, Alg: orphan, Safe: 1, Acks: 1, SentUp: true}, Sent: []sent{{To: 0, Msg: msg{Type: SafeUp, Pulse: 1}}}},
		{Name: "the root, every child safe: m(j+1) down the tree, simulate pulse j+1", Self: 0, In: st{Alg: bfs.State{Parent: 0}}, From: 1,
			Msg:  msg{Type: SafeUp, Pulse: 0},
			Want: st{Pulse: 1, Alg: bfs.State{Parent: 0}}, Sent: []sent{{To: 1, Msg: msg{Type: Pulse, Pulse: 1}}}, Observed: []model.Obs{round.PulseObs(1)}},
		{Name: "m(j) from the parent: ack(j), pass it down, simulate pulse j on the messages kept", Self: 1,
			In: st{Alg: orphan, SentUp: true, Safe: 1, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}}, From: 0, Msg: msg{Type: Pulse, Pulse: 1},
			Want:     st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}, Unacked: 1},
			Sent:     []sent{{To: 0, Msg: msg{Type: PulseAck, Pulse: 1}}, {To: 2, Msg: msg{Type: Pulse, Pulse: 1}}, {To: 2, Msg: invite(1, 2)}},
			Observed: []model.Obs{round.TakeObs(0), round.PulseObs(1), bfs.Parent(0, 1), round.SendObs(2)}},
		{Name: "the last pulse (N = 3): m and ack, nothing else", Self: 2, In: st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}, SentUp: true}, From: 1,
			Msg:  msg{Type: Pulse, Pulse: 3},
			Want: st{Pulse: 3, Alg: bfs.State{Parent: 1, Level: 2}}, Sent: []sent{{To: 1, Msg: msg{Type: PulseAck, Pulse: 3}}},
			Observed: []model.Obs{round.PulseObs(3)}},
	})
}
