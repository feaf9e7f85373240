package sim

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// World is a global state as a flat slice of words; its bytes are its
// canonical encoding, so equal worlds are equal slices. Layout:
//
//	w[0]               crashes used | recoveries used << 8 | partitions used << 16
//	                   | losses used << 24 | duplications used << 32
//	w[1 : 1+N]         node records: state id | timer-set id << 32 | dead << 63
//	w[1+N : 1+N+K]     the K monitors' state ids
//	w[1+N+K : T]       the network, when Config.Partitions > 0: a 4-bit
//	                   group label per node, 16 to a word (see network.go)
//	w[T : H]           the traitors, when Config.Traitors > 0: a bit per
//	                   node, 64 to a word (see traitor.go)
//	w[H :]             messages in flight: from<<48 | to<<32 | msg id, and
//	                   under Bounded timing the message's age in ticks in
//	                   bits 24..31 (the id then takes the 24 bits below)
//
// Messages are sorted by (from, to); within one channel they keep send order
// under FIFO and are sorted by id when channels are unordered, which makes
// the in-flight multiset canonical. Under set channels the words are the
// set, sorted, each once: a delivery leaves its message there, a send of a
// message the set holds adds nothing, and a crash takes nothing out.
type World []uint64

// EventKind is the kind of an Event.
type EventKind uint8

const (
	Deliver EventKind = iota + 1
	Timeout
	Act
	Crash
	Recover
	Partition
	Heal
	Lose
	Duplicate
	// Tick: under Bounded timing, time passes by one tick: every message
	// in flight ages, every timer armed with SetTimerAfter counts down.
	Tick
	// Traitor: node Node turns traitor (Config.Traitors).
	Traitor
)

func (k EventKind) String() string {
	return [...]string{"?", "deliver", "timeout", "action", "crash", "recover", "partition", "heal", "lose", "duplicate", "tick", "traitor"}[k]
}

// Event is one enabled step from a World.
type Event struct {
	Kind EventKind
	Node model.NodeID // the node that acts (the receiver of a delivery, lost or duplicated message); Partition: the cut's first node
	From model.NodeID // Deliver, Lose, Duplicate: the sender; Partition: the cut's last node
	// Deliver, Duplicate: message id; Timeout: timer index; Act: action
	// index; Lose: the message's id under unordered channels, its index in
	// its channel (0: the oldest) under FIFO, where any one may be lost.
	Arg uint32
	// Forge: for a step of a traitor (Deliver, Timeout, Act, Recover), the
	// choice of the messages it sends in place of those its handler sent
	// (see Stepper.Forged); 0 for every other event.
	Forge uint32
}

func packMsg(from, to model.NodeID, msg uint32) uint64 {
	return uint64(from)<<48 | uint64(to)<<32 | uint64(msg)
}
func msgFrom(w uint64) model.NodeID { return model.NodeID(w >> 48) }
func msgTo(w uint64) model.NodeID   { return model.NodeID(w >> 32 & 0xffff) }
func msgID(w uint64) uint32         { return uint32(w) }

// Under Bounded timing a message's age sits above its id in the low word
// of its message word (see World), so that msgID tells copies of one
// message of different ages apart; idOf is the interned message id alone.
const (
	ageShift = 24
	idMask   = 1<<ageShift - 1
	ageUnit  = 1 << ageShift
)

func idOf(arg uint32) uint32 { return arg & idMask }

// AgeOf is the age in ticks of the message a Deliver event's Arg names
// (0 unless timing is Bounded).
func AgeOf(arg uint32) int { return int(arg >> ageShift & 0xff) }
func msgAge(w uint64) int  { return int(w >> ageShift & 0xff) }

// Stepper computes initial worlds, enabled events and successors. It keeps
// private caches in front of the Machine's shared tables; use one Stepper
// per goroutine.
type Stepper struct {
	m        *Machine
	steps    stepMemo
	actions  actionMemo
	actIDs   map[model.Action]uint32 // a mirror of Machine.actionIdx
	monSteps monMemo
	// local mirrors of the Machine's append-only tables, refreshed on miss
	timerSets [][]timerEntry
	waitSets  [][]model.NodeID
	monVals   [][]any
	net       int   // 1 + N + K: index of the first network word
	tw        int   // index of the first traitor word
	header    int   // index of the first message word
	scratch   World // Successor in a split network
	expiries  map[[2]uint32]uint32
	acts      bool     // whether the protocol has local actions
	set       bool     // set channels (model.Set)
	mons      []uint64 // scratch monitor slots for SuccessorFingerprint
	sent      []int32  // scratch per-receiver send counts
	fault     *Fault   // the first fault met since TakeFault
	sym       *symCache
	po        *persistentScratch // see PersistentSets
	forged    map[forgeKey]*Step // see Forged
}

// NewStepper returns a Stepper for m.
func (m *Machine) NewStepper() *Stepper {
	return &Stepper{
		m: m, steps: newMemo[stepKey, *Step](stepKey.hash), acts: m.impl.hasActions(), actions: newMemo[actKey, []model.Action](actKey.hash),
		actIDs: map[model.Action]uint32{}, monSteps: newMemo[monKey, uint32](monKey.hash),
		expiries: map[[2]uint32]uint32{},
		monVals:  make([][]any, len(m.monitors)), net: 1 + m.cfg.N + len(m.monitors),
		tw:     1 + m.cfg.N + len(m.monitors) + netWords(&m.cfg),
		header: 1 + m.cfg.N + len(m.monitors) + netWords(&m.cfg) + traitorWords(&m.cfg), set: m.cfg.Channels == model.Set,
		forged: map[forgeKey]*Step{},
	}
}

// Machine returns the Stepper's Machine.
func (s *Stepper) Machine() *Machine { return s.m }

func (s *Stepper) step(node model.NodeID, rec uint64, in uint64) *Step {
	k := stepKey{node, rec &^ deadBit, in}
	h := k.hash()
	if st, ok := s.steps.get(k, h); ok {
		return st
	}
	st, f := s.m.sharedStep(k, node, rec, in)
	if f != nil {
		// The step changes nothing; the engine stops at the fault.
		s.setFault(f)
		return &Step{Rec: rec &^ deadBit}
	}
	s.steps.put(k, h, st)
	return st
}

// TakeFault returns the first Fault met by s since the last call, if
// any, and forgets it. After a fault the Stepper's results describe a run
// in which the faulting call changed nothing: an engine checks for a
// fault after each step, or each world it expands, and stops there. It is
// checked on the engines' hot path, so it is a field read.
func (s *Stepper) TakeFault() *Fault {
	f := s.fault
	s.fault = nil
	return f
}

func (s *Stepper) setFault(f *Fault) {
	if s.fault == nil {
		s.fault = f
	}
}

// sharedStep looks the step up in the Machine's table, computing it on a
// miss. A handler's fault is caught and returned, not memoised; the lock
// is released in any case.
func (m *Machine) sharedStep(k stepKey, node model.NodeID, rec, in uint64) (st *Step, f *Fault) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.steps[k]
	if ok {
		return st, nil
	}
	if f = catch(func() { st = m.computeStep(node, rec, in) }); f != nil {
		m.impl.repair()
		f.Protocol, f.Handler, f.Node, f.in = m.Name, handlerName(in), node, in
		if f.Nondeterministic != "" {
			f.Input = m.inputText(node, recState(rec), in)
		}
		return nil, f
	}
	m.steps[k] = st
	return st, nil
}

func (s *Stepper) timerSet(id uint32) []timerEntry {
	if int(id) >= len(s.timerSets) {
		s.m.mu.Lock()
		s.timerSets, s.waitSets = s.m.timerSets, s.m.waitSets
		s.m.mu.Unlock()
	}
	return s.timerSets[id]
}

// MonitorID returns the interned id of monitor k's state in w: equal ids,
// equal states.
func (s *Stepper) MonitorID(w World, k int) uint32 { return uint32(w[1+s.m.cfg.N+k]) }

// SameMonitors reports whether every monitor has the same state in a and b.
func (s *Stepper) SameMonitors(a, b World) bool {
	lo := 1 + s.m.cfg.N
	return slices.Equal(a[lo:s.net], b[lo:s.net])
}

// AliveMask returns a bit per live node, when there are at most 64 nodes.
func (s *Stepper) AliveMask(w World) (uint64, bool) {
	if s.m.cfg.N > 64 {
		return 0, false
	}
	var mask uint64
	for i, rec := range w[1 : 1+s.m.cfg.N] {
		if !recDead(rec) {
			mask |= 1 << i
		}
	}
	return mask, true
}

// MonitorValue returns the state of monitor k in w.
func (s *Stepper) MonitorValue(w World, k int) any {
	id := w[1+s.m.cfg.N+k]
	if int(id) >= len(s.monVals[k]) {
		s.m.mu.Lock()
		s.monVals[k] = s.m.mons[k].vals
		s.m.mu.Unlock()
	}
	return s.monVals[k][id]
}

// observe feeds o to every monitor; monitor slots are words of w, or of a
// copy of w's monitor slots (see Fingerprint).
func (s *Stepper) observe(w World, node model.NodeID, o model.Obs) {
	s.observeSlots(w[1+s.m.cfg.N:s.net], node, o)
}

func (s *Stepper) observeSlots(slots []uint64, node model.NodeID, o model.Obs) {
	for k := range slots {
		key := monKey{uint32(k), uint32(slots[k]), node, o}
		h := key.hash()
		next, ok := s.monSteps.get(key, h)
		if !ok {
			var f *Fault
			s.m.mu.Lock()
			if next, ok = s.m.monSteps[key]; !ok {
				if next, f = s.m.observe(k, uint32(slots[k]), node, o); f == nil {
					s.m.monSteps[key] = next
				}
			}
			s.m.mu.Unlock()
			if f != nil {
				s.setFault(f) // the monitor's state stays as it was
				continue
			}
			s.monSteps.put(key, h, next)
		}
		slots[k] = uint64(next)
	}
}

// Init returns the initial world: every node alive in its Init state, the
// messages Init sent in flight, monitors fed with Init's observations; and
// the Init steps of the nodes, in node order. After a fault (see
// TakeFault) it returns at once, with a partial world and nil steps.
func (s *Stepper) Init() (World, []*Step) {
	m := s.m
	w := make(World, s.header)
	m.mu.Lock()
	for k, mon := range m.monitors {
		var id uint32
		if f := catch(func() {
			first, f := startTwice(mon, &m.cfg)
			if f != nil {
				panic(f)
			}
			id = m.internMon(k, first)
		}); f != nil {
			f.Protocol, f.Monitor, f.Handler, f.Node = m.Name, mon.Name(), "Start", model.None
			s.setFault(f)
		}
		w[1+m.cfg.N+k] = uint64(id)
	}
	m.mu.Unlock()
	steps := make([]*Step, m.cfg.N)
	for i := range m.cfg.N {
		if s.fault != nil {
			break
		}
		w, steps[i] = s.apply(w, model.NodeID(i), 0, inInit<<56, 0)
	}
	return w, steps
}

// Nodes returns the node records of w.
func (s *Stepper) Nodes(w World) []uint64 { return w[1 : 1+s.m.cfg.N] }

// Alive reports whether node i is up in w.
func (s *Stepper) Alive(w World, i model.NodeID) bool { return !recDead(w[1+int(i)]) }

// NodeState returns node i's interned state id in w.
func (s *Stepper) NodeState(w World, i model.NodeID) uint32 { return recState(w[1+int(i)]) }

// Msgs returns the messages in flight in w.
func (s *Stepper) Msgs(w World) []uint64 { return w[s.header:] }

// FaultsUsed returns the crashes and recoveries that happened in w.
func FaultsUsed(w World) (crashes, recoveries int) { return int(w[0] & 0xff), int(w[0] >> 8 & 0xff) }

// PartitionsUsed returns the partitions that happened in w.
func PartitionsUsed(w World) int { return int(w[0] >> 16 & 0xff) }

// MessageFaultsUsed returns the messages lost and duplicated in w.
func MessageFaultsUsed(w World) (losses, duplicates int) {
	return int(w[0] >> 24 & 0xff), int(w[0] >> 32 & 0xff)
}

// Increments of w[0] for a loss and a duplication.
const (
	lossUnit      = 1 << 24
	duplicateUnit = 1 << 32
)

// reaches reports whether a message from i to j would arrive: j is up and
// on i's side of every cut.
func (s *Stepper) reaches(w World, i, j model.NodeID) bool {
	return !recDead(w[1+int(j)]) && s.Connected(w, i, j)
}

// Apply appends to dst[:0] the successor of w by e and returns it with the
// Step taken (nil for the faults but Recover, where no handler runs). dst
// must not alias w. What each kind of event does is written beside its
// Successor and its Walker step: deliver.go, local.go (timeouts and
// actions), crash.go (crashes and recoveries), network.go (partitions and
// heals), msgfault.go (losses and duplications), tick.go.
func (s *Stepper) Apply(w World, e Event, dst World) (World, *Step) {
	dst = append(dst[:0], w...)
	switch e.Kind {
	case Deliver:
		return s.applyDelivery(dst, e)
	case Timeout, Act:
		return s.applyLocal(dst, e)
	case Crash:
		return s.applyCrash(dst, e), nil
	case Recover:
		return s.applyRecovery(dst, e)
	case Partition:
		return s.partition(dst, int(e.Node), int(e.From)), nil
	case Heal:
		return s.heal(dst), nil
	case Lose:
		return s.applyLoss(dst, e), nil
	case Duplicate:
		return s.applyDuplication(dst, e), nil
	case Tick:
		return s.tick(dst), nil
	case Traitor:
		return s.applyTurn(dst, e), nil
	}
	panic(fmt.Sprintf("unknown event kind %d", e.Kind))
}

// apply runs input in at node and applies the step's effects to w in place;
// forge is the event's choice of lies, if node is a traitor (see Forged).
func (s *Stepper) apply(w World, node model.NodeID, rec uint64, in uint64, forge uint32) (World, *Step) {
	st := s.step(node, rec, in)
	if s.IsTraitor(w, node) {
		st = s.Forged(node, st, forge)
	}
	w[1+int(node)] = st.Rec
	for _, snd := range st.Sends {
		to := SendTo(snd)
		if recDead(w[1+int(to)]) && !s.set {
			continue // lost: the receiver is down (a set keeps it)
		}
		if !s.Connected(w, node, to) {
			s.lose(w, node, to)
			continue
		}
		w = s.insertMsg(w, packMsg(node, to, SendMsg(snd)))
	}
	for _, o := range st.Obs {
		s.observe(w, node, o)
	}
	return w, st
}

// insertMsg adds a message word at its canonical position.
func (s *Stepper) insertMsg(w World, mw uint64) World {
	msgs := w[s.header:]
	var i int
	if s.m.cfg.Channels == model.FIFO {
		// after every message of the same channel
		ch := mw >> 32
		i, _ = slices.BinarySearchFunc(msgs, ch, func(x, ch uint64) int {
			if x>>32 <= ch {
				return -1
			}
			return 1
		})
	} else {
		var found bool
		if i, found = slices.BinarySearch(msgs, mw); found && s.set {
			return w // in the set already
		}
	}
	return slices.Insert(w, s.header+i, mw)
}

// SendTo, SendKind and SendMsg unpack an element of Step.Sends.
func SendTo(s uint64) model.NodeID { return model.NodeID(s >> 48) }

func SendKind(s uint64) uint8 { return uint8(s >> 32) }

func SendMsg(s uint64) uint32 { return uint32(s) }

// input is the handler input of a protocol step event (Deliver, Timeout,
// Act, Recover), as the step cache keys it.
func input(e Event) uint64 {
	switch e.Kind {
	case Deliver:
		return inReceive<<56 | uint64(e.From)<<32 | uint64(idOf(e.Arg))
	case Timeout:
		return inTimeout<<56 | uint64(e.Arg)
	case Act:
		return inAction<<56 | uint64(e.Arg)
	case Recover:
		return inRecover << 56
	}
	panic(fmt.Sprintf("%v runs no handler", e.Kind))
}

// Node records: state id in the low 32 bits, timer-set id in bits 32..62,
// bit 63 set when the node is crashed.
const deadBit = uint64(1) << 63

func makeRec(state, timers uint32, dead bool) uint64 {
	r := uint64(timers)<<32 | uint64(state)
	if dead {
		r |= deadBit
	}
	return r
}

func recState(r uint64) uint32 { return uint32(r) }

func recTimers(r uint64) uint32 { return uint32(r>>32) &^ (1 << 31) }

func recDead(r uint64) bool { return r&deadBit != 0 }

// Group returns node i's group label in w: nodes with equal labels are
// connected. Without partitions every node is in group 0.
func (s *Stepper) Group(w World, i model.NodeID) int {
	if s.net == s.tw {
		return 0
	}
	return int(w[s.net+int(i)/16] >> (4 * (uint(i) % 16)) & 0xf)
}

// Connected reports whether messages between i and j can pass in w.
func (s *Stepper) Connected(w World, i, j model.NodeID) bool {
	return s.net == s.tw || s.Group(w, i) == s.Group(w, j)
}

// Split reports whether some cut separates the nodes in w.
func (s *Stepper) Split(w World) bool {
	for _, x := range w[s.net:s.tw] {
		if x != 0 {
			return true
		}
	}
	return false
}

// Fingerprints. A world's fingerprint is the sum (mod 2^64) of one hash per
// word, each mixed with a tag: the word's index for the header, node and
// monitor slots; for messages, a common tag under unordered channels (the
// in-flight multiset) or the message's position in its channel under FIFO.
// A sum can be updated by a transition's delta, so the fingerprint of a
// successor is known without building the successor: engines build only
// the worlds they have not seen. Distinct worlds collide with probability
// about 2^-64 per pair, as the hashes of distinct (tag, word) pairs are
// independent-looking 64-bit values.

const msgTag = 1 << 40

func hashWord(tag, word uint64) uint64 {
	hi, lo := bits.Mul64(word^0xa0761d6478bd642f, tag*0xe7037ed1a0b428db^0x8ebc6af09c88c6e3)
	return hi ^ lo
}

// Fingerprint returns w's fingerprint.
func (s *Stepper) Fingerprint(w World) uint64 {
	var f uint64
	for i, x := range w[:s.header] {
		f += hashWord(uint64(i), x)
	}
	msgs := w[s.header:]
	fifo := s.m.cfg.Channels == model.FIFO
	k := uint64(0)
	for i, mw := range msgs {
		k = msgPos(msgs, i, k, fifo)
		f += hashWord(msgTag+k, mw)
	}
	return f
}

// msgPos returns the hashing position of msgs[i], given k, that of
// msgs[i-1]: its place in its channel under FIFO, 0 for a multiset.
func msgPos(msgs []uint64, i int, k uint64, fifo bool) uint64 {
	if !fifo || i == 0 || msgs[i-1]>>32 != msgs[i]>>32 {
		return 0
	}
	return k + 1
}

// channel returns the bounds of the messages in flight from one node to
// another: w[s.header+a : s.header+b].
func (s *Stepper) channel(w World, from, to model.NodeID) (a, b int) {
	msgs := w[s.header:]
	ch := uint64(from)<<16 | uint64(to)
	lo, hi := 0, len(msgs) // first message of channel >= ch
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if msgs[mid]>>32 < ch {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	a, b = lo, lo
	for b < len(msgs) && msgs[b]>>32 == ch {
		b++
	}
	return a, b
}

// Successor describes the successor of a world by an event without
// building it (see SuccessorFingerprint).
type Successor struct {
	FP   uint64 // its fingerprint
	Step *Step  // the step taken; nil where no handler runs (crash, loss, duplication)
	Len  int    // its length in words
	// MonitorsChanged reports whether some monitor's state differs.
	MonitorsChanged bool
}

// SuccessorFingerprint returns the fingerprint of the successor of w (of
// fingerprint f) by e, and the Step taken (nil for a crash, a loss or a
// duplication, where no handler runs), without
// building the successor: Apply and Fingerprint of its result agree with it.
func (s *Stepper) SuccessorFingerprint(w World, f uint64, e Event) (uint64, *Step) {
	succ := s.Successor(w, f, e)
	return succ.FP, succ.Step
}

// Successor is SuccessorFingerprint with the successor's size and whether
// its monitors changed. Each kind's is written beside its Apply (see
// Apply).
func (s *Stepper) Successor(w World, f uint64, e Event) Successor {
	switch e.Kind {
	case Deliver:
		return s.deliverySuccessor(w, f, e)
	case Timeout, Act:
		return s.localSuccessor(w, f, e)
	case Crash:
		return s.crashSuccessor(w, f, e)
	case Recover:
		return s.recoverySuccessor(w, f, e)
	case Partition, Heal:
		return s.networkSuccessor(w, e)
	case Lose:
		return s.lossSuccessor(w, f, e)
	case Duplicate:
		return s.duplicationSuccessor(w, f, e)
	case Tick:
		return s.tickSuccessor(w, e)
	case Traitor:
		return s.builtSuccessor(w, e)
	}
	panic(fmt.Sprintf("unknown event kind %d", e.Kind))
}

// builtSuccessor is Successor derived from Apply, for the events that
// change too much of a world to be worth a delta: it builds the
// successor.
func (s *Stepper) builtSuccessor(w World, e Event) Successor {
	var st *Step
	s.scratch, st = s.Apply(w, e, s.scratch)
	return Successor{FP: s.Fingerprint(s.scratch), Step: st, Len: len(s.scratch), MonitorsChanged: !s.SameMonitors(w, s.scratch)}
}

// leaves returns f less a message of channel from→to that leaves it:
// under FIFO its k-th (0: the head), those behind it moving up a place;
// in an unordered channel, the message id.
func (s *Stepper) leaves(w World, f uint64, from, to model.NodeID, k int, id uint32) uint64 {
	if s.m.cfg.Channels != model.FIFO {
		return f - hashWord(msgTag, packMsg(from, to, id))
	}
	a, b := s.channel(w, from, to)
	msgs := w[s.header:]
	for i := a + k; i < b; i++ {
		f -= hashWord(msgTag+uint64(i-a), msgs[i])
		if i > a+k {
			f += hashWord(msgTag+uint64(i-a-1), msgs[i])
		}
	}
	return f
}

// stepSuccessor is Successor for an event whose handler runs at e.Node
// (Deliver, Timeout, Act, Recover), given f and size as the event left
// them before the handler runs, first, an observation made before the
// step (a recovery's; Kind 0: none), and headOf, under FIFO the sender
// whose channel to e.Node lost its head to the event (None: none). A
// step that loses a message to a cut expires timers at both ends of it:
// its successor is built.
func (s *Stepper) stepSuccessor(w World, f uint64, e Event, size int, first model.Obs, headOf model.NodeID) Successor {
	if s.losesToCut(w, e) {
		return s.builtSuccessor(w, e)
	}
	cfg := &s.m.cfg
	fifo := cfg.Channels == model.FIFO
	s.mons = append(s.mons[:0], w[1+cfg.N:s.net]...)
	if first.Kind != 0 {
		s.observeSlots(s.mons, e.Node, first)
	}
	node := e.Node
	rec := w[1+int(node)]
	st := s.step(node, rec, input(e))
	if s.IsTraitor(w, node) {
		st = s.Forged(node, st, e.Forge)
	}
	f += hashWord(uint64(1+node), st.Rec) - hashWord(uint64(1+node), rec)
	if fifo && len(st.Sends) > 0 {
		s.sent = slices.Grow(s.sent[:0], cfg.N)[:cfg.N]
		clear(s.sent)
	}
	for k, snd := range st.Sends {
		to := SendTo(snd)
		if s.set {
			if s.inSet(w, packMsg(node, to, SendMsg(snd))) || slices.Contains(st.Sends[:k], snd) {
				continue // the set holds it already, or will after an earlier send
			}
		} else if !s.reaches(w, node, to) {
			continue
		}
		mw := packMsg(node, to, SendMsg(snd))
		size++
		if !fifo {
			f += hashWord(msgTag, mw)
			continue
		}
		a, b := s.channel(w, node, to)
		k := b - a + int(s.sent[to])
		if headOf == node && e.Node == to {
			k-- // the delivered message left this very channel
		}
		s.sent[to]++
		f += hashWord(msgTag+uint64(k), mw)
	}
	for _, o := range st.Obs {
		s.observeSlots(s.mons, node, o)
	}
	f, changed := s.monitorDelta(w, f)
	return Successor{FP: f, Step: st, Len: size, MonitorsChanged: changed}
}

// inSet reports whether message word mw is in w's set (set channels).
func (s *Stepper) inSet(w World, mw uint64) bool {
	_, found := slices.BinarySearch(w[s.header:], mw)
	return found
}

// losesToCut reports whether e is a step that sends a message across a cut
// of w to a live node.
func (s *Stepper) losesToCut(w World, e Event) bool {
	if e.Kind == Crash || !s.Split(w) {
		return false
	}
	for _, snd := range s.step(e.Node, w[1+int(e.Node)], input(e)).Sends {
		if to := SendTo(snd); !recDead(w[1+int(to)]) && !s.Connected(w, e.Node, to) {
			return true
		}
	}
	return false
}

// monitorDelta adds to f the change of every monitor slot from w to
// s.mons, and reports whether there was one.
func (s *Stepper) monitorDelta(w World, f uint64) (uint64, bool) {
	base := 1 + s.m.cfg.N
	changed := false
	for k, id := range s.mons {
		if old := w[base+k]; old != id {
			f += hashWord(uint64(base+k), id) - hashWord(uint64(base+k), old)
			changed = true
		}
	}
	return f, changed
}

// memo is a Stepper's private memo (of handler outcomes, enabled actions,
// monitor steps): open addressing, faster on the hot path than a Go map
// because the caller hashes its key with two multiplies, inlined, where a
// map hashes a struct key with a call per field. The table never calls
// hash but to grow.
type memo[K comparable, V any] struct {
	keys []K
	vals []V
	full []bool
	n    int
	hash func(K) uint64
}

func newMemo[K comparable, V any](hash func(K) uint64) memo[K, V] {
	return memo[K, V]{keys: make([]K, 1024), vals: make([]V, 1024), full: make([]bool, 1024), hash: hash}
}

// get returns the value of k, whose hash is h.
func (c *memo[K, V]) get(k K, h uint64) (V, bool) {
	for i := int(h & uint64(len(c.keys)-1)); ; i = (i + 1) & (len(c.keys) - 1) {
		if !c.full[i] {
			var zero V
			return zero, false
		}
		if c.keys[i] == k {
			return c.vals[i], true
		}
	}
}

// put records v as the value of k, whose hash is h and which has none.
func (c *memo[K, V]) put(k K, h uint64, v V) {
	if 2*(c.n+1) > len(c.keys) {
		old, oldVals, oldFull := c.keys, c.vals, c.full
		c.keys, c.vals, c.full, c.n = make([]K, 2*len(old)), make([]V, 2*len(old)), make([]bool, 2*len(old)), 0
		for i, full := range oldFull {
			if full {
				c.put(old[i], c.hash(old[i]), oldVals[i])
			}
		}
	}
	i := int(h & uint64(len(c.keys)-1))
	for c.full[i] {
		i = (i + 1) & (len(c.keys) - 1)
	}
	c.keys[i], c.vals[i], c.full[i] = k, v, true
	c.n++
}

// mix hashes two words.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a^0x9e3779b97f4a7c15, b^0xbf58476d1ce4e5b9)
	return hi ^ lo
}

func (k stepKey) hash() uint64 { return mix(k.rec, k.in^uint64(k.node)<<40) }

func (k actKey) hash() uint64 { return mix(uint64(k.state), uint64(k.node)) }

func (k monKey) hash() uint64 {
	return mix(uint64(k.mon)<<32|uint64(k.state), uint64(k.obs.Arg)^uint64(k.node)<<40^uint64(k.obs.Kind)<<56)
}

type (
	stepMemo   = memo[stepKey, *Step]
	actionMemo = memo[actKey, []model.Action]
	monMemo    = memo[monKey, uint32]
)
