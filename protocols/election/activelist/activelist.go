// Package activelist is the ring algorithm with active lists of
// Silberschatz, Galvin and Gagne, Operating System Concepts, ch. 18,
// Distributed Coordination ("Ring Algorithm"; Silberschatz et al. below):
// links are unidirectional, each process sends to its right neighbour, and
// each keeps an active list of the priority numbers it has seen.
//
// A process that detects the coordinator's failure (an initiator) starts a
// new active list holding its own number and sends elect(i). On receiving
// elect(j):
//
//  1. if it is the first elect message the process has seen or sent, it
//     creates an active list with i and j, and sends elect(i) followed by
//     elect(j);
//  2. if j ≠ i, it adds j to its active list and forwards elect(j);
//  3. if j = i, its own message has gone round: the active list holds every
//     active process, and the largest number is the new coordinator.
//
// Case 2 as the chapter's slides state it is garbled ("the active list for
// P_i now contains the numbers of all the active processes"); the package
// follows the book's text, which it summarises: add j and forward. Every
// process joins, so each number goes round once: N² messages whatever the
// initiators (N = 3..6: 9, 16, 25 and 36). Like LeLann's algorithm it relies
// on FIFO links for a process to have seen every number when its own comes
// back; without them vigil finds processes deciding on partial lists.
package activelist

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/ringid"
)

// ID is a priority number as messages carry it, with its node.
type ID = ringid.ID

// State is one process's state: whether it has joined, its active list
// (sorted by rank) and the coordinator it chose.
type State struct {
	Joined      bool
	Active      []ID
	Coordinator model.NodeID
}

func (s State) String() string {
	return fmt.Sprintf("joined=%v active=%v coordinator=%v", s.Joined, ringid.Ranks(s.Active), s.Coordinator)
}

// Msg is elect(j).
type Msg struct{ J ID }

func (Msg) Kind() string     { return "elect" }
func (m Msg) String() string { return fmt.Sprintf("elect(rank %d of %v)", m.J.Rank, m.J.Node) }

// Protocol implements model.Protocol.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{FIFO: true, Why: "Silberschatz's active lists rely on FIFO links: a number that overtakes another leaves a partial list"}
}

func me(ctx *model.Ctx[Msg]) ID { return ID{Rank: ctx.MyRank(), Node: ctx.Self()} }

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if !ctx.Initiator() {
		return State{Coordinator: model.None}
	}
	// a new active list with i; send elect(i)
	ctx.Send(ctx.Next(), Msg{me(ctx)})
	return State{Joined: true, Active: []ID{me(ctx)}, Coordinator: model.None}
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	switch {
	case !s.Joined:
		// case 1: the first elect seen: list {i, j}; send elect(i), elect(j)
		ctx.Send(ctx.Next(), Msg{me(ctx)})
		ctx.Send(ctx.Next(), m)
		return State{Joined: true, Active: ringid.Add([]ID{me(ctx)}, m.J), Coordinator: model.None}
	case m.J.Node != ctx.Self():
		// case 2: add j, forward elect(j)
		ctx.Send(ctx.Next(), m)
		s.Active = ringid.Add(s.Active, m.J)
	default:
		// case 3: own number back: the largest in the list coordinates
		s.Coordinator = s.Active[len(s.Active)-1].Node
		ctx.Observe(model.Leader(s.Coordinator))
	}
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"elect"}}
}
