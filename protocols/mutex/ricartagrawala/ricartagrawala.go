// Package ricartagrawala is Ricart and Agrawala's mutual exclusion by
// multicast and Lamport clocks, after V. Vlassov and J. Montelius,
// Coordination (lecture notes, ID2201 Distributed Systems, KTH Royal
// Institute of Technology), after G. Coulouris, J. Dollimore, T. Kindberg
// and G. Blair, Distributed Systems: Concepts and Design, 5th ed., ch. 15
// (Vlassov and Montelius below): "Ricart and Agrawala Critical Section
// Algorithm".
//
// A node that wants the critical section asks every other node and waits
// for all N-1 replies. A node that receives a request replies at once
// unless it holds the critical section, or wants it and its own request is
// smaller; then it queues the request and replies when it leaves. "A
// request contains a Lamport time stamp and a process identifier", and
// requests are ordered by timestamp, then by identifier: here the pair
// (T, p) with p the NodeID, as the request-order property compares them.
//
// Clocks: requesting is the one event that needs a timestamp (clock :=
// clock+1, T := clock), and every receipt sets clock := max(clock, t) for
// the message's timestamp t. Their pseudo-code only timestamps
// requests, but it asks that nodes "enter in request happened-before
// order", and a timestamp only follows happened-before when every message
// carries the sender's clock: with untimestamped replies a chain request →
// reply → request could end in a request with a smaller timestamp than the
// one it follows. So replies carry the sender's clock too. A receipt need
// not advance the clock past t, as Lamport's clocks do for every event:
// the next request's clock+1 already exceeds every timestamp that happened
// before it. That keeps clocks small: at N = 3 with two requests each the
// run has 42,085 states, against 1,717,415 when every receipt ticks. At
// N = 4 with two requests each it has 313,435,472, every run 64 steps long:
// a sweep (checker.Options.Sweep) checks it in about seven minutes.
//
// Vlassov and Montelius give no message figure for this algorithm; their
// pseudo-code costs N-1 requests and N-1 replies: 2(N-1) messages per entry.
// They assume reliable channels ("None of the algorithms we described would
// tolerate the loss of messages"), not FIFO ones, and no failures; nodes
// are crash-stop here (a crashed node stays down).
//
// Each node asks for the critical section "requests" times (run parameter,
// default 1, at least 1): the clocks grow with every request, so a run that
// asks forever has no finite state space. When the run names initiators,
// only they ask, so one initiator shows the cost of an entry alone.
package ricartagrawala

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// State is one node's state.
type State struct {
	Phase   mutex.Phase
	Clock   int            // the Lamport clock
	T       int            // the timestamp of the node's current request
	Replies int            // replies received for it
	Queue   []model.NodeID // requests queued without replying, in arrival order
	Asked   int            // requests made so far
}

func (s State) String() string {
	out := fmt.Sprintf("%v clock=%d", s.Phase, s.Clock)
	if s.Phase != mutex.Released {
		out += fmt.Sprintf(" T=%d replies=%d", s.T, s.Replies)
	}
	return out + fmt.Sprintf(" queue=%v asked=%d", s.Queue, s.Asked)
}

// Msg is a request ⟨T, p⟩, or a reply carrying the sender's clock T.
type Msg struct {
	Reply bool
	T     int
	P     model.NodeID // the requester (requests only)
}

func (m Msg) Kind() string {
	if m.Reply {
		return "reply"
	}
	return "request"
}

func (m Msg) String() string {
	if m.Reply {
		return fmt.Sprintf("reply@%d", m.T)
	}
	return fmt.Sprintf("request⟨%d, %v⟩", m.T, m.P)
}

// less orders requests: (t1, p1) < (t2, p2).
func less(t1 int, p1 model.NodeID, t2 int, p2 model.NodeID) bool {
	return t1 < t2 || t1 == t2 && p1 < p2
}

// Protocol implements model.Protocol and model.Actor.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: "a duplicated reply counts twice towards the N-1 a node waits for (Vlassov and Montelius)"}
}

// Init — "On initialization: state := RELEASED".
func (Protocol) Init(_ *model.Ctx[Msg]) State { return State{Phase: mutex.Released} }

// Actions: Request when released with requests left, Exit when held.
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	return mutex.Actions(env, s.Phase, s.Asked)
}

func all(model.NodeID) bool { return true }

func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	switch a {
	case mutex.Request:
		// To enter the critical section:
		//   state := WANTED;
		//   multicast request to all processes;
		//   T := request's timestamp;
		s.Asked = mutex.Asked(&ctx.Env, s.Asked)
		s.Phase = mutex.Wanted
		s.Clock++
		s.T = s.Clock
		s.Replies = 0
		ctx.Observe(model.RequestCS(s.T))
		ctx.SendAll(ctx.Nodes(all), Msg{T: s.T, P: ctx.Self()})
		// wait until (number of replies received = (N - 1));
		return enterIfDone(ctx, s)
	case mutex.Exit:
		// To exit the critical section:
		//   state := RELEASED;
		//   reply to any queued requests;
		s.Phase = mutex.Released
		ctx.Observe(model.ExitCS())
		ctx.SendAll(s.Queue, Msg{Reply: true, T: s.Clock})
		s.Queue = nil
		s.T, s.Replies = 0, 0 // only a WANTED or HELD node's request matters
	}
	return s
}

// enterIfDone ends the wait: once N-1 replies are in, state := HELD.
func enterIfDone(ctx *model.Ctx[Msg], s State) State {
	if s.Phase == mutex.Wanted && s.Replies == ctx.N()-1 {
		s.Phase = mutex.Held
		ctx.Observe(model.EnterCS())
	}
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	s.Clock = max(s.Clock, m.T) // see the package doc: receipts do not tick
	if m.Reply {
		s.Replies++
		return enterIfDone(ctx, s)
	}
	// On receipt of a request ⟨Ti, pi⟩ at pj (i ≠ j):
	//   if (state = HELD or (state = WANTED and (T, pj) < (Ti, pi)))
	//   then queue request from pi without replying;
	//   else reply immediately to pi;
	if s.Phase == mutex.Held || s.Phase == mutex.Wanted && less(s.T, ctx.Self(), m.T, m.P) {
		s.Queue = append(append([]model.NodeID(nil), s.Queue...), m.P)
	} else {
		ctx.Send(m.P, Msg{Reply: true, T: s.Clock})
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"request", "reply"}, Actions: []string{"request", "exit"}}
}
