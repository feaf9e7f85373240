package model

import (
	"bytes"
	"fmt"
	"reflect"
)

// handlerResult is one handler call's outcome with states and messages
// interned: the protocol-independent form the Machine memoises.
type handlerResult struct {
	state  uint32
	sends  []rawSend
	timers []timerOp
	obs    []Obs
}

type rawSend struct {
	to   NodeID
	msg  uint32
	kind string
}

// compiled is the typed half of a Machine, hidden behind an interface so that
// engines need no type parameters. Every method is called with Machine.mu held.
type compiled interface {
	init(self NodeID) handlerResult
	receive(self NodeID, s uint32, from NodeID, m uint32) handlerResult
	timeout(self NodeID, s uint32, t Timer) handlerResult
	recoverFrom(self NodeID, s uint32) handlerResult
	actions(self NodeID, s uint32) []Action
	do(self NodeID, s uint32, a Action) handlerResult
	stateString(s uint32) string
	msgString(m uint32) string
	msgKeyOf(m uint32) string
	stateValue(s uint32) any
	hasActions() bool
}

type typed[S, M any] struct {
	name  string
	cfg   *Config
	p     Protocol[S, M]
	actor Actor[S, M] // nil when the protocol has no local actions
	ctx   Ctx[M]
	env   Env

	states   []S
	stateKey []string
	stateIdx map[string]uint32
	msgs     []M
	msgKey   []string
	msgIdx   map[string]uint32
	buf      []byte
}

func newTyped[S, M any](name string, p Protocol[S, M], cfg *Config) (*typed[S, M], error) {
	var s S
	var m M
	for _, t := range []reflect.Type{reflect.TypeOf(&s).Elem(), reflect.TypeOf(&m).Elem()} {
		if err := CheckKeyable(t); err != nil {
			return nil, fmt.Errorf("protocol %s: %w", name, err)
		}
	}
	t := &typed[S, M]{name: name, cfg: cfg, p: p, stateIdx: map[string]uint32{}, msgIdx: map[string]uint32{}}
	t.actor, _ = p.(Actor[S, M])
	return t, nil
}

func (t *typed[S, M]) internState(s S) uint32 {
	t.buf = AppendKey(t.buf[:0], s)
	if id, ok := t.stateIdx[string(t.buf)]; ok {
		return id
	}
	id := uint32(len(t.states))
	k := string(t.buf)
	t.stateIdx[k] = id
	t.stateKey = append(t.stateKey, k)
	t.states = append(t.states, deepClone(reflect.ValueOf(&s).Elem()).Interface().(S))
	return id
}

func (t *typed[S, M]) internMsg(m M) uint32 {
	t.buf = AppendKey(t.buf[:0], m)
	if id, ok := t.msgIdx[string(t.buf)]; ok {
		return id
	}
	id := uint32(len(t.msgs))
	t.msgIdx[string(t.buf)] = id
	t.msgKey = append(t.msgKey, string(t.buf))
	t.msgs = append(t.msgs, deepClone(reflect.ValueOf(&m).Elem()).Interface().(M))
	return id
}

func kindOf(m any) string {
	if k, ok := m.(Kinder); ok {
		return k.Kind()
	}
	return "msg"
}

// run calls one handler and interns its outcome. in is the input state's id
// (or -1 for Init) and msg the received message's (or -1); the handler must
// leave both encodings unchanged.
func (t *typed[S, M]) run(self NodeID, in, msg int64, handler string, h func(*Ctx[M]) S) handlerResult {
	t.ctx.reset(t.cfg, self)
	next := h(&t.ctx)
	if in >= 0 && !bytes.Equal(AppendKey(nil, t.states[in]), []byte(t.stateKey[in])) {
		panic(fmt.Sprintf("protocol %s: %s on node %d mutated its input state (into %+v); handlers must return a new state", t.name, handler, self, t.states[in]))
	}
	if msg >= 0 && !bytes.Equal(AppendKey(nil, t.msgs[msg]), []byte(t.msgKey[msg])) {
		panic(fmt.Sprintf("protocol %s: %s on node %d mutated the message it received (into %+v); messages are read-only", t.name, handler, self, t.msgs[msg]))
	}
	r := handlerResult{state: t.internState(next)}
	for _, s := range t.ctx.sends {
		if s.to < 0 || int(s.to) >= t.cfg.N {
			panic(fmt.Sprintf("protocol %s: %s on node %d sent to node %d, outside 0..%d", t.name, handler, self, s.to, t.cfg.N-1))
		}
		r.sends = append(r.sends, rawSend{to: s.to, msg: t.internMsg(s.msg), kind: kindOf(s.msg)})
	}
	for _, op := range t.ctx.timers {
		op.waitOn = append([]NodeID(nil), op.waitOn...)
		r.timers = append(r.timers, op)
	}
	r.obs = append([]Obs(nil), t.ctx.obs...)
	return r
}

func (t *typed[S, M]) init(self NodeID) handlerResult {
	return t.run(self, -1, -1, "Init", func(c *Ctx[M]) S { return t.p.Init(c) })
}

func (t *typed[S, M]) receive(self NodeID, s uint32, from NodeID, m uint32) handlerResult {
	return t.run(self, int64(s), int64(m), "Receive", func(c *Ctx[M]) S { return t.p.Receive(c, t.states[s], from, t.msgs[m]) })
}

func (t *typed[S, M]) timeout(self NodeID, s uint32, tm Timer) handlerResult {
	return t.run(self, int64(s), -1, "Timeout", func(c *Ctx[M]) S { return t.p.Timeout(c, t.states[s], tm) })
}

func (t *typed[S, M]) recoverFrom(self NodeID, s uint32) handlerResult {
	return t.run(self, int64(s), -1, "Recover", func(c *Ctx[M]) S { return t.p.Recover(c, t.states[s]) })
}

func (t *typed[S, M]) actions(self NodeID, s uint32) []Action {
	if t.actor == nil {
		return nil
	}
	t.env = Env{cfg: t.cfg, self: self}
	return append([]Action(nil), t.actor.Actions(&t.env, t.states[s])...)
}

func (t *typed[S, M]) do(self NodeID, s uint32, a Action) handlerResult {
	return t.run(self, int64(s), -1, "Do", func(c *Ctx[M]) S { return t.actor.Do(c, t.states[s], a) })
}

func (t *typed[S, M]) stateString(s uint32) string { return fmt.Sprintf("%+v", t.states[s]) }
func (t *typed[S, M]) msgString(m uint32) string   { return fmt.Sprintf("%+v", t.msgs[m]) }
func (t *typed[S, M]) msgKeyOf(m uint32) string    { return t.msgKey[m] }
func (t *typed[S, M]) stateValue(s uint32) any     { return t.states[s] }
func (t *typed[S, M]) hasActions() bool            { return t.actor != nil }
