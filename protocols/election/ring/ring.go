// Package ring is the ring election of G. Kesden, Coordinator Selection,
// 14-736 Distributed Systems, lecture 8, Carnegie Mellon University, 2019
// (Kesden below; "Ring Election"): an ELECTION message collects node
// numbers round the ring, skipping failed nodes, and the node with the
// highest number becomes the coordinator, which a COORDINATOR message then
// announces.
//
// The ring is 0 → 1 → … → N-1 → 0, and every node knows all of it: its
// successor, its successor's successor, and so on (Kesden's assumptions).
// The numbers collected and compared are ranks.
//
//   - An initiator (a node that discovers that the coordinator has died)
//     sends ELECTION([its rank]) to its successor.
//   - A node that receives ELECTION(list) without its own rank in it adds its
//     rank to the list and passes it on.
//   - A node that receives ELECTION(list) with its own rank in it knows the
//     message has made its way round: the node of highest rank in the list
//     is the coordinator. It adopts it and circulates COORDINATOR(coordinator,
//     list). This is the initiator, or, if the initiator has failed, the
//     first node to see its rank come back.
//   - A node that receives COORDINATOR(c, list) does the same thing: it adopts
//     c and passes the message on, unless it has already passed on a
//     COORDINATOR for c. In that case the message has made its way round the
//     ring, and it is removed. Concurrent elections select the same
//     coordinator (Kesden), so one node passes on at most one COORDINATOR
//     per coordinator, and it remembers the coordinators it has passed on
//     for. A node with no coordinator adopts c even from a message it
//     removes.
//
// Skipping failed nodes works by custody. A node acknowledges every ELECTION
// and COORDINATOR it receives, in the same step, with ack to the sender. The
// sender keeps the messages it has handed on until they are acknowledged, and
// it hands them on one at a time: the oldest is in flight and the others wait
// for its ack. (Sending every message as soon as it is handed on works too,
// but the acks then interleave freely with the traffic: at N = 5 with every
// node initiating the checker meets 1.5 million worlds instead of 17
// thousand.) Every node watches its successor with the timer "successor".
// Under Sync timing (a perfect failure detector) it fires only once the
// successor has crashed and nothing from it is in flight. The node then skips
// the successor for good: it takes the next node of the ring as its
// successor, re-sends the message that was not acknowledged, and watches the
// new successor. The failed node may have taken messages into custody and
// lost them, elections or announcements that it had acknowledged but not yet
// passed on, so the node that skips it also starts an election. A node whose
// successors have all failed is its own successor: its election comes back to
// it, and it elects itself.
//
// Every node watches the coordinator it follows (timer "leader-check", which
// waits on the coordinator). When the coordinator fails, the node forgets it
// and starts an election: Kesden's "a processor discovers that the
// coordinator has died". This also repairs an election whose list holds the
// rank of a node that crashed after adding it, and stale announcements of
// that node. The nodes that adopt it start new elections, and those lists
// hold live nodes only.
//
// Under Sync timing the exhaustive checker finds that, with a crash at any
// point and whoever initiates, no two live nodes ever lead, or follow
// different live coordinators, and that every run ends with every live node
// following the live node of highest rank (N ≤ 4, and N = 5 with one
// initiator; with two crashes as well at N = 3). Under Async timing the
// successor timer can fire while the successor is merely slow: a node skips
// live nodes, possibly all of them, and elects itself while another node
// leads.
//
// A node that recovers from a crash remembers nothing and starts no
// election. If it comes back before its predecessor has noticed the crash,
// the messages lost with it are never re-sent, and the election never ends.
// Kesden does not readmit failed nodes.
//
// Messages, without crashes, on FIFO or unordered channels (one message at a
// time per link makes them alike) and whatever the ranks: every election goes
// once round the ring, and every ELECTION and COORDINATOR is acknowledged.
// With one initiator, the announcement goes round too. With all N nodes
// initiating, every node's own list comes back to it and it announces, and
// its successor, which has concluded already, removes the announcement:
//
//	N   initiators  election  coordinator  ack  total
//	3   one                3            3    6     12
//	4   one                4            4    8     16
//	5   one                5            5   10     20
//	6   one                6            6   12     24
//	3   all                9            3   12     24
//	4   all               16            4   20     40
//	5   all               25            5   30     60
//	6   all               36            6   42     84
//
// This is 4N with one initiator and 2N² + 2N with all of them, in every
// interleaving.
package ring

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Kind is a message kind.
type Kind uint8

const (
	Election Kind = iota
	Coordinator
	Ack
)

func (k Kind) String() string { return [...]string{"election", "coordinator", "ack"}[k] }

// Msg is ELECTION(list), COORDINATOR(coordinator, list), or the ack of one
// of them, which carries the message it acknowledges.
type Msg struct {
	K     Kind
	Of    Kind         // ack: the kind of the message acknowledged
	List  []int        // the ranks collected, in ring order from the initiator's
	Coord model.NodeID // coordinator: the node elected
}

func (m Msg) Kind() string { return m.K.String() }

func (m Msg) String() string {
	switch m.K {
	case Election:
		return fmt.Sprintf("election%v", m.List)
	case Coordinator:
		return fmt.Sprintf("coordinator⟨%v, %v⟩", m.Coord, m.List)
	}
	return fmt.Sprintf("ack⟨%v⟩", m.Acked())
}

// Ack is the acknowledgement of m.
func (m Msg) Ack() Msg { m.Of, m.K = m.K, Ack; return m }

// Acked is the message an ack acknowledges.
func (m Msg) Acked() Msg { m.K, m.Of = m.Of, 0; return m }

func (m Msg) equal(o Msg) bool {
	return m.K == o.K && m.Of == o.Of && m.Coord == o.Coord && slices.Equal(m.List, o.List)
}

// State is one node's state.
type State struct {
	Leader model.NodeID // the coordinator it follows, or None
	Succ   model.NodeID // its successor: the next node, or the first live one after it
	// Pending holds the messages handed to Succ and not acknowledged yet,
	// oldest first: the first is in flight, the others wait for its ack.
	Pending []Msg
	Passed  []model.NodeID // the coordinators it has passed COORDINATOR on for, sorted
}

func (s State) String() string {
	out := fmt.Sprintf("L=%v succ=%v", s.Leader, s.Succ)
	if len(s.Pending) > 0 {
		out += fmt.Sprintf(" unacked%v", s.Pending)
	}
	if len(s.Passed) > 0 {
		out += fmt.Sprintf(" passed%v", s.Passed)
	}
	return out
}

// Timer names the ring algorithm's timers.
type Timer uint8

const (
	SuccCheck   Timer = iota + 1 // the successor's failure
	LeaderCheck                  // the coordinator's failure
)

func (t Timer) String() string { return [...]string{"", "successor", "leader-check"}[t] }

// Protocol implements model.Protocol.
type Protocol struct{}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	s := State{Leader: model.None, Succ: ctx.Next()}
	watch(ctx, s)
	if ctx.Initiator() {
		return startElection(ctx, s)
	}
	return s
}

// watch arms the successor check; a node alone in the ring is its own
// successor and watches nobody.
func watch(ctx *model.Ctx[Msg], s State) {
	if s.Succ != ctx.Self() {
		ctx.SetTimer(SuccCheck, s.Succ)
	}
}

// startElection circulates ELECTION([its rank]).
func startElection(ctx *model.Ctx[Msg], s State) State {
	return pass(ctx, s, Msg{K: Election, List: []int{ctx.MyRank()}})
}

// pass hands m on to the successor, one message at a time: m waits behind
// those not acknowledged yet.
func pass(ctx *model.Ctx[Msg], s State, m Msg) State {
	s.Pending = append(slices.Clip(s.Pending), m)
	if len(s.Pending) == 1 {
		ctx.Send(s.Succ, m)
	}
	return s
}

// adopt makes c the node's coordinator, and watches it.
func adopt(ctx *model.Ctx[Msg], s State, c model.NodeID) State {
	ctx.Observe(model.Leader(c))
	if c == ctx.Self() {
		ctx.CancelTimer(LeaderCheck)
	} else {
		ctx.SetTimer(LeaderCheck, c)
	}
	s.Leader = c
	return s
}

// passOn records that the node passes on COORDINATOR for c, reporting
// false when it has done so before.
func passOn(s State, c model.NodeID) (State, bool) {
	i, found := slices.BinarySearch(s.Passed, c)
	if found {
		return s, false
	}
	s.Passed = slices.Insert(slices.Clip(s.Passed), i, c) // clipped full: Insert copies
	return s, true
}

// highest is the node of highest rank in list.
func highest(ctx *model.Ctx[Msg], list []int) model.NodeID {
	best := slices.Max(list)
	for j := range model.NodeID(ctx.N()) {
		if ctx.Rank(j) == best {
			return j
		}
	}
	// unreachable: every rank in a list is a node's, added by that node
	panic(fmt.Sprintf("rank %d belongs to no node", best))
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.K {
	case Ack:
		// the successor has the oldest message: drop it, send the next
		if len(s.Pending) == 0 || !s.Pending[0].equal(m.Acked()) {
			return s // a stray ack, for a message re-sent (Async timing only)
		}
		if s.Pending = s.Pending[1:]; len(s.Pending) == 0 {
			s.Pending = nil
		} else {
			ctx.Send(s.Succ, s.Pending[0])
		}
		return s
	case Election:
		ctx.Send(from, m.Ack())
		if !slices.Contains(m.List, ctx.MyRank()) {
			// add its number to the list and pass it on
			return pass(ctx, s, Msg{K: Election, List: append(slices.Clip(m.List), ctx.MyRank())})
		}
		// its own number: the message has made its way round; the node
		// with the highest number is the coordinator, and this is circulated
		c := highest(ctx, m.List)
		s, _ = passOn(adopt(ctx, s, c), c)
		return pass(ctx, s, Msg{K: Coordinator, List: m.List, Coord: c})
	default: // Coordinator
		ctx.Send(from, m.Ack())
		s, fresh := passOn(s, m.Coord)
		if !fresh {
			// it has made its way round the ring: removed; a node that
			// has since lost its coordinator takes it all the same
			if s.Leader == model.None {
				s = adopt(ctx, s, m.Coord)
			}
			return s
		}
		// do the same thing: adopt the coordinator and circulate it
		return pass(ctx, adopt(ctx, s, m.Coord), m)
	}
}

func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	switch t {
	case SuccCheck:
		// the successor failed: skip it, and hand the message it did not
		// acknowledge to the next node; what it had taken in custody is
		// lost, so elect again
		s.Succ = model.NodeID((int(s.Succ) + 1) % ctx.N())
		watch(ctx, s)
		if len(s.Pending) > 0 {
			ctx.Send(s.Succ, s.Pending[0])
		}
		return startElection(ctx, s)
	case LeaderCheck:
		// the coordinator has died: forget it and elect
		if s.Leader == model.None || s.Leader == ctx.Self() {
			// unreachable: the check is armed on another coordinator, and
			// cancelled when the node adopts itself (adopt)
			panic(fmt.Sprintf("the leader check fired at a node that follows %v", s.Leader))
		}
		ctx.Observe(model.Leader(model.None))
		s.Leader = model.None
		return startElection(ctx, s)
	}
	return s // unreachable: the cases name every Timer
}

// Recover: a restarted node remembers nothing and starts no election.
func (Protocol) Recover(ctx *model.Ctx[Msg], _ State) State {
	s := State{Leader: model.None, Succ: ctx.Next()}
	watch(ctx, s)
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"election", "coordinator", "ack"}, Timers: []string{"successor", "leader-check"}}
}
