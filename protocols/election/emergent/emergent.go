// Package emergent is the emergent election of R. J. Anthony (Proceedings of
// the International Conference on Autonomic Computing, ICAC 2004,
// doi:10.1109/ICAC.2004.1301356), as the lecture notes Elections present it
// (section "Emergent Election Algorithm"; Anthony below): a small
// pool of slaves watches the master, and only the slaves elect its
// successor, whatever the number of idle machines.
//
// # Roles
//
// A node is master, slave, candidate or idle (Anthony's normal states
// master and slave, and its new states candidate and idle). The slave pool
// has a lower limit, parameter "pool-min" (default 1), and an upper limit,
// "pool-max" (default 2, at least pool-min): Anthony's "the trigger lower
// limit for pool size can be made different to the upper limit. (Stops
// flapping)". Candidates are in the pool; the master is not.
//
// At start-up the node of highest rank is the master and every node knows
// it; the others are idle and know no slaves, so the pool emerges by
// promotion.
//
// # Heartbeats
//
// Heartbeats are abstracted by timers that wait on the node whose
// heartbeat they listen to: under Sync timing such a timer fires only once
// that node has crashed and nothing from it is in flight, exactly "the
// heartbeat disappeared"; under Async timing it may fire at any time, a
// heartbeat merely late.
//
//   - Master heartbeat: a slave watches its master (timer "master").
//   - Slave heartbeats: a slave announces joining and leaving the pool to
//     every node ("slave-hello", "slave-bye"), and every node but the master
//     tracks the pool, watching each slave it knows (timer "slave-n<id>") to
//     learn of its failure. The master acknowledges hellos but does not
//     track the pool.
//
// # The pool
//
// An idle node that knows fewer slaves than pool-min promotes itself:
// "when an idle machine registers that there are too few slaves it
// promotes itself to a slave state". Anthony makes the trigger "different
// for different machines. Thus we don't get every idle (or slave) machine
// making the transition simultaneously"; untimed, the model staggers by
// rank: an idle node with too few slaves first waits (timer "promote") on
// the nodes of higher rank that it knows neither as slaves nor as the
// master nor as replaced masters, that is on the idle nodes above it, and promotes once they have
// all crashed (under Sync timing) or at once if there are none. Nor does it
// wait on a slave whose heartbeat it saw disappear, until it hears from it
// again: that slave is no idle node about to promote, and when only a lost
// message made it seem crashed (it may have become the master, its
// announcement lost), waiting on it would be waiting for ever. A slave's
// hello ends the wait if it fills the pool. The promoting node sends slave-hello to every node and
// is joining until every node has acknowledged it ("slave-ack", carrying
// the acknowledging node's role, so that a node that knew nothing, as after
// a recovery, learns the pool and the master) or crashed (timer "join",
// waiting on the nodes yet to answer). Only then does it watch the master.
// The acknowledgement is the model's refinement of Anthony: it makes any
// two slaves that have finished joining know each other, without which two
// slaves promoted at once, their hellos crossing, could each elect
// themselves after a master crash.
//
// A slave (joining or not, but not a candidate) that knows pool-max slaves
// of higher rank than its own demotes itself: it sends slave-bye to every
// node and becomes idle ("if a slave registers there are too many slaves it
// drops back into an idle state"). Again the rank differentiates: only
// slaves outside the pool-max highest-ranked ones they know demote, so
// promotions that overlap (under Async timing, or after crashes) converge
// instead of flapping.
//
// # Election
//
// "Slaves monitor master heart-beat and when it disappears only the slaves
// enter the candidate state in which the election occurs." A slave whose
// master timer fires becomes a candidate for that lost master: it believes
// in no master, sends "candidate" (naming the lost master) to every pool
// member it knows, and to any pool member it learns of later. A candidate
// becomes master once it has heard a candidacy for the same lost master from
// every pool member it knows (or they have left the pool or crashed) and
// none of them has a higher rank; the new master leaves the pool and sends
// "master" to every node. The other candidates wait for that announcement
// and return to the slave state (or, if the winner crashes, take its place
// once its slave timer fires). A node that gets a master announcement
// believes in the sender and, if a slave, watches it; the new master's
// departure from the pool may prompt an idle node to promote.
//
// Candidacies are recorded by every slave (a slave can hear one before its
// own master timer fires) and matched by lost master. An announcement lists
// the masters known to have been replaced; a node ignores a late
// announcement (or acknowledgement) from any of them, which under FIFO
// links can arrive after its successor's when several crashes follow one
// another. A master ignores other masters' announcements: under Sync
// timing there are none.
//
// The master elected is the highest-ranked slave, not necessarily the
// highest-ranked live node: the protocol claims unique-leader, agreement,
// termination and pool-size (properties/pool.go), not highest-leader.
//
// # Failures
//
// Under Sync timing the election is safe with crashes at any time. Under
// Async timing a late master heartbeat is taken for a dead master and a
// slave elects itself while the master lives: two masters (Anthony:
// "conditions can be varied to discourage the system from entering the
// candidate state in the presence of say network instability").
//
// A node that recovers from a crash remembers nothing: it comes back idle,
// knowing no master and no slaves, and promotes itself at once (it has no
// one to wait for); the acknowledgements tell it the pool and the master,
// and it demotes again if the pool is full. A hello from a node one is
// waiting on counts as its acknowledgement (it restarted and lost ours). A
// hello from one's master means the master restarted: a slave stands for
// it, an idle node forgets it. A slave that finishes joining without
// knowing a master stands for the master it hears candidates name, or
// starts an election of its own (lost master none). With one crash and one
// recovery no two masters arise, but agreement fails: a node that the new
// master's announcement has not reached yet still believes in the old
// master, which is alive again under its old identifier (scenario
// "recovery"; idle nodes do not watch the master). With
// more recoveries termination and pool-size fail too; recoveries are
// outside the claims.
//
// # Messages
//
// Without crashes only the idle node of highest rank promotes, the others
// waiting on it, and with pool-min 1 the pool is that one slave: N-1
// slave-hello and N-1 slave-ack messages, 2(N-1) in all, in every run, and
// no slave-bye, candidate or master message:
//
//	N   slave-hello  slave-ack  total
//	3   2            2          4
//	4   3            3          6
//	5   4            4          8
//	6   5            5          10
//
// With pool-min 2 the two idle nodes of highest rank promote, one after the
// other: 4(N-1) messages. An election after a master crash costs k(k-1)
// candidate messages for a pool of k (and one more to each slave that joins
// meanwhile: at most 3 with pool-min 2 at N = 5 and one crash), and N-1
// master messages, whatever the number of idle nodes ("candidate elections take the same length of
// time independent of the idle pool").
package emergent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Role is a node's role.
type Role uint8

const (
	Idle Role = iota
	Slave
	Candidate
	Master
)

func (r Role) String() string { return [...]string{"idle", "slave", "candidate", "master"}[r] }

// Vote records that From is a candidate to replace Lost.
type Vote struct{ From, Lost model.NodeID }

// State is one node's state.
type State struct {
	Role   Role
	Master model.NodeID // the master it believes in; None: none
	Lost   model.NodeID // a candidate's lost master; None otherwise
	// Pool: the other pool members it knows (not the master), by id.
	Pool []model.NodeID
	// Joining: a slave that promoted itself waits for these nodes'
	// acknowledgements.
	Joining []model.NodeID
	// Votes: the candidacies it has heard, by sender.
	Votes []Vote
	// Gone: masters it knows were replaced, whose late announcements it
	// ignores.
	Gone []model.NodeID
	// Down: slaves whose heartbeat it saw disappear, and has not heard
	// from since: it does not wait on them to promote.
	Down []model.NodeID
}

func (s State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v M=%v", s.Role, s.Master)
	if s.Role == Candidate {
		fmt.Fprintf(&b, " lost=%v", s.Lost)
	}
	if len(s.Pool) > 0 {
		fmt.Fprintf(&b, " pool%v", s.Pool)
	}
	if len(s.Joining) > 0 {
		fmt.Fprintf(&b, " joining%v", s.Joining)
	}
	if len(s.Votes) > 0 {
		var vs []string
		for _, v := range s.Votes {
			vs = append(vs, v.From.String()+":"+v.Lost.String())
		}
		fmt.Fprintf(&b, " votes[%s]", strings.Join(vs, " "))
	}
	if len(s.Gone) > 0 {
		fmt.Fprintf(&b, " gone%v", s.Gone)
	}
	if len(s.Down) > 0 {
		fmt.Fprintf(&b, " down%v", s.Down)
	}
	return b.String()
}

// Kind is a message kind.
type Kind uint8

const (
	Hello     Kind = iota // a slave joins the pool
	Ack                   // the answer to Hello, with the sender's role
	Bye                   // a slave leaves the pool
	Candidacy             // a candidate stands to replace Lost
	Announce              // the sender is the new master
)

// Msg is a message. Role is set in Ack only; Lost, in Candidacy only, is
// the master the election replaces; Gone, in Announce only, lists every
// master the new master knows was replaced, the one it replaces included.
type Msg struct {
	K    Kind
	Role Role
	Lost model.NodeID
	Gone []model.NodeID
}

func (m Msg) Kind() string {
	return [...]string{"slave-hello", "slave-ack", "slave-bye", "candidate", "master"}[m.K]
}

func (m Msg) String() string {
	switch m.K {
	case Ack:
		return fmt.Sprintf("slave-ack(%v)", m.Role)
	case Candidacy:
		return fmt.Sprintf("candidate(lost %v)", m.Lost)
	case Announce:
		return fmt.Sprintf("master(gone %v)", m.Gone)
	}
	return m.Kind()
}

// Timer names a node's own timers.
type Timer uint8

const (
	MasterTimer  Timer = iota + 1 // the master's heartbeat
	PromoteTimer                  // an idle node's staggered promotion
)

func (t Timer) String() string { return [...]string{"", "master", "promote"}[t] }

// JoinTimer is a joining slave's timer on node j's acknowledgement of its
// hello. One timer per node rather than one on the nodes still to answer:
// a timer re-armed on fewer nodes would forget that a lost acknowledgement
// had expired it, and the slave would wait forever for an answer that
// never comes.
type JoinTimer model.NodeID

func (t JoinTimer) String() string { return "join-" + model.NodeID(t).String() }

// Kind: the timers on every acknowledgement are one kind.
func (JoinTimer) Kind() string { return "join" }

// SlaveTimer is the master's timer watching slave j's heartbeat.
type SlaveTimer model.NodeID

func (t SlaveTimer) String() string { return "slave-" + model.NodeID(t).String() }

// Kind: the timers on every slave are one kind.
func (SlaveTimer) Kind() string { return "slave" }

// Protocol implements model.Protocol.
type Protocol struct{}

func poolMin(ctx *model.Ctx[Msg]) int { return ctx.Param(properties.PoolMinParam, 1) }
func poolMax(ctx *model.Ctx[Msg]) int { return ctx.Param(properties.PoolMaxParam, 2) }

func others(ctx *model.Ctx[Msg]) []model.NodeID {
	return ctx.Nodes(func(model.NodeID) bool { return true })
}

// highest is the node of highest rank, the first master.
func highest(ctx *model.Ctx[Msg]) model.NodeID {
	best := model.NodeID(0)
	for j := model.NodeID(1); int(j) < ctx.N(); j++ {
		if ctx.Rank(j) > ctx.Rank(best) {
			best = j
		}
	}
	return best
}

// with is the sorted set xs with x added, xs itself if it holds x: the
// sets of a state are shared with the states before it, never changed in
// place.
func with(xs []model.NodeID, x model.NodeID) []model.NodeID {
	at, found := slices.BinarySearch(xs, x)
	if found {
		return xs
	}
	return slices.Insert(slices.Clip(xs), at, x)
}

// without is the set xs less x, xs itself if it lacks x (see with).
func without(xs []model.NodeID, x model.NodeID) []model.NodeID {
	at := slices.Index(xs, x)
	switch {
	case at < 0:
		return xs
	case len(xs) == 1:
		return nil
	}
	return append(xs[:at:at], xs[at+1:]...)
}

// withoutVote is vs less the votes that keep turns down, vs itself if it
// keeps them all (see with).
func withoutVote(vs []Vote, keep func(Vote) bool) []Vote {
	if !slices.ContainsFunc(vs, func(v Vote) bool { return !keep(v) }) {
		return vs
	}
	var out []Vote
	for _, v := range vs {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

// voted reports whether from stands to replace lost.
func voted(vs []Vote, from, lost model.NodeID) bool {
	return slices.Contains(vs, Vote{From: from, Lost: lost})
}

// join records slave j in the pool and watches its heartbeat.
func join(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	if slices.Contains(s.Pool, j) {
		return s
	}
	s.Pool = with(s.Pool, j)
	ctx.SetTimer(SlaveTimer(j), j)
	return s
}

// leave forgets slave j: it left the pool, crashed or became master.
func leave(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	s.Votes = withoutVote(s.Votes, func(v Vote) bool { return v.From != j })
	if !slices.Contains(s.Pool, j) {
		return s
	}
	s.Pool = without(s.Pool, j)
	ctx.CancelTimer(SlaveTimer(j))
	return s
}

// settle applies the pool's rules: an idle node with too few slaves
// promotes, a slave with pool-max slaves above it demotes, a candidate that
// has heard enough decides.
func settle(ctx *model.Ctx[Msg], s State) State {
	switch s.Role {
	case Idle:
		if len(s.Pool) >= poolMin(ctx) {
			ctx.CancelTimer(PromoteTimer)
			return s
		}
		// too few slaves: promote, after the idle nodes of higher rank
		wait := ctx.Nodes(func(j model.NodeID) bool {
			return ctx.Rank(j) > ctx.MyRank() && j != s.Master && !slices.Contains(s.Pool, j) && !slices.Contains(s.Gone, j) && !slices.Contains(s.Down, j)
		})
		if len(wait) == 0 {
			return promote(ctx, s)
		}
		ctx.SetTimer(PromoteTimer, wait...)
	case Slave:
		above := 0
		for _, j := range s.Pool {
			if ctx.Rank(j) > ctx.MyRank() {
				above++
			}
		}
		if above >= poolMax(ctx) {
			return demote(ctx, s)
		}
	case Candidate:
		return decide(ctx, s)
	}
	return s
}

// promote: too few slaves, so become one and tell everyone.
func promote(ctx *model.Ctx[Msg], s State) State {
	ctx.Observe(model.InPool(true))
	ctx.CancelTimer(PromoteTimer)
	s.Role, s.Votes = Slave, nil
	all := others(ctx)
	ctx.SendAll(all, Msg{K: Hello})
	if len(all) == 0 {
		return joined(ctx, s)
	}
	s.Joining = all
	for _, j := range all {
		ctx.SetTimer(JoinTimer(j), j)
	}
	return s
}

// joined: every node acknowledged the hello or crashed; watch the master.
func joined(ctx *model.Ctx[Msg], s State) State {
	s.Joining = nil
	if s.Master != model.None {
		ctx.SetTimer(MasterTimer, s.Master)
		return s
	}
	// No master known (after a recovery): join the election under way, or
	// start one.
	if len(s.Votes) > 0 {
		return stand(ctx, s, s.Votes[0].Lost)
	}
	return stand(ctx, s, model.None)
}

// acked: node j has answered a joining slave's hello.
func acked(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	ctx.CancelTimer(JoinTimer(j))
	return heard(ctx, s, j)
}

// heard: node j answered or is gone; the slave has joined once no node is
// left to hear from.
func heard(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	if s.Joining = without(s.Joining, j); len(s.Joining) > 0 {
		return s
	}
	return joined(ctx, s)
}

// demote: too many slaves, so drop back to idle, still tracking the pool.
func demote(ctx *model.Ctx[Msg], s State) State {
	for _, j := range s.Joining {
		ctx.CancelTimer(JoinTimer(j))
	}
	ctx.CancelTimer(MasterTimer)
	ctx.Observe(model.InPool(false))
	ctx.SendAll(others(ctx), Msg{K: Bye})
	s.Role, s.Joining, s.Votes = Idle, nil, nil
	return s
}

// stand: the master's heartbeat disappeared; become a candidate to replace it.
func stand(ctx *model.Ctx[Msg], s State, lost model.NodeID) State {
	ctx.CancelTimer(MasterTimer)
	if s.Master != model.None {
		ctx.Observe(model.Leader(model.None))
	}
	s.Role, s.Master, s.Lost = Candidate, model.None, lost
	ctx.SendAll(s.Pool, Msg{K: Candidacy, Lost: lost})
	return decide(ctx, s)
}

// decide: a candidate that has heard every pool member it knows stand for
// the same lost master, all of lower rank, becomes the master.
func decide(ctx *model.Ctx[Msg], s State) State {
	for _, j := range s.Pool {
		if ctx.Rank(j) > ctx.MyRank() || !voted(s.Votes, j, s.Lost) {
			return s
		}
	}
	for _, j := range s.Pool {
		ctx.CancelTimer(SlaveTimer(j))
	}
	ctx.Observe(model.InPool(false))
	ctx.Observe(model.Leader(ctx.Self()))
	gone := s.Gone
	if s.Lost != model.None {
		gone = with(gone, s.Lost)
	}
	ctx.SendAll(others(ctx), Msg{K: Announce, Gone: gone})
	return State{Role: Master, Master: ctx.Self(), Lost: model.None}
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	m := highest(ctx)
	ctx.Observe(model.Leader(m))
	if m == ctx.Self() {
		return State{Role: Master, Master: m, Lost: model.None}
	}
	return settle(ctx, State{Role: Idle, Master: m, Lost: model.None})
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	if slices.Contains(s.Down, from) { // it lives: its heartbeat was only lost
		s.Down = without(s.Down, from)
	}
	switch m.K {
	case Hello:
		ctx.Send(from, Msg{K: Ack, Role: s.Role})
		if s.Role == Master {
			return s
		}
		// a fresh member, perhaps a node that crashed and restarted
		s.Votes = withoutVote(s.Votes, func(v Vote) bool { return v.From != from })
		s.Gone = without(s.Gone, from)
		s = join(ctx, s, from)
		if s.Role == Candidate {
			ctx.Send(from, Msg{K: Candidacy, Lost: s.Lost})
		}
		if slices.Contains(s.Joining, from) {
			// it lost our hello: it learns us from our answer
			s = acked(ctx, s, from)
		}
		if from == s.Master { // the master restarted: it is gone
			if s.Role == Slave && len(s.Joining) == 0 {
				return settle(ctx, stand(ctx, s, from))
			}
			ctx.Observe(model.Leader(model.None))
			s.Master = model.None
		}
		return settle(ctx, s)
	case Ack:
		if !slices.Contains(s.Joining, from) {
			return s
		}
		switch m.Role {
		case Slave, Candidate:
			s = join(ctx, s, from)
		case Master:
			if slices.Contains(s.Gone, from) {
				break // a late answer of a replaced master
			}
			s = leave(ctx, s, from)
			if s.Master != from {
				ctx.Observe(model.Leader(from))
				s.Master = from
			}
		}
		return settle(ctx, acked(ctx, s, from))
	case Bye:
		if s.Role == Master {
			return s
		}
		return settle(ctx, leave(ctx, s, from))
	case Candidacy:
		// "Only the slaves enter the candidate state in which the election
		// occurs" (Anthony): slaves and candidates record candidacies; the
		// master and idle nodes take no part, and would never read a vote
		// (promote and demote clear them).
		if s.Role != Slave && s.Role != Candidate {
			return s
		}
		vs := withoutVote(s.Votes, func(v Vote) bool { return v.From != from })
		vs = append(vs, Vote{From: from, Lost: m.Lost})
		slices.SortFunc(vs, func(a, b Vote) int { return int(a.From) - int(b.From) })
		s.Votes = vs
		// A slave without a master is still joining: joined makes it
		// stand at once, for the lost master these votes name. A
		// candidate of an election of its own (lost none: it knew no
		// master) joins one that names the lost master.
		if s.Role == Candidate && s.Lost == model.None && m.Lost != model.None {
			return stand(ctx, s, m.Lost)
		}
		return settle(ctx, s)
	case Announce:
		if s.Role == Master || slices.Contains(s.Gone, from) {
			return s // under Sync timing, only a late announcement of a replaced master
		}
		for _, g := range m.Gone {
			s.Gone = with(s.Gone, g)
			s = leave(ctx, s, g)
		}
		s = leave(ctx, s, from)
		if s.Master != from {
			ctx.Observe(model.Leader(from))
			s.Master = from
		}
		if s.Role == Candidate { // the election is over
			lost := s.Lost
			s.Votes = withoutVote(s.Votes, func(v Vote) bool { return v.Lost != lost })
			s.Role, s.Lost = Slave, model.None
		}
		if s.Role == Slave && len(s.Joining) == 0 {
			ctx.SetTimer(MasterTimer, from)
		}
		return settle(ctx, s)
	}
	return s // unreachable: the cases name every message kind
}

func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	switch t := t.(type) {
	case Timer:
		return timeout(ctx, s, t)
	case SlaveTimer:
		if !slices.Contains(s.Pool, model.NodeID(t)) {
			// unreachable: a node cancels its timer on a slave as the
			// slave leaves its pool (leave), and on all of them as it
			// becomes master (decide)
			panic(fmt.Sprintf("timer %v fired, but %v is not in the pool", t, model.NodeID(t)))
		}
		// the slave's heartbeat disappeared: it crashed, or (a message
		// lost) seems to have; either way it will not promote
		s.Down = with(s.Down, model.NodeID(t))
		return settle(ctx, leave(ctx, s, model.NodeID(t)))
	case JoinTimer:
		if !slices.Contains(s.Joining, model.NodeID(t)) {
			// unreachable: a node cancels its timer on an acknowledgement
			// as it arrives (acked) and on all of them as it demotes
			panic(fmt.Sprintf("timer %v fired, but %v owes no acknowledgement", t, model.NodeID(t)))
		}
		// no answer: the node crashed (or its answer was lost)
		return settle(ctx, heard(ctx, s, model.NodeID(t)))
	}
	return s // unreachable: the protocol arms a Timer, a SlaveTimer or a JoinTimer only
}

func timeout(ctx *model.Ctx[Msg], s State, t Timer) State {
	switch t {
	case MasterTimer:
		if s.Role != Slave || len(s.Joining) > 0 || s.Master == model.None {
			// unreachable: only a slave that has joined watches a master,
			// and every step that ends that cancels the timer (stand,
			// demote)
			panic(fmt.Sprintf("the master timer fired at a %v (master %v, joining %v)", s.Role, s.Master, s.Joining))
		}
		return stand(ctx, s, s.Master)
	case PromoteTimer:
		if s.Role != Idle {
			// unreachable: only an idle node waits to promote, and it
			// cancels the wait as it promotes
			panic(fmt.Sprintf("the promote timer fired at a %v", s.Role))
		}
		return promote(ctx, s)
	}
	return s // unreachable: the protocol arms these two Timers only
}

// Recover: a restarted node remembers nothing and comes back idle, so it
// promotes itself and learns the pool and the master from the
// acknowledgements.
func (Protocol) Recover(ctx *model.Ctx[Msg], _ State) State {
	return promote(ctx, State{Role: Idle, Master: model.None, Lost: model.None})
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"slave-hello", "slave-ack", "slave-bye", "candidate", "master"}, Timers: []string{"master", "promote", "join", "slave"}}
}
