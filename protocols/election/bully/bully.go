// Package bully is the bully election of H. Garcia-Molina, Elections in a
// Distributed Computing System (IEEE Transactions on Computers C-31(1),
// 1982), as three works present it:
//
//   - the lecture notes Distributed Coordination: Leader Election, after
//     V. K. Garg, Elements of Distributed Computing, and S. Ghosh,
//     Distributed Systems (the Leader Election notes below): the
//     guarded-command program, with states idle, wait_reply, wait_leader;
//   - V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
//     Distributed Systems, KTH), after G. Coulouris et al., Distributed
//     Systems: Concepts and Design, ch. 15 (Vlassov and Montelius below):
//     election, answer and coordinator messages, and the safety caveats;
//   - A. Silberschatz, P. B. Galvin and G. Gagne, Operating System
//     Concepts, ch. 18, Distributed Coordination (Silberschatz et al.
//     below): a recovered process starts an election.
//
// A node that starts an election sends election to every node of higher
// rank and waits for an answer (timer T, "answer"). A node that gets election
// from a lower node answers and, unless already in an election, starts its
// own; a node that leads already answers and sends the asker coordinator
// instead of electing itself again. With no answer before T the node elects itself and sends coordinator
// to every lower node; with an answer it waits for the coordinator (timer
// T', "coordinator") and starts again if none comes. A node that knows its
// leader watches it (timer "leader-check": the `failed` flag of the Leader
// Election notes' program, set when the current leader fails) and starts an election when it fails. A node
// that recovers from a crash remembers nothing and starts an election. A
// coordinator message is believed whoever sends it, as in Vlassov and
// Montelius.
//
// Every timer waits on the nodes whose silence it detects: T and T' on the
// higher nodes, leader-check on the leader. Under Sync timing (a perfect
// failure detector) the algorithm is safe and every live node ends up
// following the highest live node, with crashes at any point. Under Async
// timing a timer can fire while a higher node is merely slow, and two nodes
// can believe themselves leader at once (Vlassov and Montelius: "condition
// E1 may be broken if the assumed timeout values are inaccurate"). With a
// recovery, a crashed node comes back with its old identifier, finds no
// higher node and declares itself leader while the leader elected in its
// absence still believes it leads: in Vlassov and Montelius's words, "not
// guaranteed to meet the safety condition E1 if processes that have crashed
// are replaced by processes with the same identifiers".
//
// The election is reusable: Elector runs it inside another protocol with
// messages of that protocol's type (protocols/work/dynamic elects its
// coordinator so), and Protocol is the Elector over bully's own messages.
//
// Messages: an election started by the node of rank k among N sends N-1-k
// election messages; the worst case, every node starting at once on a
// sorted ring, is O(N²) (Vlassov and Montelius).
package bully

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
)

// Status is the program's state (the Leader Election notes): idle,
// wait_reply or wait_leader.
type Status uint8

const (
	Idle Status = iota
	WaitReply
	WaitLeader
)

func (s Status) String() string { return [...]string{"idle", "wait_reply", "wait_leader"}[s] }

// State is one node's state: its status and L(i), the leader it knows.
type State struct {
	Status Status
	Leader model.NodeID
}

func (s State) String() string { return fmt.Sprintf("%v L=%v", s.Status, s.Leader) }

// Kind is a message kind.
type Kind uint8

const (
	Election Kind = iota
	Answer
	Coordinator
)

// Msg is one of election, answer (the Leader Election notes' reply) and
// coordinator (leader).
type Msg struct{ K Kind }

func (m Msg) Kind() string   { return [...]string{"election", "answer", "coordinator"}[m.K] }
func (m Msg) String() string { return m.Kind() }

// Timer names the bully algorithm's timers.
type Timer uint8

const (
	AnswerTimer      Timer = iota + 1 // T: waiting for an answer
	CoordinatorTimer                  // T': waiting for the coordinator
	LeaderCheck                       // the current leader's failure
)

func (t Timer) String() string { return [...]string{"", "answer", "coordinator", "leader-check"}[t] }

// status is the one status t is armed in: T in wait_reply, set as the node
// starts an election; T' in wait_leader, set as an answer comes; the leader
// check in idle, following another node. Every step that leaves the status
// cancels the timer.
func (t Timer) status() Status { return [...]Status{Idle, WaitReply, WaitLeader, Idle}[t] }

// Protocol implements model.Protocol: the bully election on its own, an
// Elector whose messages are its own.
type Protocol struct{}

// own runs the election with bully's own messages.
var own = Elector[Msg](func(m Msg) Msg { return m })

// Elector runs the bully election inside another protocol, whose messages
// are M: it turns each bully message into an M (a field of the enclosing
// message, say). The enclosing protocol keeps a State among its own fields,
// hands the election its bully messages (Receive) and bully Timer values
// (Timeout), and reads State.Leader after each call to learn whether the
// node has just become, or ceased to be, the coordinator. The election's
// effects are exactly those of Protocol: the same sends, timers and
// model.Leader observations, so properties.UniqueLeader and its family
// judge the embedded election as they judge bully's own runs.
type Elector[M any] func(Msg) M

// Start is guarded command 1: ∀ j > i send election to j;
// state := wait_reply. With no higher node there is no one to wait for.
func (e Elector[M]) Start(ctx *model.Ctx[M]) State {
	ctx.CancelTimer(CoordinatorTimer)
	ctx.CancelTimer(LeaderCheck)
	ctx.Observe(model.Leader(model.None))
	up := ctx.Higher()
	if len(up) == 0 {
		return e.becomeLeader(ctx)
	}
	ctx.SendAll(up, e(Msg{Election}))
	ctx.SetTimer(AnswerTimer, up...)
	return State{Status: WaitReply, Leader: model.None}
}

// becomeLeader is guarded command 4: L(i) := i; send coordinator to the
// lower nodes; state := idle.
func (e Elector[M]) becomeLeader(ctx *model.Ctx[M]) State {
	ctx.CancelTimer(AnswerTimer)
	ctx.SendAll(ctx.Lower(), e(Msg{Coordinator}))
	ctx.Observe(model.Leader(ctx.Self()))
	return State{Status: Idle, Leader: ctx.Self()}
}

// Init is the state at start-up: an initiator starts an election, the
// others wait idle, knowing no leader.
func (e Elector[M]) Init(ctx *model.Ctx[M]) State {
	if ctx.Initiator() {
		return e.Start(ctx)
	}
	return State{Status: Idle, Leader: model.None}
}

// Follow is the state of a node that starts out knowing its leader, as
// after an election that ended before the run begins: the leader knows
// itself, the others watch it (timer leader-check), and each reports whom
// it believes. Nothing is sent.
func (e Elector[M]) Follow(ctx *model.Ctx[M], leader model.NodeID) State {
	if leader != ctx.Self() {
		ctx.SetTimer(LeaderCheck, leader)
	}
	ctx.Observe(model.Leader(leader))
	return State{Status: Idle, Leader: leader}
}

// Receive handles bully message m from node from.
func (e Elector[M]) Receive(ctx *model.Ctx[M], s State, from model.NodeID, m Msg) State {
	switch m.K {
	case Election:
		// command 2: send reply to sender; join unless already electing.
		// A leader has nothing to find out: it tells the sender who leads.
		ctx.Send(from, e(Msg{Answer}))
		if s.Status == Idle && s.Leader == ctx.Self() {
			ctx.Send(from, e(Msg{Coordinator}))
		} else if s.Status == Idle {
			return e.Start(ctx)
		}
	case Answer:
		// command 3: state := wait_leader, until T' runs out
		if s.Status == WaitReply {
			ctx.CancelTimer(AnswerTimer)
			ctx.SetTimer(CoordinatorTimer, ctx.Higher()...)
			s.Status = WaitLeader
		}
	case Coordinator:
		// command 5: L(i) := sender; state := idle; watch the new leader
		ctx.CancelTimer(AnswerTimer)
		ctx.CancelTimer(CoordinatorTimer)
		ctx.SetTimer(LeaderCheck, from)
		ctx.Observe(model.Leader(from))
		return State{Status: Idle, Leader: from}
	}
	return s
}

// Timeout handles the firing of the election's timer t. Each timer is
// armed in one status only, and every step that leaves it cancels the
// timer: one that fires elsewhere is a bug of this program's, and panics.
func (e Elector[M]) Timeout(ctx *model.Ctx[M], s State, t Timer) State {
	if want := t.status(); s.Status != want || t == LeaderCheck && s.Leader == ctx.Self() {
		// unreachable: see Timer.status
		panic(fmt.Sprintf("timer %v fired in state %v (leader %v): it is armed only in %v", t, s.Status, s.Leader, want))
	}
	switch t {
	case AnswerTimer: // command 4: no reply, so no live higher node
		return e.becomeLeader(ctx)
	case CoordinatorTimer: // command 6: the leader-elect has crashed
		return e.Start(ctx)
	case LeaderCheck: // command 1: the current leader failed
		return e.Start(ctx)
	}
	return s // unreachable: the cases name every Timer
}

// Recover: a restarted node remembers nothing and starts an election
// (Silberschatz et al.).
func (e Elector[M]) Recover(ctx *model.Ctx[M], _ State) State { return e.Start(ctx) }

func (Protocol) Init(ctx *model.Ctx[Msg]) State { return own.Init(ctx) }

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	return own.Receive(ctx, s, from, m)
}

func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	if bt, ok := t.(Timer); ok {
		return own.Timeout(ctx, s, bt)
	}
	return s // unreachable: the protocol arms bully timers only
}

func (Protocol) Recover(ctx *model.Ctx[Msg], s State) State { return own.Recover(ctx, s) }

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"election", "answer", "coordinator"}, Timers: []string{"answer", "coordinator", "leader-check"}}
}
