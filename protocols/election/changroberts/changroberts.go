// Package changroberts is the ring election of E. Chang and R. Roberts, An
// Improved Algorithm for Decentralized Extrema-Finding in Circular
// Configurations of Processes (CACM 22(5), 1979), after the lecture notes
// Distributed Coordination: Leader Election, which follow V. K. Garg,
// Elements of Distributed Computing, and S. Ghosh, Distributed Systems (the
// Leader Election notes below): "Chang Roberts Algorithm", and its idea
// slide.
//
// Each initiator sends a token with its rank to its successor. An initiator
// drops tokens of lower rank, forwards tokens of higher rank (and resigns),
// and becomes the leader when its own token comes back; non-initiators
// forward every token. The leader then sends an elected message round the
// ring so every node learns the result (step 4 of the idea slide).
//
// The notes' pseudo-code elects the lowest id; vigil's election properties
// speak of the highest rank, so the comparisons here are mirrored: the same
// algorithm with ranks negated. The ring is 0 → 1 → … → N-1 → 0. With every
// node an initiator, the notes' worst case — N(N+1)/2 election messages — is
// the ring whose ranks fall along the direction of travel (-ranks reverse);
// the best case, 2N-1, is the ring whose ranks rise (-ranks sorted). Either
// way N elected messages follow. With only some nodes initiating, the
// highest initiator wins, so highest-leader is not claimed then (the
// partial scenario shows it fail). That the winner is the highest
// initiator is what the source guarantees, but no election property reads
// which nodes initiated, so it is left unclaimed and unchecked. The
// algorithm assumes no failures: a crashed node breaks the ring (the crash
// scenario).
//
// In asynchronous rounds (checker.Options.Rounds) a run takes 2N whatever
// the ranks: N for the leader's token to come back, N for the elected
// message. The notes' time complexity, 2N-1, counts the election alone,
// from the first initiator's start, the last one starting up to N-1 rounds
// later; here every initiator starts at once.
package changroberts

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/ringid"
)

// Status is a node's colour in the notes: sleeping (not yet involved),
// candidate (red), lost (black) or leader.
type Status = ringid.Status

// The statuses, named as the notes name them.
const Sleep, Cand, Lost, Leader = ringid.Sleep, ringid.Cand, ringid.Lost, ringid.Leader

// State is one node's state.
type State struct {
	Status Status
	Leader model.NodeID // the leader this node learnt of, or None
}

func (s State) String() string { return fmt.Sprintf("%v leader=%v", s.Status, s.Leader) }

// Msg is a token ⟨tok, q⟩ carrying an initiator's rank and node, or the
// elected message announcing the leader.
type Msg struct {
	Elected bool
	Rank    int
	Node    model.NodeID
}

func (m Msg) Kind() string {
	if m.Elected {
		return "elected"
	}
	return "election"
}

func (m Msg) String() string {
	if m.Elected {
		return fmt.Sprintf("elected⟨%v⟩", m.Node)
	}
	return fmt.Sprintf("tok⟨rank %d of %v⟩", m.Rank, m.Node)
}

// Protocol implements model.Protocol.
type Protocol struct{}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if !ctx.Initiator() {
		return State{Status: Sleep, Leader: model.None}
	}
	// state_p := cand; send ⟨tok, p⟩ to Next_p
	ctx.Send(ctx.Next(), Msg{Rank: ctx.MyRank(), Node: ctx.Self()})
	return State{Status: Cand, Leader: model.None}
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	if m.Elected {
		if m.Node != ctx.Self() {
			ctx.Send(ctx.Next(), m)
			s.Leader = m.Node
			ctx.Observe(model.Leader(m.Node))
		}
		return s
	}
	switch {
	case !ctx.Initiator():
		// a non-initiator forwards every token: receive ⟨tok,q⟩; send ⟨tok,q⟩
		s.Status = Lost
		ctx.Send(ctx.Next(), m)
	case m.Rank == ctx.MyRank():
		// q = p: state_p := leader, and the ring learns it
		s.Status, s.Leader = Leader, ctx.Self()
		ctx.Observe(model.Leader(ctx.Self()))
		ctx.Send(ctx.Next(), Msg{Elected: true, Node: ctx.Self()})
	case m.Rank > ctx.MyRank():
		// a token that beats p: p resigns and forwards it
		if s.Status == Cand {
			s.Status = Lost
		}
		ctx.Send(ctx.Next(), m)
	default:
		// a token p beats can never win: it is removed
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"election", "elected"}}
}
