// Package beta is Awerbuch's synchronizer β (B. Awerbuch, Complexity of
// Network Synchronization, J. ACM 32(4), 1985) as the lecture notes
// Distributed Coordination: Leader Election (after H. Yu's CS4231, NUS,
// V. K. Garg's Elements of Distributed Computing and S. Ghosh's Distributed
// Systems) present it, section Synchronizers: "assume the existence of a
// rooted spanning tree"; "the root initiates the simulation of each tick by
// sending message m(j) for each clock tick j down the tree. Each process
// responds with ack(j) and then with a safe(j) message (that represents the
// fact that the entire subtree under it is safe). When the root receives
// safe(j) from every child, it initiates the simulation of clock tick
// (j+1)". A node "sends subtree-safe when all the nodes in its subtree are
// safe".
//
// The tree is given (see SpanningTree, Over): the run computes none, as the
// notes' M_init and T_init are not the subject here. Within a pulse a node
// sends its algorithm's messages, acknowledges each it receives (as α does:
// a node is safe once its own messages are acknowledged), and sends safe(j)
// to its parent once it is safe and every child has sent ack(j) and
// safe(j). A node simulates pulse j+1 when m(j+1) reaches it: every node
// being safe for pulse j, every message of pulse j has arrived. Pulse 0 is
// the algorithm's Start, at Init, on every node at once; the last pulse
// sends nothing but its m and ack.
//
// The control messages of a pulse are the notes' M(β) = 3(N-1): m, ack and
// safe on each tree edge (pulse 0 has no m nor ack, the last pulse no safe),
// besides an ack per algorithm message. A pulse takes 2(d+1) asynchronous
// rounds on a tree of depth d (m(j) down, a message and its ack, safe(j)
// up): the notes' T(β) = depth of the tree is its order. Synchronizers
// assume no failures: nodes are crash-stop.
package beta

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// Tree is a rooted spanning tree of the network: each node's parent (the
// root's is None) and children, in id order.
type Tree struct {
	Parent   []model.NodeID
	Children [][]model.NodeID
}

// SpanningTree returns the breadth-first spanning tree of g rooted at
// root, each node's parent being its neighbour of least id one hop nearer
// the root.
func SpanningTree(g *model.Graph, root model.NodeID) Tree {
	t := Tree{Parent: make([]model.NodeID, g.N()), Children: make([][]model.NodeID, g.N())}
	seen := make([]bool, g.N())
	seen[root] = true
	t.Parent[root] = model.None
	for q := []model.NodeID{root}; len(q) > 0; q = q[1:] {
		for _, j := range g.Neighbors(q[0]) {
			if !seen[j] {
				seen[j] = true
				t.Parent[j] = q[0]
				t.Children[q[0]] = append(t.Children[q[0]], j)
				q = append(q, j)
			}
		}
	}
	for i := range t.Children {
		slices.Sort(t.Children[i])
	}
	return t
}

// Type is a message's type.
type Type uint8

const (
	Message  Type = iota // an algorithm message, Payload, of pulse Pulse
	Ack                  // the ack of an algorithm message
	Pulse                // m(j), down the tree: simulate pulse j
	PulseAck             // ack(j), up the tree
	SafeUp               // safe(j), up the tree: the sender's subtree is safe
)

// Msg is a message of the synchronizer.
type Msg[M any] struct {
	Type    Type
	Pulse   int
	Payload M // Message only
}

func (m Msg[M]) Kind() string {
	return [...]string{"message", "ack", "pulse", "pulse-ack", "safe"}[m.Type]
}

func (m Msg[M]) String() string {
	switch m.Type {
	case Message:
		return fmt.Sprintf("message(%d) %v", m.Pulse, m.Payload)
	case Ack:
		return "ack"
	case Pulse:
		return fmt.Sprintf("m(%d)", m.Pulse)
	case PulseAck:
		return fmt.Sprintf("ack(%d)", m.Pulse)
	}
	return fmt.Sprintf("safe(%d)", m.Pulse)
}

// State is a node's synchronizer state around the algorithm's.
type State[S, M any] struct {
	Pulse   int // the last pulse simulated: 0 after the start
	Alg     S
	Unacked int  // algorithm messages of this pulse not yet acknowledged
	Acks    int  // children's ack(Pulse)
	Safe    int  // children's safe(Pulse)
	SentUp  bool // safe(Pulse) sent to the parent
	// In holds the algorithm messages received for pulses not yet
	// simulated, by pulse and sender, a sender's in the order they came.
	In []round.Received[M]
}

func (s State[S, M]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pulse %d unacked %d acks %d safe %d", s.Pulse, s.Unacked, s.Acks, s.Safe)
	if s.SentUp {
		b.WriteString(" sent-safe")
	}
	for _, r := range s.In {
		fmt.Fprintf(&b, " %v:%v(%d)", r.From, r.Msg, r.Pulse)
	}
	fmt.Fprintf(&b, " | %+v", s.Alg)
	return b.String()
}

// Protocol is alg run over synchronizer β on a spanning tree: a
// model.Protocol.
type Protocol[S, M any] struct {
	Alg  round.Algorithm[S, M]
	Tree Tree
}

// Over returns the protocol that runs alg over synchronizer β on tree, a
// spanning tree of the run's network (see SpanningTree).
func Over[S, M any](alg round.Algorithm[S, M], tree Tree) Protocol[S, M] {
	return Protocol[S, M]{alg, tree}
}

func (p Protocol[S, M]) parent(env *model.Env) model.NodeID {
	if len(p.Tree.Parent) != env.N() {
		// unreachable: a misuse of Over, reported at the first step
		panic(fmt.Sprintf("beta: a spanning tree of %d nodes for a run of %d", len(p.Tree.Parent), env.N()))
	}
	return p.Tree.Parent[env.Self()]
}

func (p Protocol[S, M]) children(env *model.Env) []model.NodeID { return p.Tree.Children[env.Self()] }

// Init simulates pulse 0, the algorithm's start, on every node.
func (p Protocol[S, M]) Init(ctx *model.Ctx[Msg[M]]) State[S, M] {
	return p.simulate(ctx, State[S, M]{}, nil)
}

// simulate runs pulse s.Pulse on in and sends its messages, then reports
// safe if it may.
func (p Protocol[S, M]) simulate(ctx *model.Ctx[Msg[M]], s State[S, M], in []round.In[M]) State[S, M] {
	var out []model.Sent[M]
	s.Alg, out = round.Simulate(ctx, p.Alg, s.Alg, s.Pulse, in)
	if s.Pulse >= p.Alg.Pulses(&ctx.Env) {
		return s
	}
	for _, o := range out {
		ctx.Send(o.To, Msg[M]{Type: Message, Pulse: s.Pulse, Payload: o.Msg})
	}
	s.Unacked = len(out)
	return p.safe(ctx, s)
}

// safe: once this node is safe and every child has sent ack(j) and
// safe(j), its subtree is safe: a node tells its parent; the root begins
// pulse j+1, sending m(j+1) down the tree.
func (p Protocol[S, M]) safe(ctx *model.Ctx[Msg[M]], s State[S, M]) State[S, M] {
	kids := len(p.children(&ctx.Env))
	if s.Pulse >= p.Alg.Pulses(&ctx.Env) || s.SentUp || s.Unacked > 0 || s.Safe < kids || s.Pulse > 0 && s.Acks < kids {
		return s
	}
	if parent := p.parent(&ctx.Env); parent != model.None {
		ctx.Send(parent, Msg[M]{Type: SafeUp, Pulse: s.Pulse})
		s.SentUp = true
		return s
	}
	return p.begin(ctx, s, s.Pulse+1)
}

// begin passes m(j) to the children and simulates pulse j.
func (p Protocol[S, M]) begin(ctx *model.Ctx[Msg[M]], s State[S, M], j int) State[S, M] {
	ctx.SendAll(p.children(&ctx.Env), Msg[M]{Type: Pulse, Pulse: j})
	var in []round.In[M]
	in, s.In = round.Take(s.In, j-1)
	s.Pulse, s.Acks, s.Safe, s.SentUp = j, 0, 0, false
	return p.simulate(ctx, s, in)
}

// Receive: an algorithm message is acknowledged and kept; acks, a child's
// ack(j) and safe(j) may make the subtree safe; m(j) from the parent is
// acknowledged with ack(j) and begins pulse j.
func (p Protocol[S, M]) Receive(ctx *model.Ctx[Msg[M]], s State[S, M], from model.NodeID, m Msg[M]) State[S, M] {
	switch m.Type {
	case Message:
		ctx.Send(from, Msg[M]{Type: Ack})
		s.In = round.Keep(s.In, round.Received[M]{Pulse: m.Pulse, From: from, Msg: m.Payload})
		return s
	case Ack:
		s.Unacked--
	case PulseAck:
		s.Acks++
	case SafeUp:
		s.Safe++
	case Pulse:
		ctx.Send(from, Msg[M]{Type: PulseAck, Pulse: m.Pulse})
		return p.begin(ctx, s, m.Pulse)
	}
	return p.safe(ctx, s)
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol[S, M]) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"message", "ack", "pulse", "pulse-ack", "safe"}}
}
