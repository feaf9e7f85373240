// Package reliable is R-multicast over B-multicast, the reliable multicast
// algorithm of V. Vlassov and J. Montelius, Coordination (lecture notes,
// ID2201 Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below):
//
//	On initialization: Received := {}
//	For process p to R-multicast message m to group g:
//	    B-multicast(g, m)          // p in g is included as a destination
//	On B-deliver(m) at process q with g = group(m):
//	    if m does not belong to Received then
//	        Received := Received ∪ {m}
//	        if q ≠ p then B-multicast(g, m) end if
//	        R-deliver m
//	    end if
//
// A node relays a message before it delivers it, each B-multicast being a
// loop of sends a crash may interrupt (see package multicast): so a node
// that delivers has sent the message to everyone, and every correct node
// delivers it too, even when the deliverer crashes right after. That is
// Vlassov and Montelius's uniform agreement: "if any node, correct or
// incorrect, delivers a message, then all correct nodes will deliver the
// message". The sender itself delivers its own message when it arrives back,
// behind its loop.
//
// Messages per multicast: N², the sender's N and N from each of the N-1
// others, every one of which relays; duplicates are dropped.
//
// Nodes are crash-stop, as the lecture's model of process failure is: a
// crashed node stays down.
package reliable

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Msg carries the multicast value.
type Msg = multicast.Data

// State is a node's state: the messages received, sorted, and the
// process's own.
type State struct {
	multicast.Process[Msg]
	Received []multicast.Value
}

func (s State) String() string {
	return fmt.Sprintf("%v received=%v", s.Process, s.Received)
}

// Seen reports whether v was received.
func (s State) Seen(v multicast.Value) bool {
	_, ok := slices.BinarySearchFunc(s.Received, v, multicast.Compare)
	return ok
}

// WithReceived returns s with v added to Received.
func (s State) WithReceived(v multicast.Value) State {
	i, _ := slices.BinarySearchFunc(s.Received, v, multicast.Compare)
	s.Received = slices.Insert(slices.Clip(s.Received), i, v) // clipped full: Insert copies
	return s
}

// Protocol implements model.Protocol and model.Actor, with the family's
// Actions.
type Protocol struct {
	multicast.Sequential[Msg, State]
}

func (Protocol) Init(*model.Ctx[Msg]) State { return State{} }

// Do: R-multicast(g, m) is B-multicast(g, m).
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	s.Process = multicast.DoBMulticast(ctx, s.Process, a, multicast.DataOf)
	return s
}

// Receive is Vlassov and Montelius's "On B-deliver(m)": relay, then deliver.
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	if s.Seen(m.Value) {
		return s
	}
	s = s.WithReceived(m.Value)
	if m.Value.ID.Sender != ctx.Self() {
		s.Process = s.BMulticast(ctx, m)
	}
	s.Process = s.Deliver(ctx, m.Value)
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg"}, Actions: []string{"multicast", "send"}}
}
