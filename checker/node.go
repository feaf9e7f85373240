package checker

import (
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// Node is one node of a Machine run outside any world, one handler call at
// a time: what a real process runs (package runtime) and what replays a
// real node's log (vigil validate). Each call is checked as a search checks
// it: a handler that panics, writes into its input, misuses its context or
// is not deterministic returns a *Fault. Its calls may be made from one
// goroutine at a time; Nodes of one Machine may run in parallel.
type Node struct {
	m *Machine
	n *sim.Node
}

// State is a node state of a Machine, interned: equal ids, equal states.
type State uint32

// Message is a message of a Machine, interned: equal ids, equal messages.
type Message uint32

// Step is what one handler call did: the node's next state and its
// effects, each kind in the order the handler made them.
type Step struct {
	State    State
	Sends    []Outgoing
	Timers   []TimerOp
	Observed []model.Obs
}

// Outgoing is a message a handler sent.
type Outgoing struct {
	To  model.NodeID
	Msg Message
}

// TimerOp is a timer a handler armed (Armed, with the nodes it waits on or
// the ticks it waits for) or cancelled.
type TimerOp struct {
	Timer  model.Timer
	Armed  bool
	WaitOn []model.NodeID
	Ticks  int
}

// Node returns node self of m.
func (m *Machine) Node(self model.NodeID) *Node { return &Node{m: m, n: m.m.Node(self)} }

// Init runs the node's Init.
func (n *Node) Init() (Step, error) { return stepOf(n.n.Init()) }

// Receive runs the node's Receive in state s, for message msg from node
// from.
func (n *Node) Receive(s State, from model.NodeID, msg Message) (Step, error) {
	return stepOf(n.n.Receive(uint32(s), from, uint32(msg)))
}

// Timeout runs the node's Timeout in state s for timer t, which s had armed.
func (n *Node) Timeout(s State, t model.Timer) (Step, error) {
	return stepOf(n.n.Timeout(uint32(s), t))
}

// Do runs local action a, which Actions listed as enabled in s.
func (n *Node) Do(s State, a model.Action) (Step, error) { return stepOf(n.n.Do(uint32(s), a)) }

// Recover runs the node's Recover from s, the state it crashed in. The
// protocol must be a model.Recoverer (see Machine.Recoverable).
func (n *Node) Recover(s State) (Step, error) { return stepOf(n.n.Recover(uint32(s))) }

// Actions lists the local actions enabled in s, in the protocol's order.
func (n *Node) Actions(s State) ([]model.Action, error) {
	as, f := n.n.Actions(uint32(s))
	if f != nil {
		return nil, faultOf(f, nil)
	}
	return as, nil
}

func stepOf(st sim.NodeStep, f *sim.Fault) (Step, error) {
	if f != nil {
		return Step{}, faultOf(f, nil)
	}
	out := Step{State: State(st.State), Observed: st.Obs}
	for _, s := range st.Sends {
		out.Sends = append(out.Sends, Outgoing{To: s.To, Msg: Message(s.Msg)})
	}
	for _, t := range st.Timers {
		out.Timers = append(out.Timers, TimerOp{Timer: t.Timer, Armed: t.Armed, WaitOn: t.WaitOn, Ticks: t.Ticks})
	}
	return out, nil
}

// Recoverable reports whether the protocol's nodes restart after a crash
// (model.Recoverer).
func (m *Machine) Recoverable() bool { return m.m.Recoverable() }

// EncodeMessage is msg in JSON: the encoding real nodes send and logs
// record. A message that JSON does not bring back as the same value (a
// field JSON leaves out, such as an unexported one) is an error.
func (m *Machine) EncodeMessage(msg Message) ([]byte, error) { return m.m.EncodeMsg(uint32(msg)) }

// DecodeMessage is the message whose JSON is b. A field its type does not
// have is an error: a log written by another program must not lose what
// it says.
func (m *Machine) DecodeMessage(b []byte) (Message, error) {
	id, err := m.m.DecodeMsg(b)
	return Message(id), err
}

// EncodeState is s in JSON, as EncodeMessage encodes a message: what a
// real node keeps on disk to recover from, and logs record.
func (m *Machine) EncodeState(s State) ([]byte, error) { return m.m.EncodeState(uint32(s)) }

// DecodeState is the node state whose JSON is b (see DecodeMessage).
func (m *Machine) DecodeState(b []byte) (State, error) {
	id, err := m.m.DecodeState(b)
	return State(id), err
}

// MessageText is msg as traces print it.
func (m *Machine) MessageText(msg Message) string { return m.m.FormatMsg(uint32(msg)) }

// MessageKind is msg's kind (model.Kinder), "msg" for a message without one.
func (m *Machine) MessageKind(msg Message) string { return m.m.MsgKind(uint32(msg)) }

// StateText is s as traces print it.
func (m *Machine) StateText(s State) string { return m.m.FormatState(uint32(s)) }
