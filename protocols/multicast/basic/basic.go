// Package basic is B-multicast, the basic multicast of V. Vlassov and
// J. Montelius, Coordination (lecture notes, ID2201 Distributed Systems, KTH
// Royal Institute of Technology), after G. Coulouris, J. Dollimore,
// T. Kindberg and G. Blair, Distributed Systems: Concepts and Design, 5th
// ed., ch. 15 (Vlassov and Montelius below): "A multicast is a for loop of
// send", and "a received message is delivered".
//
// Their guarantee: "a correct process will eventually deliver the message as
// long as the multicaster does not crash". A sender that crashes in the
// middle of its loop leaves some nodes with the message and some without, so
// agreement fails; and on unordered channels two messages of one sender may
// arrive, and be delivered, in either order, so FIFO order fails too.
//
// Messages per multicast: N, one to every node, the sender included.
// Nodes are crash-stop: a crashed node stays down.
package basic

import (
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Msg carries the multicast value.
type Msg = multicast.Data

// State is a node's state: nothing beyond the process's own.
type State struct{ multicast.Process[Msg] }

// Protocol implements model.Protocol and model.Actor, with the family's
// Actions.
type Protocol struct {
	multicast.Sequential[Msg, State]
}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: "B-multicast delivers a duplicated message twice, where R-multicast copes (Vlassov and Montelius)"}
}

func (Protocol) Init(*model.Ctx[Msg]) State { return State{} }

// Do: B-multicast(g, m), that is, for each q in g, send(q, m).
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	s.Process = multicast.DoBMulticast(ctx, s.Process, a, multicast.DataOf)
	return s
}

// Receive: "a received message is delivered".
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	s.Process = s.Deliver(ctx, m.Value)
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg"}, Actions: []string{"multicast", "send"}}
}
