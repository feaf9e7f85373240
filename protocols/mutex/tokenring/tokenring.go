// Package tokenring is mutual exclusion by a token passed round a ring,
// after V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below): "A
// ring-based approach".
//
// They say: "pass a token around", "before entering the critical section -
// remove the token", "when leaving the critical section - release the
// token". The ring is 0 → 1 → … → N-1 → 0. Node 0 holds the token at start;
// as nobody wants the critical section yet, it passes it on at once. A node
// that receives the token enters the critical section if it wants it,
// keeping the token, and otherwise passes it to its successor; on exit it
// passes it on.
//
// Their figures: "enter: O(N) = [0, N]" messages — none when the token
// is already on its way to the node, N when it has just left it — and
// "exit: 1 message"; the synchronisation delay is "anywhere from 1 to N
// message transmissions". Measured by vigil check (checker.EntryFigures),
// the client delay is 1 to N transmissions, the one under way counted, and
// the synchronisation delay 1 to N-1: the node that leaves is not among
// those waiting. An idle node never keeps the token, so the token
// circulates forever, even when nobody wants it: runs never end in
// quiescence, and the message count of a run is unbounded.
//
// Each node asks for the critical section at most "requests" times (run
// parameter, default 1); requests = 0 means forever, and the state stays
// finite then (no counter grows). When the run names initiators, only they
// ask. Vlassov and Montelius assume no failures; nodes are crash-stop
// here (a crashed node stays down, and the token it may have held is lost).
package tokenring

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// State is one node's state. A node holds the token exactly while HELD (or
// in passing, inside a handler), so the token needs no field of its own.
type State struct {
	Phase mutex.Phase
	Asked int // requests made so far; stays 0 when requests = 0 (forever)
}

func (s State) String() string { return fmt.Sprintf("%v asked=%d", s.Phase, s.Asked) }

// Msg is the token.
type Msg struct{}

func (Msg) Kind() string   { return "token" }
func (Msg) String() string { return "token" }

// Protocol implements model.Protocol and model.Actor.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: "Vlassov and Montelius assume reliable channels: a duplicated token is two tokens"}
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if ctx.Self() == 0 {
		// node 0 holds the token at start; nobody wants it yet: "pass a
		// token around"
		ctx.Send(ctx.Next(), Msg{})
	}
	return State{}
}

// Actions: Request when released with requests left, Exit when held.
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	return mutex.Actions(env, s.Phase, s.Asked)
}

func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	switch a {
	case mutex.Request:
		// wait for the token; an idle node never holds it, so there is no
		// token to take at once
		s.Asked = mutex.Asked(&ctx.Env, s.Asked)
		s.Phase = mutex.Wanted
		ctx.Observe(model.RequestCS(0))
	case mutex.Exit:
		// "when leaving the critical section - release the token"
		s.Phase = mutex.Released
		ctx.Observe(model.ExitCS())
		ctx.Send(ctx.Next(), Msg{})
	}
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, _ Msg) State {
	if s.Phase == mutex.Wanted {
		// "before entering the critical section - remove the token"
		s.Phase = mutex.Held
		ctx.Observe(model.EnterCS())
		return s
	}
	// not wanted here: "pass a token around"
	ctx.Send(ctx.Next(), Msg{})
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"token"}, Actions: []string{"request", "exit"}}
}
