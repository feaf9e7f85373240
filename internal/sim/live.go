package sim

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"strings"
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
// lists.
func Supported(cfg *model.Config) bool {
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

// liveTimer is an armed timer: its value, its content key (the order in
// which a node's timeouts are drawn) and the nodes it waits on, sorted.
type liveTimer struct {
	t    model.Timer
	id   *timerID
	wait []model.NodeID
	// at: under Bounded timing, the tick a timer armed with SetTimerAfter
	// is due at (see walker.clock); 0 for any other timer
	at int
}

// remaining is the ticks left before timer tm is due at tick clock: 0
// once it is due (a due timer counts no further), -1 if it counts none.
func (tm *liveTimer) remaining(clock int) int {
	if tm.at == 0 {
		return -1
	}
	return max(tm.at-clock, 0)
}

// liveResult is one handler call's outcome, applied when its event is
// taken.
type liveResult[S, M any] struct {
	state S
	// The node's timers afterwards are base (its timers before the
	// call), less base[fired] (fired < 0: none), with ops applied in
	// order: see timersAfter. Kept apart, a candidate that is never taken
	// costs no copy of its node's timers, which may be many.
	base  []liveTimer
	fired int
	ops   []liveOp
	sends []model.Sent[M]
	obs   []model.Obs
	label uint16
	// same: whether state is the node's state before the call (1), is
	// not (-1) or is yet to be compared (0)
	same int8
}

// liveOp arms (armed) or cancels a timer.
type liveOp struct {
	liveTimer
	armed bool
}

// timersAfter returns the node's timers after r, sorted by key: base
// itself when r changes none of them. inPlace builds them in base's
// memory, which only a step taken may do: the node's outcomes, which
// share base, are forgotten then. mb holds the buffers of a merge (see
// mergedTimers); nil, its own.
func (r *liveResult[S, M]) timersAfter(inPlace bool, mb *mergeBuf) []liveTimer {
	if r.fired < 0 && len(r.ops) == 0 {
		return r.base
	}
	if len(r.ops) > 8 {
		merged := r.mergedTimers(mb)
		if inPlace {
			return append(r.base[:0], merged...) // where base has room
		}
		return slices.Clone(merged)
	}
	ts := r.base
	if !inPlace {
		ts = slices.Clone(ts)
	}
	if r.fired >= 0 {
		ts = slices.Delete(ts, r.fired, r.fired+1)
	}
	for _, op := range r.ops {
		at, armed := slices.BinarySearchFunc(ts, op.id, byID)
		switch {
		case op.armed && armed:
			ts[at] = op.liveTimer
		case op.armed:
			ts = slices.Insert(ts, at, op.liveTimer)
		case armed:
			ts = slices.Delete(ts, at, at+1)
		}
	}
	return ts
}

// byID orders timers by content key (see timerID).
func byID(e liveTimer, id *timerID) int { return cmp.Compare(e.id.ord, id.ord) }

// mergeBuf holds a walker's buffers for mergedTimers, reused from call to
// call.
type mergeBuf struct {
	order []opAt
	out   []liveTimer
}

// opAt is operation at of a call, by the rank of its timer's key.
type opAt struct {
	ord uint64
	at  int32
}

// mergedTimers is timersAfter for a call that armed or cancelled many
// timers (a coordinator polling every member): its operations sorted by
// key, the last on each key deciding, merged with base in one pass, where
// one search and one shift of base per operation would cost its length
// each. The timers are built in mb.out, valid until the next call.
func (r *liveResult[S, M]) mergedTimers(mb *mergeBuf) []liveTimer {
	if mb == nil {
		mb = &mergeBuf{}
	}
	// The operations by key: as made, where a loop over the nodes arms
	// them in key order; else sorted by rank, then position (the last on
	// a key deciding), as pairs of integers, which move less than the
	// operations themselves.
	order := mb.order[:0]
	sorted := true
	for k := range r.ops {
		order = append(order, opAt{r.ops[k].id.ord, int32(k)})
		sorted = sorted && (k == 0 || order[k-1].ord < order[k].ord)
	}
	if !sorted {
		slices.SortFunc(order, func(a, b opAt) int {
			if c := cmp.Compare(a.ord, b.ord); c != 0 {
				return c
			}
			return cmp.Compare(a.at, b.at)
		})
		last := order[:0]
		for k, o := range order {
			if k+1 == len(order) || order[k+1].ord != o.ord {
				last = append(last, o)
			}
		}
		order = last
	}
	mb.order = order
	out := mb.out[:0]
	i, j := 0, 0
	for i < len(r.base) || j < len(order) {
		if i == r.fired { // fired: gone, unless an operation arms it again
			i++
			continue
		}
		c := 1 // base[i] after the operation, or base done
		if j == len(order) {
			c = -1
		} else if i < len(r.base) {
			c = cmp.Compare(r.base[i].id.ord, order[j].ord)
		}
		if c < 0 { // left alone
			out = append(out, r.base[i])
			i++
			continue
		}
		if c == 0 { // armed again or cancelled
			i++
		}
		if op := &r.ops[order[j].at]; op.armed {
			out = append(out, op.liveTimer)
		}
		j++
	}
	mb.out = out
	return out
}

// keepsTimers reports whether the node's timers after r are those before
// (base), without building them: every timer r fired, armed or cancelled
// ends as it was. With lostTo (the nodes r's messages to are lost to a
// cut, indexed by node; nil: none), a timer after r that waits on one of
// them counts as expired, waiting on no node (see Walker.lose): it is
// kept only if it waited on none before.
func (r *liveResult[S, M]) keepsTimers(lostTo []bool, mb *mergeBuf) bool {
	expires := func(t *liveTimer) bool {
		return lostTo != nil && slices.ContainsFunc(t.wait, func(j model.NodeID) bool { return lostTo[j] })
	}
	touched := func(id *timerID) bool {
		return r.fired >= 0 && r.base[r.fired].id == id ||
			slices.ContainsFunc(r.ops, func(op liveOp) bool { return op.id == id })
	}
	// a timer r leaves alone is kept unless it expires; none does when no
	// message is lost, the common case, which skips the scan
	if lostTo != nil {
		for k := range r.base {
			if expires(&r.base[k]) && !touched(r.base[k].id) {
				return false
			}
		}
	}
	if r.fired < 0 && len(r.ops) == 0 {
		return true
	}
	if len(r.ops) > 8 { // the quadratic search below would cost more
		after := r.mergedTimers(mb)
		return slices.EqualFunc(after, r.base, func(a, b liveTimer) bool { return keptAs(&a, &b, expires) })
	}
	firedKept := r.fired < 0
	for k := range r.ops {
		op := &r.ops[k]
		if slices.ContainsFunc(r.ops[k+1:], func(later liveOp) bool { return later.id == op.id }) {
			continue // a later op decides
		}
		at, armed := slices.BinarySearchFunc(r.base, op.id, byID)
		if op.armed != armed || armed && !keptAs(&op.liveTimer, &r.base[at], expires) {
			return false
		}
		firedKept = firedKept || at == r.fired && armed
	}
	return firedKept
}

// keptAs reports whether timer a, after a step, is timer b as it was
// before: a waiting on a node its step's messages to are lost to
// expires, so b must wait on none.
func keptAs(a, b *liveTimer, expires func(*liveTimer) bool) bool {
	if a.t != b.t || a.at != b.at {
		return false
	}
	if expires(a) {
		return len(b.wait) == 0
	}
	return slices.Equal(a.wait, b.wait)
}

type liveNode[S, M any] struct {
	state S
	boxed any    // state as an any, for View.State; nil: not yet
	key   []byte // state's encoding, for the stutter check; nil: not yet
	// keyed: key holds state's encoding
	keyed  bool
	timers []liveTimer
	dirty  bool
	// slots lists the node's timeouts whose wait is over (timer index)
	// and its actions (^action index), in the order a walk draws them
	slots []int32
	// known: outs holds the outcomes of its timeouts met so far (by timer
	// index), and, if acted, acts its actions and actOuts their outcomes,
	// for its state and timers as they are. Handlers are pure, so a
	// refresh for a change around the node (a message to it, a crash, a
	// cut) reuses them.
	known bool
	outs  []liveOut[S, M]
	// ran lists the timer indexes whose outcome in outs ran: the only
	// entries of outs that are not zero, so that forgetting clears them
	// and not every timer's (a node may hold many)
	ran     []int32
	acts    []model.Action
	actOuts []liveOut[S, M]
	acted   bool
}

// liveOut is the outcome of a timeout or action, once it ran.
type liveOut[S, M any] struct {
	r   liveResult[S, M]
	ran bool
	// gone: drawn since the last step, it stutters (see Walker.Take)
	gone bool
}

// forget drops the outcomes known: the node's state or timers changed.
func (nd *liveNode[S, M]) forget() { nd.known = false }

// liveMsg is a message in flight with its kind (an index into Kinds).
// In an unordered channel, copies of one message are one event (count of
// them), in content order (key).
//
// The message comes last, beside its kind: a small message then packs with
// the kind into the entry's last word instead of padding one of its own
// (40 bytes for a one-byte message, not 48).
type liveMsg[M any] struct {
	key string
	// stamp: the time it was sent at (see Walker.Now), in a FIFO queue
	stamp int
	// sent: under Bounded timing, the tick it was sent at (see
	// walker.clock); copies sent at different ticks are different
	// messages, as their ages differ
	sent int
	kind uint8
	msg  M
}

// bagMsg is a message in flight in an unordered channel: its copies
// (count), and the times they were sent at, in send order. A FIFO queue
// holds a copy per entry, and no more than a liveMsg: under async timers
// messages pile up in flight, and every byte of an entry is written once
// and read once.
type bagMsg[M any] struct {
	liveMsg[M]
	count  int
	stamps []int
}

// liveChan is a channel that carried a message in the walk: its messages
// in flight, in a FIFO queue (head at head) or a bag (distinct messages by
// key), how many with copies counted, the message faults it lists (see
// liveFaults) and its hash in the Fingerprint (0 while empty), fpOld
// when it is to be hashed again.
type liveChan[M any] struct {
	fifo      []liveMsg[M]
	head      int
	bag       []bagMsg[M]
	len       int
	lose, dup int
	fp        uint64
	fpOld     bool
}

// ch is channel c's record; c carried a message in the walk.
func (w *walker[S, M]) ch(c int) *liveChan[M] { return w.chanRec[w.chanAt[c]-1] }

// inChan is the number of messages in flight in channel c.
func (w *walker[S, M]) inChan(c int) int {
	if k := w.chanAt[c]; k > 0 {
		return w.chanRec[k-1].len
	}
	return 0
}

// useChan gives channel c a record, if it has none in this walk.
func (w *walker[S, M]) useChan(c int) *liveChan[M] {
	if k := w.chanAt[c]; k > 0 {
		return w.chanRec[k-1]
	}
	k := len(w.used)
	if k == len(w.chanRec) {
		w.chanRec = append(w.chanRec, &liveChan[M]{})
	}
	w.used = append(w.used, c)
	w.chanAt[c] = int32(k + 1)
	return w.chanRec[k]
}

type goneOut[S, M any] struct {
	node model.NodeID
	out  *liveOut[S, M]
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
	local    fenwick // timeouts and actions enabled per node, but gone
	dirty    []model.NodeID
	// gone lists the outcomes turned down since the last step
	gone []goneOut[S, M]
	mf   liveFaults
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
	labels []string
	lblIdx map[string]uint16
	// evLbl: the label of each timer's timeout and each action, by value
	evLbl  map[evKey]uint16
	kinds  []string
	kndIdx map[string]uint8
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
		chans: newFenwick(n * n), local: newFenwick(n), mons: make([]any, len(m.monitors)),
		lblIdx: map[string]uint16{}, evLbl: map[evKey]uint16{}, kndIdx: map[string]uint8{}, seed: maphash.MakeSeed()}
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
		w.labelOf(k.String()) // the fault labels first, as a Machine's
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
		w.chans.add(c, -int(w.chans.count[c]))
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
func (w *walker[S, M]) Labels() []string                 { return slices.Clone(w.labels) }
func (w *walker[S, M]) Kinds() []string                  { return slices.Clone(w.kinds) }
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

// faultsOpen reports whether a crash or a recovery may still happen.
func (w *walker[S, M]) faultsOpen() bool {
	return w.crashes < w.cfg.Crashes || w.recovers < w.cfg.Recoveries
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
		i, j := w.local.find(k)
		out := w.outcome(model.NodeID(i), w.slotAt(i, j))
		if out == nil {
			return false // a fault: the walk is over
		}
		if w.stutters(model.NodeID(i), &out.r) {
			w.turnDown(model.NodeID(i), out)
			return false
		}
		w.begin()
		w.label = out.r.label
		w.apply(model.NodeID(i), out.r)
		return true
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

// begin starts a step: the outcomes turned down count again.
func (w *walker[S, M]) begin() {
	w.sent, w.obs = w.sent[:0], w.obs[:0]
	for _, g := range w.gone {
		g.out.gone = false
		w.local.add(int(g.node), 1)
	}
	w.gone = w.gone[:0]
}

// turnDown leaves out, a timeout or action of node i that stutters, until
// the next step.
func (w *walker[S, M]) turnDown(i model.NodeID, out *liveOut[S, M]) {
	out.gone = true
	w.gone = append(w.gone, goneOut[S, M]{i, out})
	w.local.add(int(i), -1)
}

func (w *walker[S, M]) Moving(atMost int) int {
	n := w.chans.total
	if w.ticks {
		n++ // a tick always moves: it ages a message or counts a timer down
	}
	for i := range w.nodes {
		if n >= atMost {
			break
		}
		nd := &w.nodes[i]
		if w.local.count[i] == 0 {
			continue
		}
		for _, s := range nd.slots {
			if nd.out(s).gone {
				continue
			}
			out := w.outcome(model.NodeID(i), s)
			if out == nil {
				return n // a fault: the walk is over
			}
			if !w.stutters(model.NodeID(i), &out.r) {
				if n++; n >= atMost {
					break
				}
			}
		}
	}
	return n
}

// out is the outcome of slot s (see liveNode.slots), run or not.
func (nd *liveNode[S, M]) out(s int32) *liveOut[S, M] {
	if s >= 0 {
		return &nd.outs[s]
	}
	return &nd.actOuts[^s]
}

// slotAt returns node i's j-th slot not turned down.
func (w *walker[S, M]) slotAt(i, j int) int32 {
	nd := &w.nodes[i]
	for _, s := range nd.slots {
		if nd.out(s).gone {
			continue
		}
		if j == 0 {
			return s
		}
		j--
	}
	panic("take: slot out of range")
}

// outcome is the outcome of node i's slot s, run now if it did not run
// yet; nil after a fault.
func (w *walker[S, M]) outcome(i model.NodeID, s int32) *liveOut[S, M] {
	nd := &w.nodes[i]
	out := nd.out(s)
	if out.ran {
		return out
	}
	var r liveResult[S, M]
	var ok bool
	if s >= 0 {
		tm := nd.timers[s]
		r, ok = w.run(i, "Timeout", func(c *model.Ctx[M]) S { return w.t.timed.Timeout(c, nd.state, tm.t) }, nil, int(s), false)
		if !ok {
			w.nameInput(func() string { return fmt.Sprint(tm.t) })
		}
		if !tm.id.labeled {
			tm.id.label, tm.id.labeled = w.eventLabel(evKey{v: tm.t}), true
		}
		r.label = tm.id.label
	} else {
		a := nd.acts[^s]
		r, ok = w.run(i, "Do", func(c *model.Ctx[M]) S { return w.t.actor.Do(c, nd.state, a) }, nil, -1, false)
		if !ok {
			w.nameInput(func() string { return fmt.Sprint(a) })
		}
		r.label = w.eventLabel(evKey{action: true, v: a})
	}
	if !ok {
		return nil
	}
	out.r, out.ran = r, true
	if s >= 0 {
		nd.ran = append(nd.ran, s)
	}
	return out
}

// clearOuts zeroes the timer outcomes that ran (see liveNode.ran).
func (nd *liveNode[S, M]) clearOuts() {
	outs := nd.outs[:cap(nd.outs)]
	for _, k := range nd.ran {
		outs[k] = liveOut[S, M]{}
	}
	nd.ran = nd.ran[:0]
}

// deliver delivers message j (in content order) of channel c.
func (w *walker[S, M]) deliver(c, j int) {
	from, to := model.NodeID(c/w.n), model.NodeID(c%w.n)
	var lm *liveMsg[M]
	var stamp int
	if rec := w.ch(c); w.fifo {
		lm = &rec.fifo[rec.head]
		stamp = lm.stamp
	} else {
		lm = &rec.bag[j].liveMsg
		stamp = rec.bag[j].stamps[0]
	}
	w.label = w.receiveLabel(lm.kind)
	nd := &w.nodes[to]
	r, ok := w.run(to, "Receive", func(ctx *model.Ctx[M]) S { return w.t.p.Receive(ctx, nd.state, from, lm.msg) }, &lm.msg, -1, true)
	if !ok {
		w.nameInput(func() string { return fmt.Sprintf("%s from %v", w.t.kindAt(&lm.msg), from) })
		return
	}
	w.now[to] = max(w.now[to], stamp)
	w.remove(c, j)
	w.apply(to, r)
}

// msgAt is message j of channel c: its head under FIFO.
func (w *walker[S, M]) msgAt(c, j int) *liveMsg[M] {
	rec := w.ch(c)
	if w.fifo {
		return &rec.fifo[rec.head]
	}
	return &rec.bag[j].liveMsg
}

// timePasses reports whether a tick is enabled (Bounded timing; see
// Stepper.ticks): no message is as old as the delay bound, no due timer
// would fire with a step that moves, and a message is in flight or a
// timer counts down. It runs the handlers of the due timers it needs to.
func (w *walker[S, M]) timePasses() bool {
	if delay := w.cfg.Delay; w.clock >= delay && w.sentAt[(w.clock-delay)%len(w.sentAt)] > 0 {
		return false
	}
	counting := w.inFlight > 0
	for i := range w.nodes {
		nd := &w.nodes[i]
		if w.dead[i] {
			continue
		}
		for k := range nd.timers {
			switch r := nd.timers[k].remaining(w.clock); {
			case r > 0:
				counting = true
			case r == 0:
				// a due timer fires first, unless its step would change
				// nothing: then it waits, and time passes on
				out := w.outcome(model.NodeID(i), int32(k))
				if out == nil {
					return false // a fault
				}
				if !out.gone && !w.stutters(model.NodeID(i), &out.r) {
					return false // (one turned down stutters)
				}
			}
		}
	}
	return counting
}

// tick lets one tick pass: every message ages and every timer armed with
// SetTimerAfter counts down, by the clock alone. The outcomes known are
// forgotten, as the timers they arm are due a tick later.
func (w *walker[S, M]) tick() {
	w.clock++
	w.label = uint16(slices.Index(faultKinds, Tick))
	for i := range w.nodes {
		w.nodes[i].forget()
		w.touch(model.NodeID(i))
	}
	for k, c := range w.used {
		if w.chanRec[k].len > 0 {
			w.staleChan(c) // their ages
		}
	}
}

// receiveLabel is the label of receiving a message of kind k.
func (w *walker[S, M]) receiveLabel(k uint8) uint16 {
	for len(w.rcvLabel) <= int(k) {
		w.rcvLabel = append(w.rcvLabel, w.labelOf("receive "+w.kinds[len(w.rcvLabel)]))
	}
	return w.rcvLabel[k]
}

// remove takes message j of channel c out of flight.
func (w *walker[S, M]) remove(c, j int) {
	if w.bounded {
		w.sentAt[w.msgAt(c, j).sent%len(w.sentAt)]--
	}
	rec := w.ch(c)
	if w.fifo {
		rec.fifo[rec.head] = liveMsg[M]{}
		rec.head++
		if rec.head == len(rec.fifo) {
			rec.fifo, rec.head = rec.fifo[:0], 0
			w.chans.add(c, -1)
		}
	} else {
		b := rec.bag
		b[j].stamps = b[j].stamps[1:]
		if b[j].count--; b[j].count == 0 {
			rec.bag = slices.Delete(b, j, j+1)
			w.chans.add(c, -1)
		}
	}
	rec.len--
	w.inFlight--
	w.staleChan(c)
	w.touch(model.NodeID(c % w.n))
}

// send puts *msg, of kind kind, in flight from i to j, lost if j is down.
// key is its content key, "" if not yet encoded; send returns it, once
// encoded for an unordered channel. *msg must be clipped (see clip).
func (w *walker[S, M]) send(i, j model.NodeID, msg *M, kind uint8, key string, stamp int) string {
	w.sent = append(w.sent, kind)
	if w.dead[j] {
		return key
	}
	if !w.connected(i, j) {
		w.lose(i, j)
		return key
	}
	c := int(i)*w.n + int(j)
	rec := w.useChan(c)
	if w.bounded {
		w.sentAt[w.clock%len(w.sentAt)]++
	}
	if w.fifo {
		if len(rec.fifo) == rec.head {
			w.chans.add(c, 1)
		}
		if key == "" && w.mf.on { // to tell a channel's messages apart
			key = string(appendKeyOf(w.buf[:0], msg))
		}
		q, head := rec.fifo, rec.head
		if len(q) == cap(q) && head > 0 && head >= len(q)/2 {
			// full, and half of it delivered: the messages in flight move
			// to the front rather than into a larger array (under async
			// timers they pile up, and a queue would only grow)
			n := copy(q, q[head:])
			clear(q[n:])
			q, rec.head = q[:n], 0
		}
		rec.fifo = append(q, liveMsg[M]{msg: *msg, kind: kind, key: key, stamp: stamp, sent: w.clock})
	} else {
		if key == "" {
			key = string(appendKeyOf(w.buf[:0], msg))
		}
		b := rec.bag
		// in content order, and copies of one content youngest first (a
		// Stepper's EventKey: the content, then the age)
		at, found := slices.BinarySearchFunc(b, key, func(e bagMsg[M], key string) int {
			if c := strings.Compare(e.key, key); c != 0 {
				return c
			}
			return w.clock - e.sent
		})
		if found {
			b[at].count++
			b[at].stamps = append(b[at].stamps, stamp)
		} else {
			rec.bag = slices.Insert(b, at, bagMsg[M]{liveMsg[M]{msg: *msg, kind: kind, key: key, sent: w.clock}, 1, []int{stamp}})
			w.chans.add(c, 1)
		}
	}
	rec.len++
	w.inFlight++
	// j's timers are left as they were: a wait on i, up and connected
	// to j, was not over before, nor is it now
	w.staleChan(c)
	return key
}

// apply makes r node i's step: its state, timers, sends, observations.
func (w *walker[S, M]) apply(i model.NodeID, r liveResult[S, M]) {
	nd := &w.nodes[i]
	timers := r.timersAfter(true, &w.merge) // nd.forget() below
	nd.state, nd.boxed, nd.keyed, nd.timers = r.state, nil, false, timers
	nd.forget()
	var kind uint8
	var key string
	for k := range r.sends {
		// in place, before the copies of a message sent to many are told
		// alike below: clipped alike, they stay alike
		clip(&w.t.clipM, &r.sends[k].Msg)
	}
	for k := range r.sends {
		s := &r.sends[k]
		// a message sent to many (SendAll) is one value: its kind is
		// looked up and its key encoded once
		if k == 0 || !shallowEqual(&s.Msg, &r.sends[k-1].Msg) {
			kind, key = w.kindOf(w.t.kindAt(&s.Msg)), ""
		}
		key = w.send(i, s.To, &s.Msg, kind, key, w.now[i]+1)
	}
	for _, o := range r.obs {
		w.obs = append(w.obs, NodeObs{i, o})
		w.observe(i, o)
	}
	w.touch(i)
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

func (w *walker[S, M]) crash(i model.NodeID) {
	w.crashes++
	w.epoch++
	w.label = uint16(slices.Index(faultKinds, Crash))
	nd := &w.nodes[i]
	w.dead[i], nd.timers = true, nil
	w.down++
	nd.forget()
	for from := range w.n {
		c := from*w.n + int(i)
		for w.inChan(c) > 0 {
			w.remove(c, 0)
		}
	}
	w.obs = append(w.obs, NodeObs{i, model.Obs{Kind: model.ObsCrash}})
	w.observe(i, model.Obs{Kind: model.ObsCrash})
	w.touchAll()
}

func (w *walker[S, M]) recover(i model.NodeID) {
	w.recovers++
	w.epoch++
	nd := &w.nodes[i]
	w.obs = append(w.obs, NodeObs{i, model.Obs{Kind: model.ObsRecover}})
	w.observe(i, model.Obs{Kind: model.ObsRecover})
	if w.fault != nil {
		return
	}
	nd.timers = nil
	r, ok := w.run(i, "Recover", func(c *model.Ctx[M]) S { return w.t.rec.Recover(c, nd.state) }, nil, -1, true)
	if !ok {
		return
	}
	w.dead[i] = false
	w.down--
	w.label = r.label
	w.apply(i, r)
	w.touchAll()
}

// touch marks node i's enabled events for recomputing, and its part of
// the fingerprint.
func (w *walker[S, M]) touch(i model.NodeID) {
	w.staleNode(i)
	if nd := &w.nodes[i]; !nd.dirty {
		nd.dirty = true
		w.dirty = append(w.dirty, i)
	}
}

func (w *walker[S, M]) touchAll() {
	for i := range w.n {
		w.touch(model.NodeID(i))
	}
}

func (w *walker[S, M]) setFault(f *Fault) {
	if w.fault == nil {
		w.fault = f
	}
}

// refresh recomputes the timeouts and actions enabled at node i, stutter
// or not: its timeouts whose wait is over and its actions.
func (w *walker[S, M]) refresh(i model.NodeID) {
	nd := &w.nodes[i]
	nd.dirty = false
	nd.slots = nd.slots[:0]
	if !w.dead[i] {
		if !nd.known {
			// cleared before they shrink, outs and actOuts hold zeros
			// past their lengths, so that they grow into no stale outcome
			nd.clearOuts()
			nd.outs = slices.Grow(nd.outs[:0], len(nd.timers))[:len(nd.timers)]
			clear(nd.acts)
			nd.acts, nd.acted, nd.known = nd.acts[:0], false, true
		}
		// with every node up and connected, no wait on a node is over:
		// most steps, where a node may hold a timer per peer
		async, waitsEnd := w.cfg.Timing == model.Async, w.down > 0 || w.net.split
		for k := range nd.timers {
			tm := &nd.timers[k]
			var fires bool
			switch {
			case tm.at > 0: // Bounded timing only
				fires = tm.at <= w.clock
			case async || len(tm.wait) == 0:
				fires = true
			default:
				fires = waitsEnd && w.waitOver(i, tm.wait)
			}
			if fires {
				nd.slots = append(nd.slots, int32(k))
			}
		}
		if !nd.acted && w.t.actor != nil {
			if f := catch(func() {
				nd.acts = append(nd.acts, w.t.actor.Actions(&w.ctxs[i].Env, nd.state)...)
				if w.checkNow() {
					again := w.t.actor.Actions(&w.ctxs[i].Env, freshCopy(&nd.state, w.t.writableS))
					if _, differ := firstDifference(nd.acts, again); differ {
						panic(nondeterministic("actions", slices.Clone(nd.acts), again))
					}
				}
				for _, a := range nd.acts {
					if err := checkPlainComparable(a); err != nil {
						panic(misuse(fmt.Sprintf("declared action %v: %v", a, err)))
					}
				}
			}); f != nil {
				f.Protocol, f.Handler, f.Node = w.m.Name, "Actions", i
				w.setFault(f)
				return
			}
			clear(nd.actOuts)
			nd.actOuts = slices.Grow(nd.actOuts[:0], len(nd.acts))[:len(nd.acts)]
			nd.acted = true
		}
		for a := range nd.acts {
			nd.slots = append(nd.slots, ^int32(a))
		}
	}
	w.local.add(int(i), len(nd.slots)-int(w.local.count[i]))
}

// waitOver reports whether a Sync timer of node i waiting on ws may fire:
// every node of ws down or cut off from i, and nothing from them to i in
// flight.
func (w *walker[S, M]) waitOver(i model.NodeID, ws []model.NodeID) bool {
	for _, j := range ws {
		if !w.dead[j] && w.connected(i, j) || w.inChan(int(j)*w.n+int(i)) > 0 {
			return false
		}
	}
	return true
}

// stutters reports whether step r of node i leaves the world as it is
// (see Stepper.stutters): no observation, every message sent lost (to a
// node that is down, or to a cut that expires no timer of its receiver),
// the same timers (after those lost messages expired them) and the same
// state.
func (w *walker[S, M]) stutters(i model.NodeID, r *liveResult[S, M]) bool {
	if len(r.obs) > 0 {
		return false
	}
	nd := &w.nodes[i]
	lost := false // to a cut
	for _, s := range r.sends {
		j := s.To
		if w.dead[j] {
			continue
		}
		if w.connected(i, j) {
			return false
		}
		lost = true
		if waitsOn(w.nodes[j].timers, i) {
			return false // its receiver's timer expires
		}
	}
	var lostTo []bool
	if lost {
		w.lostTo = slices.Grow(w.lostTo[:0], w.n)[:w.n]
		clear(w.lostTo)
		for _, s := range r.sends {
			w.lostTo[s.To] = !w.dead[s.To]
		}
		lostTo = w.lostTo
	}
	if !r.keepsTimers(lostTo, &w.merge) {
		return false
	}
	if r.same == 0 && shallowEqual(&r.state, &nd.state) {
		r.same = 1 // the handler returned its input, or a copy of it
	}
	if r.same == 0 && differs(&w.t.diffS, &r.state, &nd.state) {
		r.same = -1 // a number or a length changed
	}
	if r.same == 0 {
		if !nd.keyed {
			nd.key, nd.keyed = appendKeyOf(nd.key[:0], &nd.state), true
		}
		w.buf = appendKeyOf(w.buf[:0], &r.state)
		r.same = -1
		if string(w.buf) == string(nd.key) {
			r.same = 1
		}
	}
	return r.same > 0
}

// shallowEqual reports whether a and b hold the same bytes: the same
// values, sharing whatever they point to, so with the same key (an
// unequal pair may still be equal in content).
func shallowEqual[S any](a, b *S) bool {
	n := unsafe.Sizeof(*a)
	return string(unsafe.Slice((*byte)(unsafe.Pointer(a)), n)) == string(unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
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
		r.label = w.labelOf("recover")
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

func (w *walker[S, M]) labelOf(l string) uint16 {
	if i, ok := w.lblIdx[l]; ok {
		return i
	}
	i := uint16(len(w.labels))
	w.labels = append(w.labels, l)
	w.lblIdx[l] = i
	return i
}

// evKey is a timer that fires or an action taken (both plain comparable
// values: see checkPlainComparable).
type evKey struct {
	action bool
	v      any
}

// eventLabel is the label of a timeout or action ("timeout " or "action "
// and its kind), worked out once per value.
func (w *walker[S, M]) eventLabel(k evKey) uint16 {
	if l, ok := w.evLbl[k]; ok {
		return l
	}
	prefix := "timeout "
	if k.action {
		prefix = "action "
	}
	l := w.labelOf(prefix + kindOfValue(k.v))
	w.evLbl[k] = l
	return l
}

func (w *walker[S, M]) kindOf(k string) uint8 {
	if i, ok := w.kndIdx[k]; ok {
		return i
	}
	if len(w.kinds) == 255 {
		panic("more than 255 message kinds")
	}
	i := uint8(len(w.kinds))
	w.kinds = append(w.kinds, k)
	w.kndIdx[k] = i
	return i
}

// Fingerprint hashes the world: faults used, each node's liveness,
// state and timers, the monitors' states and every channel's messages in
// order. It is a sum of hashes of the parts, each part hashed again only
// once it changed, as a Stepper's fingerprint is: walks ask for it at
// every step where only one event is enabled, a message going round a
// ring, say.
func (w *walker[S, M]) Fingerprint() uint64 {
	if !w.fpOn {
		if w.fpNode == nil {
			w.fpNode, w.fpNodeOld = make([]uint64, w.n), make([]bool, w.n)
		}
		w.fpOn, w.fpTotal = true, 0
		clear(w.fpNode)
		clear(w.fpNodeOld)
		for i := range w.n {
			w.staleNode(model.NodeID(i))
		}
		for _, c := range w.used {
			w.staleChan(c) // an empty channel adds 0
		}
	}
	for _, i := range w.fpNodes {
		w.fpNodeOld[i] = false
		nd := &w.nodes[i]
		b := append(w.buf[:0], byte(i), byte(i>>8))
		if w.dead[i] {
			b = append(b, 1)
		}
		b = appendKeyOf(b, &nd.state)
		b = append(b, byte(len(nd.timers)))
		for _, tm := range nd.timers {
			b = append(b, tm.id.key...)
			for _, j := range tm.wait {
				b = append(b, byte(j), byte(j>>8))
			}
			if tm.at > 0 {
				b = append(b, byte(tm.remaining(w.clock)))
			}
			b = append(b, 0xff)
		}
		w.buf = b
		h := maphash.Bytes(w.seed, b)
		w.fpTotal += h - w.fpNode[i]
		w.fpNode[i] = h
	}
	for _, c := range w.fpChans {
		rec := w.ch(c)
		rec.fpOld = false
		n := rec.len
		if n == 0 {
			w.fpTotal -= rec.fp
			rec.fp = 0
			continue
		}
		// the count, as messages of an empty type encode to nothing
		b := append(w.buf[:0], byte(c), byte(c>>8), byte(c>>16), byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
		if w.fifo {
			for k := rec.head; k < len(rec.fifo); k++ {
				b = appendKeyOf(b, &rec.fifo[k].msg)
				if w.bounded {
					b = append(b, byte(w.clock-rec.fifo[k].sent))
				}
			}
		} else {
			for _, e := range rec.bag {
				b = append(b, e.key...)
				b = append(b, byte(e.count), byte(e.count>>8))
				if w.bounded {
					b = append(b, byte(w.clock-e.sent))
				}
			}
		}
		w.buf = b
		h := maphash.Bytes(w.seed, b)
		w.fpTotal += h - rec.fp
		rec.fp = h
	}
	w.fpNodes, w.fpChans = w.fpNodes[:0], w.fpChans[:0]
	// the monitors change only where the epoch does
	if !w.monKeyed || w.monEpoch != w.epoch {
		w.monKey = w.monKey[:0]
		for _, st := range w.mons {
			w.monKey = AppendKey(w.monKey, st)
		}
		w.monKeyed, w.monEpoch = true, w.epoch
	}
	b := append(w.buf[:0], byte(w.crashes), byte(w.recovers), byte(w.net.parts), byte(w.mf.losses), byte(w.mf.dups))
	b = append(b, w.net.groups...)
	b = append(b, w.monKey...)
	w.buf = b
	return w.fpTotal + maphash.Bytes(w.seed, b)
}

// staleNode and staleChan mark a part of the world whose hash changed;
// staleChan, called whenever a channel changes, also counts again the
// message faults it lists.
func (w *walker[S, M]) staleNode(i model.NodeID) {
	if w.fpOn && !w.fpNodeOld[i] {
		w.fpNodeOld[i] = true
		w.fpNodes = append(w.fpNodes, i)
	}
}

func (w *walker[S, M]) staleChan(c int) {
	w.recount(c)
	if rec := w.ch(c); w.fpOn && !rec.fpOld {
		rec.fpOld = true
		w.fpChans = append(w.fpChans, c)
	}
}

// fenwick counts enabled events per slot (channel or node) and finds the
// slot of the k-th, in slot order, in O(log slots). Its tree is a power of
// two long, so a search never leaves it, and of 32-bit counts, so that the
// 2 500 channels of 50 nodes fit in a tenth of a megabyte of cache: the
// search runs once a step, on a random k, and its branches cannot be
// predicted, only its loads kept near.
type fenwick struct {
	tree  []int32 // 1-based; entries past the last slot count nothing of their own
	count []int32
	total int
	step  int // half the tree's length: the largest power of two not above len(count)
}

func newFenwick(n int) fenwick {
	f := fenwick{count: make([]int32, n), step: 1}
	for f.step*2 <= n {
		f.step *= 2
	}
	f.tree = make([]int32, 2*f.step)
	return f
}

func (f *fenwick) reset() {
	clear(f.tree)
	clear(f.count)
	f.total = 0
}

func (f *fenwick) add(slot, d int) {
	if d == 0 {
		return
	}
	f.count[slot] += int32(d)
	f.total += d
	for i := slot + 1; i < len(f.tree); i += i & -i {
		f.tree[i] += int32(d)
	}
}

// find returns the slot holding the k-th event (from 0, below total) and
// its index within the slot.
func (f *fenwick) find(k int) (slot, j int) {
	pos, tree := 0, f.tree
	for s := f.step; s > 0; s >>= 1 {
		// pos+s < 2·step = len(tree); past the last slot a prefix is the
		// total, above k, so the search never settles there. Branch-free:
		// take is all ones when t ≤ k, else zero.
		t := int(tree[pos+s])
		take := (t - k - 1) >> 63
		pos += s & take
		k -= t & take
	}
	return pos, k
}

func (w *walker[S, M]) Observed() []NodeObs    { return w.obs }
func (w *walker[S, M]) Now(i model.NodeID) int { return w.now[i] }
