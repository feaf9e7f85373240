// Package bfs builds a breadth-first spanning tree rooted at node 0, as
// the lecture notes Distributed Coordination: Leader Election (after
// H. Yu's CS4231, NUS, V. K. Garg's Elements of Distributed Computing and
// S. Ghosh's Distributed Systems) do in "Application: BFS tree
// construction", twice:
//
//   - Protocol, their "simple algorithm" on the asynchronous network: "root
//     starts the computation, sends invite to all neighbors"; "if P_i
//     receives an invite for the first time (say from node P_j) then i sets
//     j as its parent and sends invitations to all neighbors"; "ignore all
//     successive invites". As they say, "this algorithm does not always give
//     a BFS tree": an invite along a long path may come first.
//   - Round, their SynchBfsTree, a synchronous algorithm (package round) to
//     "run with a synchronizer to ensure that the BFS tree is computed".
//
// Both report each node's parent and level with an ObsParent observation
// (the root: itself at level 0), which BFSTree reads. A node that has a
// parent passes the invite to its neighbours but the one it came from, as
// SynchBfsTree does; each invite carries the level of its receiver.
package bfs

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// Root is the root of the tree.
const Root model.NodeID = 0

// ObsParent: the node set its parent and level, packed in Arg (see Parent).
var ObsParent = model.NewObsKind("parent", func(arg int) string {
	p, l := Unpack(arg)
	return fmt.Sprintf("%v@%d", p, l)
})

// Parent is the observation "this node's parent is p, at level l" (the
// root: p itself, level 0).
func Parent(p model.NodeID, level int) model.Obs {
	return model.Obs{Kind: ObsParent, Arg: int(p)<<16 | level}
}

// Unpack returns the parent and level of an ObsParent observation's Arg.
func Unpack(arg int) (model.NodeID, int) { return model.NodeID(arg >> 16), arg & 0xffff }

// State is a node's place in the tree: its parent (None until invited)
// and level.
type State struct {
	Parent model.NodeID
	Level  int
}

func (s State) String() string {
	if s.Parent == model.None {
		return "no parent"
	}
	return fmt.Sprintf("parent %v level %d", s.Parent, s.Level)
}

// Msg is an invite; Level is the level its receiver takes if it accepts.
type Msg struct{ Level int }

func (Msg) Kind() string     { return "invite" }
func (m Msg) String() string { return fmt.Sprintf("invite(%d)", m.Level) }

// start is the root's "parent = myId; level = 0" and its invites to all
// neighbours, or a node without a parent.
func start(env *model.Env, observe func(model.Obs), send func([]model.NodeID, Msg)) State {
	if env.Self() != Root {
		return State{Parent: model.None}
	}
	observe(Parent(Root, 0))
	send(env.Neighbors(), Msg{Level: 1})
	return State{Parent: Root}
}

// invited is the notes' handleMsg: on the first invite, take its sender
// as parent and invite every other neighbour; ignore later invites.
func invited(env *model.Env, s State, from model.NodeID, m Msg, observe func(model.Obs), send func([]model.NodeID, Msg)) State {
	if s.Parent != model.None {
		return s
	}
	s = State{Parent: from, Level: m.Level}
	observe(Parent(from, m.Level))
	others := slices.DeleteFunc(env.Neighbors(), func(j model.NodeID) bool { return j == from })
	send(others, Msg{Level: m.Level + 1})
	return s
}

// Protocol is the notes' simple algorithm on the asynchronous network.
type Protocol struct{}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	return start(&ctx.Env, ctx.Observe, ctx.SendAll)
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	return invited(&ctx.Env, s, from, m, ctx.Observe, ctx.SendAll)
}

// Round is the notes' SynchBfsTree: the root invites its neighbours in
// pulse 0, and in every pulse a node without a parent takes the first
// invite of the pulse (in sender order) and invites its other neighbours.
// It runs N pulses, as SynchBfsTree's loop does: a node at distance d is
// invited in pulse d ≤ N-1.
type Round struct{}

func (Round) Start(ctx *round.Ctx[Msg]) State {
	return start(&ctx.Env, ctx.Observe, ctx.SendAll)
}

func (Round) Pulse(ctx *round.Ctx[Msg], s State, _ int, in []round.In[Msg]) State {
	for _, m := range in {
		s = invited(&ctx.Env, s, m.From, m.Msg, ctx.Observe, ctx.SendAll)
	}
	return s
}

func (Round) Pulses(env *model.Env) int { return env.N() }

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"invite"}}
}
