// Package sequencer is totally ordered multicast through a sequencer, after
// V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below):
// "Sequencer": multicast the message to all nodes, place in a hold-back
// queue, multicast a sequence number to all nodes, deliver in total order.
// It takes the classic form:
//
//	Member, on initialization: r_g := 0
//	TO-multicast(g, m) at p_i: B-multicast(g ∪ {sequencer(g)}, <m, i>)
//	On B-deliver(<m, i>): place <m, i> in the hold-back queue
//	On B-deliver(<"order", i, S>): wait until <m, i> is in the hold-back
//	    queue and S = r_g; TO-deliver m; r_g := S + 1
//	Sequencer, on initialization: s_g := 0
//	On B-deliver(<m, i>): B-multicast(g, <"order", i, s_g>); s_g := s_g + 1
//
// Node 0 is the sequencer and a member too. Every member delivers in the
// order of the sequence numbers, so any two deliver common messages in the
// same order. The sequencer "is a critical point of failure" (Vlassov and
// Montelius):
// when it crashes, messages it has not ordered are never delivered, and
// an order it sent to some members only leaves the others behind.
//
// With the run parameter "reads" (see package multicast) the nodes
// replicate a register whose writes, and ordered reads, go through the
// sequencer.
//
// Messages per multicast: 2N, the message to every node and the order
// from the sequencer to every node. Nodes are crash-stop: a crashed node
// stays down.
package sequencer

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// The sequencer is node 0.
const Sequencer model.NodeID = 0

// Msg is a data message <m, i> (Order false) or an order <"order", i, S>.
type Msg struct {
	Order bool
	Value multicast.Value
	S     int
}

func (m Msg) Kind() string {
	if m.Order {
		return "order"
	}
	return "msg"
}

func (m Msg) String() string {
	if m.Order {
		return fmt.Sprintf("order %v S=%d", m.Value, m.S)
	}
	return "msg " + m.Value.String()
}

// Order is an order received and not yet used: message Value is number S.
type Order struct {
	S     int
	Value multicast.Value
}

// State is a node's state: r_g, the hold-back queue (sorted), the orders
// received ahead of their turn or of their message (sorted by S), and at
// the sequencer s_g.
type State struct {
	multicast.Process[Msg]
	Next     int // r_g
	HoldBack []multicast.Value
	Orders   []Order
	Seq      int // s_g, at the sequencer
}

func (s State) String() string {
	out := fmt.Sprintf("%v r=%d", s.Process, s.Next) + multicast.Held(s.HoldBack)
	if len(s.Orders) > 0 {
		out += fmt.Sprintf(" orders=%v", s.Orders)
	}
	if s.Seq > 0 {
		out += fmt.Sprintf(" | s=%d", s.Seq)
	}
	return out
}

// Protocol implements model.Protocol and model.Actor, with the family's
// Actions.
type Protocol struct {
	multicast.Sequential[Msg, State]
}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: `the sequencer orders a duplicated message again (Vlassov and Montelius: retransmission must "avoid duplication of messages")`}
}

func (Protocol) Init(*model.Ctx[Msg]) State { return State{} }

// Do: TO-multicast(g, m) at p_i is B-multicast(g ∪ {sequencer(g)}, <m, i>),
// and the sequencer is in g.
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	s.Process = multicast.DoBMulticast(ctx, s.Process, a, func(v multicast.Value) Msg { return Msg{Value: v} })
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	if m.Order {
		i, _ := slices.BinarySearchFunc(s.Orders, m.S, func(o Order, S int) int { return o.S - S })
		s.Orders = slices.Insert(slices.Clip(s.Orders), i, Order{S: m.S, Value: m.Value}) // clipped full: Insert copies
		return deliverInOrder(ctx, s)
	}
	if ctx.Self() == Sequencer {
		// the sequencer: B-multicast(g, <"order", i, s_g>); s_g := s_g + 1
		s.Process = s.BMulticast(ctx, Msg{Order: true, Value: m.Value, S: s.Seq})
		s.Seq++
	}
	i, _ := slices.BinarySearchFunc(s.HoldBack, m.Value, multicast.Compare)
	s.HoldBack = slices.Insert(slices.Clip(s.HoldBack), i, m.Value) // clipped full: Insert copies
	return deliverInOrder(ctx, s)
}

// deliverInOrder TO-delivers while the order numbered r_g and its message
// are both here.
func deliverInOrder(ctx *model.Ctx[Msg], s State) State {
	for len(s.Orders) > 0 && s.Orders[0].S == s.Next {
		k, ok := slices.BinarySearchFunc(s.HoldBack, s.Orders[0].Value, multicast.Compare)
		if !ok {
			break
		}
		s.Process = s.Deliver(ctx, s.Orders[0].Value)
		s.HoldBack = slices.Delete(slices.Clone(s.HoldBack), k, k+1)
		s.Orders = slices.Clone(s.Orders[1:])
		s.Next++
	}
	if len(s.HoldBack) == 0 {
		s.HoldBack = nil
	}
	if len(s.Orders) == 0 {
		s.Orders = nil
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg", "order"}, Actions: []string{"multicast", "write", "read", "send"}}
}
