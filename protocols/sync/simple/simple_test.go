package simple_test

import (
	. "github.com/vigil-check/vigil/protocols/sync/simple"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

type (
	st   = State[bfs.State, bfs.Msg]
	msg  = Msg[bfs.Msg]
	pkt  = Packet[bfs.Msg]
	sent = model.Sent[msg]
	step = checktest.Step[st, msg]
)

var (
	handlers = checktest.Handlers[st, msg]{Protocol: Over[bfs.State, bfs.Msg](bfs.Round{}), Config: model.Config{N: 3, Topology: "line"}}
	orphan   = bfs.State{Parent: model.None}
	invite   = func(l int) []bfs.Msg { return []bfs.Msg{{Level: l}} }
)

// The notes' round i, on the line 0 - 1 - 2 with SynchBfsTree (3 pulses).
func TestInit(t *testing.T) {
	handlers.Init(t, []step{
		{Name: "a node that sends nothing in pulse 0 sends null messages", Self: 1,
			Want: st{Alg: orphan}, Sent: []sent{{To: 0, Msg: msg{Pulse: 0}}, {To: 2, Msg: msg{Pulse: 0}}}},
		{Name: "the root packs its invite for its one neighbour", Self: 0,
			Want: st{Alg: bfs.State{Parent: 0}}, Sent: []sent{{To: 1, Msg: msg{Pulse: 0, Payload: invite(1)}}},
			Observed: []model.Obs{bfs.Parent(0, 0), round.SendObs(1)}},
	})
}

func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "one neighbour's packet of pulse 0 in: wait for the other's", Self: 1, In: st{Alg: orphan}, From: 0, Msg: msg{Pulse: 0, Payload: invite(1)},
			Want: st{Alg: orphan, Buf: []pkt{{From: 0, Msg: msg{Pulse: 0, Payload: invite(1)}}}}},
		{Name: "one packet from each neighbour: simulate pulse 1, send one packet each", Self: 1,
			In: st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}}}, From: 0, Msg: msg{Pulse: 0, Payload: invite(1)},
			Want:     st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}},
			Sent:     []sent{{To: 0, Msg: msg{Pulse: 1}}, {To: 2, Msg: msg{Pulse: 1, Payload: invite(2)}}},
			Observed: []model.Obs{round.TakeObs(0), round.PulseObs(1), bfs.Parent(0, 1), round.SendObs(2)}},
		{Name: "a packet of the next pulse, from a neighbour ahead, waits its turn", Self: 1,
			In: st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}}}, From: 0, Msg: msg{Pulse: 1},
			Want: st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}, {From: 0, Msg: msg{Pulse: 1}}}}},
		{Name: "the packets of the next pulse are in already: simulate two pulses", Self: 1,
			In: st{Alg: orphan, Buf: []pkt{{From: 2, Msg: msg{Pulse: 0}}, {From: 0, Msg: msg{Pulse: 1}}, {From: 2, Msg: msg{Pulse: 1}}}}, From: 0,
			Msg:      msg{Pulse: 0},
			Want:     st{Pulse: 2, Alg: orphan},
			Sent:     []sent{{To: 0, Msg: msg{Pulse: 1}}, {To: 2, Msg: msg{Pulse: 1}}, {To: 0, Msg: msg{Pulse: 2}}, {To: 2, Msg: msg{Pulse: 2}}},
			Observed: []model.Obs{round.PulseObs(1), round.PulseObs(2)}},
		{Name: "the last pulse (N = 3) sends nothing", Self: 2, In: st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}}, From: 1, Msg: msg{Pulse: 2},
			Want: st{Pulse: 3, Alg: bfs.State{Parent: 1, Level: 2}}, Observed: []model.Obs{round.PulseObs(3)}},
	})
}
