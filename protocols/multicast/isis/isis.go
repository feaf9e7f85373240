// Package isis is the ISIS algorithm for totally ordered multicast, after
// V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below):
// "Similar to Ricart and Agrawala": multicast the message to all nodes,
// place in a hold-back queue, propose a sequence number, select the highest,
// multicast the sequence number to all nodes, deliver in total order. It
// takes the classic form:
//
//  1. p multicasts <m, i> to the group, itself included.
//  2. Each q proposes P_q := max(A_q, P_q) + 1, replies <i, P_q> to p, and
//     places m in its hold-back queue with the proposed number, not yet
//     deliverable.
//  3. p collects the N proposals, selects the highest, a, and multicasts
//     <i, a>.
//  4. Each q sets A_q := max(A_q, a), gives m the number a and marks it
//     deliverable, reorders the queue, and delivers from its head while
//     the head is deliverable.
//
// Numbers are pairs (sequence number, id of the proposer), compared in
// that order, so that no two messages share one. A message's agreed number
// is the highest proposal, no lower than the number it waits under at any
// node, so a deliverable message at the head of a queue is smaller than
// anything still to be agreed there: every node delivers in the order of
// the agreed numbers. The algorithm assumes no failures: a crash leaves a
// sender waiting for a proposal forever.
//
// With the run parameter "reads" (see package multicast) the nodes
// replicate a register whose writes, and ordered reads, go through ISIS.
//
// Messages per multicast: 3N: the message, a proposal from each node, and
// the agreed number, each to or from every node, the sender included.
// Nodes are crash-stop: a crashed node stays down.
package isis

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Number is a proposed or agreed sequence number, with the proposer's id
// to break ties.
type Number struct {
	Seq      int
	Proposer model.NodeID
}

func compareNumbers(a, b Number) int {
	if c := cmp.Compare(a.Seq, b.Seq); c != 0 {
		return c
	}
	return cmp.Compare(a.Proposer, b.Proposer)
}

func (n Number) String() string { return fmt.Sprintf("%d.%d", n.Seq, n.Proposer) }

// Type is a message's type.
type Type uint8

const (
	Data     Type = iota // <m, i> from the sender to everyone
	Proposal             // <i, P_q> from q back to the sender
	Agreed               // <i, a> from the sender to everyone
)

// Msg is a message of the protocol.
type Msg struct {
	Type   Type
	Value  multicast.Value
	Number Number // Proposal, Agreed
}

func (m Msg) Kind() string { return [...]string{"msg", "propose", "agreed"}[m.Type] }

func (m Msg) String() string {
	if m.Type == Data {
		return "msg " + m.Value.String()
	}
	return fmt.Sprintf("%s %v %v", m.Kind(), m.Value, m.Number)
}

// Entry is a message in the hold-back queue.
type Entry struct {
	Number      Number
	Value       multicast.Value
	Deliverable bool
}

// Collect is a multicast of this node waiting for proposals.
type Collect struct {
	Value multicast.Value
	Got   int    // proposals received
	Max   Number // the highest so far
}

// State is a node's state: P_q, A_q, the hold-back queue sorted by number,
// and its own multicasts still collecting proposals.
type State struct {
	multicast.Process[Msg]
	P, A     int
	Queue    []Entry
	Collects []Collect
}

func (s State) String() string {
	out := fmt.Sprintf("%v P=%d A=%d", s.Process, s.P, s.A)
	if len(s.Queue) > 0 {
		out += " queue=["
		for i, e := range s.Queue {
			if i > 0 {
				out += ", "
			}
			mark := "?"
			if e.Deliverable {
				mark = "!"
			}
			out += fmt.Sprintf("%v@%v%s", e.Value, e.Number, mark)
		}
		out += "]"
	}
	for _, c := range s.Collects {
		out += fmt.Sprintf(" collecting %v %d/%v", c.Value, c.Got, c.Max)
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
	return model.Needs{ExactlyOnce: true, Why: "ISIS counts proposals on reliable channels: a duplicated one completes the count too early"}
}

func (Protocol) Init(*model.Ctx[Msg]) State { return State{} }

func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	s.Process = multicast.Do(ctx, s.Process, a, func(p multicast.Process[Msg], v multicast.Value) multicast.Process[Msg] {
		// 1. multicast <m, i> to the group
		s.Collects = append(slices.Clip(s.Collects), Collect{Value: v})
		return p.BMulticast(ctx, Msg{Type: Data, Value: v})
	})
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.Type {
	case Data:
		// 2. propose P_q := max(A_q, P_q) + 1, hold the message back under it
		s.P = max(s.A, s.P) + 1
		proposed := Number{Seq: s.P, Proposer: ctx.Self()}
		s.Queue = insert(s.Queue, Entry{Number: proposed, Value: m.Value})
		s.Process = s.Send(ctx, []model.NodeID{from}, Msg{Type: Proposal, Value: m.Value, Number: proposed})
	case Proposal:
		// 3. collect the proposals; with all N, multicast the highest
		k := slices.IndexFunc(s.Collects, func(c Collect) bool { return c.Value == m.Value })
		if k < 0 {
			return s // a duplicate of a proposal whose collection is over
		}
		c := s.Collects[k]
		c.Got++
		if compareNumbers(m.Number, c.Max) > 0 {
			c.Max = m.Number
		}
		s.Collects = slices.Clone(s.Collects)
		if c.Got < ctx.N() {
			s.Collects[k] = c
			return s
		}
		s.Collects = slices.Delete(s.Collects, k, k+1)
		if len(s.Collects) == 0 {
			s.Collects = nil
		}
		s.Process = s.BMulticast(ctx, Msg{Type: Agreed, Value: m.Value, Number: c.Max})
	case Agreed:
		// 4. A_q := max(A_q, a); the message takes number a and becomes
		// deliverable; deliver from the head while it is deliverable
		s.A = max(s.A, m.Number.Seq)
		k := slices.IndexFunc(s.Queue, func(e Entry) bool { return e.Value == m.Value })
		if k < 0 {
			return s // a duplicate of an agreed number already applied
		}
		rest := slices.Delete(slices.Clone(s.Queue), k, k+1)
		s.Queue = insert(rest, Entry{Number: m.Number, Value: m.Value, Deliverable: true})
		for len(s.Queue) > 0 && s.Queue[0].Deliverable {
			s.Process = s.Deliver(ctx, s.Queue[0].Value)
			s.Queue = slices.Clone(s.Queue[1:])
		}
		if len(s.Queue) == 0 {
			s.Queue = nil
		}
	}
	return s
}

// insert returns q with e in its place by number, as a new slice.
func insert(q []Entry, e Entry) []Entry {
	i, _ := slices.BinarySearchFunc(q, e.Number, func(x Entry, n Number) int { return compareNumbers(x.Number, n) })
	return slices.Insert(slices.Clip(q), i, e) // clipped full: Insert copies
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg", "propose", "agreed"}, Actions: []string{"multicast", "write", "read", "send"}}
}
