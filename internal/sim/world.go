package sim

import (
	"fmt"
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
//	w[1+N+K : H]       the network, when Config.Partitions > 0: a 4-bit
//	                   group label per node, 16 to a word (see network.go)
//	w[H :]             messages in flight: from<<48 | to<<32 | msg id, and
//	                   under Bounded timing the message's age in ticks in
//	                   bits 24..31 (the id then takes the 24 bits below)
//
// Messages are sorted by (from, to); within one channel they keep send order
// under FIFO and are sorted by id when channels are unordered, which makes
// the in-flight multiset canonical.
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
)

func (k EventKind) String() string {
	return [...]string{"?", "deliver", "timeout", "action", "crash", "recover", "partition", "heal", "lose", "duplicate", "tick"}[k]
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
	header    int   // index of the first message word
	scratch   World // Successor in a split network
	expiries  map[[2]uint32]uint32
	acts      bool     // whether the protocol has local actions
	mons      []uint64 // scratch monitor slots for SuccessorFingerprint
	sent      []int32  // scratch per-receiver send counts
	fault     *Fault   // the first fault met since TakeFault
	sym       *symCache
	po        *persistentScratch // see PersistentSets
}

// NewStepper returns a Stepper for m.
func (m *Machine) NewStepper() *Stepper {
	return &Stepper{
		m: m, steps: newMemo[stepKey, *Step](stepKey.hash), acts: m.impl.hasActions(), actions: newMemo[actKey, []model.Action](actKey.hash),
		actIDs: map[model.Action]uint32{}, monSteps: newMemo[monKey, uint32](monKey.hash),
		expiries: map[[2]uint32]uint32{},
		monVals:  make([][]any, len(m.monitors)), net: 1 + m.cfg.N + len(m.monitors),
		header: 1 + m.cfg.N + len(m.monitors) + netWords(&m.cfg),
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
		w, steps[i] = s.apply(w, model.NodeID(i), 0, inInit<<56)
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
// must not alias w.
func (s *Stepper) Apply(w World, e Event, dst World) (World, *Step) {
	dst = append(dst[:0], w...)
	switch e.Kind {
	case Deliver:
		msgs := dst[s.header:]
		i := slices.Index(msgs, packMsg(e.From, e.Node, e.Arg))
		if i < 0 {
			panic(fmt.Sprintf("deliver %v: no such message in flight", e))
		}
		dst = slices.Delete(dst, s.header+i, s.header+i+1)
		return s.apply(dst, e.Node, dst[1+int(e.Node)], input(e))
	case Timeout, Act:
		return s.apply(dst, e.Node, dst[1+int(e.Node)], input(e))
	case Crash:
		dst[0]++
		// Timers are disarmed; the state is kept for Recover.
		dst[1+int(e.Node)] = makeRec(recState(dst[1+int(e.Node)]), 0, true)
		dst = s.dropTo(dst, e.Node)
		s.observe(dst, e.Node, model.Obs{Kind: model.ObsCrash})
		return dst, nil
	case Recover:
		dst[0] += 1 << 8
		s.observe(dst, e.Node, model.Obs{Kind: model.ObsRecover})
		return s.apply(dst, e.Node, dst[1+int(e.Node)], input(e))
	case Partition:
		return s.partition(dst, int(e.Node), int(e.From)), nil
	case Heal:
		clear(dst[s.net:s.header])
		return dst, nil
	case Lose:
		i := s.lostIndex(dst, e)
		dst[0] += lossUnit
		dst = slices.Delete(dst, i, i+1)
		s.lose(dst, e.From, e.Node)
		return dst, nil
	case Duplicate:
		dst[0] += duplicateUnit
		return s.insertMsg(dst, packMsg(e.From, e.Node, e.Arg)), nil
	case Tick:
		return s.tick(dst), nil
	}
	panic(fmt.Sprintf("unknown event kind %d", e.Kind))
}

// apply runs input in at node and applies the step's effects to w in place.
func (s *Stepper) apply(w World, node model.NodeID, rec uint64, in uint64) (World, *Step) {
	st := s.step(node, rec, in)
	w[1+int(node)] = st.Rec
	for _, snd := range st.Sends {
		to := SendTo(snd)
		if recDead(w[1+int(to)]) {
			continue // lost: the receiver is down
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
		i, _ = slices.BinarySearch(msgs, mw)
	}
	return slices.Insert(w, s.header+i, mw)
}
