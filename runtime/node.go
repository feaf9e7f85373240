// Package runtime runs a protocol's handlers, the very ones vigil checks, as
// a real distributed program: each node its own OS process, talking to its
// peers over TCP, with real timers. RunNode is one node (vigil node, which
// a vigil binary of one's own has too); Run starts the N nodes of a run on
// one machine, injects faults within the budgets vigil check explores, and
// watches the run against the protocol's properties as it happens.
//
// Every node writes a log of its events (package tracelog) before it acts
// on them, so that vigil validate can replay a run through the model.
//
// Messages travel as the JSON of the protocol's message type, in frames of a
// 4-byte length and the body. Time is counted in ticks of a real duration
// (Timing.Tick): a timer armed with SetTimerAfter(t, k) fires after k ticks;
// one armed with SetTimer after a generous wait under sync timing (the
// network's delays are bounded well below it) and a short, random one under
// async timing (an unreliable detector).
package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"time"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/tracelog"
)

// Timing is how model time maps to real time.
type Timing struct {
	// Tick is one model tick.
	Tick time.Duration
	// SyncWait: ticks a SetTimer timer waits under sync (and bounded)
	// timing, well above the network's delays.
	SyncWait float64
	// AsyncWait: the range of ticks a SetTimer timer waits under async
	// timing, drawn afresh each time it is armed.
	AsyncWait [2]float64
	// ActionEvery: the range of ticks between a node's local actions.
	ActionEvery [2]float64
}

// DefaultTiming is the timing vigil run uses unless told otherwise.
var DefaultTiming = Timing{Tick: 50 * time.Millisecond, SyncWait: 10, AsyncWait: [2]float64{0.2, 2}, ActionEvery: [2]float64{1, 4}}

// NodeConfig is what one node's process needs.
type NodeConfig struct {
	// Machine is the protocol compiled for the run's configuration.
	Machine *checker.Machine
	Self    model.NodeID
	// Peers are the host:port of every node, by id: Peers[Self] is where
	// this node listens, Peers[j] where node j listens.
	Peers []string
	// Links, if set, are the host:port this node dials to reach each
	// peer, by id (Links[Self] is not used): a proxy in between, such as
	// the one vigil run puts on every link to delay and cut it. Unset,
	// the node dials Peers. At start-up the node waits for its peers at
	// Peers, where they listen, whatever is in between.
	Links []string
	// Log is the path of the node's log. A log that holds events is a
	// restart's: the node recovers from the state last logged.
	Log string
	// Report, if set, is the host:port of the runner watching the run,
	// which receives every record the node logs and may tell it to drop
	// or duplicate a message (see Run).
	Report string
	Timing Timing
	Seed   uint64
	// PeerWait bounds the wait at start-up for every peer to listen (0:
	// DefaultPeerWait); a peer that never does is an error.
	PeerWait time.Duration
}

// envelope is a message between nodes: its stamp (tracelog.Stamp) and the
// JSON of the model's message.
type envelope struct {
	Stamp tracelog.Stamp  `json:"stamp"`
	Msg   json.RawMessage `json:"msg"`
}

// node is one node's process under way. Its events run one at a time, on
// the goroutine of RunNode.
type node struct {
	ctx    context.Context
	cfg    NodeConfig
	m      *checker.Machine
	n      *checker.Node
	log    *tracelog.Logger
	timing model.Timing
	rng    *rand.Rand

	state  checker.State
	timers map[model.Timer]*armed
	// events come from the node's timers, peers and runner; local, its
	// messages to itself, which run before them
	events chan func()
	local  []func()
	links  []*link
	report *reporter
}

// armed is a timer armed: fired is closed over by its time.Timer, which
// checks that it is still the one armed under its name.
type armed struct {
	timer model.Timer
	t     *time.Timer
}

// RunNode runs one node until ctx ends or it fails: a port it cannot bind,
// a log it cannot write, a protocol fault (a handler that panics or is not
// deterministic, a message that does not survive JSON). The errors name
// what failed.
func RunNode(ctx context.Context, cfg NodeConfig) error {
	n := len(cfg.Peers)
	mc := cfg.Machine.Config()
	switch {
	case n != mc.N:
		return fmt.Errorf("%d peers for a run of %d nodes", n, mc.N)
	case cfg.Links != nil && len(cfg.Links) != n:
		return fmt.Errorf("%d links for a run of %d nodes", len(cfg.Links), n)
	case cfg.Self < 0 || int(cfg.Self) >= n:
		return fmt.Errorf("node %d is outside 0..%d", cfg.Self, n-1)
	case cfg.Timing.Tick <= 0:
		return fmt.Errorf("a tick of %v: it must be positive", cfg.Timing.Tick)
	case mc.Traitors > 0:
		return fmt.Errorf("a real run has no traitors: run it with -traitors 0")
	}
	ln, err := net.Listen("tcp", cfg.Peers[cfg.Self])
	if err != nil {
		return fmt.Errorf("n%d cannot listen: %w", cfg.Self, err)
	}
	defer ln.Close()
	log, restart, err := openLog(cfg)
	if err != nil {
		return fmt.Errorf("n%d cannot write its log: %w", cfg.Self, err)
	}
	defer log.Close()
	nd := &node{cfg: cfg, m: cfg.Machine, n: cfg.Machine.Node(cfg.Self), log: log, timing: mc.Timing,
		rng: rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.Self))), timers: map[model.Timer]*armed{}, events: make(chan func(), 1024)}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	nd.ctx = ctx
	if cfg.Report != "" {
		if nd.report, err = dialReporter(ctx, cfg.Report, int(cfg.Self), func() { cancel(nil) }); err != nil {
			return fmt.Errorf("n%d cannot reach the runner: %w", cfg.Self, err)
		}
		defer nd.report.close()
		log.Sink = nd.report.send
	}
	dial := cfg.Links
	if dial == nil {
		dial = cfg.Peers
	}
	nd.links = make([]*link, n)
	for j := range n {
		if j != int(cfg.Self) {
			nd.links[j] = newLink(ctx, int(cfg.Self), dial[j])
		}
	}
	go nd.accept(ctx, ln, cancel)
	if restart == nil {
		// at start-up no node is down, and a message to a peer that is
		// not up yet would be lost: wait for them all
		if err := waitForPeers(ctx, cfg.Peers, int(cfg.Self), cfg.PeerWait); err != nil {
			return err
		}
	}
	if err := nd.startUp(restart); err != nil {
		return err
	}
	nd.scheduleAction()
	for {
		if len(nd.local) > 0 {
			ev := nd.local[0]
			nd.local = nd.local[1:]
			if err := nd.run(ev); err != nil {
				return err
			}
			continue
		}
		select {
		case <-ctx.Done():
			if err := context.Cause(ctx); !errors.Is(err, context.Canceled) {
				return err
			}
			return nil
		case ev := <-nd.events:
			if err := nd.run(ev); err != nil {
				return err
			}
		}
	}
}

// DefaultPeerWait bounds the wait for the peers at start-up unless
// NodeConfig.PeerWait says otherwise.
const DefaultPeerWait = 30 * time.Second

// waitForPeers returns once every peer accepts a connection, or fails
// when one does not within peerWait.
func waitForPeers(ctx context.Context, peers []string, self int, peerWait time.Duration) error {
	if peerWait <= 0 {
		peerWait = DefaultPeerWait
	}
	deadline := time.Now().Add(peerWait)
	for j, addr := range peers {
		for j != self {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("n%d cannot reach n%d at %s within %v: %w", self, j, addr, peerWait, err)
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	return nil
}

// openLog continues the node's log, or starts it: restart says whether it
// held events, so that the node recovers rather than starts.
func openLog(cfg NodeConfig) (log *tracelog.Logger, restart *tracelog.Record, err error) {
	if st, err := os.Stat(cfg.Log); err == nil && st.Size() > 0 {
		log, err := tracelog.Open(cfg.Log, int(cfg.Self), len(cfg.Peers))
		if err != nil {
			return nil, nil, err
		}
		return log, log.Last(), nil
	}
	log, err = tracelog.Create(cfg.Log, int(cfg.Self), len(cfg.Peers))
	return log, nil, err
}

// failure ends the node with an error, from within an event.
type failure struct{ err error }

// run runs one event, turning a failure into the node's error.
func (nd *node) run(ev func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			err = f.err
		}
	}()
	ev()
	return nil
}

func (nd *node) fail(err error) { panic(failure{err}) }

// startUp runs Init, or Recover from the state last logged before a crash.
func (nd *node) startUp(last *tracelog.Record) error {
	return nd.run(func() {
		if last == nil {
			nd.apply(nd.log.Start(), nd.must(nd.n.Init()))
			return
		}
		if last.Event != tracelog.Crash {
			nd.fail(fmt.Errorf("n%d restarts, but its log does not end with its crash: it ends with a %s", nd.cfg.Self, last.Event))
		}
		if !nd.m.Recoverable() {
			nd.fail(fmt.Errorf("n%d restarts, but the protocol is crash-stop (it has no Recover)", nd.cfg.Self))
		}
		s, err := lastState(nd.cfg.Log, nd.m, len(nd.cfg.Peers))
		if err != nil {
			nd.fail(err)
		}
		nd.apply(nd.log.Recover(), nd.must(nd.n.Recover(s)))
	})
}

// lastState is the state last logged in the log at path.
func lastState(path string, m *checker.Machine, n int) (checker.State, error) {
	recs, err := tracelog.ReadFile(path, n)
	if err != nil {
		return 0, err
	}
	for i := len(recs) - 1; i >= 0; i-- {
		if len(recs[i].State) > 0 {
			s, err := m.DecodeState(recs[i].State)
			if err != nil {
				return 0, fmt.Errorf("%s:%d: %w", path, recs[i].Line, err)
			}
			return s, nil
		}
	}
	return 0, fmt.Errorf("%s holds no state to recover from", path)
}

func (nd *node) must(st checker.Step, err error) checker.Step {
	if err != nil {
		nd.fail(fmt.Errorf("n%d: %w", nd.cfg.Self, err))
	}
	return st
}

// apply logs an event with its effects, then carries them out: the log is
// written first, so that whatever the node did before it was killed is
// logged.
func (nd *node) apply(e *tracelog.Entry, st checker.Step) {
	type out struct {
		to  int
		env envelope
		msg checker.Message
	}
	var outs []out
	for _, s := range st.Sends {
		b, err := nd.m.EncodeMessage(s.Msg)
		if err != nil {
			nd.fail(err)
		}
		outs = append(outs, out{int(s.To), envelope{Stamp: e.Send(int(s.To), json.RawMessage(b)), Msg: b}, s.Msg})
	}
	for _, t := range st.Timers {
		text := fmt.Sprint(t.Timer)
		switch {
		case !t.Armed:
			e.CancelTimer(text)
		case t.Ticks > 0:
			e.SetTimerAfter(text, t.Ticks)
		default:
			wait := make([]int, len(t.WaitOn))
			for i, j := range t.WaitOn {
				wait[i] = int(j)
			}
			e.SetTimer(text, wait...)
		}
	}
	for _, o := range st.Observed {
		e.Observe(o.String())
	}
	b, err := nd.m.EncodeState(st.State)
	if err != nil {
		nd.fail(err)
	}
	e.State(json.RawMessage(b))
	if err := e.Done(); err != nil {
		nd.fail(fmt.Errorf("n%d cannot write its log: %w", nd.cfg.Self, err))
	}
	nd.state = st.State
	for _, t := range st.Timers {
		nd.setTimer(t)
	}
	for _, o := range outs {
		if o.to == int(nd.cfg.Self) {
			nd.local = append(nd.local, func() { nd.receive(int(nd.cfg.Self), o.env.Stamp, o.env.Msg, o.msg) })
			continue
		}
		nd.links[o.to].send(o.env, nd.report.fate(o.to))
	}
}

// post queues an event for the node's goroutine, unless the node is
// stopping.
func (nd *node) post(ev func()) bool {
	select {
	case nd.events <- ev:
		return true
	case <-nd.ctx.Done():
		return false
	}
}

// receive runs the receipt of message msg, whose JSON is raw, from node
// from.
func (nd *node) receive(from int, st tracelog.Stamp, raw json.RawMessage, msg checker.Message) {
	nd.apply(nd.log.Receive(st, raw), nd.must(nd.n.Receive(nd.state, model.NodeID(from), msg)))
}

// admit checks a message that came from peer from, before it becomes an
// event: one the protocol does not have, or stamped as another's, is
// refused.
func (nd *node) admit(from int, env envelope) (checker.Message, error) {
	if env.Stamp.From != from || len(env.Stamp.Clock) != len(nd.cfg.Peers) || env.Stamp.Event < 1 || env.Stamp.Event > env.Stamp.Clock[from] {
		return 0, fmt.Errorf("n%d sent a message stamped as n%d's event %d with %d clock entries", from, env.Stamp.From, env.Stamp.Event, len(env.Stamp.Clock))
	}
	msg, err := nd.m.DecodeMessage(env.Msg)
	if err != nil {
		return 0, fmt.Errorf("n%d sent a message the protocol does not have: %w", from, err)
	}
	return msg, nil
}

// setTimer arms or cancels a real timer for a timer of the protocol.
func (nd *node) setTimer(op checker.TimerOp) {
	if old := nd.timers[op.Timer]; old != nil {
		old.t.Stop()
		delete(nd.timers, op.Timer)
	}
	if !op.Armed {
		return
	}
	a := &armed{timer: op.Timer}
	a.t = time.AfterFunc(nd.wait(op), func() {
		nd.post(func() {
			if nd.timers[a.timer] != a {
				return // cancelled or armed again since
			}
			delete(nd.timers, a.timer)
			nd.apply(nd.log.Timeout(fmt.Sprint(a.timer)), nd.must(nd.n.Timeout(nd.state, a.timer)))
		})
	})
	nd.timers[op.Timer] = a
}

// wait is how long a timer armed by op waits.
func (nd *node) wait(op checker.TimerOp) time.Duration {
	ticks := float64(op.Ticks)
	switch t := nd.cfg.Timing; {
	case op.Ticks > 0:
	case nd.timing == model.Async:
		ticks = t.AsyncWait[0] + nd.rng.Float64()*(t.AsyncWait[1]-t.AsyncWait[0])
	default:
		ticks = t.SyncWait
	}
	return time.Duration(ticks * float64(nd.cfg.Timing.Tick))
}

// scheduleAction takes one of the enabled local actions, at random, every
// so often.
func (nd *node) scheduleAction() {
	t := nd.cfg.Timing
	ticks := t.ActionEvery[0] + nd.rng.Float64()*(t.ActionEvery[1]-t.ActionEvery[0])
	time.AfterFunc(time.Duration(ticks*float64(t.Tick)), func() {
		nd.post(func() {
			as, err := nd.n.Actions(nd.state)
			if err != nil {
				nd.fail(fmt.Errorf("n%d: %w", nd.cfg.Self, err))
			}
			if len(as) > 0 {
				a := as[nd.rng.IntN(len(as))]
				nd.apply(nd.log.Action(fmt.Sprint(a)), nd.must(nd.n.Do(nd.state, a)))
			}
			nd.scheduleAction()
		})
	})
}

// accept takes connections from peers; each brings the messages of one.
func (nd *node) accept(ctx context.Context, ln net.Listener, cancel context.CancelCauseFunc) {
	go func() { <-ctx.Done(); ln.Close() }()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() == nil {
				cancel(fmt.Errorf("n%d stops accepting peers: %w", nd.cfg.Self, err))
			}
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			nd.serve(ctx, c)
		}()
	}
}

// serve reads one peer's messages into the node's events. Whatever the
// peer sends, a malformed frame or a message the protocol does not have
// closes the connection, and nothing more.
func (nd *node) serve(ctx context.Context, c net.Conn) {
	defer c.Close()
	go func() { <-ctx.Done(); c.Close() }()
	var h hello
	if err := readFrame(c, &h); err != nil || h.From < 0 || h.From >= len(nd.cfg.Peers) || h.From == int(nd.cfg.Self) {
		return
	}
	for {
		var env envelope
		if err := readFrame(c, &env); err != nil {
			return
		}
		msg, err := nd.admit(h.From, env)
		if err != nil {
			fmt.Fprintf(os.Stderr, "n%d closes a connection: %v\n", nd.cfg.Self, err)
			return
		}
		if !nd.post(func() { nd.receive(h.From, env.Stamp, env.Msg, msg) }) {
			return
		}
	}
}
