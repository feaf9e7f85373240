// Package service is two-phase commit as a user runs it: a service of its
// own, not built on vigil's model or runtime. Each node is a goroutine with
// a TCP listener on 127.0.0.1; nodes talk in length-prefixed JSON frames of
// their own and wait on real timers. Node 0 coordinates: it asks every
// participant to prepare, each participant votes yes or no, and the
// coordinator commits when every vote is yes and aborts on a no or when a
// vote fails to come in time.
//
// Every event a node takes is written to its log with package tracelog, in
// the terms of the model of package twopc, so that vigil validate can replay
// the run through that model: messages as the JSON of twopc.Msg, the vote
// timers as twopc.VoteTimer prints, observations as model.Obs prints them.
// The service knows the model only through those texts; its tests check
// them against the model.
//
// Options.Divergent plants a bug the model does not have: the coordinator
// commits once a majority of the participants voted yes.
package service

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-check/vigil/tracelog"
)

// Coordinator is the node that coordinates.
const Coordinator = 0

// Defaults of Options.
const (
	DefaultVoteTimeout = 5 * time.Second
	DefaultVoteDelay   = 20 * time.Millisecond
)

// Options configure a run of the service.
type Options struct {
	// N is the number of nodes, the coordinator included.
	N int
	// Dir is the directory of the nodes' logs, tracelog.FileName(i) each.
	Dir string
	// YesVotes and NoVotes allow participants to vote yes and no, as the
	// model's parameters yes-votes and no-votes do; a participant allowed
	// both picks one at random. At least one must be allowed.
	YesVotes, NoVotes bool
	// Seed seeds the participants' choices and delays.
	Seed uint64
	// Divergent makes the coordinator commit once a majority of the
	// participants voted yes, rather than all of them.
	Divergent bool
	// VoteTimeout is how long the coordinator waits for a participant's
	// vote before it aborts (0: DefaultVoteTimeout).
	VoteTimeout time.Duration
	// VoteDelay bounds the random time a participant takes to vote once
	// asked (0: DefaultVoteDelay).
	VoteDelay time.Duration
}

func (o *Options) check() error {
	switch {
	case o.N < 1:
		return fmt.Errorf("a run needs at least one node, not %d", o.N)
	case o.Dir == "":
		return errors.New("a run needs a directory for its logs")
	case !o.YesVotes && !o.NoVotes:
		return errors.New("participants must be allowed to vote yes, no or both")
	case o.VoteTimeout < 0 || o.VoteDelay < 0:
		return fmt.Errorf("the vote timeout and delay must not be negative, not %v and %v", o.VoteTimeout, o.VoteDelay)
	}
	if o.VoteTimeout == 0 {
		o.VoteTimeout = DefaultVoteTimeout
	}
	if o.VoteDelay == 0 {
		o.VoteDelay = DefaultVoteDelay
	}
	return nil
}

// Cluster is a run of the service: its nodes, each with its listener,
// links and log.
type Cluster struct {
	opts   Options
	nodes  []*node
	addrs  []string
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// decided counts the nodes that decided, inFlight the messages sent
	// and not yet taken: the run is over, which Quiet tells, once every
	// node decided and no message is in flight.
	decided  atomic.Int64
	inFlight atomic.Int64
	quiet    chan struct{}
	quietFor sync.Once

	errMu sync.Mutex
	err   error
}

// Start starts the nodes of a run: every listener first, so that no node
// sends before its peers listen, then every node's start-up.
func Start(opts Options) (*Cluster, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Cluster{opts: opts, ctx: ctx, cancel: cancel, quiet: make(chan struct{})}
	for i := range opts.N {
		n, err := c.newNode(i)
		if err != nil {
			c.Stop()
			return nil, err
		}
		c.nodes, c.addrs = append(c.nodes, n), append(c.addrs, n.ln.Addr().String())
	}
	for _, n := range c.nodes {
		c.wg.Add(2)
		go n.accept()
		go n.loop()
	}
	return c, nil
}

// Quiet is closed once the run is over: every node decided and every
// message sent was taken.
func (c *Cluster) Quiet() <-chan struct{} { return c.quiet }

// Stop stops the nodes, each after the event it is taking, and closes
// their logs. Messages in flight are lost. It returns the first error the
// run met.
func (c *Cluster) Stop() error {
	c.cancel()
	for _, n := range c.nodes {
		n.ln.Close()
		n.closeLinks()
	}
	c.wg.Wait()
	for _, n := range c.nodes {
		n.stopTimers()
		c.fail(n.log.Close())
	}
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

// fail keeps the first error of the run; those of a run being stopped are
// the stop's own (closed connections) and are dropped.
func (c *Cluster) fail(err error) {
	if err == nil || c.ctx.Err() != nil && !isLogError(err) {
		return
	}
	c.errMu.Lock()
	defer c.errMu.Unlock()
	if c.err == nil {
		c.err = err
	}
}

// logError marks an error of a node's log, which a stop does not excuse.
type logError struct{ error }

func (e logError) Unwrap() error { return e.error }

func isLogError(err error) bool {
	var le logError
	return errors.As(err, &le)
}

// checkQuiet closes Quiet once the run is over. Nodes count a message in
// flight before they write it and take it off after the event that
// received it, so a run never looks over while a message is on its way.
func (c *Cluster) checkQuiet() {
	if c.decided.Load() == int64(c.opts.N) && c.inFlight.Load() == 0 {
		c.quietFor.Do(func() { close(c.quiet) })
	}
}

// outcome is a node's decision.
type outcome uint8

const (
	undecided outcome = iota
	committed
	aborted
)

// node is one node of the service: its own state, its links and its log.
// Only its loop goroutine touches its state.
type node struct {
	c      *Cluster
	id     int
	ln     net.Listener
	log    *tracelog.Logger
	events chan event
	rng    *rand.Rand

	linksMu sync.Mutex
	links   map[int]*link // outgoing, by peer
	inbound []net.Conn

	decision outcome
	// The coordinator's: the yes votes counted, and the vote timers
	// armed, by participant.
	yes        int
	voteTimers map[int]*time.Timer
	// A participant's: whether it was asked, and whether it voted.
	asked, voted bool
	voteTimer    *time.Timer
}

func (c *Cluster) newNode(id int) (*node, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l, err := tracelog.Create(filepath.Join(c.opts.Dir, tracelog.FileName(id)), id, c.opts.N)
	if err != nil {
		ln.Close()
		return nil, err
	}
	return &node{c: c, id: id, ln: ln, log: l, events: make(chan event, 64),
		rng:   rand.New(rand.NewPCG(c.opts.Seed, uint64(id))),
		links: map[int]*link{}, voteTimers: map[int]*time.Timer{}}, nil
}

// eventKind is what a node's next event is.
type eventKind uint8

const (
	received eventKind = iota // a frame arrived
	voteDue                   // a participant's time to vote came
	voteLate                  // the coordinator's timer on a vote fired
)

type event struct {
	kind  eventKind
	frame frame
	peer  int // voteLate: the participant whose vote is late
}

// push hands ev to the node's loop, unless the run is stopping.
func (n *node) push(ev event) {
	select {
	case n.events <- ev:
	case <-n.c.ctx.Done():
	}
}

// loop takes the node's events one at a time, its start-up first.
func (n *node) loop() {
	defer n.c.wg.Done()
	n.start()
	for {
		select {
		case <-n.c.ctx.Done():
			return
		case ev := <-n.events:
			switch ev.kind {
			case received:
				n.receive(ev.frame)
				n.c.inFlight.Add(-1)
			case voteDue:
				n.vote()
			case voteLate:
				n.voteLate(ev.peer)
			}
		}
		n.c.checkQuiet()
	}
}

// participants lists the nodes other than the coordinator.
func (n *node) participants() []int {
	ps := make([]int, 0, n.c.opts.N-1)
	for j := Coordinator + 1; j < n.c.opts.N; j++ {
		ps = append(ps, j)
	}
	return ps
}

// start: the coordinator asks every participant to prepare and arms a
// timer on each one's vote; alone, it commits at once. A participant
// waits to be asked.
func (n *node) start() {
	ef := n.begin(n.log.Start())
	if n.id == Coordinator {
		ps := n.participants()
		if len(ps) == 0 {
			n.decide(ef, committed)
		}
		for _, j := range ps {
			ef.send(j, message{Kind: prepare})
		}
		for _, j := range ps {
			n.armVoteTimer(ef, j)
		}
	}
	n.finish(ef)
	n.c.checkQuiet()
}

func (n *node) receive(f frame) {
	from := f.Stamp.From
	ef := n.begin(n.log.Receive(f.Stamp, f.Msg.logged()))
	switch f.Msg.Kind {
	case prepare:
		n.asked = true
		delay := time.Duration(n.rng.Int64N(int64(n.c.opts.VoteDelay) + 1))
		n.voteTimer = time.AfterFunc(delay, func() { n.push(event{kind: voteDue}) })
	case voteYes:
		n.cancelVoteTimer(ef, from)
		n.yes++
		if n.decision == undecided && n.yes == n.commitQuorum() {
			n.tell(ef, committed)
		}
	case voteNo:
		n.cancelVoteTimer(ef, from)
		if n.decision == undecided {
			n.tell(ef, aborted)
		}
	case commit, abort:
		if n.decision == undecided {
			n.decide(ef, map[msgKind]outcome{commit: committed, abort: aborted}[f.Msg.Kind])
		}
	}
	n.finish(ef)
}

// commitQuorum is the number of yes votes the coordinator commits on:
// every participant's, or in the divergent service a majority of them.
func (n *node) commitQuorum() int {
	all := n.c.opts.N - 1
	if n.c.opts.Divergent {
		return all/2 + 1
	}
	return all
}

// vote is a participant's vote, once asked: yes leaves it prepared, no
// aborts it at once. A participant that decided before it voted (another
// voted no) no longer votes.
func (n *node) vote() {
	if !n.asked || n.voted || n.decision != undecided {
		return
	}
	yes := n.c.opts.YesVotes && (!n.c.opts.NoVotes || n.rng.IntN(2) == 0)
	n.voted = true
	if yes {
		ef := n.begin(n.log.Action(actionVoteYes))
		ef.e.Observe(obsVotedYes)
		ef.send(Coordinator, message{Kind: voteYes})
		n.finish(ef)
		return
	}
	ef := n.begin(n.log.Action(actionVoteNo))
	ef.e.Observe(obsVotedNo)
	ef.send(Coordinator, message{Kind: voteNo})
	n.decide(ef, aborted)
	n.finish(ef)
}

// voteLate: a participant failed to vote in time, so the coordinator
// aborts. A timer cancelled as it fired is not an event.
func (n *node) voteLate(j int) {
	if _, armed := n.voteTimers[j]; !armed {
		return
	}
	delete(n.voteTimers, j)
	ef := n.begin(n.log.Timeout(voteTimerName(j)))
	if n.decision == undecided {
		n.tell(ef, aborted)
	}
	n.finish(ef)
}

// tell is the coordinator's decision, sent to every participant, whose
// vote timers it no longer needs.
func (n *node) tell(ef *effects, d outcome) {
	m := message{Kind: commit}
	if d == aborted {
		m.Kind = abort
	}
	for _, j := range n.participants() {
		n.cancelVoteTimer(ef, j)
		ef.send(j, m)
	}
	n.decide(ef, d)
}

func (n *node) decide(ef *effects, d outcome) {
	ef.e.Observe(map[outcome]string{committed: obsDecidedCommit, aborted: obsDecidedAbort}[d])
	n.decision = d
	n.c.decided.Add(1)
}

func (n *node) armVoteTimer(ef *effects, j int) {
	ef.e.SetTimer(voteTimerName(j), j)
	n.voteTimers[j] = time.AfterFunc(n.c.opts.VoteTimeout, func() { n.push(event{kind: voteLate, peer: j}) })
}

// cancelVoteTimer cancels the timer on j's vote, as the model does
// whether or not it is still armed.
func (n *node) cancelVoteTimer(ef *effects, j int) {
	ef.e.CancelTimer(voteTimerName(j))
	if t, ok := n.voteTimers[j]; ok {
		t.Stop()
		delete(n.voteTimers, j)
	}
}

func (n *node) stopTimers() {
	for _, t := range n.voteTimers {
		t.Stop()
	}
	if n.voteTimer != nil {
		n.voteTimer.Stop()
	}
}

// effects is an event under way: its log entry and the frames it sends
// once the entry is written.
type effects struct {
	e   *tracelog.Entry
	out []outgoing
}

type outgoing struct {
	to int
	f  frame
}

func (n *node) begin(e *tracelog.Entry) *effects { return &effects{e: e} }

// send logs m sent to node to and keeps it, with its stamp, for finish.
func (ef *effects) send(to int, m message) {
	st := ef.e.Send(to, m.logged())
	ef.out = append(ef.out, outgoing{to: to, f: frame{Stamp: st, Msg: m}})
}

// finish writes the event's log line, then sends its messages: a message
// is never received before its send is logged.
func (n *node) finish(ef *effects) {
	if err := ef.e.Done(); err != nil {
		n.c.fail(logError{fmt.Errorf("n%d's log: %w", n.id, err)})
	}
	for _, o := range ef.out {
		n.c.inFlight.Add(1)
		if err := n.transmit(o.to, o.f); err != nil {
			n.c.inFlight.Add(-1)
			n.c.fail(fmt.Errorf("n%d sends to n%d: %w", n.id, o.to, err))
		}
	}
}
