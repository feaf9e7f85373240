package sim

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// handlerResult is one handler call's outcome with states and messages
// interned: the protocol-independent form the Machine memoises.
type handlerResult struct {
	state  uint32
	sends  []rawSend
	timers []timerEffect
	obs    []model.Obs
}

type rawSend struct {
	to   model.NodeID
	msg  uint32
	kind string
}

// compiled is the typed half of a Machine, hidden behind an interface so that
// engines need no type parameters. Every method is called with Machine.mu held.
type compiled interface {
	init(self model.NodeID) handlerResult
	receive(self model.NodeID, s uint32, from model.NodeID, m uint32) handlerResult
	timeout(self model.NodeID, s uint32, t model.Timer) handlerResult
	recoverFrom(self model.NodeID, s uint32) handlerResult
	actions(self model.NodeID, s uint32) []model.Action
	do(self model.NodeID, s uint32, a model.Action) handlerResult
	stateString(s uint32) string
	msgString(m uint32) string
	msgKeyOf(m uint32) string
	msgKind(m uint32) string
	stateValue(s uint32) any
	// vocabulary is what the protocol declares (model.Declarer), if it does
	vocabulary() (model.Vocabulary, bool)
	// rounds is the time of node state s in asynchronous rounds, under
	// clocks (see typed.clocks); 0 otherwise.
	rounds(s uint32) uint32
	hasActions() bool
	tableBytes() int
	repair()
	// newWalker is a Walker over the protocol (see Machine.NewWalker)
	newWalker(m *Machine) Walker
	// walkerNodeBytes is what a Walker holds per node before it walks
	// (see Machine.WalkerTables)
	walkerNodeBytes() uint64
	// symmetric is what the protocol declares (model.Symmetric), if it
	// does, and why its states or messages cannot be renamed, if so;
	// plain reports whether states and messages hold no node id at all
	symmetric() (classes [][]model.NodeID, declared, plainS, plainM bool, err error)
	// renameState and renameMsg intern state or message s with its nodes
	// renamed (see model.Symmetric); stateKeyOf is a state's key
	renameState(s uint32, to []model.NodeID) uint32
	renameMsg(m uint32, to []model.NodeID) uint32
	stateKeyOf(s uint32) string
	// forge lists the messages a traitor self may send to node to in
	// place of message m, interned (see model.Forger)
	forge(self, to model.NodeID, m uint32) []uint32
	// encode and decode give a state (state) or message in JSON, and
	// intern one from its JSON (see Node)
	encode(state bool, id uint32) ([]byte, error)
	decode(state bool, b []byte) (uint32, error)
	recoverable() bool
}

type typed[S, M any] struct {
	name   string
	cfg    *model.Config
	p      model.Protocol[S, M]
	actor  model.Actor[S, M]     // nil when the protocol has no local actions
	timed  model.Timed[S, M]     // nil when the protocol arms no timers
	rec    model.Recoverer[S, M] // nil when the protocol is crash-stop
	forger model.Forger[M]       // nil when the protocol declares no lies

	states   []S
	stateKey []string
	stateIdx map[string]uint32
	msgs     []M
	msgKey   []string
	msgIdx   map[string]uint32
	buf      []byte
	// writableS, writableM: states or messages hold slices or maps, through
	// which a handler could write into its input (see run)
	writableS, writableM bool
	// kinderM: M has a Kind method (see kindAt)
	kinderM bool
	// clipS, clipM clip states and messages for a Walker
	clipS, clipM clipper
	// diffS tells states apart for a Walker without encoding them
	diffS differ
	// the inputs of the handler call under way (-1: none)
	curIn, curMsg int64
	// twice: buffers to compare a call's outcome with its second's
	twice twice
	// clocks: every message carries its depth, the round by which it is
	// received: one more than its sender's clock when sent. Every state
	// carries its node's clock, the depth of the message whose receipt set
	// off its last step (timeouts, actions and recoveries take no time),
	// and its peak, the deepest message it received. Equal values with
	// different clocks are different states and messages. stateClock
	// (clock | peak<<32) and msgDepth give them by id; stateKey and msgKey
	// hold the values' own keys, stateIdx and msgIdx index by key and
	// clock.
	clocks     bool
	stateClock []uint64
	msgDepth   []uint32
	// keyBytes: the bytes of the keys interned so far
	keyBytes int
	// msgJSON, stateJSON: the JSON of the messages and states a Node
	// encoded, by id (see encode)
	msgJSON, stateJSON map[uint32][]byte
}

func newTyped[S, M any](name string, p model.Protocol[S, M], cfg *model.Config, clocks bool) (*typed[S, M], error) {
	var s S
	var m M
	for _, t := range []reflect.Type{reflect.TypeOf(&s).Elem(), reflect.TypeOf(&m).Elem()} {
		if err := CheckKeyable(t); err != nil {
			return nil, fmt.Errorf("protocol %s: %w", name, err)
		}
	}
	t := &typed[S, M]{name: name, cfg: cfg, p: p, stateIdx: map[string]uint32{}, msgIdx: map[string]uint32{},
		writableS: writable(reflect.TypeOf(&s).Elem()), writableM: writable(reflect.TypeOf(&m).Elem()),
		kinderM: reflect.TypeFor[M]().Implements(reflect.TypeFor[model.Kinder]()), curIn: -1, curMsg: -1, clocks: clocks,
		clipS: newClipper(reflect.TypeOf(&s).Elem()), clipM: newClipper(reflect.TypeOf(&m).Elem()),
		diffS: newDiffer(reflect.TypeOf(&s).Elem())}
	t.actor, _ = p.(model.Actor[S, M])
	t.timed, _ = p.(model.Timed[S, M])
	t.rec, _ = p.(model.Recoverer[S, M])
	if t.rec == nil && cfg.Recoveries > 0 {
		return nil, fmt.Errorf("protocol %s: %w (it has no Recover method): run it with no recoveries, not %d", name, model.ErrCrashStop, cfg.Recoveries)
	}
	t.forger, _ = p.(model.Forger[M])
	if t.forger == nil && cfg.Traitors > 0 {
		return nil, fmt.Errorf("protocol %s: %w (it has no Forge method): run it with no traitors, not %d", name, model.ErrNoForger, cfg.Traitors)
	}
	if nn, ok := p.(model.NetworkNeeder); ok {
		if err := nn.NetworkNeeds().Refuses(cfg.Channels); err != nil {
			return nil, fmt.Errorf("protocol %s: %w", name, err)
		}
	}
	return t, nil
}

// internState interns s as the state of a node whose clock and peak are
// clock (ignored unless t.clocks; see typed.clocks).
func (t *typed[S, M]) internState(s S, clock uint64) uint32 {
	t.buf = appendKeyOf(t.buf[:0], &s)
	n := len(t.buf)
	if t.clocks {
		t.buf = binary.BigEndian.AppendUint64(t.buf, clock)
	}
	if id, ok := t.stateIdx[string(t.buf)]; ok {
		return id
	}
	id := uint32(len(t.states))
	t.stateIdx[string(t.buf)] = id
	t.stateKey = append(t.stateKey, string(t.buf[:n]))
	t.keyBytes += len(t.buf)
	t.states = append(t.states, deepClone(reflect.ValueOf(&s).Elem()).Interface().(S))
	if t.clocks {
		t.stateClock = append(t.stateClock, clock)
	}
	return id
}

// internMsg interns m as a message of causal depth depth (ignored unless
// t.clocks).
func (t *typed[S, M]) internMsg(m M, depth uint32) uint32 {
	t.buf = appendKeyOf(t.buf[:0], &m)
	n := len(t.buf)
	if t.clocks {
		t.buf = binary.BigEndian.AppendUint32(t.buf, depth)
	}
	if id, ok := t.msgIdx[string(t.buf)]; ok {
		return id
	}
	id := uint32(len(t.msgs))
	if id > idMask && t.cfg.Timing == model.Bounded {
		panic(misuse("sent more than 16 777 216 distinct messages, the most a run under bounded timing can tell apart"))
	}
	t.msgIdx[string(t.buf)] = id
	t.msgKey = append(t.msgKey, string(t.buf[:n]))
	t.keyBytes += len(t.buf)
	t.msgs = append(t.msgs, deepClone(reflect.ValueOf(&m).Elem()).Interface().(M))
	if t.clocks {
		t.msgDepth = append(t.msgDepth, depth)
	}
	return id
}

// kindAt is kindOf(*p), without boxing a copy of *p where M has a Kind
// method (*M has it too).
func (t *typed[S, M]) kindAt(p *M) string {
	if t.kinderM {
		return any(p).(model.Kinder).Kind()
	}
	return kindOf(*p)
}

func kindOf(m any) string {
	if k, ok := m.(model.Kinder); ok {
		return k.Kind()
	}
	return "msg"
}

// run calls one handler and interns its outcome. in is the input state's id
// (or -1 for Init) and msg the received message's (or -1); the handler must
// leave both unchanged. It can write into them only through a slice or a
// map they hold: such inputs are re-encoded afterwards and compared with
// their interned keys (plain ones cost nothing). A fault is raised as a
// panic of a *Fault (or a misuse), for Machine.sharedStep to catch, with
// the inputs put back as they were (by repair, when the handler panicked),
// so that the Machine's tables stay right.
func (t *typed[S, M]) run(self model.NodeID, in, msg int64, h func(*model.Ctx[M]) S) handlerResult {
	// A handler runs once per distinct (node, state, input): a fresh
	// context costs nothing next to interning what it returns, and the
	// result may keep the slices of its effects, which are this call's.
	ctx := model.NewCtx[M](*t.cfg, self)
	buf := bufferOf(ctx)
	t.curIn, t.curMsg = in, msg // for repair, if h panics
	next := h(ctx)
	t.curIn, t.curMsg = -1, -1
	if f := t.putBack(in, msg); f != nil {
		panic(f)
	}
	sent := buf.Sends
	for _, s := range sent {
		if s.To < 0 || int(s.To) >= t.cfg.N {
			panic(misuse(fmt.Sprintf("sent to node %d, outside 0..%d", s.To, t.cfg.N-1)))
		}
		// a send to itself is a local step, not a link: only other
		// nodes must be neighbours
		if s.To != self && t.cfg.Topology != "" && !ctx.Adjacent(s.To) {
			panic(misuse(fmt.Sprintf("sent to %v, which is not a neighbour of %v on topology %s", s.To, self, t.cfg.Topology)))
		}
	}
	if t.timed == nil {
		for _, op := range buf.Timers {
			if op.Armed {
				panic(misuse(fmt.Sprintf("armed timer %v, but the protocol has no Timeout method to handle it", op.Timer)))
			}
		}
	}
	// A step set off by a message takes place by the round the message
	// is received in; any other step when the node's last one did. What
	// it sends is received one round later.
	var clock, peak uint32
	if t.clocks && in >= 0 {
		clock, peak = uint32(t.stateClock[in]), uint32(t.stateClock[in]>>32)
	}
	if t.clocks && msg >= 0 {
		clock = t.msgDepth[msg]
		peak = max(peak, clock)
	}
	r := handlerResult{state: t.internState(next, uint64(clock)|uint64(peak)<<32), timers: buf.Timers, obs: buf.Obs}
	for _, s := range sent {
		r.sends = append(r.sends, rawSend{to: s.To, msg: t.internMsg(s.Msg, clock+1), kind: kindOf(s.Msg)})
	}
	// each distinct call runs here once: a second costs only what the
	// first did
	if f := t.again(self, in, msg, h, next, buf); f != nil {
		panic(f)
	}
	return r
}

// putBack checks that the last handler call left its input state in and
// message msg (-1: none) as they were. If it wrote into one, the interned
// value is rebuilt from its key and put back, and the Fault says what
// changed.
// repair puts back the inputs of a handler call that panicked.
func (t *typed[S, M]) repair() {
	t.putBack(t.curIn, t.curMsg)
	t.curIn, t.curMsg = -1, -1
}

func (t *typed[S, M]) putBack(in, msg int64) *Fault {
	var f *Fault
	if in >= 0 && t.writableS {
		if t.buf = appendKeyOf(t.buf[:0], &t.states[in]); string(t.buf) != t.stateKey[in] {
			f = restore(&t.states[in], reflect.TypeFor[S](), t.stateKey[in], "state")
		}
	}
	if msg >= 0 && t.writableM && f == nil {
		if t.buf = appendKeyOf(t.buf[:0], &t.msgs[msg]); string(t.buf) != t.msgKey[msg] {
			f = restore(&t.msgs[msg], reflect.TypeFor[M](), t.msgKey[msg], "message")
		}
	}
	return f
}

// restore sets *p, which a call wrote into, back to the value of type t
// (T's, or the dynamic type when T is an interface) encoded by key, and
// returns the Fault that says what changed (what: "state" or "message").
func restore[T any](p *T, t reflect.Type, key, what string) *Fault {
	f, before, ok := mutation(what, t, key, *p) // *p is set anew, not written through
	if ok {
		*p = before.Interface().(T)
	}
	return f
}

// mutation is the Fault of a call that wrote into its input (what:
// "state" or "message"), a value of type t that was key's and is after
// now; before is the input rebuilt from key, unless the type has
// unexported fields (ok false).
func mutation(what string, t reflect.Type, key string, after any) (f *Fault, before reflect.Value, ok bool) {
	before, ok = decodeKey(t, key)
	if !ok {
		return &Fault{Fault: model.Fault{Mutated: what, Before: "(not shown: the type has unexported fields)", After: fmt.Sprintf("%+v", after)}}, before, false
	}
	return mutated(what, before.Interface(), after), before, true
}

func (t *typed[S, M]) init(self model.NodeID) handlerResult {
	return t.run(self, -1, -1, func(c *model.Ctx[M]) S { return t.p.Init(c) })
}

func (t *typed[S, M]) receive(self model.NodeID, s uint32, from model.NodeID, m uint32) handlerResult {
	return t.run(self, int64(s), int64(m), func(c *model.Ctx[M]) S { return t.p.Receive(c, t.states[s], from, t.msgs[m]) })
}

func (t *typed[S, M]) timeout(self model.NodeID, s uint32, tm model.Timer) handlerResult {
	// a protocol without Timeout armed no timer: run refuses the arming
	return t.run(self, int64(s), -1, func(c *model.Ctx[M]) S { return t.timed.Timeout(c, t.states[s], tm) })
}

func (t *typed[S, M]) recoverFrom(self model.NodeID, s uint32) handlerResult {
	// a crash-stop protocol never recovers: newTyped refuses recoveries
	return t.run(self, int64(s), -1, func(c *model.Ctx[M]) S { return t.rec.Recover(c, t.states[s]) })
}

func (t *typed[S, M]) actions(self model.NodeID, s uint32) []model.Action {
	if t.actor == nil {
		return nil
	}
	env := &model.NewCtx[M](*t.cfg, self).Env
	as := append([]model.Action(nil), t.actor.Actions(env, t.states[s])...)
	if f := t.actionsAgain(self, s, as); f != nil {
		panic(f)
	}
	return as
}

func (t *typed[S, M]) do(self model.NodeID, s uint32, a model.Action) handlerResult {
	return t.run(self, int64(s), -1, func(c *model.Ctx[M]) S { return t.actor.Do(c, t.states[s], a) })
}

func (t *typed[S, M]) stateString(s uint32) string { return fmt.Sprintf("%+v", t.states[s]) }
func (t *typed[S, M]) msgString(m uint32) string   { return fmt.Sprintf("%+v", t.msgs[m]) }
func (t *typed[S, M]) stateValue(s uint32) any     { return t.states[s] }
func (t *typed[S, M]) stateKeyOf(s uint32) string  { return t.stateKey[s] }

func (t *typed[S, M]) symmetric() (classes [][]model.NodeID, declared, plainS, plainM bool, err error) {
	sym, ok := t.p.(model.Symmetric)
	if !ok {
		return nil, false, false, false, nil
	}
	rs, err := renamerFor(reflect.TypeFor[S]())
	if err != nil {
		return nil, true, false, false, err
	}
	rm, err := renamerFor(reflect.TypeFor[M]())
	if err != nil {
		return nil, true, false, false, err
	}
	return sym.Interchangeable(t.cfg), true, rs == nil, rm == nil, nil
}

func (t *typed[S, M]) renameState(s uint32, to []model.NodeID) uint32 {
	v, err := renameValue(t.states[s], to)
	if err != nil {
		panic(misuse(err.Error()))
	}
	return t.internState(v, 0)
}

func (t *typed[S, M]) renameMsg(m uint32, to []model.NodeID) uint32 {
	v, err := renameValue(t.msgs[m], to)
	if err != nil {
		panic(misuse(err.Error()))
	}
	return t.internMsg(v, 0)
}
func (t *typed[S, M]) msgKind(m uint32) string { return kindOf(t.msgs[m]) }

func (t *typed[S, M]) vocabulary() (model.Vocabulary, bool) {
	if d, ok := t.p.(model.Declarer); ok {
		return d.Vocabulary(), true
	}
	return model.Vocabulary{}, false
}

// msgKeyOf is message m's key, its depth last under clocks: copies of a
// message of different depths are different events, ordered by content
// first.
func (t *typed[S, M]) msgKeyOf(m uint32) string {
	if !t.clocks {
		return t.msgKey[m]
	}
	return string(binary.BigEndian.AppendUint32([]byte(t.msgKey[m]), t.msgDepth[m]))
}

func (t *typed[S, M]) rounds(s uint32) uint32 {
	if !t.clocks {
		return 0
	}
	return uint32(t.stateClock[s] >> 32)
}
func (t *typed[S, M]) hasActions() bool { return t.actor != nil }
func (t *typed[S, M]) tableBytes() int  { return t.keyBytes }

// forge calls the protocol's Forge for a traitor self's message m to node
// to and interns the messages it lists, each with m's causal depth (a lie
// travels as the truth would). The list must hold m and no message twice,
// and two calls must agree: else it is a misuse of the contract.
func (t *typed[S, M]) forge(self, to model.NodeID, m uint32) []uint32 {
	env := &model.NewCtx[M](*t.cfg, self).Env
	t.curMsg = int64(m) // for repair, if Forge panics
	alts := t.forger.Forge(env, to, t.msgs[m])
	t.curMsg = -1
	if f := t.putBack(-1, int64(m)); f != nil {
		panic(f)
	}
	var depth uint32
	if t.clocks {
		depth = t.msgDepth[m]
	}
	ids := make([]uint32, 0, len(alts))
	for _, a := range alts {
		id := t.internMsg(a, depth)
		if slices.Contains(ids, id) {
			panic(misuse(fmt.Sprintf("Forge lists %+v twice in place of %+v", a, t.msgs[m])))
		}
		ids = append(ids, id)
	}
	if !slices.Contains(ids, m) {
		panic(misuse(fmt.Sprintf("Forge must list the message itself, %+v, among those a traitor may send in its place", t.msgs[m])))
	}
	again := t.forger.Forge(&model.NewCtx[M](*t.cfg, self).Env, to, t.msgs[m])
	if len(again) != len(alts) || slices.ContainsFunc(again, func(a M) bool {
		return !slices.Contains(ids, t.internMsg(a, depth))
	}) {
		panic(misuse(fmt.Sprintf("Forge is not deterministic: two calls for %+v to %v listed different messages", t.msgs[m], to)))
	}
	return ids
}
