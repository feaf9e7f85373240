package simple

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
	pkt  = Packet[bfs.Msg]
	sent = model.Sent[msg]
)

var (
	p        = Over[bfs.State, bfs.Msg](bfs.Round{})
	orphan   = bfs.State{Parent: model.None}
	invite   = func(l int) []bfs.Msg { return []bfs.Msg{{Level: l}} }
	pulseObs = func(i int) model.Obs { return model.Obs{Kind: round.ObsPulse, Arg: i} }
	sendObs  = func(to int) model.Obs { return model.Obs{Kind: round.ObsSend, Arg: to} }
	takeObs  = func(from int) model.Obs { return model.Obs{Kind: round.ObsTake, Arg: from} }
)

// The notes' round i, on the line 0 - 1 - 2 with SynchBfsTree (3 pulses).
func TestInit(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line"}
	cases := []struct {
		name     string
		self     model.NodeID
		want     st
		sent     []sent
		observed []model.Obs
	}{
		{"a node that sends nothing in pulse 0 sends null messages", 1, st{Alg: orphan},
			[]sent{{To: 0, Msg: msg{Pulse: 0}}, {To: 2, Msg: msg{Pulse: 0}}}, nil},
		{"the root packs its invite for its one neighbour", 0, st{Alg: bfs.State{Parent: 0}},
			[]sent{{To: 1, Msg: msg{Pulse: 0, Payload: invite(1)}}}, []model.Obs{bfs.Parent(0, 0), sendObs(1)}},
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
		{"one neighbour's packet of pulse 0 in: wait for the other's", 1, st{Alg: orphan}, 0, msg{Pulse: 0, Payload: invite(1)},
			st{Alg: orphan, Buf: []pkt{{From: 0, Msg: msg{Pulse: 0, Payload: invite(1)}}}}, nil, nil},
		{"one packet from each neighbour: simulate pulse 1, send one packet each", 1,
			st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}}}, 0, msg{Pulse: 0, Payload: invite(1)},
			st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}},
			[]sent{{To: 0, Msg: msg{Pulse: 1}}, {To: 2, Msg: msg{Pulse: 1, Payload: invite(2)}}},
			[]model.Obs{takeObs(0), pulseObs(1), bfs.Parent(0, 1), sendObs(2)}},
		{"a packet of the next pulse, from a neighbour ahead, waits its turn", 1,
			st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}}}, 0, msg{Pulse: 1},
			st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}, {From: 0, Msg: msg{Pulse: 1}}}}, nil, nil},
		{"the packets of the next pulse are in already: simulate two pulses", 1,
			st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}, {From: 0, Msg: msg{Pulse: 1}}, {From: 2, Msg: msg{Pulse: 1}}}}, 0, msg{Pulse: 0},
			st{Pulse: 2, Alg: orphan},
			[]sent{{To: 0, Msg: msg{Pulse: 1}}, {To: 2, Msg: msg{Pulse: 1}}, {To: 0, Msg: msg{Pulse: 2}}, {To: 2, Msg: msg{Pulse: 2}}},
			[]model.Obs{pulseObs(1), pulseObs(2)}},
		{"the last pulse (N = 3) sends nothing", 2, st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}}, 1, msg{Pulse: 2},
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
