package sim

import (
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"unsafe"

	"github.com/vigil-check/vigil/internal/inplace"
	"github.com/vigil-check/vigil/model"
)

// Walker steps one run at a time over live values: node states, messages
// and monitor states as the handlers return them, nothing interned and no
// handler memoised. Random walks rarely meet a world twice, so interning
// (encoding every new state, looking it up, cloning it into a table) is
// most of what a step on a Stepper costs there. A Walker keeps the events
// enabled up to date step by step instead of listing them from scratch:
// deliveries per channel, a node's timeouts and actions recomputed only
// when something they depend on changed.
//
// A Walker lists the events a Stepper lists with EnabledAll, in the order
// the random engine draws them (a Stepper's, each run of deliveries on one
// channel and of one node's timeouts in content order: see checker's
// canonical), so a walk draws the same events from the same seed on
// either. Timeouts and actions are listed whether or not their step would
// stutter (leave the world as it is), and a handler runs only for the one
// drawn: a walk that draws one that stutters draws again, without it, as
// rejection sampling does, which draws uniformly among the steps that
// move. A node whose state changed would otherwise run every timeout and
// action it has at once, to learn which stutter. Under Bounded timing a
// Walker keeps a clock: a message holds the tick it was sent at and a timer
// the tick it is due at, so that a tick, which ages every message and
// counts every timer down, changes nothing but the clock. A Walker runs
// where that order is cheap to keep (Supported). Events are numbered, not
// named: to render or shrink a run, replay it on a Stepper.
//
// Handlers run under the same checks as on a Stepper (a panic or a misuse
// of the context is a Fault), except that whether a handler wrote into its
// input, and whether a second call on a copy of its input returns the same
// outcome, are checked on a sample of calls: a Walker's first purityAll
// calls, then one in purityEvery. A protocol that fails either is a fault
// of the exhaustive engine, which checks every call.
type Walker interface {
	// Start begins a walk from the initial world. It calls stop (if not
	// nil) as it runs the nodes' Inits, which at large N send N² messages
	// and take long, and once stop returns true it returns false, the
	// walk unusable until the next Start.
	Start(stop func() bool) bool
	// Enabled counts the events enabled in the world: total, and the
	// protocol's among them (deliveries, timeouts and actions, listed
	// first); the rest are faults. Timeouts and actions are counted
	// whether or not they stutter, except those that Take turned down
	// since the last step.
	Enabled() (total, protocol int)
	// Cuts counts the Partition events among those Enabled counts,
	// listed right after the protocol's.
	Cuts() int
	// Network counts the Partition and Heal events among those Enabled
	// counts, the cuts first.
	Network() int
	// MessageFaults counts the Lose and the Duplicate events among those
	// Enabled counts, listed in that order after the network's.
	MessageFaults() (losses, duplicates int)
	// Take takes event k of those Enabled counts and reports whether it
	// did. It does not take a timeout or action that would stutter, nor a
	// fault while no protocol event would move: Enabled then counts the
	// one (the ones) turned down no more until the next step, and the
	// caller draws again (see EnabledAll). Nor does it take one whose
	// handler faulted as it ran to tell (see Fault).
	Take(k int) bool
	// Moves lists the events enabled whose step would move, as runs of
	// events of one kind and node (see Run), in the order in which a
	// Stepper's Enabled lists them once each channel's deliveries and
	// each node's timeouts are in content order (see EnabledAll), but for
	// the deliveries: with byReceiver one run per receiver, in node order,
	// each the deliveries to it in channel order; else one run, in
	// channel order, that names no node. It returns how many events are
	// the protocol's (listed first). A scheduler that chooses by kind and
	// node (checker's PCT and swarm) chooses among them, and TakeMove
	// takes its choice. Moves turns down the timeouts and actions that
	// would stutter, running the handlers it needs to: Enabled then
	// counts the events listed.
	Moves(buf []Run, byReceiver bool) (runs []Run, protocol int)
	// TakeMove takes event k of those the last Moves listed, in its
	// order, and reports whether it did: it does not only where its
	// handler faulted as Moves ran it.
	TakeMove(k int) bool
	// Moving counts the protocol events enabled that would not stutter,
	// up to atMost: it runs the handlers it needs to.
	Moving(atMost int) int
	// Fault is the first fault met since Start, or nil; the walk is over.
	Fault() *Fault
	// Step reports the last step taken: its label (an index into Labels)
	// and the kinds of the messages it sent (indexes into Kinds), which
	// for Start are those of every Init.
	Step() (label uint16, sent []uint8)
	// Observed lists what the last step (for Start, every Init) observed,
	// by node, a crash's ObsCrash and a recovery's ObsRecover first, and Now is node i's time: the largest of the times its
	// received messages were sent at, each one more than its sender's
	// time when sent (see checker's entry figures).
	Observed() []NodeObs
	Now(i model.NodeID) int
	// Labels and Kinds name the labels and message kinds met so far.
	Labels() []string
	Kinds() []string
	// Fingerprint is a hash of the world: equal worlds, equal hashes.
	Fingerprint() uint64
	// Epoch changes whenever a monitor observes something or a node
	// crashes or recovers: while it stays, so does the verdict of a
	// property that reads only monitors and liveness
	// (properties.Property.MonitorOnly).
	Epoch() uint64

	// The world as properties see it (properties.View, which this
	// package cannot name: the properties' tests import it).
	N() int
	Config() *model.Config
	Alive(i model.NodeID) bool
	Rank(i model.NodeID) int
	Connected(i, j model.NodeID) bool
	Split() bool
	InFlight() int
	State(i model.NodeID) any
	Monitor(mon model.Monitor) any
}

// Supported reports whether a Walker runs cfg's runs (see Walker): every
// run but those that lose, duplicate or cut off messages under Bounded
// timing, where a message's age would have to follow it into the faults'
// lists, and those over set channels, whose deliveries a Walker would have
// to tell stutters among as a Stepper does (random walks over a set run on
// a Stepper, which interns the set's messages once and memoises each
// redelivery's outcome). Nor does it run traitors, whose steps branch on
// the messages they forge: their walks run on a Stepper.
func Supported(cfg *model.Config) bool {
	if cfg.Channels == model.Set || cfg.Traitors > 0 {
		return false
	}
	return cfg.Timing != model.Bounded || cfg.Losses+cfg.Duplicates+cfg.Partitions == 0
}

// NewWalker returns a Walker over m's protocol, configuration and
// monitors; it shares nothing with m's tables. Its configuration must be
// Supported, and m must not carry causal clocks.
func (m *Machine) NewWalker() Walker { return m.impl.newWalker(m) }

const (
	// handler and monitor calls checked in full at first: a walk's or
	// two, as a check encodes the inputs (a multicast order monitor's is
	// hundreds of sets at N = 50) and a search makes a Walker per worker
	purityAll   = 256
	purityEvery = 1024 // then one call in this many
)

// NodeObs is an observation and the node that made it.
type NodeObs struct {
	Node model.NodeID
	Obs  model.Obs
}

type walker[S, M any] struct {
	m     *Machine
	t     *typed[S, M]
	cfg   *model.Config
	n     int
	fifo  bool
	nodes []liveNode[S, M]
	// dead: whether each node is down, apart from nodes for the scans
	// that read it alone (whose wait is over, whom a message is lost to)
	dead []bool
	ctxs []*model.Ctx[M] // each node's, reset before each call
	// bufs: the effect buffer of each of ctxs (see bufferOf)
	bufs []*effectBuffer[M]
	// used lists the channels (from*n+to) that carried a message this
	// walk, the ones Start has to empty, out of N²; chanRec[k] holds what
	// the walk knows of channel used[k], and chanAt[c] is 1 + the index k
	// of channel c, or 0 while it carried nothing. At large N most pairs
	// never carry a message in a walk, and they take the four bytes of
	// chanAt alone (see ChannelTableBytes); the records of the used ones
	// are kept from walk to walk with their buffers.
	used     []int
	chanAt   []int32
	chanRec  []*liveChan[M]
	inFlight int
	chans    fenwick // deliveries enabled per channel
	toNode   []int32 // deliveries enabled per receiver (see enable)
	local    fenwick // timeouts and actions enabled per node, but gone
	dirty    []model.NodeID
	// gone lists the outcomes turned down since the last step
	gone []goneOut[S, M]
	// byReceiver: how the last Moves listed the deliveries
	byReceiver bool
	mf         liveFaults
	// inits holds the outcomes of the nodes' Inits, by node, as far as
	// they ran, with the timers each arms already merged (a node may arm
	// one per peer: merged at every walk's start, they took a tenth of
	// the emergent election's walks)
	inits []liveResult[S, M]
	mons  []any
	// monWords: each monitor's interface words (see Monitor)
	monWords [][2]unsafe.Pointer
	// monStart: what each monitor's Start returned, at the first walk;
	// monFresh: whether an in-place monitor's Start returns memory of its
	// own at every call (see Start)
	monStart []any
	monFresh []bool
	// inPlace: the monitors, if each is an inplace.Monitor
	inPlace  []inplace.Monitor
	crashes  int
	recovers int
	down     int // nodes down now
	epoch    uint64
	net      liveNet
	// Bounded timing: clock is the ticks passed; sentAt[t % (Delay+1)]
	// counts the messages in flight sent at tick t (none is older than
	// Delay); ticks: whether Enabled found that time may pass on
	bounded bool
	clock   int
	sentAt  []int
	ticks   bool

	fault  *Fault
	label  uint16
	sent   []uint8
	obs    []NodeObs
	now    []int
	labels names[uint16]
	// evLbl: the label of each timer's timeout and each action, by value
	evLbl map[evKey]uint16
	kinds names[uint8]
	// rcvLabel: the label of receiving each kind
	rcvLabel []uint16
	tids     timerIDs
	merge    mergeBuf
	lostTo   []bool // scratch: the nodes a step's messages to are lost to a cut
	calls    int
	buf      []byte
	twice    twice           // to compare a sampled call's outcome with its second's
	seconds  []*model.Ctx[M] // by node: the contexts of second calls
	// secondBufs: the effect buffer of each of seconds
	secondBufs []*effectBuffer[M]
	// chunks: the memory of the timers' waits and of the outcomes kept
	// for later (see run)
	chunks struct {
		waits chunks[model.NodeID]
		sends chunks[model.Sent[M]]
		ops   chunks[liveOp]
	}
	// scratch: the buffers of an outcome applied at once (see run)
	scratch struct {
		sends  []model.Sent[M]
		timers []timerEffect
		ops    []liveOp
		obs    []model.Obs
	}
	seed maphash.Seed
	// the parts of the Fingerprint: their hashes (an empty channel's 0),
	// the parts changed since the last call (fpNodes, fpChans, flagged in
	// fp*Old), the sum
	// (a channel's in its liveChan)
	fpNode    []uint64
	fpNodeOld []bool
	fpNodes   []model.NodeID
	fpChans   []int
	fpTotal   uint64
	fpOn      bool // the parts are hashed in this walk
	// monKey: the monitors' states encoded, at epoch monEpoch (if
	// monKeyed)
	monKey   []byte
	monEpoch uint64
	monKeyed bool
}

func (t *typed[S, M]) newWalker(m *Machine) Walker {
	n := m.cfg.N
	w := &walker[S, M]{m: m, t: t, cfg: &m.cfg, n: n, fifo: m.cfg.Channels == model.FIFO,
		nodes: make([]liveNode[S, M], n), dead: make([]bool, n), net: liveNet{groups: make([]uint8, n)}, chanAt: make([]int32, n*n), now: make([]int, n),
		chans: newFenwick(n * n), toNode: make([]int32, n), local: newFenwick(n), mons: make([]any, len(m.monitors)),
		labels: eventLabels(), evLbl: map[evKey]uint16{},
		kinds: messageKinds(), seed: maphash.MakeSeed()}
	for i := range n {
		w.ctxs = append(w.ctxs, model.NewCtx[M](m.cfg, model.NodeID(i)))
		w.bufs = append(w.bufs, bufferOf(w.ctxs[i]))
	}
	for _, mon := range m.monitors {
		w.monWords = append(w.monWords, interfaceWords(mon))
	}
	for _, mon := range m.monitors {
		ip, ok := mon.(inplace.Monitor)
		if !ok {
			w.inPlace = nil
			break
		}
		w.inPlace = append(w.inPlace, ip)
	}
	if m.cfg.Losses+m.cfg.Duplicates > 0 {
		w.mf = liveFaults{on: true}
	}
	if m.cfg.Timing == model.Bounded {
		w.bounded, w.sentAt = true, make([]int, m.cfg.Delay+1)
	}
	for _, k := range faultKinds {
		w.labels.id(k.String()) // the fault labels first, as a Machine's
	}
	return w
}

func (w *walker[S, M]) Start(stop func() bool) bool {
	for i := range w.nodes {
		// a fresh node that keeps its buffers: walks are short, and a node
		// may hold many timers. Past their lengths they hold zeros (see
		// refresh).
		nd := &w.nodes[i]
		nd.clearOuts()
		clear(nd.acts)
		clear(nd.actOuts)
		*nd = liveNode[S, M]{key: nd.key[:0], timers: nd.timers[:0], slots: nd.slots[:0], outs: nd.outs[:0], ran: nd.ran, acts: nd.acts[:0], actOuts: nd.actOuts[:0]}
	}
	for k, c := range w.used {
		rec := w.chanRec[k]
		clear(rec.fifo[rec.head:])
		clear(rec.bag)
		*rec = liveChan[M]{fifo: rec.fifo[:0], bag: rec.bag[:0]}
		w.enable(c, -int(w.chans.count[c]))
		w.chanAt[c] = 0
	}
	w.used = w.used[:0]
	w.clock, w.ticks = 0, false
	clear(w.sentAt)
	clear(w.dead)
	w.inFlight, w.crashes, w.recovers, w.down = 0, 0, 0, 0
	w.mf.losses, w.mf.dups, w.mf.loseAll, w.mf.dupAll = 0, 0, 0, 0
	w.epoch++
	clear(w.net.groups)
	w.net.split, w.net.parts, w.net.stale = false, 0, true
	w.fpOn, w.fpNodes, w.fpChans = false, w.fpNodes[:0], w.fpChans[:0]
	w.local.reset()
	w.dirty, w.gone = w.dirty[:0], w.gone[:0]
	w.fault, w.sent, w.obs = nil, w.sent[:0], w.obs[:0]
	clear(w.now)
	for k, mon := range w.m.monitors {
		if f := catch(func() {
			// Start is pure: every walk starts from the first walk's
			_, inPlace := mon.(inplace.Monitor)
			if len(w.monStart) == k {
				first, f := startTwice(mon, w.cfg)
				if f != nil {
					panic(f)
				}
				w.monStart = append(w.monStart, first)
				// a Start that builds its state afresh at every call
				// hands every walk memory of its own, at the cost of the
				// allocations alone; one that returns memory it keeps
				// (a package variable) is copied
				w.monFresh = append(w.monFresh, inPlace && !sharesMemory(reflect.ValueOf(first), reflect.ValueOf(mon.Start(w.cfg))))
			}
			switch {
			case !inPlace || w.monStart[k] == nil:
				w.mons[k] = w.monStart[k]
			case w.monFresh[k]:
				w.mons[k] = mon.Start(w.cfg)
			default: // the walk's own, to write into
				w.mons[k] = deepClone(reflect.ValueOf(w.monStart[k])).Interface()
			}
		}); f != nil {
			f.Protocol, f.Monitor, f.Handler, f.Node = w.m.Name, mon.Name(), "Start", model.None
			w.fault = f
			return true
		}
	}
	for i := range w.n {
		if i%startEvery == 0 && stop != nil && stop() {
			return false
		}
		// Init is pure and takes no input: every walk starts from the
		// outcomes of the first
		if i == len(w.inits) {
			r, ok := w.run(model.NodeID(i), "Init", func(c *model.Ctx[M]) S { return w.t.p.Init(c) }, nil, -1, false)
			if !ok {
				return true
			}
			r.base, r.ops, r.fired = r.timersAfter(false, nil), nil, -1
			w.inits = append(w.inits, r)
		}
		r := w.inits[i]
		// the walk's own, to change in place, in the last walk's memory
		r.base = append(w.nodes[i].timers, r.base...)
		w.apply(model.NodeID(i), r)
	}
	return true
}

// startEvery is how many nodes' Inits Start runs between calls of stop.
const startEvery = 64

func (w *walker[S, M]) Fault() *Fault                    { return w.fault }
func (w *walker[S, M]) Epoch() uint64                    { return w.epoch }
func (w *walker[S, M]) Step() (uint16, []uint8)          { return w.label, w.sent }
func (w *walker[S, M]) Labels() []string                 { return slices.Clone(w.labels.list) }
func (w *walker[S, M]) Kinds() []string                  { return slices.Clone(w.kinds.list) }
func (w *walker[S, M]) N() int                           { return w.n }
func (w *walker[S, M]) Config() *model.Config            { return w.cfg }
func (w *walker[S, M]) Alive(i model.NodeID) bool        { return !w.dead[i] }
func (w *walker[S, M]) Rank(i model.NodeID) int          { return w.cfg.Rank(i) }
func (w *walker[S, M]) Connected(i, j model.NodeID) bool { return w.connected(i, j) }
func (w *walker[S, M]) Split() bool                      { return w.net.split }
func (w *walker[S, M]) InFlight() int                    { return w.inFlight }

// State boxes node i's state once per change of it.
func (w *walker[S, M]) State(i model.NodeID) any {
	nd := &w.nodes[i]
	if nd.boxed == nil {
		nd.boxed = nd.state
	}
	return nd.boxed
}

func (w *walker[S, M]) Monitor(mon model.Monitor) any {
	// a property names its monitor by the variable the machine was
	// compiled with: the same interface words, found without comparing
	// the monitors' values (a string each, for the multicast orders)
	words := interfaceWords(mon)
	for k := range w.monWords {
		if w.monWords[k] == words {
			return w.mons[k]
		}
	}
	k := slices.Index(w.m.monitors, mon)
	if k < 0 {
		panic(fmt.Sprintf("monitor %s is not attached to this machine: compile with a property that reads it", mon.Name()))
	}
	return w.mons[k]
}

// interfaceWords is the two words of v, a value of an interface type I:
// its dynamic type's and its value's. Equal words make equal values (the
// value a word points to is never written), so a lookup may match them
// before it hashes or compares the values.
func interfaceWords[I any](v I) [2]unsafe.Pointer {
	return *(*[2]unsafe.Pointer)(unsafe.Pointer(&v))
}

func (w *walker[S, M]) Enabled() (total, protocol int) {
	for _, i := range w.dirty {
		if w.fault != nil {
			return 0, 0
		}
		w.refresh(i)
	}
	w.dirty = w.dirty[:0]
	protocol = w.chans.total + w.local.total
	if w.bounded {
		if w.ticks = w.timePasses(); w.fault != nil {
			return 0, 0
		}
		if w.ticks {
			protocol++
		}
	}
	total = protocol
	if w.cfg.Partitions > 0 {
		total += w.partitionsOpen()
	}
	losses, dups := w.MessageFaults()
	total += losses + dups
	if w.faultsOpen() {
		for _, dead := range w.dead {
			if !dead && w.crashes < w.cfg.Crashes || dead && w.recovers < w.cfg.Recoveries {
				total++
			}
		}
	}
	return total, protocol
}

func (w *walker[S, M]) Take(k int) bool {
	if d := w.chans.total; k < d {
		w.begin()
		c, j := w.chans.find(k)
		w.deliver(c, j)
		return true
	} else {
		k -= d
	}
	if l := w.local.total; k < l {
		return w.takeLocal(k)
	} else {
		k -= l
	}
	if w.ticks {
		if k == 0 {
			w.begin()
			w.tick()
			return true
		}
		k--
	}
	// A fault is drawn as one more choice among the steps that move. With
	// none left, the world is quiescent, which the caller judges before
	// it draws a fault: every timeout and action is set aside.
	if w.chans.total == 0 && w.local.total > 0 && w.Moving(1) == 0 {
		if w.fault == nil {
			for i := range w.nodes {
				nd := &w.nodes[i]
				for _, s := range nd.slots {
					if out := nd.out(s); !out.gone {
						w.turnDown(model.NodeID(i), out)
					}
				}
			}
		}
		return false
	}
	w.begin()
	if w.cfg.Partitions > 0 {
		if p := w.partitionsOpen(); k < p {
			w.takeNetwork(k)
			return true
		} else {
			k -= p
		}
	}
	if l, d := w.MessageFaults(); k < l+d {
		w.takeMessageFault(k)
		return true
	} else {
		k -= l + d
	}
	for i, dead := range w.dead {
		if !dead && w.crashes < w.cfg.Crashes || dead && w.recovers < w.cfg.Recoveries {
			if k == 0 {
				if dead {
					w.recover(model.NodeID(i))
				} else {
					w.crash(model.NodeID(i))
				}
				return true
			}
			k--
		}
	}
	panic("take: event out of range")
}

func (w *walker[S, M]) observe(i model.NodeID, o model.Obs) {
	w.epoch++
	if w.inPlace != nil && !w.checkAmong(len(w.inPlace)) {
		// every monitor updates its state in place, and none is checked
		// this time: one catch for them all
		k := 0
		if f := catch(func() {
			for ; k < len(w.inPlace); k++ {
				w.mons[k] = w.inPlace[k].ObserveInPlace(w.cfg, w.mons[k], i, o)
			}
		}); f != nil {
			f.Protocol, f.Monitor, f.Handler, f.Node, f.Obs = w.m.Name, w.m.monitors[k].Name(), "Observe", i, o.String()
			w.setFault(f)
		}
		return
	}
	for k, mon := range w.m.monitors {
		in := w.mons[k]
		sampled := w.checkNow()
		check := sampled && writable(reflect.TypeOf(in))
		if check {
			w.buf = AppendKey(w.buf[:0], in)
		}
		inPlace, _ := mon.(inplace.Monitor)
		var out any
		f := catch(func() {
			if inPlace == nil || sampled {
				out = mon.Observe(w.cfg, in, i, o)
			}
		})
		if f == nil && check {
			if after := AppendKey(nil, in); string(after) != string(w.buf) {
				f, _, _ = mutation("state", reflect.TypeOf(in), string(w.buf), in)
			}
		}
		if f == nil && sampled {
			f = w.observeAgain(mon, in, out, i, o) // leaves out's key in w.buf
			check = true
		}
		if f == nil && inPlace != nil {
			want := out // whose key w.buf holds, if checked
			f = catch(func() { out = inPlace.ObserveInPlace(w.cfg, in, i, o) })
			if f == nil && check {
				if got := AppendKey(nil, out); string(got) != string(w.buf) {
					f = &Fault{Fault: model.Fault{Misuse: fmt.Sprintf("returned %+v from ObserveInPlace where Observe returns %+v", out, want)}}
				}
			}
		}
		if f != nil {
			f.Protocol, f.Monitor, f.Handler, f.Node, f.Obs = w.m.Name, mon.Name(), "Observe", i, o.String()
			w.setFault(f)
			return
		}
		w.mons[k] = out
	}
}

// observeAgain feeds o at node i to mon a second time, on a fresh copy of
// in, and compares the state it returns with out, the first call's, by
// key; out's key is left in w.buf.
func (w *walker[S, M]) observeAgain(mon model.Monitor, in, out any, i model.NodeID, o model.Obs) *Fault {
	return catch(func() {
		w.buf = AppendKey(w.buf[:0], out) // panics on a state with no canonical form
		again := mon.Observe(w.cfg, freshMonitorState(in), i, o)
		if string(AppendKey(nil, again)) != string(w.buf) {
			panic(nondeterministic("state", out, again))
		}
	})
}

func (w *walker[S, M]) setFault(f *Fault) {
	if w.fault == nil {
		w.fault = f
	}
}

// checkNow tells whether this handler or monitor call is one whose
// inputs are checked for writes (see Walker).
func (w *walker[S, M]) checkNow() bool {
	w.calls++
	return w.calls <= purityAll || w.calls%purityEvery == 0
}

// checkAmong tells whether one of the next n calls is checked (see
// checkNow): if not, it counts them all.
func (w *walker[S, M]) checkAmong(n int) bool {
	if w.calls < purityAll || (w.calls+n)/purityEvery != w.calls/purityEvery {
		return true
	}
	w.calls += n
	return false
}

// run calls handler h at node i, whose input state is the node's (nil msg
// for a handler that receives none), checks it as a Stepper does, and
// returns its outcome; a Timeout fires the node's timer fired (else -1).
// ok is false after a fault. An outcome applied atOnce, before the next
// call, holds its messages, timer operations and observations in the
// walker's buffers; one kept for later (a timeout or action drawn or not)
// in its own.
func (w *walker[S, M]) run(i model.NodeID, handler string, h func(*model.Ctx[M]) S, msg *M, fired int, atOnce bool) (liveResult[S, M], bool) {
	var r liveResult[S, M]
	if f := catch(func() { r = w.call(i, handler, h, msg, fired, atOnce) }); f != nil {
		f.Protocol, f.Handler, f.Node = w.m.Name, handler, i
		w.setFault(f)
		return r, false
	}
	return r, true
}

// call is run without the catch: a fault panics.
func (w *walker[S, M]) call(i model.NodeID, handler string, h func(*model.Ctx[M]) S, msg *M, fired int, atOnce bool) (r liveResult[S, M]) {
	nd := &w.nodes[i]
	check := w.checkNow()
	var inKey, msgKey string
	if check && handler != "Init" && w.t.writableS {
		inKey = string(appendKeyOf(w.buf[:0], &nd.state))
	}
	if check && msg != nil && w.t.writableM {
		msgKey = string(appendKeyOf(w.buf[:0], msg))
	}
	r.base, r.fired = nd.timers, fired
	ctx := w.ctxs[i]
	w.bufs[i].Reset()
	r.state = h(ctx)
	if inKey != "" {
		if after := appendKeyOf(w.buf[:0], &nd.state); string(after) != inKey {
			f, _, _ := mutation("state", reflect.TypeFor[S](), inKey, nd.state)
			panic(f)
		}
	}
	if msgKey != "" {
		if after := appendKeyOf(w.buf[:0], msg); string(after) != msgKey {
			f, _, _ := mutation("message", reflect.TypeFor[M](), msgKey, *msg)
			panic(f)
		}
	}
	if check {
		if f := w.again(i, h, msg, r.state, ctx); f != nil {
			panic(f)
		}
	}
	// built in the walker's buffers; an outcome kept for later is copied
	// out of them below
	w.scratch.timers = append(w.scratch.timers[:0], w.bufs[i].Timers...)
	ops := w.scratch.timers
	w.scratch.sends = append(w.scratch.sends[:0], w.bufs[i].Sends...)
	r.sends = w.scratch.sends
	r.ops = w.scratch.ops[:0]
	for _, s := range r.sends {
		if s.To < 0 || int(s.To) >= w.n {
			panic(misuse(fmt.Sprintf("sent to node %d, outside 0..%d", s.To, w.n-1)))
		}
		if s.To != i && w.cfg.Topology != "" && !ctx.Adjacent(s.To) {
			panic(misuse(fmt.Sprintf("sent to %v, which is not a neighbour of %v on topology %s", s.To, i, w.cfg.Topology)))
		}
	}
	// the timers' own copies of their waits, one after another
	waits := w.chunks.waits.take(waitsOf(ops))
	for _, op := range ops {
		if w.t.timed == nil && op.Armed {
			panic(misuse(fmt.Sprintf("armed timer %v, but the protocol has no Timeout method to handle it", op.Timer)))
		}
		tm := liveTimer{t: op.Timer, id: w.timerID(op.Timer)}
		if op.Armed {
			if len(op.WaitOn) > 0 {
				// the node's timers keep it: a copy of the handler's
				from := len(waits)
				waits = append(waits, op.WaitOn...)
				on := waits[from:]
				slices.Sort(on)
				tm.wait = slices.Clip(slices.Compact(on))
				waits = waits[:from+len(tm.wait)]
			}
			if op.Ticks > 0 && w.bounded {
				tm.at = w.clock + op.Ticks
			}
		}
		r.ops = append(r.ops, liveOp{tm, op.Armed})
	}
	w.scratch.ops = r.ops
	w.scratch.obs = append(w.scratch.obs[:0], w.bufs[i].Obs...)
	r.obs = w.scratch.obs
	if !atOnce {
		r.sends = append(w.chunks.sends.take(len(r.sends)), r.sends...)
		r.ops = append(w.chunks.ops.take(len(r.ops)), r.ops...)
		r.obs = slices.Clone(r.obs)
	}
	// what a Stepper gets by cloning what it interns: a handler may build
	// its result on its input's slices, which must not change under it
	clip(&w.t.clipS, &r.state)
	if handler == "Recover" {
		r.label = w.labels.id("recover")
	}
	return r
}

// again calls handler h, which call called at node i (msg: the message
// it received, or nil) and which returned next and filled ctx, a second
// time on fresh copies of its inputs, and compares the outcomes (see
// typed.sameOutcome). The node's state and the message are put back
// whatever h does.
func (w *walker[S, M]) again(i model.NodeID, h func(*model.Ctx[M]) S, msg *M, next S, ctx *model.Ctx[M]) *Fault {
	if w.seconds == nil {
		w.seconds = make([]*model.Ctx[M], w.n)
		w.secondBufs = make([]*effectBuffer[M], w.n)
	}
	if w.seconds[i] == nil {
		w.seconds[i] = model.NewCtx[M](*w.cfg, i)
		w.secondBufs[i] = bufferOf(w.seconds[i])
	}
	second := w.seconds[i]
	w.secondBufs[i].Reset()
	var next2 S
	func() {
		// h reads its inputs from the node and the channel
		nd := &w.nodes[i]
		state := nd.state
		nd.state = freshCopy(&state, w.t.writableS)
		defer func() { nd.state = state }()
		if msg != nil {
			m := *msg
			*msg = freshCopy(&m, w.t.writableM)
			defer func() { *msg = m }()
		}
		next2 = h(second)
	}()
	return sameOutcome(&w.twice, &next, &next2, w.bufs[i], w.secondBufs[i])
}

// nameInput names the input of the handler call that just faulted, if
// the fault is a Nondeterministic one (see Fault.Input).
func (w *walker[S, M]) nameInput(input func() string) {
	if f := w.fault; f != nil && f.Nondeterministic != "" && f.Input == "" && f.Monitor == "" {
		f.Input = input()
	}
}

// waitsOf is the number of nodes ops wait on, all told.
func waitsOf(ops []timerEffect) int {
	n := 0
	for _, op := range ops {
		n += len(op.WaitOn)
	}
	return n
}

// timerID is timer t's identity (see timerID); a timer that is no plain
// comparable value is a misuse.
func (w *walker[S, M]) timerID(t model.Timer) *timerID {
	return w.tids.of(t, func(t model.Timer) string {
		if err := checkPlainComparable(t); err != nil {
			panic(misuse(fmt.Sprintf("armed timer %v: %v", t, err)))
		}
		return contentKey(t)
	})
}

func (w *walker[S, M]) Observed() []NodeObs    { return w.obs }
func (w *walker[S, M]) Now(i model.NodeID) int { return w.now[i] }
