package model

import (
	"errors"
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/internal/effects"
)

// Protocol is the contract a protocol author implements: pure handlers over
// one node's state S, exchanging messages M. S and M are plain Go values
// (structs, slices, maps, strings, numbers; no pointers, channels or funcs).
// A handler returns the node's next state and reports its effects through
// ctx. It must not mutate s: build a new value instead (the checker checks).
type Protocol[S, M any] interface {
	// Init is the node's state at start-up.
	Init(ctx *Ctx[M]) S
	// Receive handles message m from node from.
	Receive(ctx *Ctx[M], s S, from NodeID, m M) S
}

// Timed is implemented by protocols that arm timers. A handler of a
// protocol without it that arms one is a fault.
type Timed[S, M any] interface {
	// Timeout handles the firing of timer t, which s had armed.
	Timeout(ctx *Ctx[M], s S, t Timer) S
}

// ErrCrashStop is the error of compiling a run that allows recoveries for
// a protocol that is not a Recoverer.
var ErrCrashStop = errors.New("crash-stop protocol")

// Recoverer is implemented by protocols whose nodes restart after a crash.
// A protocol without it is crash-stop: its crashed nodes stay down, and a
// run that allows recoveries (Config.Recoveries) is refused.
type Recoverer[S, M any] interface {
	// Recover is the state of a node that restarts after a crash; s is the
	// state it crashed in. What survives a crash is the protocol's choice.
	Recover(ctx *Ctx[M], s S) S
}

// ErrNetwork is the error of compiling a run whose channels do not give a
// protocol what it declares it needs (see NetworkNeeder).
var ErrNetwork = errors.New("channels the protocol does not assume")

// Needs is what a protocol's correctness rests on in its network, as its
// source assumes it: FIFO, messages between two nodes arrive in the order
// sent; ExactlyOnce, no message arrives twice. Why says where the
// assumption comes from, for the refusal a user reads.
type Needs struct {
	FIFO, ExactlyOnce bool
	Why               string
}

// NetworkNeeder is implemented by protocols that declare what their
// network must give them. A run under set channels (Set), which give
// neither order nor exactly-once delivery, is refused for a protocol that
// needs either: the runs it would explore break an assumption the protocol
// states, not the protocol. Unordered channels and the duplicates budget
// stay allowed, so that a scenario can show what breaks without the
// assumption, one fault at a time.
type NetworkNeeder interface {
	NetworkNeeds() Needs
}

// Refuses returns why a protocol that needs n cannot run under channels
// c, or nil if it can.
func (n Needs) Refuses(c Channels) error {
	if c != Set || !n.FIFO && !n.ExactlyOnce {
		return nil
	}
	what := "exactly-once delivery"
	if n.FIFO {
		what = "FIFO channels"
	}
	if n.Why == "" {
		return fmt.Errorf("%w: it needs %s, which set channels do not give", ErrNetwork, what)
	}
	return fmt.Errorf("%w: it needs %s (%s), which set channels do not give", ErrNetwork, what, n.Why)
}

// ErrNoForger is the error of compiling a run that allows traitors
// (Config.Traitors) for a protocol that is not a Forger: the checker would
// not know what a traitor may send.
var ErrNoForger = errors.New("protocol declares no messages for traitors")

// Forger is implemented by protocols that run with Byzantine nodes
// (Config.Traitors): it declares the domain of a traitor's lies. Once a
// node turns traitor its handlers still run as written, and each message
// m a step sends to node to is replaced by one the checker chooses from
// Forge(env, to, m): every choice, in exhaustive search; one drawn, in a
// random walk. The list must hold m itself (a traitor may also tell the
// truth, which is what makes a traitor from any moment cover one from the
// start), in a fixed order, with no message twice; like a handler, Forge
// must be pure. env is the traitor's.
type Forger[M any] interface {
	Forge(env *Env, to NodeID, m M) []M
}

// Actor is implemented by protocols with local actions: steps a node may take
// on its own, such as asking for the critical section.
type Actor[S, M any] interface {
	// Actions lists the actions enabled in s, in a fixed order.
	Actions(env *Env, s S) []Action
	// Do performs action a, which Actions listed as enabled in s.
	Do(ctx *Ctx[M], s S, a Action) S
}

// Kinder is implemented by message types that have kinds, for message
// complexity figures by kind ("election", "answer", ...), and by timer and
// action types whose values are many of one kind (a timer per peer), for
// event coverage. Without it a message's kind is "msg", and a timer's or
// an action's is the value printed with %v.
type Kinder interface{ Kind() string }

// Vocabulary names, by kind (see Kinder), the messages a protocol's nodes
// receive, the timers they arm and the local actions they take. A
// protocol that declares it (Declarer) is told, after each check, which
// of them no explored run ever took: a rule that no scenario reaches.
type Vocabulary struct {
	Messages []string
	Timers   []string
	Actions  []string
}

// Declarer is implemented by protocols that declare their Vocabulary.
type Declarer interface{ Vocabulary() Vocabulary }

// Env is what a node knows of its run: its own id and the configuration.
type Env struct {
	cfg  *Config
	self NodeID
	// params: the configuration's parameters as the context was made,
	// read by a scan: a handler may read one at every call, and a
	// protocol has a few
	params []param
}

type param struct {
	name  string
	value int
}

// Self is the node's own id.
func (e *Env) Self() NodeID { return e.self }

// N is the number of nodes.
func (e *Env) N() int { return e.cfg.N }

// Rank is the id the algorithm compares for node i.
func (e *Env) Rank(i NodeID) int { return e.cfg.Rank(i) }

// MyRank is the node's own rank.
func (e *Env) MyRank() int { return e.cfg.Rank(e.self) }

// Next is the node's successor on the ring 0, 1, ..., N-1, 0.
func (e *Env) Next() NodeID { return NodeID((int(e.self) + 1) % e.cfg.N) }

// Prev is the node's predecessor on the ring 0, 1, ..., N-1, 0: N-1 for
// node 0.
func (e *Env) Prev() NodeID { return NodeID((int(e.self) + e.cfg.N - 1) % e.cfg.N) }

// Initiator reports whether this node starts the algorithm on its own.
func (e *Env) Initiator() bool { return e.cfg.Initiator(e.self) }

// Crashes is how many crashes the run allows: a protocol whose steps only
// a crash could interrupt may take them whole when it is 0.
func (e *Env) Crashes() int { return e.cfg.Crashes }

// Traitors is how many traitors the run allows (Config.Traitors): the
// m of an algorithm that must know how many faults it tolerates.
func (e *Env) Traitors() int { return e.cfg.Traitors }

// Param returns a protocol parameter, or def when the run does not set it.
func (e *Env) Param(name string, def int) int {
	for _, p := range e.params {
		if p.name == name {
			return p.value
		}
	}
	return def
}

// Nodes returns the nodes j != self for which keep(j) holds, in id order,
// whatever the topology: a node may know of nodes it cannot send to (see
// Neighbors).
func (e *Env) Nodes(keep func(j NodeID) bool) []NodeID {
	var buf [64]NodeID // one allocation, of the right size, up to 64 nodes
	out := buf[:0]
	for j := NodeID(0); int(j) < e.cfg.N; j++ {
		if j != e.self && keep(j) {
			out = append(out, j)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// Higher returns the nodes ranked above this one, in id order: the "∀ j > i"
// of an election in which the highest rank wins. Like Nodes, it ignores the
// topology. The slice is the caller's.
func (e *Env) Higher() []NodeID { return e.ranked(+1) }

// Lower returns the nodes ranked below this one, in id order, whatever the
// topology. The slice is the caller's.
func (e *Env) Lower() []NodeID { return e.ranked(-1) }

// ranked returns the nodes whose rank compares to this node's as sign
// says: an election's broadcasts call this at every step. Without ranks
// (Config.Ranks nil: ranks are ids) the nodes above i are i+1..N-1 and
// those below 0..i-1, and nothing needs comparing.
func (e *Env) ranked(sign int) []NodeID {
	n, self := e.cfg.N, int(e.self)
	if e.cfg.Ranks == nil {
		from, to := 0, self
		if sign > 0 {
			from, to = self+1, n
		}
		if from == to {
			return nil
		}
		out := make([]NodeID, to-from)
		for k := range out {
			out[k] = NodeID(from + k)
		}
		return out
	}
	// a loop of its own, not Nodes: no call per node (ranks are distinct,
	// so only this node's equals mine)
	var buf [64]NodeID // one allocation, of the right size, up to 64 nodes
	out := buf[:0]
	mine := e.cfg.Ranks[self]
	for j, r := range e.cfg.Ranks[:n] {
		if r != mine && r > mine == (sign > 0) {
			out = append(out, NodeID(j))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// Neighbors returns the nodes this node is linked to on the run's topology,
// in id order: every other node on the complete graph. The slice is the
// caller's.
func (e *Env) Neighbors() []NodeID {
	if e.cfg.Topology == "" {
		return e.Nodes(func(NodeID) bool { return true })
	}
	return e.graph().Neighbors(e.self)
}

// Adjacent reports whether this node is linked to j, and so may send to it.
// A node is not its own neighbour, yet it may always send to itself: that
// message crosses no link.
func (e *Env) Adjacent(j NodeID) bool {
	if e.cfg.Topology == "" {
		// the complete graph: the common case, and a handler's sends are
		// checked with it, so it costs no lookup
		return j != e.self && j >= 0 && int(j) < e.cfg.N
	}
	return e.graph().Adjacent(e.self, j)
}

// graph is the run's topology. e.cfg is the Env's own copy of the Config
// (see reset), so a graph parsed here may be kept in it.
func (e *Env) graph() *Graph {
	g := e.cfg.network()
	e.cfg.net = g
	return g
}

// Ctx is handed to every handler: the node's Env plus the effects the
// handler produces, in order. A handler's unit test reads them back with
// checker/checktest (Sent, Timers, Observed).
type Ctx[M any] struct {
	Env
	effects effects.Buffer[Sent[M], NodeID, Obs]
}

// Sent is a message a handler sent: as a test reads it back, and as a
// protocol that simulates another (a synchronizer) carries it.
type Sent[M any] struct {
	To  NodeID
	Msg M
}

// effectsOf is what every Ctx[M] has: its effect buffer, for the engine
// (see init).
type effectsOf interface{ effectBuffer() any }

func (c *Ctx[M]) effectBuffer() any { return &c.effects }

// init gives the engines the effect buffer of a context they made, which
// they reach through package effects: the only way in, so that no engine
// hook shows in this package's API.
func init() {
	effects.Of = func(ctx any) any { return ctx.(effectsOf).effectBuffer() }
}

// Send sends m to node to.
func (c *Ctx[M]) Send(to NodeID, m M) { c.effects.Send(Sent[M]{to, m}) }

// SendAll sends m to each node of to, in order.
func (c *Ctx[M]) SendAll(to []NodeID, m M) {
	for _, j := range to {
		c.Send(j, m)
	}
}

// SetTimer arms timer t, replacing an armed timer of the same name. Under
// Sync timing it fires only once every node of waitOn has crashed and nothing
// from them to this node is in flight; with no waitOn it may fire any time.
// Re-arming starts the timer afresh: a lost message that had expired it is
// forgotten. A wait that narrows as answers come in should keep one timer
// per awaited node, so that a lost answer keeps its own timer expired.
func (c *Ctx[M]) SetTimer(t Timer, waitOn ...NodeID) { c.effects.Arm(t, waitOn) }

// SetTimerAfter arms timer t to fire after ticks ticks of time (at least
// 1), replacing an armed timer of the same name. Under Bounded timing it
// fires exactly then: time does not pass on while it is due. Under Sync
// and Async timing, which have no clock, it may fire at any time, as a
// SetTimer with no waitOn does.
func (c *Ctx[M]) SetTimerAfter(t Timer, ticks int) { c.effects.ArmAfter(t, max(ticks, 1)) }

// CancelTimer disarms timer t if it is armed.
func (c *Ctx[M]) CancelTimer(t Timer) { c.effects.Cancel(t) }

// Observe reports a protocol-neutral fact for the properties to read.
func (c *Ctx[M]) Observe(o Obs) { c.effects.Observe(o) }

// reset points c at cfg, which must be c's own copy: Env caches the parsed
// topology in it.
func (c *Ctx[M]) reset(cfg *Config, self NodeID) {
	c.cfg, c.self, c.params = cfg, self, c.params[:0]
	for name, value := range cfg.Params {
		c.params = append(c.params, param{name, value})
	}
	c.effects.Reset()
}
