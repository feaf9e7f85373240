package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/vigil-check/vigil/model"
)

// Node runs one node's handlers outside any world, one call at a time, on
// the Machine's interned states and messages: what a real process runs
// (package runtime), and what replays a real node's log (validate). Each
// call is checked as a search checks it: a handler that panics, writes
// into its input, misuses its context or is not deterministic is a Fault.
type Node struct {
	m    *Machine
	self model.NodeID
}

// Node returns node self of m.
func (m *Machine) Node(self model.NodeID) *Node { return &Node{m: m, self: self} }

// NodeStep is what one handler call did: the node's next state and its
// effects, in the order the handler made them.
type NodeStep struct {
	State  uint32
	Sends  []NodeSend
	Timers []TimerOp
	Obs    []model.Obs
}

// NodeSend is a message sent, interned.
type NodeSend struct {
	To  model.NodeID
	Msg uint32
}

// TimerOp is a timer armed (with the nodes it waits on, or the ticks it
// waits for) or cancelled.
type TimerOp = timerEffect

// call runs h under the Machine's lock, turning a fault into an error.
func (n *Node) call(handler string, h func() handlerResult) (NodeStep, *Fault) {
	n.m.mu.Lock()
	defer n.m.mu.Unlock()
	var r handlerResult
	if f := catch(func() { r = h() }); f != nil {
		n.m.impl.repair()
		f.Protocol, f.Handler, f.Node = n.m.Name, handler, n.self
		return NodeStep{}, f
	}
	st := NodeStep{State: r.state, Timers: r.timers, Obs: r.obs}
	for _, s := range r.sends {
		st.Sends = append(st.Sends, NodeSend{To: s.to, Msg: s.msg})
	}
	return st, nil
}

// Init runs the node's Init.
func (n *Node) Init() (NodeStep, *Fault) {
	return n.call("Init", func() handlerResult { return n.m.impl.init(n.self) })
}

// Receive runs the node's Receive in state s, for message msg from node from.
func (n *Node) Receive(s uint32, from model.NodeID, msg uint32) (NodeStep, *Fault) {
	return n.call("Receive", func() handlerResult { return n.m.impl.receive(n.self, s, from, msg) })
}

// Timeout runs the node's Timeout in state s, for timer t.
func (n *Node) Timeout(s uint32, t model.Timer) (NodeStep, *Fault) {
	return n.call("Timeout", func() handlerResult { return n.m.impl.timeout(n.self, s, t) })
}

// Recover runs the node's Recover from state s, the one it crashed in.
func (n *Node) Recover(s uint32) (NodeStep, *Fault) {
	return n.call("Recover", func() handlerResult { return n.m.impl.recoverFrom(n.self, s) })
}

// Do runs the node's local action a in state s.
func (n *Node) Do(s uint32, a model.Action) (NodeStep, *Fault) {
	return n.call("Do", func() handlerResult { return n.m.impl.do(n.self, s, a) })
}

// Actions lists the local actions enabled in state s.
func (n *Node) Actions(s uint32) (as []model.Action, f *Fault) {
	n.m.mu.Lock()
	defer n.m.mu.Unlock()
	if f = catch(func() { as = n.m.impl.actions(n.self, s) }); f != nil {
		f.Protocol, f.Handler, f.Node = n.m.Name, "Actions", n.self
	}
	return as, f
}

// Recoverable reports whether the protocol's nodes restart after a crash.
func (m *Machine) Recoverable() bool { return m.impl.recoverable() }

// EncodeMsg is message msg in JSON, the runtime's wire and log encoding.
// A message that does not come back from its JSON as the same value (a
// field JSON leaves out, such as an unexported one) is an error: the run
// would not be the one checked.
func (m *Machine) EncodeMsg(msg uint32) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.encode(false, msg)
}

// DecodeMsg interns the message whose JSON is b.
func (m *Machine) DecodeMsg(b []byte) (uint32, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.decode(false, b)
}

// EncodeState is node state s in JSON (see EncodeMsg).
func (m *Machine) EncodeState(s uint32) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.encode(true, s)
}

// DecodeState interns the node state whose JSON is b.
func (m *Machine) DecodeState(b []byte) (uint32, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.decode(true, b)
}

// MsgKind is the kind of message msg (see model.Kinder).
func (m *Machine) MsgKind(msg uint32) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.impl.msgKind(msg)
}

func (t *typed[S, M]) recoverable() bool { return t.rec != nil }

// encode is the JSON of state (state) or message id, checked to decode to
// the same value.
// An interned value never changes, so its JSON is checked and kept once:
// a real node encodes every message it sends and every state it logs.
func (t *typed[S, M]) encode(state bool, id uint32) ([]byte, error) {
	cache := &t.msgJSON
	if state {
		cache = &t.stateJSON
	}
	if b, ok := (*cache)[id]; ok {
		return b, nil
	}
	var b []byte
	var err error
	if state {
		b, err = encodeChecked(&t.states[id], t.stateKey[id], "state", t)
	} else {
		b, err = encodeChecked(&t.msgs[id], t.msgKey[id], "message", t)
	}
	if err != nil {
		return nil, err
	}
	if *cache == nil {
		*cache = map[uint32][]byte{}
	}
	(*cache)[id] = b
	return b, nil
}

func encodeChecked[V, S, M any](v *V, key, what string, t *typed[S, M]) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("protocol %s: a %s does not encode as JSON: %w", t.name, what, err)
	}
	var back V
	if err := json.Unmarshal(b, &back); err != nil {
		return nil, fmt.Errorf("protocol %s: a %s's JSON does not decode: %w", t.name, what, err)
	}
	if t.buf = appendKeyOf(t.buf[:0], &back); string(t.buf) != key {
		return nil, fmt.Errorf("protocol %s: a %s (%s) does not come back from its JSON %s as itself: give its type exported fields that JSON keeps", t.name, what, truncate(fmt.Sprintf("%+v", *v)), truncate(string(b)))
	}
	return b, nil
}

// decode interns the state (state) or message whose JSON is b. Fields
// that the type does not have are an error: a log written by another
// program must not lose what it says.
func (t *typed[S, M]) decode(state bool, b []byte) (uint32, error) {
	what := "message"
	if state {
		what = "state"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if state {
		var s S
		if err := dec.Decode(&s); err != nil {
			return 0, fmt.Errorf("a %s of %s: %w", what, reflect.TypeFor[S](), err)
		}
		return t.internState(s, 0), nil
	}
	var m M
	if err := dec.Decode(&m); err != nil {
		return 0, fmt.Errorf("a %s of %s: %w", what, reflect.TypeFor[M](), err)
	}
	return t.internMsg(m, 0), nil
}
