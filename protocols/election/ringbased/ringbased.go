// Package ringbased is the ring-based election of V. Vlassov and
// J. Montelius, Coordination (lecture notes, ID2201 Distributed Systems,
// KTH), after G. Coulouris, J. Dollimore, T. Kindberg and G. Blair,
// Distributed Systems: Concepts and Design, 5th ed., ch. 15 (Vlassov and
// Montelius below). In their "A ring-based approach" a node starts an
// election, the call is updated and the leader is identified: the algorithm
// of Chang and Roberts with participant marking.
//
// Every node starts as a non-participant. An initiator marks itself a
// participant and sends election with its rank to its successor. A node
// that receives election compares ranks: a higher rank is forwarded; a lower
// one is replaced by its own rank and forwarded if the node is not yet a
// participant, and dropped if it is; either way the node becomes a
// participant. A node that receives its own rank is the coordinator: it
// becomes a non-participant again and sends elected with its id round the
// ring; each node records the coordinator, becomes a non-participant and
// forwards elected, until it reaches the coordinator again.
//
// The participant mark is what extinguishes concurrent elections early
// (Vlassov and Montelius). With a single initiator the worst case is 3N-1 messages: N-1
// election messages reach the highest node, its own rank goes round (N),
// then elected goes round (N) — when the highest node is the initiator's
// predecessor. Over every interleaving with FIFO links (N = 3..6: 8, 11,
// 14 and 17 messages, N of them elected):
//
//	one initiator, its predecessor highest     3N-1
//	one initiator, itself highest              2N
//	every node initiating, ranks rising        3N-1 (2N-1 election)
//	every node initiating, ranks falling       N(N+1)/2 election + N elected
//
// The algorithm assumes no failures ("there are no failures"):
// a crashed node swallows the messages and the election never ends.
//
// With unordered channels it stays safe, but the bound does not hold: a
// stale election message can reach the coordinator after it has become a
// non-participant again, and it starts another round (N = 5, every node
// initiating: up to 60 messages, 25 of them elected).
package ringbased

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
)

// State is one node's state.
type State struct {
	Participant bool
	Elected     model.NodeID // the coordinator this node knows, or None
}

func (s State) String() string {
	p := "non-participant"
	if s.Participant {
		p = "participant"
	}
	return fmt.Sprintf("%s elected=%v", p, s.Elected)
}

// Msg is election⟨rank⟩ or elected⟨node⟩.
type Msg struct {
	Elected bool
	Rank    int          // election: the best rank so far
	Node    model.NodeID // election: whose rank; elected: the coordinator
}

func (m Msg) Kind() string {
	if m.Elected {
		return "elected"
	}
	return "election"
}

func (m Msg) String() string {
	if m.Elected {
		return fmt.Sprintf("elected⟨%v⟩", m.Node)
	}
	return fmt.Sprintf("election⟨rank %d of %v⟩", m.Rank, m.Node)
}

// Protocol implements model.Protocol.
type Protocol struct{}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if !ctx.Initiator() {
		return State{Elected: model.None}
	}
	ctx.Send(ctx.Next(), Msg{Rank: ctx.MyRank(), Node: ctx.Self()})
	return State{Participant: true, Elected: model.None}
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	if m.Elected {
		// record the coordinator, stop participating, pass it on
		s.Participant, s.Elected = false, m.Node
		if m.Node != ctx.Self() {
			ctx.Observe(model.Leader(m.Node))
			ctx.Send(ctx.Next(), m)
		}
		return s
	}
	switch {
	case m.Rank > ctx.MyRank():
		ctx.Send(ctx.Next(), m) // a better candidate: forward
	case m.Rank < ctx.MyRank() && !s.Participant:
		ctx.Send(ctx.Next(), Msg{Rank: ctx.MyRank(), Node: ctx.Self()}) // substitute own
	case m.Rank == ctx.MyRank():
		// own rank came back: coordinator
		ctx.Observe(model.Leader(ctx.Self()))
		ctx.Send(ctx.Next(), Msg{Elected: true, Node: ctx.Self()})
		return State{Participant: false, Elected: ctx.Self()}
	default:
		// lower rank at a participant: a duplicate election, extinguished
	}
	s.Participant = true
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"election", "elected"}}
}
