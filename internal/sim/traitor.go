package sim

import (
	"fmt"
	"math/bits"

	"github.com/vigil-check/vigil/model"
)

// Traitors (Byzantine nodes, model.Config.Traitors). A Traitor event turns
// a live loyal node into a traitor while fewer than Config.Traitors have
// turned: its bit is set in the world's traitor words and the monitors
// observe model.ObsTraitor; no handler runs. From then on the node's
// handlers run as written, and each message one of its steps sends is
// replaced by a message the event chooses among those the protocol's
// Forge lists for it (model.Forger), the message itself among them: the
// step of a traitor is as many events as the product of its sends' choices,
// told apart by Event.Forge (mixed radix, the first send's choice the
// lowest digit), listed in that fixed order. What a traitor sends is
// written once, here (Forged), and every way of taking a step (Apply,
// Successor, Enabled) reads it.

// maxForgeries bounds the choices of one traitor step: the successors a
// world gets from it.
const maxForgeries = 1 << 16

// traitorWords is how many words a world spends on its traitors: a bit
// per node when the run allows traitors, none otherwise.
func traitorWords(cfg *model.Config) int {
	if cfg.Traitors == 0 {
		return 0
	}
	return (cfg.N + 63) / 64
}

// IsTraitor reports whether node i has turned traitor in w.
func (s *Stepper) IsTraitor(w World, i model.NodeID) bool {
	if s.tw == s.header {
		return false
	}
	return w[s.tw+int(i)/64]>>(uint(i)%64)&1 != 0
}

// TraitorsUsed returns how many nodes have turned traitor in w.
func (s *Stepper) TraitorsUsed(w World) int {
	n := 0
	for _, x := range w[s.tw:s.header] {
		n += bits.OnesCount64(x)
	}
	return n
}

// applyTurn is Apply for a Traitor event; w is a copy to change.
func (s *Stepper) applyTurn(w World, e Event) World {
	w[s.tw+int(e.Node)/64] |= 1 << (uint(e.Node) % 64)
	s.observe(w, e.Node, model.Obs{Kind: model.ObsTraitor})
	return w
}

// traitorEvents appends the Traitor events enabled in w: one per live
// loyal node, while the budget lasts.
func (s *Stepper) traitorEvents(w World, buf []Event) []Event {
	if s.TraitorsUsed(w) >= s.m.cfg.Traitors {
		return buf
	}
	for i := range s.m.cfg.N {
		if id := model.NodeID(i); !recDead(w[1+i]) && !s.IsTraitor(w, id) {
			buf = append(buf, Event{Kind: Traitor, Node: id})
		}
	}
	return buf
}

// forgeKey names a traitor's step under one choice of its lies.
type forgeKey struct {
	step   *Step
	node   model.NodeID
	choice uint32
}

// Choices returns how many ways a traitor, node, may take step st: the
// product of the choices of its sends (1 when it sends nothing).
func (s *Stepper) Choices(node model.NodeID, st *Step) int {
	n := 1
	for _, snd := range st.Sends {
		n *= len(s.alternatives(node, snd))
		if n > maxForgeries {
			s.setFault(&Fault{Fault: model.Fault{Protocol: s.m.Name, Handler: "Forge", Node: node,
				Misuse: fmt.Sprintf("gives a traitor's step more than %d choices of what to send", maxForgeries)}})
			return 1
		}
	}
	return n
}

// alternatives lists the messages (interned) a traitor, node, may send in
// place of send snd of one of its steps; a Forge that fails is recorded as
// a fault, and the message alone is listed.
func (s *Stepper) alternatives(node model.NodeID, snd uint64) []uint32 {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	k := [3]uint32{uint32(node), uint32(SendTo(snd)), SendMsg(snd)}
	if alts, ok := m.forgeries[k]; ok {
		return alts
	}
	var alts []uint32
	if f := catch(func() { alts = m.impl.forge(node, SendTo(snd), SendMsg(snd)) }); f != nil {
		m.impl.repair()
		f.Protocol, f.Handler, f.Node = m.Name, "Forge", node
		s.setFault(f)
		return []uint32{SendMsg(snd)}
	}
	m.forgeries[k] = alts
	return alts
}

// Forged returns step st of a traitor, node, under choice of its lies
// (see Choices): its sends replaced, each by the message the choice
// picks for it. Choice 0 picks the first message each Forge lists.
func (s *Stepper) Forged(node model.NodeID, st *Step, choice uint32) *Step {
	if len(st.Sends) == 0 {
		return st
	}
	k := forgeKey{st, node, choice}
	if f, ok := s.forged[k]; ok {
		return f
	}
	out := *st
	out.Sends = make([]uint64, len(st.Sends))
	c := choice
	for i, snd := range st.Sends {
		alts := s.alternatives(node, snd)
		msg := alts[int(c)%len(alts)]
		c /= uint32(len(alts))
		out.Sends[i] = packSend(SendTo(snd), s.m.kindOf(msg), msg)
	}
	s.m.mu.Lock()
	out.Sent = s.m.internSent(&out)
	s.m.mu.Unlock()
	s.forged[k] = &out
	return &out
}

// forgedEvents appends e once per choice of a traitor's step st, or once
// when node is loyal.
func (s *Stepper) forgedEvents(w World, buf []Event, e Event, rec uint64) []Event {
	if !s.IsTraitor(w, e.Node) {
		return append(buf, e)
	}
	n := s.Choices(e.Node, s.step(e.Node, rec, input(e)))
	for c := range n {
		e.Forge = uint32(c)
		buf = append(buf, e)
	}
	return buf
}

// packSend is an element of Step.Sends.
func packSend(to model.NodeID, kind uint8, msg uint32) uint64 {
	return uint64(to)<<48 | uint64(kind)<<32 | uint64(msg)
}

// kindOf is message msg's kind, as an index into Kinds. Called without
// m.mu held.
func (m *Machine) kindOf(msg uint32) uint8 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.kinds.id(m.impl.msgKind(msg))
}

// TraitorStep returns, for an event e of w that runs a traitor's handler,
// the step as its handler wrote it and as the traitor took it (e's choice
// of lies); ok is false for any other event.
func (s *Stepper) TraitorStep(w World, e Event) (written, forged *Step, ok bool) {
	switch e.Kind {
	case Deliver, Timeout, Act, Recover:
	default:
		return nil, nil, false
	}
	if !s.IsTraitor(w, e.Node) {
		return nil, nil, false
	}
	written = s.step(e.Node, w[1+int(e.Node)], input(e))
	return written, s.Forged(e.Node, written, e.Forge), true
}
