// Package simple is the simple synchronizer of the lecture notes
// Distributed Coordination: Leader Election (after H. Yu's CS4231, NUS,
// V. K. Garg's Elements of Distributed Computing and S. Ghosh's Distributed
// Systems), section Synchronizers, "A simple synchronizer": "every process
// sends exactly one message to all neighbors in each pulse" and waits "for
// one message from each neighbor before executing the next pulse"; "if the
// synchronous algorithm sends multiple messages in one round, pack all
// messages together", and "if [it] does not send a message, the
// synchronizer sends a null message". Its pseudo-code:
//
//	round i:
//	  pulse := pulse + 1;
//	  wait for exactly one message with (pulse = i) from each neighbor;
//	  simulate the round i of the synchronous algorithm;
//	  send messages to all neighbors with pulse;
//
// Here a message carries the pulse it was sent in (see package round):
// pulse 0 is the algorithm's Start, at Init, which sends the first packets;
// pulse i waits for one packet of pulse i-1 from each neighbour, simulates
// the algorithm's pulse i on their contents and sends one packet of pulse i
// to every neighbour. The last pulse sends nothing, since no pulse would
// receive it. A run of P pulses thus costs the notes' M_pulse = 2E messages
// for each of pulses 0..P-1 (one each way on every link): 2E·P, whatever
// the algorithm sends, in one asynchronous round a pulse.
//
// A neighbour is at most one pulse ahead (it needs this node's packet of
// the pulse before), so a node buffers packets of two pulses at most.
// Synchronizers assume no failures: nodes are crash-stop.
package simple

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// Msg is the one packet a node sends a neighbour in a pulse: the
// algorithm's messages to it in that pulse, none in a null message.
type Msg[M any] struct {
	Pulse   int
	Payload []M
}

func (m Msg[M]) Kind() string {
	if len(m.Payload) == 0 {
		return "null"
	}
	return "packed"
}

func (m Msg[M]) String() string {
	if len(m.Payload) == 0 {
		return fmt.Sprintf("null(%d)", m.Pulse)
	}
	return fmt.Sprintf("packed(%d)%v", m.Pulse, m.Payload)
}

// Packet is a packet received and not yet simulated.
type Packet[M any] struct {
	From model.NodeID
	Msg  Msg[M]
}

// State is a node's synchronizer state around the algorithm's.
type State[S, M any] struct {
	Pulse int // the last pulse simulated: 0 after the start
	Alg   S
	// Buf holds the packets received for pulses not yet simulated, by
	// pulse and sender.
	Buf []Packet[M]
}

func (s State[S, M]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pulse %d", s.Pulse)
	for _, p := range s.Buf {
		fmt.Fprintf(&b, " %v:%v", p.From, p.Msg)
	}
	fmt.Fprintf(&b, " | %+v", s.Alg)
	return b.String()
}

// Protocol is alg run over the simple synchronizer: a model.Protocol.
type Protocol[S, M any] struct{ Alg round.Algorithm[S, M] }

// Over returns the protocol that runs alg over the simple synchronizer.
func Over[S, M any](alg round.Algorithm[S, M]) Protocol[S, M] { return Protocol[S, M]{alg} }

// Init simulates pulse 0 (the algorithm's start) and sends its packets,
// then any pulse whose packets are all in (none: on a node without
// neighbours every pulse runs at once).
func (p Protocol[S, M]) Init(ctx *model.Ctx[Msg[M]]) State[S, M] {
	return p.advance(ctx, p.simulate(ctx, State[S, M]{}, nil))
}

// Receive buffers a neighbour's packet, then simulates every pulse for
// which one packet from each neighbour is in.
func (p Protocol[S, M]) Receive(ctx *model.Ctx[Msg[M]], s State[S, M], from model.NodeID, m Msg[M]) State[S, M] {
	at, _ := slices.BinarySearchFunc(s.Buf, Packet[M]{From: from, Msg: m}, byPulseSender)
	s.Buf = slices.Insert(slices.Clip(s.Buf), at, Packet[M]{From: from, Msg: m}) // clipped full: Insert copies
	return p.advance(ctx, s)
}

func byPulseSender[M any](a, b Packet[M]) int {
	if a.Msg.Pulse != b.Msg.Pulse {
		return a.Msg.Pulse - b.Msg.Pulse
	}
	return int(a.From) - int(b.From)
}

// advance runs round i = s.Pulse+1 while "exactly one message with pulse
// i-1 from each neighbor" is in: simulate it, then send one packet of
// pulse i to every neighbour.
func (p Protocol[S, M]) advance(ctx *model.Ctx[Msg[M]], s State[S, M]) State[S, M] {
	nbrs := ctx.Neighbors()
	for s.Pulse < p.Alg.Pulses(&ctx.Env) {
		n := 0
		for n < len(s.Buf) && s.Buf[n].Msg.Pulse == s.Pulse {
			n++
		}
		if n < len(nbrs) {
			return s // wait for exactly one packet from each neighbour
		}
		var in []round.In[M]
		for _, pk := range s.Buf[:n] {
			for _, m := range pk.Msg.Payload {
				in = append(in, round.In[M]{From: pk.From, Msg: m})
			}
		}
		s.Buf = s.Buf[n:len(s.Buf):len(s.Buf)]
		if len(s.Buf) == 0 {
			s.Buf = nil
		}
		s.Pulse++
		s = p.simulate(ctx, s, in)
	}
	return s
}

// simulate runs pulse s.Pulse on in and, unless it is the last, sends its
// packets: "send messages to all neighbors with pulse".
func (p Protocol[S, M]) simulate(ctx *model.Ctx[Msg[M]], s State[S, M], in []round.In[M]) State[S, M] {
	var out []model.Sent[M]
	s.Alg, out = round.Simulate(ctx, p.Alg, s.Alg, s.Pulse, in)
	if s.Pulse < p.Alg.Pulses(&ctx.Env) {
		send(ctx, s.Pulse, out)
	}
	return s
}

// send packs the algorithm's messages of pulse i by neighbour and sends
// every neighbour its packet, null if empty.
func send[M any](ctx *model.Ctx[Msg[M]], i int, out []model.Sent[M]) {
	for _, j := range ctx.Neighbors() {
		m := Msg[M]{Pulse: i}
		for _, o := range out {
			if o.To == j {
				m.Payload = append(m.Payload, o.Msg)
			}
		}
		ctx.Send(j, m)
	}
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol[S, M]) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"null", "packed"}}
}
