package sim

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/vigil-check/vigil/model"
)

// Machine is a protocol compiled for one Config and a set of monitors. Its
// tables are shared by every Stepper; a Stepper serves one goroutine.
type Machine struct {
	Name     string
	cfg      model.Config
	monitors []model.Monitor

	mu        sync.Mutex // guards everything below
	impl      compiled
	steps     map[stepKey]*Step
	actions   map[actKey][]model.Action
	timerVal  []model.Timer
	timerKey  []string // content keys, for EventKey
	timerIdx  map[model.Timer]uint32
	actionIdx map[model.Action]uint32 // action names, for Stepper.Identity
	waitSets  [][]model.NodeID
	waitIdx   map[string]uint32
	timerSets [][]timerEntry
	tsetIdx   map[string]uint32
	tickMemo  map[uint32]uint32 // timer set → the set one tick later
	kinds     names[uint8]
	labels    names[uint16] // the kinds of events, for coverage (see Step.Label)
	sent      [][]int       // messages sent by kind, per Step.Sent
	sentIdx   map[string]uint16
	mons      []monTable
	monSteps  map[monKey]uint32
	writable  map[reflect.Type]bool // monitor state types, see writable
	// forgeries: what a traitor may send in place of a message, by
	// (traitor, receiver, message), interned (see Stepper.Forged)
	forgeries map[[3]uint32][]uint32
	buf       []byte

	// clocked compiles, once, the twin whose worlds carry causal clocks
	// (see Clocked); nil in a twin. fresh compiles m again (see Fresh).
	clocked func() (*Machine, error)
	fresh   func() *Machine
}

type timerEntry struct {
	timer uint32 // index into timerVal
	wait  uint32 // index into waitSets
	// ticks: under Bounded timing, a timer armed with SetTimerAfter holds
	// 1 + the ticks left before it fires (1: due); 0 for any other timer.
	ticks uint32
}

// timed reports whether e counts ticks, and due whether it must fire
// before time passes on.
func (e timerEntry) timed() bool { return e.ticks > 0 }
func (e timerEntry) due() bool   { return e.ticks == 1 }

type monTable struct {
	vals []any
	keys []string // vals' encodings, to check that Observe leaves its input as it was
	idx  map[string]uint32
}

type stepKey struct {
	node model.NodeID
	rec  uint64
	in   uint64
}

type actKey struct {
	node  model.NodeID
	state uint32
}

type monKey struct {
	mon, state uint32
	node       model.NodeID
	obs        model.Obs
}

// Compile builds the Machine that runs p under cfg, feeding monitors.
func Compile[S, M any](name string, p model.Protocol[S, M], cfg model.Config, monitors ...model.Monitor) (*Machine, error) {
	return compile(name, p, cfg, false, monitors)
}

// TableBytes is the size of m's tables of node states and messages, in
// bytes of their keys.
func (m *Machine) TableBytes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.tableBytes()
}

// Fresh returns a Machine that runs what m runs, with empty tables of its
// own: the same worlds, under ids of its own. The engines that do not
// revisit worlds (random walks) run batches on fresh Machines, so that
// their memory does not grow with the runs they make.
func (m *Machine) Fresh() *Machine { return m.fresh() }

// Clocked returns the twin of m whose worlds carry causal clocks: each
// node state its node's clock, the length of the longest chain of
// messages, each sent after its sender received the one before, that ends
// with a message the node received; each message in flight its depth, its
// sender's clock when sent plus one. The twin runs exactly m's runs (a
// clock changes no handler's input), over more worlds: equal states or
// messages with different clocks differ. Rounds gives a world's time in
// asynchronous rounds. The twin is compiled on the first call and shared.
func (m *Machine) Clocked() (*Machine, error) {
	if m.clocked == nil {
		return m, nil // m is a twin
	}
	return m.clocked()
}

func compile[S, M any](name string, p model.Protocol[S, M], cfg model.Config, clocks bool, monitors []model.Monitor) (*Machine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Machine{Name: name, cfg: cfg, monitors: monitors}
	impl, err := newTyped(name, p, &m.cfg, clocks)
	if err != nil {
		return nil, err
	}
	if !clocks {
		m.clocked = sync.OnceValues(func() (*Machine, error) { return compile(name, p, cfg, true, monitors) })
	}
	m.fresh = func() *Machine {
		f, err := compile(name, p, cfg, clocks, monitors)
		if err != nil {
			panic(fmt.Sprintf("sim: %s compiled once, not again: %v", name, err))
		}
		return f
	}
	m.impl = impl
	m.steps = map[stepKey]*Step{}
	m.actions = map[actKey][]model.Action{}
	m.timerIdx = map[model.Timer]uint32{}
	m.actionIdx = map[model.Action]uint32{}
	m.waitIdx = map[string]uint32{}
	m.tsetIdx = map[string]uint32{}
	m.tickMemo = map[uint32]uint32{}
	m.kinds = messageKinds()
	m.labels = eventLabels()
	m.sent, m.sentIdx = [][]int{nil}, map[string]uint16{"": 0} // 0: sends nothing
	for _, k := range faultKinds {
		m.labels.id(k.String()) // ids 0.. in order: see FaultLabel
	}
	m.monSteps = map[monKey]uint32{}
	m.forgeries = map[[3]uint32][]uint32{}
	m.writable = map[reflect.Type]bool{}
	m.internTimerSet(nil) // id 0: no timer armed
	m.mons = make([]monTable, len(monitors))
	for i := range m.mons {
		m.mons[i].idx = map[string]uint32{}
	}
	return m, nil
}

// Config is the run's configuration.
func (m *Machine) Config() *model.Config { return &m.cfg }

// Monitors lists the monitors whose states the World carries, in slot order.
func (m *Machine) Monitors() []model.Monitor { return m.monitors }

// Kinds lists the message kinds seen so far, by index.
func (m *Machine) Kinds() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.kinds.list)
}

// faultKinds are the events no handler runs for, or that are faults
// whatever the handler; their labels come first, in this order.
var faultKinds = []EventKind{Crash, Recover, Partition, Heal, Lose, Duplicate, Tick, Traitor}

// Labels lists the kinds of events met so far, by Label: the fault kinds
// first ("crash", "recover", "partition", "heal", "lose", "duplicate",
// "tick", "traitor"), then "receive K", "timeout K" and "action K" for the kinds K
// of the messages, timers and actions that handlers took (see
// model.Kinder).
func (m *Machine) Labels() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.labels.list)
}

// Label is the kind of event e, which took step st (nil if no handler
// ran), as an index into Labels.
func Label(e Event, st *Step) uint16 {
	if st != nil {
		return st.Label
	}
	return uint16(slices.Index(faultKinds, e.Kind))
}

// Expected lists the labels a search of m can take: those of the
// protocol's declared vocabulary (model.Declarer), and of the faults its
// configuration allows. declared reports whether the protocol declares
// one.
func (m *Machine) Expected() (labels []string, declared bool) {
	v, declared := m.impl.vocabulary()
	for _, k := range v.Messages {
		labels = append(labels, "receive "+k)
	}
	for _, k := range v.Timers {
		labels = append(labels, "timeout "+k)
	}
	for _, k := range v.Actions {
		labels = append(labels, "action "+k)
	}
	c := &m.cfg
	for _, f := range []struct {
		k  EventKind
		on bool
	}{{Crash, c.Crashes > 0}, {Recover, c.Recoveries > 0}, {Partition, c.Partitions > 0}, {Heal, c.Partitions > 0},
		{Lose, c.Losses > 0}, {Duplicate, c.Duplicates > 0}, {Traitor, c.Traitors > 0}} {
		if f.on {
			labels = append(labels, f.k.String())
		}
	}
	return labels, declared
}

// inputLabel names the kind of a handler's input (see Step.Label).
func (m *Machine) inputLabel(node model.NodeID, state uint32, in uint64) string {
	switch in >> 56 {
	case inReceive:
		return "receive " + m.impl.msgKind(uint32(in))
	case inTimeout:
		return "timeout " + kindOfValue(m.timerVal[uint32(in)])
	case inRecover:
		return "recover"
	case inAction:
		return "action " + kindOfValue(m.actionsLocked(node, state)[uint32(in)])
	}
	return "init"
}

// kindOfValue is the kind of a timer or an action: its Kind, if it has
// one, else the value itself.
func kindOfValue(v any) string {
	if k, ok := v.(model.Kinder); ok {
		return k.Kind()
	}
	return fmt.Sprint(v)
}

func (m *Machine) internTimer(t model.Timer) uint32 {
	if err := checkPlainComparable(t); err != nil {
		panic(misuse(fmt.Sprintf("armed timer %v: %v", t, err)))
	}
	if i, ok := m.timerIdx[t]; ok {
		return i
	}
	i := uint32(len(m.timerVal))
	m.timerVal = append(m.timerVal, t)
	m.timerKey = append(m.timerKey, contentKey(t))
	m.timerIdx[t] = i
	return i
}

// checkPlainComparable reports why v cannot name a timer or an action: it
// must be a plain value (see CheckKeyable) that Go can compare, so that it
// keys a map by content.
func checkPlainComparable(v any) error {
	if v == nil {
		return fmt.Errorf("nil cannot name a timer or an action")
	}
	t := reflect.TypeOf(v)
	if !t.Comparable() {
		return fmt.Errorf("type %v is not comparable", t)
	}
	return CheckKeyable(t)
}

// contentKey orders timers and actions by content, not by the order a
// Machine met them: their text first, then their encoding to break ties.
// The text ends with a 0 byte, so a prefix sorts first as in plain text.
func contentKey(v any) string {
	return string(AppendKey(append([]byte(fmt.Sprint(v)), 0), v))
}

func (m *Machine) internWaitSet(ws []model.NodeID) uint32 {
	ws = slices.Compact(slices.Sorted(slices.Values(ws)))
	var b []byte
	for _, j := range ws {
		b = binary.AppendUvarint(b, uint64(j))
	}
	if i, ok := m.waitIdx[string(b)]; ok {
		return i
	}
	i := uint32(len(m.waitSets))
	m.waitSets = append(m.waitSets, ws)
	m.waitIdx[string(b)] = i
	return i
}

func (m *Machine) internTimerSet(es []timerEntry) uint32 {
	var b []byte
	for _, e := range es {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(e.timer)), uint64(e.wait))
		if m.cfg.Timing == model.Bounded {
			b = binary.AppendUvarint(b, uint64(e.ticks))
		}
	}
	if i, ok := m.tsetIdx[string(b)]; ok {
		return i
	}
	i := uint32(len(m.timerSets))
	if i >= 1<<31 {
		panic("more than 2^31 distinct timer sets")
	}
	m.timerSets = append(m.timerSets, es)
	m.tsetIdx[string(b)] = i
	return i
}

// ticked is timer set ts after one tick: its timed entries that are not
// due yet count down.
func (m *Machine) ticked(ts uint32) uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if next, ok := m.tickMemo[ts]; ok {
		return next
	}
	es := slices.Clone(m.timerSets[ts])
	for k := range es {
		if es[k].timed() && !es[k].due() {
			es[k].ticks--
		}
	}
	next := m.internTimerSet(es)
	m.tickMemo[ts] = next
	return next
}

func (m *Machine) internMon(k int, st any) uint32 {
	t := &m.mons[k]
	m.buf = AppendKey(m.buf[:0], st)
	if i, ok := t.idx[string(m.buf)]; ok { // no allocation to look up
		return i
	}
	key := string(m.buf)
	i := uint32(len(t.vals))
	t.idx[key] = i
	t.vals = append(t.vals, st)
	t.keys = append(t.keys, key)
	return i
}

// observe feeds o at node to monitor k in state id and interns the
// monitor's next state. As a handler's call is checked (see typed.run), a
// monitor state holding slices or maps is re-encoded afterwards and
// compared with its key, and rebuilt from the key if Observe wrote into
// it. A panic or a mutation is returned as a Fault. Called with m.mu held.
func (m *Machine) observe(k int, id uint32, node model.NodeID, o model.Obs) (next uint32, f *Fault) {
	t := &m.mons[k]
	in := t.vals[id]
	rt := reflect.TypeOf(in)
	w, ok := m.writable[rt]
	if !ok {
		w = writable(rt)
		m.writable[rt] = w
	}
	var out any
	f = catch(func() { out = m.monitors[k].Observe(&m.cfg, in, node, o) })
	if w {
		if m.buf = AppendKey(m.buf[:0], in); string(m.buf) != t.keys[id] {
			mut := restore(&t.vals[id], rt, t.keys[id], "state")
			if f == nil {
				f = mut
			}
		}
	}
	if f == nil {
		f = catch(func() { next = m.internMon(k, out) }) // a state with no canonical form
	}
	if f == nil {
		f = m.monitorAgain(k, id, next, node, o)
	}
	if f != nil {
		f.Protocol, f.Monitor, f.Handler, f.Node, f.Obs = m.Name, m.monitors[k].Name(), "Observe", node, o.String()
	}
	return next, f
}

// Step is the memoised outcome of one handler call at one node: the node's
// record afterwards and the messages it sent and facts it observed.
type Step struct {
	Rec   uint64   // node record after the step (see World)
	Sends []uint64 // to<<48 | kind<<32 | msg, in send order
	Obs   []model.Obs
	// Label is the kind of the step's input, an index into Labels:
	// "receive election", "timeout answer", "action request", "recover".
	Label uint16
	// Sent names how many messages of each kind the step sent (see
	// Machine.SentCounts): steps that send alike share it, and 0 sends
	// nothing. Message figures weigh an edge by it.
	Sent uint16
}

// input kinds, packed in the top bits of a stepKey's in.
const (
	inInit uint64 = iota + 1
	inReceive
	inTimeout
	inRecover
	inAction
)

// computeStep runs the handler for input in at node (record rec) and
// interns the result. Called with m.mu held; a fault panics (see
// sharedStep).
func (m *Machine) computeStep(node model.NodeID, rec uint64, in uint64) *Step {
	state, tset := recState(rec), recTimers(rec)
	arg := uint32(in)
	var r handlerResult
	timers := slices.Clone(m.timerSets[tset])
	switch in >> 56 {
	case inInit:
		r = m.impl.init(node)
	case inReceive:
		r = m.impl.receive(node, state, model.NodeID(in>>32&0xffff), arg)
	case inTimeout:
		// A timer that fires is no longer armed; the handler may re-arm it.
		timers = slices.DeleteFunc(timers, func(e timerEntry) bool { return e.timer == arg })
		r = m.impl.timeout(node, state, m.timerVal[arg])
	case inRecover:
		timers = nil
		r = m.impl.recoverFrom(node, state)
	case inAction:
		r = m.impl.do(node, state, m.actionsLocked(node, state)[arg])
	default:
		panic("bad input")
	}
	for _, op := range r.timers {
		ti := m.internTimer(op.Timer)
		timers = slices.DeleteFunc(timers, func(e timerEntry) bool { return e.timer == ti })
		if op.Armed {
			e := timerEntry{timer: ti, wait: m.internWaitSet(op.WaitOn)}
			if op.Ticks > 0 && m.cfg.Timing == model.Bounded {
				e.ticks = uint32(op.Ticks) + 1
			}
			timers = append(timers, e)
		}
	}
	slices.SortFunc(timers, func(a, b timerEntry) int { return int(a.timer) - int(b.timer) })
	st := &Step{Rec: makeRec(r.state, m.internTimerSet(timers), false), Obs: r.obs, Label: m.labels.id(m.inputLabel(node, state, in))}
	for _, s := range r.sends {
		st.Sends = append(st.Sends, uint64(s.to)<<48|uint64(m.kinds.id(s.kind))<<32|uint64(s.msg))
	}
	st.Sent = m.internSent(st)
	return st
}

// SentByKind counts the messages of each kind, by kind index (see Kinds),
// that steps sent; a nil step (a fault) sends none.
func SentByKind(steps ...*Step) []int {
	var counts []int
	for _, step := range steps {
		if step == nil {
			continue
		}
		for _, s := range step.Sends {
			k := int(SendKind(s))
			for len(counts) <= k {
				counts = append(counts, 0)
			}
			counts[k]++
		}
	}
	return counts
}

// internSent interns what st sent of each kind, for Step.Sent.
func (m *Machine) internSent(st *Step) uint16 {
	counts := SentByKind(st)
	m.buf = m.buf[:0]
	for _, c := range counts {
		m.buf = binary.AppendUvarint(m.buf, uint64(c))
	}
	if i, ok := m.sentIdx[string(m.buf)]; ok {
		return i
	}
	if len(m.sent) == 1<<16-1 {
		panic("more than 65 535 distinct counts of messages sent by a step")
	}
	i := uint16(len(m.sent))
	m.sent = append(m.sent, counts)
	m.sentIdx[string(m.buf)] = i
	return i
}

// SentCounts returns the messages of each kind, by kind index (see Kinds),
// that a step whose Sent is id sent (shared: do not modify).
func (m *Machine) SentCounts(id uint16) []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent[id]
}

func (m *Machine) actionsLocked(node model.NodeID, state uint32) []model.Action {
	k := actKey{node, state}
	if as, ok := m.actions[k]; ok {
		return as
	}
	as := m.impl.actions(node, state)
	for _, a := range as {
		if err := checkPlainComparable(a); err != nil {
			panic(misuse(fmt.Sprintf("declared action %v: %v", a, err)))
		}
	}
	m.actions[k] = as
	return as
}

// FormatMsg renders message id m.
func (m *Machine) FormatMsg(id uint32) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.msgString(idOf(id))
}

// FormatState renders node state id s.
func (m *Machine) FormatState(s uint32) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.stateString(s)
}

// Rounds returns the time of w in asynchronous rounds: the longest chain
// of messages, each sent by the receiver of the one before after receiving
// it, whose messages were all received. It is the largest causal clock of
// w's nodes, on a Machine from Clocked; 0 on any other.
func (s *Stepper) Rounds(w World) int {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	var r uint32
	for _, rec := range w[1 : 1+m.cfg.N] {
		r = max(r, m.impl.rounds(recState(rec)))
	}
	return int(r)
}

// StateValue returns the node state interned as s (shared: do not mutate).
func (m *Machine) StateValue(s uint32) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.stateValue(s)
}

// EventKey returns a key of e's content that does not depend on the order
// in which the Machine met messages and timers (their ids do): the
// message's canonical encoding for a delivery, a duplication or a loss
// (under FIFO, a lost message's index in its channel), the timer's name
// for a timeout. Engines that draw among events order them by it.
func (m *Machine) EventKey(e Event) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch e.Kind {
	case Lose:
		if m.cfg.Channels == model.FIFO {
			return fmt.Sprintf("%010d", e.Arg) // send order, which no interning changes
		}
		return m.impl.msgKeyOf(idOf(e.Arg))
	case Deliver, Duplicate:
		// copies of one message sent at different ticks (Bounded timing)
		// differ by age: youngest first, as a key is a whole encoding,
		// never a prefix of another
		return m.impl.msgKeyOf(idOf(e.Arg)) + string(rune(AgeOf(e.Arg))) + forgeKeyOf(e)
	case Timeout:
		return m.timerKey[e.Arg] + forgeKeyOf(e)
	case Act, Recover:
		return forgeKeyOf(e)
	}
	return ""
}

// forgeKeyOf orders the choices of a traitor's step, as EventKey's suffix.
func forgeKeyOf(e Event) string {
	if e.Forge == 0 {
		return ""
	}
	return fmt.Sprintf("\x00%010d", e.Forge)
}

// TimerName returns timer index t.
func (m *Machine) TimerName(t uint32) model.Timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.timerVal[t]
}

// ActionName returns the name of action index a of node in state s.
func (m *Machine) ActionName(node model.NodeID, s uint32, a uint32) model.Action {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.actionsLocked(node, s)[a]
}

// FormatTimers renders a node record's armed timers in name order, e.g.
// "timers{answer[n3] leader-check[n2]}".
func (m *Machine) FormatTimers(rec uint64) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	es := m.timerSets[recTimers(rec)]
	if len(es) == 0 {
		return ""
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprint(m.timerVal[e.timer])
		if ws := m.waitSets[e.wait]; len(ws) > 0 {
			parts[i] += fmt.Sprint(ws)
		}
		if e.timed() {
			parts[i] += fmt.Sprintf("+%d", e.ticks-1) // ticks left
		}
	}
	// in name order: the sets' own order is that of interning, which
	// differs between Machines that explored differently
	slices.Sort(parts)
	return "timers{" + strings.Join(parts, " ") + "}"
}
