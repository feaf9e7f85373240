// Package lelann is the ring election of G. LeLann, Distributed Systems:
// Towards a Formal Approach (IFIP Congress 1977), after the lecture notes
// Distributed Coordination: Leader Election, which follow V. K. Garg,
// Elements of Distributed Computing, and S. Ghosh, Distributed Systems (the
// Leader Election notes below): "LeLann's ring election" and "LeLann's
// Algorithm".
//
// Every initiator sends a token with its identity round the ring and forwards
// every other token, collecting the identities it sees in List_p, until its
// own token comes back; it then knows every initiator and decides. A
// non-initiator forwards every token and loses. The notes elect the minimum
// identity; vigil's election properties speak of the highest rank, so the
// comparison is mirrored (the same algorithm with ranks negated).
//
// An initiator whose own token has come back has decided, but it stays on
// the ring as a router, forwarding any later token as a non-initiator does:
// the notes' program simply ends there, which would swallow tokens of other
// initiators and leave them waiting forever. Under FIFO channels no token
// arrives after a node's own, so this changes nothing there.
//
// Correctness rests on FIFO channels ("Assuming FIFO channels"): when p's
// token returns, every other initiator's token, sent before p forwarded it,
// has already passed p. With unordered channels an initiator can see its own
// token overtake another and decide on a partial list, while the token it
// never saw still goes round: two nodes elect themselves, a run vigil finds
// from N = 2 on. With only some nodes initiating, the highest initiator
// wins and non-initiators never learn who did: vigil then claims only
// unique-leader and agreement (the partial scenario shows highest-leader
// fail). That the winner is the highest initiator is what the source
// guarantees, but no election property reads which nodes initiated, so it
// is left unclaimed and unchecked. With every node an
// initiator each token travels the whole ring: N² messages.
package lelann

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/ringid"
)

// Status: sleep (not involved yet), cand, lost or leader.
type Status = ringid.Status

// The statuses, named as the notes name them.
const Sleep, Cand, Lost, Leader = ringid.Sleep, ringid.Cand, ringid.Lost, ringid.Leader

// ID is an identity as ring messages carry it: the rank compared, and the
// node.
type ID = ringid.ID

// State is one node's state: List_p, kept sorted by rank.
type State struct {
	Status Status
	List   []ID
}

func (s State) String() string {
	return fmt.Sprintf("%v list=%v", s.Status, ringid.Ranks(s.List))
}

// Msg is the token ⟨tok, q⟩.
type Msg struct{ Q ID }

func (Msg) Kind() string     { return "token" }
func (m Msg) String() string { return fmt.Sprintf("tok⟨rank %d of %v⟩", m.Q.Rank, m.Q.Node) }

// Protocol implements model.Protocol.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{FIFO: true, Why: `the Leader Election notes: "assuming FIFO channels"; a token that overtakes another elects two leaders`}
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if !ctx.Initiator() {
		return State{Status: Sleep}
	}
	// List_p := {p}; state_p := cand; send ⟨tok, p⟩ to Next_p
	me := ID{Rank: ctx.MyRank(), Node: ctx.Self()}
	ctx.Send(ctx.Next(), Msg{Q: me})
	return State{Status: Cand, List: []ID{me}}
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	switch {
	case !ctx.Initiator():
		// receive ⟨tok, q⟩; send ⟨tok, q⟩ to Next_p; state_p := lost
		ctx.Send(ctx.Next(), m)
		s.Status = Lost
	case s.Status != Cand:
		// decided: route the token on, as a non-initiator would
		ctx.Send(ctx.Next(), m)
	case m.Q.Node != ctx.Self():
		// while q ≠ p: List_p := List_p ∪ {q}; send ⟨tok, q⟩ to Next_p
		ctx.Send(ctx.Next(), m)
		s.List = ringid.Add(s.List, m.Q)
	default:
		// own token back: leader iff p is the best of List_p
		best := s.List[len(s.List)-1]
		if best.Node == ctx.Self() {
			s.Status = Leader
		} else {
			s.Status = Lost
		}
		ctx.Observe(model.Leader(best.Node))
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"token"}}
}
