// Package alpha is Awerbuch's synchronizer α (B. Awerbuch, Complexity of
// Network Synchronization, J. ACM 32(4), 1985) as the lecture notes
// Distributed Coordination: Leader Election (after H. Yu's CS4231, NUS,
// V. K. Garg's Elements of Distributed Computing and S. Ghosh's Distributed
// Systems) present it, section Synchronizers. Their simulation of each
// clock tick:
//
//  1. "Send and receive messages for the current tick."
//  2. "Send ack for each incoming message, and receive ack for each
//     outgoing message."
//  3. "Send a safe message to each neighbor after sending and receiving all
//     ack messages."
//
// and "the synchronizer generates the next pulse if all the neighbors are
// safe". A node is safe for pulse i once every message it sent in pulse i
// is acknowledged, so received; once it is safe and has every neighbour's
// safe(i), every message sent to it in pulse i has arrived, and it simulates
// pulse i+1 on them (see package round; pulse 0 is the algorithm's Start, at
// Init). The last pulse sends nothing, as no pulse would receive it.
//
// Each message, ack aside, carries its pulse: a neighbour may be one pulse
// ahead (it has this node's safe, but this node lacks another's), so its
// messages and safe of the next pulse wait in a buffer. Acks need no pulse:
// a node waits for all of its pulse's acks before it moves on. A pulse costs
// the notes' M(α) = O(E): 2E safe messages, plus an ack per algorithm
// message. Its time is the notes' T(α) = 3 asynchronous rounds a pulse that
// sends (message, ack, safe), one for a pulse that sends nothing (safe
// alone): checker.Options.Rounds measures it. Synchronizers assume no
// failures: nodes are crash-stop.
package alpha

import (
	"fmt"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// Type is a message's type.
type Type uint8

const (
	Message Type = iota // an algorithm message, Payload, of pulse Pulse
	Ack                 // "ack for each incoming message"
	Safe                // the sender is safe for pulse Pulse
)

// Msg is a message of the synchronizer.
type Msg[M any] struct {
	Type    Type
	Pulse   int
	Payload M // Message only
}

func (m Msg[M]) Kind() string { return [...]string{"message", "ack", "safe"}[m.Type] }

func (m Msg[M]) String() string {
	switch m.Type {
	case Message:
		return fmt.Sprintf("message(%d) %v", m.Pulse, m.Payload)
	case Ack:
		return "ack"
	}
	return fmt.Sprintf("safe(%d)", m.Pulse)
}

// State is a node's synchronizer state around the algorithm's.
type State[S, M any] struct {
	Pulse   int // the last pulse simulated: 0 after the start
	Alg     S
	Unacked int // messages of this pulse not yet acknowledged: safe at 0
	// In holds the algorithm messages received for pulses not yet
	// simulated, by pulse and sender, a sender's in the order they came.
	In []round.Received[M]
	// Safe holds the neighbours' safe messages received, by pulse and
	// sender (Msg unused).
	Safe []round.Received[struct{}]
}

func (s State[S, M]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pulse %d unacked %d", s.Pulse, s.Unacked)
	for _, r := range s.In {
		fmt.Fprintf(&b, " %v:%v(%d)", r.From, r.Msg, r.Pulse)
	}
	for _, r := range s.Safe {
		fmt.Fprintf(&b, " %v:safe(%d)", r.From, r.Pulse)
	}
	fmt.Fprintf(&b, " | %+v", s.Alg)
	return b.String()
}

// Protocol is alg run over synchronizer α: a model.Protocol.
type Protocol[S, M any] struct{ Alg round.Algorithm[S, M] }

// Over returns the protocol that runs alg over synchronizer α.
func Over[S, M any](alg round.Algorithm[S, M]) Protocol[S, M] { return Protocol[S, M]{alg} }

// Init simulates pulse 0, the algorithm's start, and sends its messages.
func (p Protocol[S, M]) Init(ctx *model.Ctx[Msg[M]]) State[S, M] {
	return p.simulate(ctx, State[S, M]{}, nil)
}

// simulate runs pulse s.Pulse on in, sends its messages ("send messages
// for the current tick"), and is safe at once if it sent none; then it
// goes on to the next pulse if it may.
func (p Protocol[S, M]) simulate(ctx *model.Ctx[Msg[M]], s State[S, M], in []round.In[M]) State[S, M] {
	var out []model.Sent[M]
	s.Alg, out = round.Simulate(ctx, p.Alg, s.Alg, s.Pulse, in)
	if s.Pulse >= p.Alg.Pulses(&ctx.Env) {
		return s // the last pulse: done
	}
	for _, o := range out {
		ctx.Send(o.To, Msg[M]{Type: Message, Pulse: s.Pulse, Payload: o.Msg})
	}
	s.Unacked = len(out)
	if s.Unacked == 0 {
		ctx.SendAll(ctx.Neighbors(), Msg[M]{Type: Safe, Pulse: s.Pulse})
	}
	return p.next(ctx, s)
}

// next begins the next pulse once this node is safe and "all the neighbors
// are safe".
func (p Protocol[S, M]) next(ctx *model.Ctx[Msg[M]], s State[S, M]) State[S, M] {
	if s.Pulse >= p.Alg.Pulses(&ctx.Env) || s.Unacked > 0 {
		return s
	}
	n := 0
	for n < len(s.Safe) && s.Safe[n].Pulse == s.Pulse {
		n++
	}
	if n < len(ctx.Neighbors()) {
		return s
	}
	s.Safe = rest(s.Safe, n)
	var in []round.In[M]
	in, s.In = round.Take(s.In, s.Pulse)
	s.Pulse++
	return p.simulate(ctx, s, in)
}

func rest[T any](xs []T, n int) []T {
	if n == len(xs) {
		return nil
	}
	return xs[n:len(xs):len(xs)]
}

// Receive: a message is acknowledged at once and kept for the next pulse;
// the last ack makes the node safe, which it tells every neighbour; a
// neighbour's safe is noted. Then the next pulse begins if it may.
func (p Protocol[S, M]) Receive(ctx *model.Ctx[Msg[M]], s State[S, M], from model.NodeID, m Msg[M]) State[S, M] {
	switch m.Type {
	case Message:
		ctx.Send(from, Msg[M]{Type: Ack})
		s.In = round.Keep(s.In, round.Received[M]{Pulse: m.Pulse, From: from, Msg: m.Payload})
		return s
	case Ack:
		s.Unacked--
		if s.Unacked == 0 {
			ctx.SendAll(ctx.Neighbors(), Msg[M]{Type: Safe, Pulse: s.Pulse})
		}
	case Safe:
		s.Safe = round.Keep(s.Safe, round.Received[struct{}]{Pulse: m.Pulse, From: from})
	}
	return p.next(ctx, s)
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol[S, M]) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"message", "ack", "safe"}}
}
