// Package causal is causally ordered multicast with vector timestamps, after
// V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below):
// "causal: in a happened-before order". It takes the classic form over
// B-multicast:
//
//	CO-multicast(g, m) at p_i: V_i[i] := V_i[i] + 1; B-multicast(g, <V_i, m>)
//	On B-deliver(<V_j, m>) from p_j (j ≠ i):
//	    place <V_j, m> in the hold-back queue
//	    wait until V_j[j] = V_i[j] + 1 and V_j[k] ≤ V_i[k] (k ≠ j)
//	    CO-deliver m; V_i[j] := V_i[j] + 1
//
// A process CO-delivers its own message at once, when it multicasts it,
// and so sends it only to the others (the copy to itself would be
// discarded by the rule's j ≠ i). V_i[j] counts the messages of p_j that
// p_i delivered, so the wait holds a message back until everything its
// sender had delivered when it multicast has been delivered here too.
// Causal order implies FIFO order; neither implies agreement.
//
// Messages per multicast: N-1. Nodes are crash-stop: a crashed node
// stays down.
package causal

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Msg carries the multicast value and its sender's vector timestamp.
type Msg struct {
	Value multicast.Value
	V     []int32
}

func (Msg) Kind() string     { return "msg" }
func (m Msg) String() string { return fmt.Sprintf("msg %v V=%v", m.Value, m.V) }

// State is a node's state: its vector V and the hold-back queue, in
// arrival order.
type State struct {
	multicast.Process[Msg]
	V        []int32
	HoldBack []Msg
}

func (s State) String() string {
	return fmt.Sprintf("%v V=%v", s.Process, s.V) + multicast.Held(s.HoldBack)
}

// Protocol implements model.Protocol and model.Actor, with the family's
// Actions.
type Protocol struct {
	multicast.Sequential[Msg, State]
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State { return State{V: make([]int32, ctx.N())} }

func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	s.Process = multicast.Do(ctx, s.Process, a, func(p multicast.Process[Msg], v multicast.Value) multicast.Process[Msg] {
		s.V = slices.Clone(s.V)
		s.V[ctx.Self()]++                                                                   // V_i[i] := V_i[i] + 1
		p = p.Deliver(ctx, v)                                                               // its own message, at once
		return p.Send(ctx, multicast.Others(&ctx.Env), Msg{Value: v, V: slices.Clone(s.V)}) // B-multicast(g, <V_i, m>)
	})
	return s
}

// Receive holds the message back, then delivers every message of the
// queue whose wait is over, until none is. Every message held back before
// m was still waiting, so the first delivered, if any, is m.
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	if !deliverable(s.V, m) {
		s.HoldBack = append(slices.Clip(s.HoldBack), m) // place <V_j, m> in the hold-back queue
		return s
	}
	s.V = slices.Clone(s.V) // the step's own: coDeliver counts in place
	s = coDeliver(ctx, s, m)
	for {
		k := slices.IndexFunc(s.HoldBack, func(h Msg) bool { return deliverable(s.V, h) })
		if k < 0 {
			return s
		}
		h := s.HoldBack[k]
		s.HoldBack = slices.Delete(slices.Clone(s.HoldBack), k, k+1)
		if len(s.HoldBack) == 0 {
			s.HoldBack = nil
		}
		s = coDeliver(ctx, s, h)
	}
}

// coDeliver delivers h, whose wait is over, on a vector of the step's own.
func coDeliver(ctx *model.Ctx[Msg], s State, h Msg) State {
	s.Process = s.Deliver(ctx, h.Value) // CO-deliver m
	s.V[h.Value.ID.Sender]++            // V_i[j] := V_i[j] + 1
	return s
}

// deliverable is the wait of Vlassov and Montelius: V_j[j] = V_i[j] + 1 and
// V_j[k] ≤ V_i[k] for k ≠ j.
func deliverable(v []int32, h Msg) bool {
	j := h.Value.ID.Sender
	if h.V[j] != v[j]+1 {
		return false
	}
	for k, x := range h.V[:len(v)] {
		if x > v[k] && model.NodeID(k) != j {
			return false
		}
	}
	return true
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg"}, Actions: []string{"multicast", "send"}}
}
