// Package maekawa is Maekawa's voting algorithm for mutual exclusion, after
// V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below):
// "Maekawa's Voting Algorithm", "Maekawa's Algorithm" and "Forming quorums".
//
// A node asks only its voting set V_i for permission and enters once all
// K = |V_i| members voted for it. A node votes for at most one requester at
// a time and queues the other requests until its vote comes back with a
// release. The handlers follow their pseudo-code line by line.
//
// Voting sets: their approximation, "place the processes in a √N by √N
// matrix and let V_i be the union of the row and column containing p_i".
// Here the grid is ⌈√N⌉ wide and filled row by row, so the last row may be
// incomplete (see VotingSet); every two voting sets still meet, and i ∈ V_i.
// For N = 4: V0 = {0,1,2}, V1 = {0,1,3}, V2 = {0,2,3}, V3 = {1,2,3}. With a
// full grid K = 2√N-1; they say "R_i ≈ 2√N", against an optimal "K = √N".
//
// Messages per entry: K requests, K replies and K releases, 3K, self-
// messages included (a node is in its own voting set). Measured at N = 4
// (vigil check mutex/maekawa -initiators 0, and TestOneEntryCosts3K):
// 3 + 3 + 3 = 9. Vlassov and Montelius give no message count; 3K is about
// 3√N with optimal sets of K ≈ √N, and about 6√N with this grid.
//
// They warn: "Unfortunately, the algorithm is deadlock-prone". With N = 4,
// nodes 0 and 1 request at once, each votes for itself first, and each then
// waits for the other's vote for ever. They assume no failures; nodes are
// crash-stop here (a crashed node stays down).
//
// Each node asks for the critical section "requests" times (run parameter,
// default 1, at least 1). When the run names initiators, only they ask, so
// one initiator shows the cost of an entry alone.
package maekawa

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Width is the width of the grid of N nodes: ⌈√N⌉.
func Width(n int) int {
	w := 0
	for w*w < n {
		w++
	}
	return w
}

// VotingSet is V_i for node i of n: the nodes in i's row and i's column of
// a grid ⌈√n⌉ wide filled row by row, in id order; it contains i.
//
// Every two voting sets intersect: take i in cell (r1, c1) and j in cell
// (r2, c2). If r1 = r2 they share the row. Otherwise one of them, say r1,
// is not the last row, which is the only one that may be incomplete, so
// cell (r1, c2) holds a node, and it lies in i's row and j's column.
func VotingSet(n, i int) []model.NodeID {
	w := Width(n)
	var v []model.NodeID
	for j := range n {
		if j/w == i/w || j%w == i%w {
			v = append(v, model.NodeID(j))
		}
	}
	return v
}

// State is one node's state.
type State struct {
	Phase   mutex.Phase
	Voted   bool           // this node's vote is out
	Queue   []model.NodeID // requests waiting for its vote, in arrival order
	Replies int            // votes received for its current request
	Asked   int            // requests made so far
}

func (s State) String() string {
	out := s.Phase.String()
	if s.Phase != mutex.Released {
		out += fmt.Sprintf(" replies=%d", s.Replies)
	}
	return out + fmt.Sprintf(" voted=%t queue=%v asked=%d", s.Voted, s.Queue, s.Asked)
}

// Type is a message's type.
type Type uint8

const (
	Request Type = iota
	Reply        // a vote
	Release      // a vote returned
)

// Msg is a message of the protocol; it carries nothing but its type.
type Msg struct{ Type Type }

func (m Msg) Kind() string   { return [...]string{"request", "reply", "release"}[m.Type] }
func (m Msg) String() string { return m.Kind() }

// Protocol implements model.Protocol and model.Actor.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: "a duplicated vote counts twice towards the K a node waits for (Vlassov and Montelius)"}
}

// Init — "On initialization: state := RELEASED; voted := FALSE;".
func (Protocol) Init(_ *model.Ctx[Msg]) State { return State{Phase: mutex.Released} }

// Actions: Request when released with requests left, Exit when held.
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	return mutex.Actions(env, s.Phase, s.Asked)
}

func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	v := VotingSet(ctx.N(), int(ctx.Self()))
	switch a {
	case mutex.Request:
		// For pi to enter the critical section:
		//   state := WANTED;
		//   multicast request to all processes in Vi;
		//   wait until (number of replies received = K);
		s.Asked = mutex.Asked(&ctx.Env, s.Asked)
		s.Phase = mutex.Wanted
		s.Replies = 0
		ctx.Observe(model.RequestCS(0))
		ctx.SendAll(v, Msg{Request})
	case mutex.Exit:
		// For pi to exit the critical section:
		//   state := RELEASED;
		//   multicast release to all processes in Vi;
		s.Phase = mutex.Released
		s.Replies = 0
		ctx.Observe(model.ExitCS())
		ctx.SendAll(v, Msg{Release})
	}
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.Type {
	case Request:
		// On receipt of a request from pi at pj:
		//   if (state = HELD or voted = TRUE)
		//   then queue request from pi without replying;
		//   else send reply to pi;
		//        voted := TRUE;
		if s.Phase == mutex.Held || s.Voted {
			s.Queue = append(slices.Clone(s.Queue), from)
		} else {
			ctx.Send(from, Msg{Reply})
			s.Voted = true
		}
	case Reply:
		// ... wait until (number of replies received = K); state := HELD;
		s.Replies++
		if s.Phase == mutex.Wanted && s.Replies == len(VotingSet(ctx.N(), int(ctx.Self()))) {
			s.Phase = mutex.Held
			ctx.Observe(model.EnterCS())
		}
	case Release:
		// On receipt of a release from pi at pj:
		//   if (queue of requests is non-empty) then
		//     remove head of queue – from pk, say;
		//     send reply to pk;
		//     voted := TRUE;
		//   else voted := FALSE;
		if len(s.Queue) > 0 {
			pk := s.Queue[0]
			s.Queue = mutex.Dequeue(s.Queue)
			ctx.Send(pk, Msg{Reply})
			s.Voted = true
		} else {
			s.Voted = false
		}
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"request", "reply", "release"}, Actions: []string{"request", "exit"}}
}
