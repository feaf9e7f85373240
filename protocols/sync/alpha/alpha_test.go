package alpha

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
	safe = round.Received[struct{}]
)

var (
	p        = Over[bfs.State, bfs.Msg](bfs.Round{})
	orphan   = bfs.State{Parent: model.None}
	pulseObs = func(i int) model.Obs { return model.Obs{Kind: round.ObsPulse, Arg: i} }
	sendObs  = func(to int) model.Obs { return model.Obs{Kind: round.ObsSend, Arg: to} }
	takeObs  = func(from int) model.Obs { return model.Obs{Kind: round.ObsTake, Arg: from} }
	invite   = func(pulse, level int) msg { return msg{Type: Message, Pulse: pulse, Payload: bfs.Msg{Level: level}} }
	safeMsg  = func(pulse int) msg { return msg{Type: Safe, Pulse: pulse} }
	ack      = msg{Type: Ack}
)

// The notes' three steps of a clock tick, on the line 0 - 1 - 2 with
// SynchBfsTree (3 pulses).
func TestInit(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line"}
	cases := []struct {
		name     string
		self     model.NodeID
		want     st
		sent     []sent
		observed []model.Obs
	}{
		{"nothing to send in pulse 0: safe at once, tell every neighbour", 1, st{Alg: orphan},
			[]sent{{To: 0, Msg: safeMsg(0)}, {To: 2, Msg: safeMsg(0)}}, nil},
		{"the root sends its invite and waits for its ack", 0, st{Alg: bfs.State{Parent: 0}, Unacked: 1},
			[]sent{{To: 1, Msg: invite(0, 1)}}, []model.Obs{bfs.Parent(0, 0), sendObs(1)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[msg](cfg, c.self)
		require.Equal(t, c.want, p.Init(ctx), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

func TestReceive(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line"}
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
		{"a message: ack it, keep it for the next pulse", 1, st{Alg: orphan}, 0, invite(0, 1),
			st{Alg: orphan, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}},
			[]sent{{To: 0, Msg: ack}}, nil},
		{"the last ack: safe, tell every neighbour", 0, st{Alg: bfs.State{Parent: 0}, Unacked: 1}, 1, ack,
			st{Alg: bfs.State{Parent: 0}}, []sent{{To: 1, Msg: safeMsg(0)}}, nil},
		{"safe, and the last neighbour safe: simulate the next pulse on the messages kept", 1,
			st{Alg: orphan, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}, Safe: []safe{{Pulse: 0, From: 2}}}, 0, safeMsg(0),
			st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}, Unacked: 1},
			[]sent{{To: 2, Msg: invite(1, 2)}},
			[]model.Obs{takeObs(0), pulseObs(1), bfs.Parent(0, 1), sendObs(2)}},
		{"every neighbour safe, but not this node: wait for the ack", 1,
			st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 2}}}, 0, safeMsg(0),
			st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 0}, {Pulse: 0, From: 2}}}, nil, nil},
		{"a neighbour one pulse ahead: its safe and message wait their pulse", 1,
			st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 2}}}, 2, safeMsg(1),
			st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 2}, {Pulse: 1, From: 2}}}, nil, nil},
		{"the last pulse (N = 3) sends nothing, not even safe", 2,
			st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}}, 1, safeMsg(2),
			st{Pulse: 3, Alg: bfs.State{Parent: 1, Level: 2}}, nil, []model.Obs{pulseObs(3)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[msg](cfg, c.self)
		got := p.Receive(ctx, c.in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}
