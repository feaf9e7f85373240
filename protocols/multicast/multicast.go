// Package multicast holds what the group-communication protocols share,
// which follow V. Vlassov and J. Montelius, Coordination (lecture notes,
// ID2201 Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below): the
// application's operations, and a process that does one thing at a time.
//
// "A multicast is a for loop of send" (Vlassov and Montelius), and a process
// may crash in the middle of the loop. So a node here is a sequential
// process: its handlers decide what to send and what to deliver and append
// it, in program order, to the node's Work; the node then sends the head of
// Work as a step of its own (a local action named "send n2"), one message at
// a time, and a crash can fall between any two. Deliveries take no step of
// their own: a message is delivered as soon as the sends decided before it
// are done. Messages still arrive while a loop is under way; what a handler
// decides on their arrival waits behind the work already queued, as it would
// in a process that finishes its loop first. When the run allows no crash,
// nothing can interrupt a loop, and a handler does its sends at once: the
// runs are the same, with fewer intermediate worlds. Every node belongs to
// the group, and a multicast is sent to every node, itself included ("(p in
// g) is included as a destination").
//
// The application at each initiator (every node unless the run names
// initiators) issues "msgs" operations (run parameter, default 1), each
// when its Work is empty (and, for a register, when the client's last
// operation has returned). Operation k of node p is message
// model.MsgID{p, k}. By default every operation multicasts a value
// (action "multicast"). With the run parameter "reads" the nodes are the
// replicas and clients of a register (see Reads): each operation is a
// write, multicast like a value, or a read; the register's value is the
// id of the last write a replica delivered.
package multicast

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Reads says how a replicated register answers reads (run parameter
// "reads").
type Reads int

const (
	// NoReads: no register; every operation multicasts a value.
	NoReads Reads = iota
	// LocalReads: a replica answers a read at once from its own copy.
	LocalReads
	// OrderedReads: a read is multicast like a write and answered when its
	// reader delivers it, in the total order.
	OrderedReads
)

// ReadsParam is the run parameter that builds a replicated register over a
// total order: its value is a Reads.
const ReadsParam = "reads"

// ReadsOf returns the run's Reads.
func ReadsOf(env *model.Env) Reads { return Reads(env.Param(ReadsParam, int(NoReads))) }

// readsNames are the names of the Reads, by value: what ParseReads reads
// and String shows.
var readsNames = [...]string{NoReads: "none", LocalReads: "local", OrderedReads: "ordered"}

// ParseReads reads "none", "local" or "ordered".
func ParseReads(s string) (Reads, error) {
	if i := slices.Index(readsNames[:], s); i >= 0 {
		return Reads(i), nil
	}
	return 0, fmt.Errorf("reads must be none, local or ordered, not %q", s)
}

func (r Reads) String() string {
	if r >= 0 && int(r) < len(readsNames) {
		return readsNames[r]
	}
	return fmt.Sprintf("reads(%d)", int(r))
}

// Value is what the application multicasts and is delivered: a message
// id and, for a replicated register with ordered reads, whether it is a
// read.
type Value struct {
	ID   model.MsgID
	Read bool
}

// Compare orders values by sender, then sequence number, then writes
// before reads: the order of the sorted sets the protocols keep. (An
// operation's id is its own, so the last rule only makes the order total.)
func Compare(a, b Value) int {
	if a.ID.Sender != b.ID.Sender {
		return int(a.ID.Sender - b.ID.Sender)
	}
	if a.ID.Seq != b.ID.Seq {
		return a.ID.Seq - b.ID.Seq
	}
	return readRank(a) - readRank(b)
}

func readRank(v Value) int {
	if v.Read {
		return 1
	}
	return 0
}

func (v Value) String() string {
	if v.Read {
		return "read " + v.ID.String()
	}
	return v.ID.String()
}

// Data is the message of the protocols that send nothing but the value
// multicast.
type Data struct{ Value Value }

func (Data) Kind() string     { return "msg" }
func (d Data) String() string { return "msg " + d.Value.String() }

// DataOf is the message that carries v alone.
func DataOf(v Value) Data { return Data{Value: v} }

// Item is an entry of a process's work: a send of Msg to To, or, when To
// is model.None, the delivery of Value.
type Item[M any] struct {
	To    model.NodeID
	Msg   M
	Value Value
}

// Process is the part of a node's state that every protocol of the family
// has: the operations issued, the work still to do, and the register.
type Process[M any] struct {
	Issued   int         // operations issued so far
	Work     []Item[M]   // sends, and deliveries behind them, in program order
	Register model.MsgID // the replicated register (reads only): the last write delivered
	// Waiting: the register's client waits for its operation to return,
	// when its writer or reader delivers it (reads only: a client does one
	// operation at a time).
	Waiting bool
}

// Send sends m to each node of to, in order: at once when the run allows
// no crash, else by queuing the sends in p's work. Like every helper here
// it leaves the slices of its input untouched, as a handler must.
func (p Process[M]) Send(ctx *model.Ctx[M], to []model.NodeID, m M) Process[M] {
	if ctx.Crashes() == 0 {
		ctx.SendAll(to, m)
		return p
	}
	p.Work = slices.Grow(slices.Clip(p.Work), len(to)) // a copy, grown once
	for _, j := range to {
		p.Work = append(p.Work, Item[M]{To: j, Msg: m})
	}
	return p
}

// BMulticast is B-multicast(g, m) to the group, the sender included: "a
// for loop of send" (see Send).
func (p Process[M]) BMulticast(ctx *model.Ctx[M], m M) Process[M] {
	return p.Send(ctx, Group(&ctx.Env), m)
}

// Deliver delivers v to the application once the sends queued before it
// are done: now, if there are none. Delivering a write sets the register;
// delivering its own read answers the reader's client with the register's
// value.
func (p Process[M]) Deliver(ctx *model.Ctx[M], v Value) Process[M] {
	if len(p.Work) > 0 {
		p.Work = append(slices.Clip(p.Work), Item[M]{To: model.None, Value: v})
		return p
	}
	switch {
	case !v.Read:
		ctx.Observe(model.Delivered(v.ID))
		if ReadsOf(&ctx.Env) != NoReads {
			p.Register = v.ID
		}
	case v.ID.Sender == ctx.Self():
		ctx.Observe(model.ReadReturn(p.Register))
	}
	if v.ID.Sender == ctx.Self() {
		p.Waiting = false
	}
	return p
}

// Group is every node of the run, in id order: a multicast's destinations.
func Group(env *model.Env) []model.NodeID {
	g := make([]model.NodeID, env.N())
	for i := range g {
		g[i] = model.NodeID(i)
	}
	return g
}

// Others is every node but the caller, in id order.
func Others(env *model.Env) []model.NodeID {
	return env.Nodes(func(model.NodeID) bool { return true })
}

// SendNext is the action "send the head of the work to this node": one
// send of a multicast's loop, which a crash may interrupt.
type SendNext model.NodeID

func (a SendNext) String() string { return "send " + model.NodeID(a).String() }

// Kind: the sends to every node are one kind of action.
func (SendNext) Kind() string { return "send" }

// Op is an operation of the application above the multicast.
type Op uint8

const (
	MulticastOp Op = iota + 1 // multicast a new value
	WriteOp                   // write the replicated register
	ReadOp                    // read it
)

func (o Op) String() string { return [...]string{"", "multicast", "write", "read"}[o] }

// Actions lists what p may do next: the send at the head of its work, if
// any; else, at an initiator with operations left, the application's next
// operation: MulticastOp, or WriteOp and ReadOp for a register.
func Actions[M any](env *model.Env, p Process[M]) []model.Action {
	switch {
	case len(p.Work) > 0:
		return []model.Action{SendNext(p.Work[0].To)}
	case p.Waiting || !env.Initiator() || p.Issued >= env.Param(properties.MsgsParam, 1):
		return nil
	case ReadsOf(env) == NoReads:
		return []model.Action{MulticastOp}
	}
	return []model.Action{WriteOp, ReadOp}
}

// Sequential, embedded in a protocol of the family, gives it the Actions
// of a sequential process (see Actions): every protocol of the family
// lists them alike, and differs only in what it does (Do). S is the
// node's state, which embeds Process[M].
type Sequential[M any, S interface{ process() Process[M] }] struct{}

// Actions lists what the node in state s may do next (see Actions).
func (Sequential[M, S]) Actions(env *model.Env, s S) []model.Action {
	return Actions(env, s.process())
}

// process is p itself: a state that embeds p has it, and so can be read
// by Sequential.
func (p Process[M]) process() Process[M] { return p }

// Busy reports whether p's next step is from its work rather than a new
// operation.
func (p Process[M]) Busy() bool { return len(p.Work) > 0 }

// Do performs action a: the send at the head of p's work, or the
// application's next operation, whose value, if it is to be multicast,
// goes to mcast, the protocol's own multicast(g, m).
func Do[M any](ctx *model.Ctx[M], p Process[M], a model.Action, mcast func(Process[M], Value) Process[M]) Process[M] {
	if p.Busy() {
		return Step(ctx, p)
	}
	p, v, ok := Issue(ctx, p, a)
	if ok {
		p = mcast(p, v)
	}
	return p
}

// DoBMulticast is Do for a protocol whose multicast(g, m) is B-multicast(g,
// m) and nothing more: it sends msg(v), the message that carries the
// value, to the group.
func DoBMulticast[M any](ctx *model.Ctx[M], p Process[M], a model.Action, msg func(Value) M) Process[M] {
	return Do(ctx, p, a, func(p Process[M], v Value) Process[M] { return p.BMulticast(ctx, msg(v)) })
}

// Step sends the head of p's work, then delivers what waited only for it.
func Step[M any](ctx *model.Ctx[M], p Process[M]) Process[M] {
	ctx.Send(p.Work[0].To, p.Work[0].Msg)
	rest := p.Work[1:]
	p.Work = nil
	for i, it := range rest {
		if it.To != model.None {
			// the input's tail, shared: whatever adds to work clips it first
			p.Work = rest[i:]
			break
		}
		p = p.Deliver(ctx, it.Value)
	}
	return p
}

// Issue starts the application's next operation, action a: it returns the
// value the protocol is to multicast, or false when there is none (a local
// read, answered here and now).
func Issue[M any](ctx *model.Ctx[M], p Process[M], a model.Action) (Process[M], Value, bool) {
	p.Issued++
	v := Value{ID: model.MsgID{Sender: ctx.Self(), Seq: p.Issued}}
	switch a {
	case WriteOp:
		ctx.Observe(model.Multicast(v.ID))
		p.Waiting = true
		return p, v, true
	case ReadOp:
		ctx.Observe(model.ReadCall())
		if ReadsOf(&ctx.Env) == LocalReads {
			ctx.Observe(model.ReadReturn(p.Register))
			return p, v, false
		}
		v.Read, p.Waiting = true, true
		return p, v, true
	default: // MulticastOp
		ctx.Observe(model.Multicast(v.ID))
		return p, v, true
	}
}

// CheckParams rejects runs whose parameters the protocol name cannot
// honour: msgs below 1, and reads where it does not offer a total order
// (withReads false).
func CheckParams(name string, cfg model.Config, withReads bool) error {
	if k := cfg.Param(properties.MsgsParam, 1); k < 1 || k >= 1<<16 {
		return fmt.Errorf("%s: msgs must be between 1 and 65535, not %d", name, k)
	}
	switch r := Reads(cfg.Param(ReadsParam, 0)); {
	case r < NoReads || r > OrderedReads:
		return fmt.Errorf("%s: reads must be 0 (none), 1 (local) or 2 (ordered), not %d", name, int(r))
	case r != NoReads && !withReads:
		return fmt.Errorf("%s: a replicated register needs a total order: use multicast/sequencer or multicast/isis", name)
	}
	return nil
}

// Held shows a protocol's hold-back queue, for its state's String: nothing
// when the queue is empty.
func Held[T any](queue []T) string {
	if len(queue) == 0 {
		return ""
	}
	return fmt.Sprintf(" held=%v", queue)
}

// String shows the operations issued, the work queued and, once written,
// the register.
func (p Process[M]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "issued=%d", p.Issued)
	if len(p.Work) > 0 {
		b.WriteString(" work=[")
		for i, it := range p.Work {
			if i > 0 {
				b.WriteString(", ")
			}
			if it.To == model.None {
				fmt.Fprintf(&b, "deliver %v", it.Value)
			} else {
				fmt.Fprintf(&b, "%v to %v", it.Msg, it.To)
			}
		}
		b.WriteString("]")
	}
	if p.Register != (model.MsgID{}) {
		fmt.Fprintf(&b, " register=%v", p.Register)
	}
	return b.String()
}
