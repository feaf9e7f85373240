// Package twopc is two-phase commit written as a vigil protocol, the way a
// user of vigil writes one in their own module: handlers over one node's
// state, observations of its own, properties of its own, and a description
// for vigil's tools.
//
// It follows the two-phase commit protocol of Coulouris, Dollimore,
// Kindberg and Blair, Distributed Systems: Concepts and Design, 5th ed.,
// ch. 17.3 (after J. Gray, Notes on Data Base Operating Systems, 1978).
// Node 0 coordinates. Phase 1: it asks every participant canCommit?; a
// participant votes Yes, and is then prepared (uncertain: it may no longer
// decide alone), or votes No and aborts at once. Phase 2: the coordinator
// commits when every vote is Yes, aborts on a No or when a participant
// fails to vote (the timer on its vote, which waits on it), and tells
// everyone. The protocol blocks when the coordinator crashes while
// participants are prepared: they wait for a decision that never comes,
// "the participants may be delayed for a long time" (ch. 17.3.1).
package twopc

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
)

// Coordinator is the node that coordinates.
const Coordinator model.NodeID = 0

// Phase is where a node stands.
type Phase uint8

const (
	Working  Phase = iota // a participant not asked yet, or the coordinator collecting votes
	Asked                 // asked canCommit?, not voted yet
	Prepared              // voted Yes: uncertain until the coordinator decides
	Done                  // decided
)

func (p Phase) String() string { return [...]string{"working", "asked", "prepared", "done"}[p] }

// Decision is a node's outcome.
type Decision uint8

const (
	Undecided Decision = iota
	Abort
	Commit
)

func (d Decision) String() string { return [...]string{"undecided", "abort", "commit"}[d] }

// State is one node's state.
type State struct {
	Phase    Phase
	Vote     Decision // a participant's vote: Commit for Yes, Abort for No
	Decision Decision
	Yes      int // the coordinator's count of Yes votes
}

func (s State) String() string {
	out := s.Phase.String()
	if s.Vote != Undecided {
		out += " voted " + map[Decision]string{Commit: "yes", Abort: "no"}[s.Vote]
	}
	if s.Decision != Undecided {
		out += " " + s.Decision.String()
	}
	if s.Yes > 0 {
		out += fmt.Sprintf(" yes=%d", s.Yes)
	}
	return out
}

// MsgType is a message's type.
type MsgType uint8

const (
	CanCommit MsgType = iota + 1
	Yes
	No
	DoCommit
	DoAbort
)

// Msg is a message; its Kind names it in the message figures.
type Msg struct{ Type MsgType }

func (m Msg) Kind() string {
	return [...]string{"", "canCommit?", "yes", "no", "doCommit", "doAbort"}[m.Type]
}
func (m Msg) String() string { return m.Kind() }

// VoteTimer is the coordinator's timer on one participant's vote: under
// synchronous timing it fires only once that participant has crashed.
type VoteTimer model.NodeID

func (t VoteTimer) String() string { return "vote-" + model.NodeID(t).String() }

// RenameNodes renames the participant the timer waits on: a VoteTimer is
// a node id in a type of its own, which vigil renames only through it
// (see Interchangeable).
func (t VoteTimer) RenameNodes(to func(model.NodeID) model.NodeID) any {
	return VoteTimer(to(model.NodeID(t)))
}

// Vote is a participant's local action once asked: vote Yes or No.
type Vote uint8

const (
	VoteYes Vote = iota + 1
	VoteNo
)

func (v Vote) String() string { return [...]string{"", "vote yes", "vote no"}[v] }

// Observations of this protocol's own, which its properties read.
var (
	// Decided: the node decides; Arg is the Decision.
	Decided = model.NewObsKind("decided", func(arg int) string { return Decision(arg).String() })
	// Voted: a participant votes; Arg is its vote as a Decision.
	Voted = model.NewObsKind("voted", func(arg int) string { return map[Decision]string{Commit: "yes", Abort: "no"}[Decision(arg)] })
)

// Protocol is two-phase commit. Hasty is a bug for the tests: a
// coordinator that commits once a majority of participants voted Yes.
type Protocol struct{ Hasty bool }

func participants(ctx *model.Env) []model.NodeID {
	return ctx.Nodes(func(j model.NodeID) bool { return j != Coordinator })
}

// Interchangeable declares the participants interchangeable: no handler
// tells them apart, so vigil's exhaustive search explores one world of
// each family of worlds that differ only by which participant did what.
func (Protocol) Interchangeable(cfg *model.Config) [][]model.NodeID {
	if cfg.N < 3 {
		return nil
	}
	ps := make([]model.NodeID, 0, cfg.N-1)
	for j := Coordinator + 1; int(j) < cfg.N; j++ {
		ps = append(ps, j)
	}
	return [][]model.NodeID{ps}
}

// Init: the coordinator sends canCommit? to every participant and waits
// for their votes; alone, it commits at once.
func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if ctx.Self() != Coordinator {
		return State{}
	}
	ps := participants(&ctx.Env)
	if len(ps) == 0 {
		return decide(ctx, State{}, Commit)
	}
	ctx.SendAll(ps, Msg{CanCommit})
	for _, j := range ps {
		ctx.SetTimer(VoteTimer(j), j)
	}
	return State{}
}

// NetworkNeeds: the coordinator counts Yes votes, not voters, so a Yes
// delivered twice would be counted twice; vigil refuses set channels,
// which deliver any message any number of times.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: "the coordinator counts Yes votes, not voters"}
}

// Actions: a participant asked canCommit? votes Yes where the run allows
// Yes votes (parameter yes-votes, default 1) and No where it allows No
// votes (parameter no-votes, default 1).
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	if s.Phase != Asked {
		return nil
	}
	var votes []model.Action
	if env.Param("yes-votes", 1) != 0 {
		votes = append(votes, VoteYes)
	}
	if env.Param("no-votes", 1) != 0 {
		votes = append(votes, VoteNo)
	}
	return votes
}

// Do: a Yes vote leaves the participant prepared, a No vote aborts it.
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	if a == VoteYes {
		ctx.Observe(model.Obs{Kind: Voted, Arg: int(Commit)})
		ctx.Send(Coordinator, Msg{Yes})
		s.Phase, s.Vote = Prepared, Commit
		return s
	}
	ctx.Observe(model.Obs{Kind: Voted, Arg: int(Abort)})
	ctx.Send(Coordinator, Msg{No})
	s.Vote = Abort
	return decide(ctx, s, Abort)
}

func (p Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.Type {
	case CanCommit:
		s.Phase = Asked
	case Yes:
		ctx.CancelTimer(VoteTimer(from))
		s.Yes++
		all := ctx.N() - 1
		if p.Hasty {
			all = all/2 + 1
		}
		if s.Decision == Undecided && s.Yes == all {
			return tell(ctx, s, Commit)
		}
	case No:
		ctx.CancelTimer(VoteTimer(from))
		if s.Decision == Undecided {
			return tell(ctx, s, Abort)
		}
	case DoCommit:
		if s.Decision == Undecided {
			return decide(ctx, s, Commit)
		}
	case DoAbort:
		if s.Decision == Undecided {
			return decide(ctx, s, Abort)
		}
	}
	return s
}

// Timeout: a participant failed to vote, so the coordinator aborts.
func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, _ model.Timer) State {
	if s.Decision != Undecided {
		return s
	}
	return tell(ctx, s, Abort)
}

// Recover: a node's state is on stable storage and survives a crash.
func (Protocol) Recover(_ *model.Ctx[Msg], s State) State { return s }

// tell is the coordinator's decision, sent to every participant.
func tell(ctx *model.Ctx[Msg], s State, d Decision) State {
	m := Msg{DoCommit}
	if d == Abort {
		m = Msg{DoAbort}
	}
	for _, j := range participants(&ctx.Env) {
		ctx.CancelTimer(VoteTimer(j))
		ctx.Send(j, m)
	}
	return decide(ctx, s, d)
}

func decide(ctx *model.Ctx[Msg], s State, d Decision) State {
	ctx.Observe(model.Obs{Kind: Decided, Arg: int(d)})
	s.Phase, s.Decision = Done, d
	return s
}
