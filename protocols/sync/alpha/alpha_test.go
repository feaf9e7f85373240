package alpha_test

import (
	. "github.com/vigil-check/vigil/protocols/sync/alpha"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

type (
	st   = State[bfs.State, bfs.Msg]
	msg  = Msg[bfs.Msg]
	sent = model.Sent[msg]
	step = checktest.Step[st, msg]
	recv = round.Received[bfs.Msg]
	safe = round.Received[struct{}]
)

var (
	handlers = checktest.Handlers[st, msg]{Protocol: Over[bfs.State, bfs.Msg](bfs.Round{}), Config: model.Config{N: 3, Topology: "line"}}
	orphan   = bfs.State{Parent: model.None}
	invite   = func(pulse, level int) msg { return msg{Type: Message, Pulse: pulse, Payload: bfs.Msg{Level: level}} }
	safeMsg  = func(pulse int) msg { return msg{Type: Safe, Pulse: pulse} }
	ack      = msg{Type: Ack}
)

// The notes' three steps of a clock tick, on the line 0 - 1 - 2 with
// SynchBfsTree (3 pulses).
func TestInit(t *testing.T) {
	handlers.Init(t, []step{
		{Name: "nothing to send in pulse 0: safe at once, tell every neighbour", Self: 1,
			Want: st{Alg: orphan}, Sent: []sent{{To: 0, Msg: safeMsg(0)}, {To: 2, Msg: safeMsg(0)}}},
		{Name: "the root sends its invite and waits for its ack", Self: 0,
			Want: st{Alg: bfs.State{Parent: 0}, Unacked: 1}, Sent: []sent{{To: 1, Msg: invite(0, 1)}}, Observed: []model.Obs{bfs.Parent(0, 0), round.SendObs(1)}},
	})
}

func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		{Name: "a message: ack it, keep it for the next pulse", Self: 1, In: st{Alg: orphan}, From: 0, Msg: invite(0, 1),
			Want: st{Alg: orphan, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}}, Sent: []sent{{To: 0, Msg: ack}}},
		{Name: "the last ack: safe, tell every neighbour", Self: 0, In: st{Alg: bfs.State{Parent: 0}, Unacked: 1}, From: 1, Msg: ack,
			Want: st{Alg: bfs.State{Parent: 0}}, Sent: []sent{{To: 1, Msg: safeMsg(0)}}},
		{Name: "safe, and the last neighbour safe: simulate the next pulse on the messages kept", Self: 1,
			In: st{Alg: orphan, In: []recv{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}, Safe: []safe{{Pulse: 0, From: 2}}}, From: 0, Msg: safeMsg(0),
			Want: st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}, Unacked: 1}, Sent: []sent{{To: 2, Msg: invite(1, 2)}},
			Observed: []model.Obs{round.TakeObs(0), round.PulseObs(1), bfs.Parent(0, 1), round.SendObs(2)}},
		{Name: "every neighbour safe, but not this node: wait for the ack", Self: 1, In: st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 2}}},
			From: 0, Msg: safeMsg(0),
			Want: st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 0}, {Pulse: 0, From: 2}}}},
		{Name: "a neighbour one pulse ahead: its safe and message wait their pulse", Self: 1,
			In: st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 2}}}, From: 2, Msg: safeMsg(1),
			Want: st{Alg: orphan, Unacked: 1, Safe: []safe{{Pulse: 0, From: 2}, {Pulse: 1, From: 2}}}},
		{Name: "the last pulse (N = 3) sends nothing, not even safe", Self: 2, In: st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}}, From: 1,
			Msg:  safeMsg(2),
			Want: st{Pulse: 3, Alg: bfs.State{Parent: 1, Level: 2}}, Observed: []model.Obs{round.PulseObs(3)}},
	})
}
