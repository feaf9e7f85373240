// Package fifo is FIFO-ordered multicast over B-multicast, after V. Vlassov
// and J. Montelius, Coordination (lecture notes, ID2201 Distributed Systems,
// KTH Royal Institute of Technology), after G. Coulouris, J. Dollimore,
// T. Kindberg and G. Blair, Distributed Systems: Concepts and Design, 5th
// ed., ch. 15 (Vlassov and Montelius below): "FIFO: in the order of the
// sender". It uses the sequence numbers and hold-back queue of the classic
// algorithm:
//
//	FO-multicast(g, m) at p: S_p := S_p + 1; B-multicast(g, <m, S_p>)
//	On B-deliver(<m, S>) from q:
//	    if S = R_q + 1: FO-deliver m; R_q := S,
//	                    then FO-deliver the held-back messages of q that are next in turn
//	    if S > R_q + 1: place <m, S> in the hold-back queue
//
// It needs no FIFO channels: that is its point, and its scenarios run on
// unordered ones. Ordering is not reliability (Vlassov and Montelius: "the
// definitions of ordered multicast do not assume or imply reliability"): a
// sender that crashes mid-loop leaves some nodes without its message, as in
// B-multicast.
//
// Messages per multicast: N, as B-multicast. S_p is the operation count
// (multicast.Process.Issued), so a message's id carries its S.
//
// Nodes are crash-stop: a crashed node stays down.
package fifo

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Msg carries the multicast value; its id's Seq is the sender's S.
type Msg = multicast.Data

// State is a node's state: R, the sequence number last delivered from
// each sender, and the hold-back queue, sorted.
type State struct {
	multicast.Process[Msg]
	R        []int
	HoldBack []multicast.Value
}

func (s State) String() string {
	return fmt.Sprintf("%v R=%v", s.Process, s.R) + multicast.Held(s.HoldBack)
}

// Protocol implements model.Protocol and model.Actor, with the family's
// Actions.
type Protocol struct {
	multicast.Sequential[Msg, State]
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State { return State{R: make([]int, ctx.N())} }

// Do: Issue counts S_p := S_p + 1, then B-multicast(g, <m, S_p>).
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	s.Process = multicast.DoBMulticast(ctx, s.Process, a, multicast.DataOf)
	return s
}

// Receive is Vlassov and Montelius's FIFO rule: deliver in turn, hold back
// the rest.
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	q, seq := m.Value.ID.Sender, m.Value.ID.Seq
	switch {
	case seq <= s.R[q]:
		return s // a duplicate: already delivered
	case seq > s.R[q]+1:
		i, _ := slices.BinarySearchFunc(s.HoldBack, m.Value, multicast.Compare)
		s.HoldBack = slices.Insert(slices.Clip(s.HoldBack), i, m.Value) // clipped full: Insert copies
		return s
	}
	s.R = slices.Clone(s.R)
	s.Process = s.Deliver(ctx, m.Value)
	s.R[q] = seq
	// the held-back messages of q that are now next in turn
	held := s.HoldBack
	s.HoldBack = nil
	for _, v := range held {
		if v.ID.Sender == q && v.ID.Seq == s.R[q]+1 {
			s.Process = s.Deliver(ctx, v)
			s.R[q] = v.ID.Seq
		} else {
			s.HoldBack = append(s.HoldBack, v)
		}
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg"}, Actions: []string{"multicast", "send"}}
}
