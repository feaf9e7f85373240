// Package central is mutual exclusion through a central server, after
// V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below): "A
// central server".
//
// Their client steps are: "request a token from the server", "wait for a
// token that grants access", "enter the critical section and execute in it",
// "exit the critical section and return the token". The server keeps a FIFO
// queue of the clients waiting and whether the token is out: a request is
// granted at once when the server holds the token, else queued; a release
// hands the token to the head of the queue, if any.
//
// Node 0 is the server, and a client too: it talks to its server half by
// messages like any other client (self-messages count), so every entry
// costs their figures for every node — "Enter: 2 messages (request –
// granted), Exit: 1 release message" — 3 messages per entry.
//
// Each node asks for the critical section at most "requests" times (run
// parameter, default 1); requests = 0 means forever, and the state stays
// finite then (no counter grows). When the run names initiators, only they
// ask, so one initiator shows the cost of an entry alone. Vlassov and
// Montelius assume no failures; nodes are crash-stop here (a crashed node
// stays down).
package central

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// The server is node 0.
const Server model.NodeID = 0

// State is one node's state: its client half and, at node 0, the server.
type State struct {
	Phase mutex.Phase
	Asked int // requests made so far; stays 0 when requests = 0 (forever)

	Server bool         // this node is the server: the fields below are used
	Holder model.NodeID // the client holding the token, or None: the server has it
	Queue  []model.NodeID
}

func (s State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v asked=%d", s.Phase, s.Asked)
	if s.Server {
		if s.Holder == model.None {
			b.WriteString(" | token free")
		} else {
			fmt.Fprintf(&b, " | token at %v", s.Holder)
		}
		fmt.Fprintf(&b, " queue=%v", s.Queue)
	}
	return b.String()
}

// Type is a message's type.
type Type uint8

const (
	Request Type = iota // client to server: "request a token"
	Grant               // server to client: the token
	Release             // client to server: "return the token"
)

// Msg is a message of the protocol; it carries nothing but its type.
type Msg struct{ Type Type }

func (m Msg) Kind() string   { return [...]string{"request", "grant", "release"}[m.Type] }
func (m Msg) String() string { return m.Kind() }

// Protocol implements model.Protocol and model.Actor.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: "Vlassov and Montelius assume reliable channels: a duplicated grant is a second token"}
}

func fresh(env *model.Env) State {
	return State{Phase: mutex.Released, Holder: model.None, Server: env.Self() == Server}
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State { return fresh(&ctx.Env) }

// Actions: Request when released with requests left, Exit when held.
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	return mutex.Actions(env, s.Phase, s.Asked)
}

func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	switch a {
	case mutex.Request:
		// "request a token from the server", then "wait for a token that
		// grants access"
		s.Asked = mutex.Asked(&ctx.Env, s.Asked)
		s.Phase = mutex.Wanted
		ctx.Observe(model.RequestCS(0))
		ctx.Send(Server, Msg{Request})
	case mutex.Exit:
		// "exit the critical section and return the token"
		s.Phase = mutex.Released
		ctx.Observe(model.ExitCS())
		ctx.Send(Server, Msg{Release})
	}
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.Type {
	case Grant:
		// client: the token arrived: "enter the critical section"
		s.Phase = mutex.Held
		ctx.Observe(model.EnterCS())
	case Request:
		// server: grant if the token is free, else queue the client
		if s.Holder == model.None {
			s.Holder = from
			ctx.Send(from, Msg{Grant})
		} else {
			s.Queue = append(slices.Clone(s.Queue), from)
		}
	case Release:
		// server: the token is back; grant it to the head of the queue
		if len(s.Queue) > 0 {
			s.Holder = s.Queue[0]
			s.Queue = mutex.Dequeue(s.Queue)
			ctx.Send(s.Holder, Msg{Grant})
		} else {
			s.Holder = model.None
		}
	}
	return s
}

// Interchangeable: the clients other than the server's own half are
// interchangeable, among those that ask and among those that do not (the
// run's initiators): the server queues and grants them alike, in the
// order their messages reach it.
func (Protocol) Interchangeable(cfg *model.Config) [][]model.NodeID {
	var asking, quiet []model.NodeID
	for i := Server + 1; int(i) < cfg.N; i++ {
		if cfg.Initiator(i) {
			asking = append(asking, i)
		} else {
			quiet = append(quiet, i)
		}
	}
	var classes [][]model.NodeID
	for _, c := range [][]model.NodeID{asking, quiet} {
		if len(c) > 1 {
			classes = append(classes, c)
		}
	}
	return classes
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"request", "grant", "release"}, Actions: []string{"request", "exit"}}
}
