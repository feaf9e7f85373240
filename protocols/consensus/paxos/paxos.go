// Package paxos is single-decree Paxos after L. Lamport, Paxos Made Simple
// (ACM SIGACT News 32(4), 2001), the paper's section 2 (Lamport below).
//
// Every node is an acceptor and a learner; the first P nodes (parameter
// proposers, default 2) are also proposers, proposer i proposing the value
// i+1. The handlers follow the paper's phases:
//
//   - Phase 1a: a proposer picks a proposal number n and sends prepare(n)
//     to every acceptor. Proposer i's r-th ballot (from r = 0) is
//     r·P + i + 1: numbers of different proposers differ, and each
//     proposer's grow.
//   - Phase 1b: an acceptor that gets prepare(n) with n greater than that
//     of any prepare request it has already responded to promises not to
//     accept a proposal numbered less than n and replies promise(n, the
//     highest-numbered proposal it has accepted, if any).
//   - Phase 2a: a proposer that has promises for n from a majority of
//     acceptors sends accept(n, v), v the value of the highest-numbered
//     proposal among the promises, or its own value if they report none.
//   - Phase 2b: an acceptor accepts accept(n, v) unless it has responded to
//     a prepare request numbered greater than n, and tells every learner
//     accepted(n, v).
//   - A learner that has accepted(n, v) from a majority of acceptors for
//     the same n learns v (properties.Learn), once.
//
// An acceptor ignores what it does not grant (the paper's optimisation of
// telling the proposer is left out). A proposer whose ballot gets nowhere
// tries again on its retry timer with its next ballot, while it has
// ballots left (parameter ballots, per proposer, default 1: no retry; 0:
// no bound). The paper's progress argument needs a distinguished
// proposer: the retry timer of proposer i waits on the proposers above it,
// so that under Sync timing (a perfect failure detector) a proposer tries
// again only once every higher proposer has crashed, and the highest live
// proposer is the distinguished one. The highest proposer's timer waits on
// itself: no proposer can pre-empt it under Sync timing, so it never gives
// up while it lives. Under Async timing every retry timer may fire at any
// time, and proposers duel: each new prepare makes the acceptors refuse
// the other's accept, for as long as ballots last. A proposer that learns
// a value stops retrying.
//
// Crashes: acceptors keep their promise and accepted proposal on stable
// storage, as Lamport assumes ("an acceptor must remember this
// information even if it fails and then restarts"), and so does every
// node the rest of its state (a proposer the number of ballots it has
// issued, since it must never issue the same number twice; a learner what
// it learned). Parameter acceptor=forgetful drops the acceptor's part on
// Recover, and parameter value=own makes a proposer send its own value
// whatever the promises report: each breaks agreement, as the scenarios
// show. Parameter report=promised makes a promise report the number just
// promised as the number of the proposal accepted (the two numbers an
// acceptor keeps, mixed up): a proposer then takes the value of a proposal
// never accepted, none (0) where nothing was, which no proposer proposed.
//
// A node's messages to itself (a proposer's to its own acceptor, an
// acceptor's to its own learner) are handled within the step that sends
// them, never sent over the network. So with no fault and one ballot per
// proposer, at N nodes, the highest ballot costs N-1 prepare, N-1 promise,
// N-1 accept and N(N-1) accepted: every acceptor promises and accepts it.
// A lower ballot costs its N-1 prepare and whatever of the rest its race
// with the higher one allows (the scenario no-crash counts N = 3).
package paxos

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Parameters of a run, read with model.Env.Param.
const (
	ProposersParam = "proposers" // how many nodes, the first ones, propose (default 2)
	BallotsParam   = "ballots"   // ballots per proposer (default 1; 0: no bound)
	AcceptorParam  = "acceptor"  // Stable or Forgetful (default Stable)
	ValueParam     = "value"     // Highest or Own (default Highest)
	ReportParam    = "report"    // ReportAccepted or ReportPromised (default ReportAccepted)
)

// Values of AcceptorParam.
const (
	Stable    = iota // Recover keeps the promise and the accepted proposal
	Forgetful        // Recover forgets them: a bug
)

// Values of ValueParam.
const (
	Highest = iota // phase 2a takes the value of the highest-numbered proposal promised
	Own            // phase 2a always takes the proposer's own value: a bug
)

// Values of ReportParam.
const (
	ReportAccepted = iota // a promise reports the highest-numbered proposal accepted
	ReportPromised        // it reports the number just promised with the value accepted, if any: a bug
)

// Proposal is a numbered proposal (n, v); N is 0 for none.
type Proposal struct{ N, V int }

func (p Proposal) String() string {
	if p.N == 0 {
		return "none"
	}
	return fmt.Sprintf("(%d,%d)", p.N, p.V)
}

// Tally is a learner's count of the acceptors that accepted one proposal.
type Tally struct {
	Proposal
	From uint64 // bit j: acceptor j accepted it
}

// State is one node's state: its acceptor's, its proposer's (zero on a
// node that does not propose) and its learner's.
type State struct {
	// acceptor
	Promised int      // the highest n of a prepare(n) answered, 0 for none
	Accepted Proposal // the highest-numbered proposal accepted
	// proposer
	Round    int      // ballots issued so far
	Ballot   int      // the current ballot's number, 0 for none
	Promises uint64   // bit j: acceptor j promised Ballot (until Asked)
	Highest  Proposal // the highest-numbered proposal in those promises
	Asked    bool     // accept(Ballot, v) sent
	// learner
	Tallies []Tally // sorted by proposal; nil once learned
	Learned int     // the value learned, 0 for none
}

func (s State) String() string {
	var parts []string
	if s.Promised != 0 || s.Accepted.N != 0 {
		parts = append(parts, fmt.Sprintf("promised %d accepted %v", s.Promised, s.Accepted))
	}
	if s.Ballot != 0 {
		p := fmt.Sprintf("ballot %d (round %d)", s.Ballot, s.Round)
		if s.Asked {
			p += " asked"
		} else if s.Promises != 0 {
			p += fmt.Sprintf(" promises %s highest %v", nodes(s.Promises), s.Highest)
		}
		parts = append(parts, p)
	}
	for _, t := range s.Tallies {
		parts = append(parts, fmt.Sprintf("accepted %v by %s", t.Proposal, nodes(t.From)))
	}
	if s.Learned != 0 {
		parts = append(parts, fmt.Sprintf("learned %d", s.Learned))
	}
	if len(parts) == 0 {
		return "idle"
	}
	return strings.Join(parts, "; ")
}

// nodes names the nodes of a set: "{n0 n2}".
func nodes(set uint64) string {
	var ns []string
	for ; set != 0; set &= set - 1 {
		ns = append(ns, model.NodeID(bits.TrailingZeros64(set)).String())
	}
	return "{" + strings.Join(ns, " ") + "}"
}

// Kind is a message kind.
type Kind uint8

const (
	Prepare  Kind = iota // phase 1a: prepare(N)
	Promise              // phase 1b: promise(N, Acc)
	Accept               // phase 2a: accept(N, V)
	Accepted             // phase 2b: accepted(N, V)
)

// Msg is one of the paper's four messages.
type Msg struct {
	K   Kind
	N   int      // the proposal number
	V   int      // accept and accepted: the value
	Acc Proposal // promise: the highest-numbered proposal accepted
}

func (m Msg) Kind() string { return [...]string{"prepare", "promise", "accept", "accepted"}[m.K] }

func (m Msg) String() string {
	switch m.K {
	case Prepare:
		return fmt.Sprintf("prepare(%d)", m.N)
	case Promise:
		return fmt.Sprintf("promise(%d, %v)", m.N, m.Acc)
	}
	return fmt.Sprintf("%s(%d, %d)", m.Kind(), m.N, m.V)
}

// Timer is the proposer's timer.
type Timer uint8

// Retry: the proposer's ballot got nowhere; it tries its next one.
const Retry Timer = 1

func (Timer) String() string { return "retry" }

// Protocol implements model.Protocol: single-decree Paxos.
type Protocol struct{}

// proposers is P, the number of proposers.
func proposers(env *model.Env) int { return env.Param(ProposersParam, 2) }

// proposes reports whether the node is a proposer.
func proposes(env *model.Env) bool { return int(env.Self()) < proposers(env) }

// majority reports whether set holds more than half of the N acceptors.
func majority(env *model.Env, set uint64) bool { return 2*bits.OnesCount64(set) > env.N() }

// ballotsLeft reports whether a proposer that has issued s.Round ballots
// may issue another.
func ballotsLeft(env *model.Env, s State) bool {
	b := env.Param(BallotsParam, 1)
	return b == 0 || s.Round < b
}

// step is one handler call of a node: its context, and the messages the
// node has sent itself and not yet handled. A node's roles share it, so a
// message to itself (a proposer's to its own acceptor, an acceptor's to
// its own learner) is handled within the same step rather than sent over
// the network: it is neither delayed nor lost, and the search does not
// interleave it with the others.
type step struct {
	*model.Ctx[Msg]
	local []Msg
}

// sendAll sends m to every node: every node is an acceptor and a learner.
func (c *step) sendAll(m Msg) {
	for j := range model.NodeID(c.N()) {
		c.send(j, m)
	}
}

func (c *step) send(to model.NodeID, m Msg) {
	if to == c.Self() {
		c.local = append(c.local, m)
		return
	}
	c.Send(to, m)
}

// drain handles the messages the node sent itself, in the order sent,
// and those they make it send itself.
func (c *step) drain(s State) State {
	for len(c.local) > 0 {
		m := c.local[0]
		c.local = c.local[1:]
		s = c.receive(s, c.Self(), m)
	}
	return s
}

// Init: a proposer proposes its value and starts its first ballot.
func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if !proposes(&ctx.Env) {
		return State{}
	}
	ctx.Observe(properties.Propose(int(ctx.Self()) + 1))
	c := &step{Ctx: ctx}
	return c.drain(c.prepare(State{}))
}

// prepare is phase 1a: the proposer's next ballot, n = round·P + id + 1,
// sent to every acceptor; the retry timer is armed while ballots are left.
func (c *step) prepare(s State) State {
	s.Ballot = s.Round*proposers(&c.Env) + int(c.Self()) + 1
	s.Round++
	s.Promises, s.Highest, s.Asked = 0, Proposal{}, false
	c.sendAll(Msg{K: Prepare, N: s.Ballot})
	armRetry(c.Ctx, s)
	return s
}

// armRetry arms the retry timer of a proposer that has ballots left and
// has learned nothing, waiting on the proposers above it (the highest on
// itself: see the package doc).
func armRetry(ctx *model.Ctx[Msg], s State) {
	if !ballotsLeft(&ctx.Env, s) || s.Learned != 0 {
		return
	}
	var above []model.NodeID
	for j := ctx.Self() + 1; int(j) < proposers(&ctx.Env); j++ {
		above = append(above, j)
	}
	if len(above) == 0 {
		above = append(above, ctx.Self())
	}
	ctx.SetTimer(Retry, above...)
}

// Receive handles message m from node from.
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	c := &step{Ctx: ctx}
	return c.drain(c.receive(s, from, m))
}

func (c *step) receive(s State, from model.NodeID, m Msg) State {
	switch m.K {
	case Prepare:
		return c.promise(s, from, m.N)
	case Promise:
		return c.promised(s, from, m)
	case Accept:
		return c.accept(s, m)
	case Accepted:
		return c.learn(s, from, m)
	}
	return s // unreachable: the cases name every Kind
}

// promise is phase 1b: a prepare(n) with n above every prepare answered
// is promised, with the highest-numbered proposal accepted.
func (c *step) promise(s State, from model.NodeID, n int) State {
	if n <= s.Promised {
		return s
	}
	s.Promised = n
	report := s.Accepted
	if c.Param(ReportParam, ReportAccepted) == ReportPromised {
		report.N = n // the number promised mistaken for the one accepted
	}
	c.send(from, Msg{K: Promise, N: n, Acc: report})
	return s
}

// promised counts a promise for the current ballot; at a majority it is
// phase 2a: accept(n, v) to every acceptor, v the value of the
// highest-numbered proposal promised, or the proposer's own.
func (c *step) promised(s State, from model.NodeID, m Msg) State {
	bit := uint64(1) << from
	if m.N != s.Ballot || s.Asked || s.Promises&bit != 0 {
		return s // a stale ballot's promise, one too late, or a duplicate
	}
	s.Promises |= bit
	if m.Acc.N > s.Highest.N {
		s.Highest = m.Acc
	}
	if !majority(&c.Env, s.Promises) {
		return s
	}
	v := int(c.Self()) + 1
	if s.Highest.N != 0 && c.Param(ValueParam, Highest) == Highest {
		v = s.Highest.V
	}
	c.sendAll(Msg{K: Accept, N: s.Ballot, V: v})
	s.Promises, s.Highest, s.Asked = 0, Proposal{}, true
	return s
}

// accept is phase 2b: accept(n, v) is accepted unless a higher prepare
// was promised, and every learner is told. The acceptor keeps the
// highest-numbered proposal it accepted, which its promises report: an
// accept may arrive after a higher one it accepted without promising it.
func (c *step) accept(s State, m Msg) State {
	if m.N < s.Promised {
		return s
	}
	if m.N > s.Accepted.N {
		s.Accepted = Proposal{m.N, m.V}
	}
	c.sendAll(Msg{K: Accepted, N: m.N, V: m.V})
	return s
}

// learn counts accepted(n, v) from acceptor from; once a majority of
// acceptors accepted the same proposal, its value is learned (and a
// proposer stops retrying).
func (c *step) learn(s State, from model.NodeID, m Msg) State {
	if s.Learned != 0 {
		return s
	}
	p := Proposal{m.N, m.V}
	k, found := slices.BinarySearchFunc(s.Tallies, p, func(t Tally, p Proposal) int {
		if t.N != p.N {
			return t.N - p.N
		}
		return t.V - p.V
	})
	by := uint64(1) << from
	if found {
		if s.Tallies[k].From&by != 0 {
			return s // a duplicate
		}
		by |= s.Tallies[k].From
	}
	if majority(&c.Env, by) {
		c.Observe(properties.Learn(p.V))
		c.CancelTimer(Retry)
		s.Tallies, s.Learned = nil, p.V
		return s
	}
	s.Tallies = slices.Clone(s.Tallies)
	if found {
		s.Tallies[k].From = by
	} else {
		s.Tallies = slices.Insert(s.Tallies, k, Tally{p, by})
	}
	return s
}

// Timeout: the retry timer fired; the proposer starts its next ballot.
// The timer is armed only while a ballot is left (armRetry) and cancelled
// once a value is learned (learn): those two guard the retry alone.
func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, _ model.Timer) State {
	c := &step{Ctx: ctx}
	return c.drain(c.prepare(s))
}

// Recover: the node restarts from stable storage, all of its state, but
// that a forgetful acceptor (parameter acceptor=forgetful) has lost its
// promise and accepted proposal; a proposer re-arms its retry timer.
func (Protocol) Recover(ctx *model.Ctx[Msg], s State) State {
	if ctx.Param(AcceptorParam, Stable) == Forgetful {
		s.Promised, s.Accepted = 0, Proposal{}
	}
	if proposes(&ctx.Env) {
		armRetry(ctx, s)
	}
	return s
}

// Vocabulary declares the kinds of messages and timers, for event
// coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"prepare", "promise", "accept", "accepted"}, Timers: []string{"retry"}}
}

// Validate rejects a configuration Paxos cannot run: proposers out of
// 1..N, a negative ballots, more than 64 nodes (sets of nodes are 64-bit
// masks), or more proposers than properties.MaxValue values.
func Validate(cfg model.Config) error {
	p, b := cfg.Param(ProposersParam, 2), cfg.Param(BallotsParam, 1)
	switch {
	case cfg.N > 64:
		return fmt.Errorf("consensus/paxos: at most 64 nodes, not %d", cfg.N)
	case p < 1 || p > cfg.N || p > properties.MaxValue:
		return fmt.Errorf("consensus/paxos: proposers must be between 1 and N (%d), not %d", min(cfg.N, properties.MaxValue), p)
	case b < 0:
		return fmt.Errorf("consensus/paxos: ballots must be at least 0 (0: no bound), not %d", b)
	}
	return nil
}
