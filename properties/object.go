package properties

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/anishathalye/porcupine"
	"github.com/vigil-check/vigil/model"
)

// An Object is a service that clients see, built on a protocol: a lock on
// mutual exclusion, a register on total-order multicast. Record reads a
// run's observations as the calls and returns of its clients (one client
// per node), and porcupine checks the history against the sequential Model:
// the run is linearizable when every operation can be placed at one
// instant between its call and its return, in an order the Model accepts.
//
// A history is a plain value, so the same Record serves a random walk's
// porcupine check (a Recorder) and the Linearizable property, whose
// monitor keeps the history in every world the exhaustive search visits.
type Object struct {
	Name   string
	Doc    string
	Family string // the protocol family it is built on
	Model  porcupine.Model
	// Record returns h after observation o of node i, with ObsCrash and
	// ObsRecover among them: h itself when o is neither a call nor a
	// return of the object. It must not change h (see History.Call and
	// History.Return).
	Record func(h History, i model.NodeID, o model.Obs) History
	// Input returns op as porcupine's Model reads it: its input and output.
	Input func(op HistoryOp) (input, output any)
	// OpNames names the operations: OpNames[op.Op].
	OpNames []string
	// TakesEffect reports whether op, still pending where the run ends,
	// may have taken effect (a register write whose writer crashed after
	// sending it): porcupine then sees it return after everything else.
	// Other pending calls are left out, as if never made (a lock acquire
	// never granted). Nil: none.
	TakesEffect func(op HistoryOp) bool

	once sync.Once
	prop *Property
}

// History is a run's client history so far. It is a value: Call, Return
// and Abandon return a new history and leave theirs as it was, so that
// worlds of a search may share a history's past.
type History struct {
	Ops   []HistoryOp // every call, in the order called
	Clock int32       // the calls and returns so far: the next event's time
	// owned: the history belongs to one Recorder, which keeps only the
	// newest: Call, Return and Abandon change it in place rather than
	// copy it, so that recording a run is linear in its length
	owned bool
}

// HistoryOp is one client call: its operation, a value and when it was
// called and returned, as times of History.Clock (Return -1: pending).
type HistoryOp struct {
	Client       model.NodeID
	Op           uint8       // the object's operation, such as Acquire or Write
	Value        model.MsgID // what it writes or read
	Call, Return int32
}

// unreturned is the Return of a call still pending.
const unreturned int32 = -1

// returned reports whether op's call has returned.
func (op HistoryOp) returned() bool { return op.Return != unreturned }

// pending returns the index of client i's pending call, or -1.
func (h History) pending(i model.NodeID) int {
	for k := len(h.Ops) - 1; k >= 0; k-- {
		if h.Ops[k].Client == i && !h.Ops[k].returned() {
			return k
		}
	}
	return -1
}

// Call returns h with client i calling op on value v now.
func (h History) Call(i model.NodeID, op uint8, v model.MsgID) History {
	ops := h.Ops
	if !h.owned {
		ops = slices.Clip(ops)
	}
	return History{Ops: append(ops, HistoryOp{Client: i, Op: op, Value: v, Call: h.Clock, Return: unreturned}), Clock: h.Clock + 1, owned: h.owned}
}

// Return returns h with client i's pending call returning now, with value
// v if keep is false (a read's result), or h itself if i has no pending
// call that match accepts.
func (h History) Return(i model.NodeID, match func(HistoryOp) bool, v model.MsgID, keep bool) History {
	k := h.pending(i)
	if k < 0 || !match(h.Ops[k]) {
		return h
	}
	ops := h.Ops
	if !h.owned {
		ops = slices.Clone(ops)
	}
	ops[k].Return = h.Clock
	if !keep {
		ops[k].Value = v
	}
	return History{Ops: ops, Clock: h.Clock + 1, owned: h.owned}
}

// Abandon returns h without client i's pending call, if it has one that
// match accepts: a call that will never return.
func (h History) Abandon(i model.NodeID, match func(HistoryOp) bool) History {
	k := h.pending(i)
	if k < 0 || !match(h.Ops[k]) {
		return h
	}
	ops := h.Ops
	if !h.owned {
		ops = slices.Clone(ops)
	}
	return History{Ops: slices.Delete(ops, k, k+1), Clock: h.Clock, owned: h.owned}
}

// Operations returns h's operations for porcupine: those that returned,
// and those pending that TakesEffect keeps, returning after the run.
func (o *Object) Operations(h History) []porcupine.Operation {
	var ops []porcupine.Operation
	for _, op := range h.Ops {
		ret := op.Return
		if !op.returned() {
			if o.TakesEffect == nil || !o.TakesEffect(op) {
				continue
			}
			ret = h.Clock
		}
		in, out := o.Input(op)
		ops = append(ops, porcupine.Operation{ClientId: int(op.Client), Input: in, Output: out, Call: int64(op.Call), Return: int64(ret)})
	}
	return ops
}

// A Recorder builds one run's history, observation by observation.
type Recorder struct {
	obj *Object
	h   History
}

// NewRecorder returns a recorder of an empty history.
func (o *Object) NewRecorder() *Recorder { return &Recorder{obj: o, h: History{owned: true}} }

// Observe records observation o of node i (model.Crashed(i) for a crash).
func (r *Recorder) Observe(i model.NodeID, o model.Obs) { r.h = r.obj.Record(r.h, i, o) }

// History returns the operations recorded, as Operations does.
func (r *Recorder) History() []porcupine.Operation { return r.obj.Operations(r.h) }

// Linearizable returns the property that where a run ends every live
// client's call has returned and the clients' history is linearizable. Its
// monitor keeps the history, so worlds that differ only in their clients'
// past no longer merge: check it where histories are short (a few
// operations), and let random mode's porcupine check
// (checker.RandomOptions.Object) take the long ones.
func (o *Object) Linearizable() *Property {
	o.once.Do(func() {
		mon := historyMonitor{o}
		o.prop = &Property{
			Name: "linearizable", Family: o.Family, When: AtQuiescence, Monitor: mon, MonitorOnly: true,
			Doc: "in every quiescent world every live client's call to the " + o.Name + " has returned, and their history is linearizable (" + o.Doc + ")",
			Check: func(v View) string {
				h := v.Monitor(mon).(History)
				for _, op := range h.Ops {
					if !op.returned() && v.Alive(op.Client) {
						return fmt.Sprintf("the run is over and %v's %s, called at %d, never returned", op.Client, o.OpNames[op.Op], op.Call)
					}
				}
				ops := o.Operations(h)
				if porcupine.CheckOperations(o.Model, ops) {
					return ""
				}
				return "no order of the calls fits a sequential " + o.Name + ": " + describe(o, ops)
			},
		}
	})
	return o.prop
}

// describe lists ops as calls, returns and results, in call order.
func describe(o *Object, ops []porcupine.Operation) string {
	parts := make([]string, len(ops))
	for k, op := range ops {
		parts[k] = fmt.Sprintf("%s (called at %d, returned at %d)", o.Model.DescribeOperation(op.Input, op.Output), op.Call, op.Return)
	}
	return strings.Join(parts, "; ")
}

// historyMonitor keeps the object's history as its state.
type historyMonitor struct{ obj *Object }

func (m historyMonitor) Name() string { return "history-" + m.obj.Name }

func (historyMonitor) Start(*model.Config) any { return History{} }

func (m historyMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.obj.Record(st.(History), node, o)
}

// LockOp is an operation on the lock.
type LockOp uint8

const (
	Acquire LockOp = iota
	Release
)

func (o LockOp) String() string { return [...]string{"acquire", "release"}[o] }

type lockInput struct {
	Client model.NodeID
	Op     LockOp
}

func isAcquire(op HistoryOp) bool { return LockOp(op.Op) == Acquire }

// Lock is a lock service on mutual exclusion: acquire is a request and
// the entry it leads to (the call at the request, the return at the
// entry), release is an exit (call and return at the exit step). A crash
// abandons a pending acquire. Its sequential model: the lock is free or
// held by one client; acquire takes a free lock, release frees the lock
// its client holds.
var Lock = &Object{
	Name:   "lock",
	Doc:    "acquire = request the critical section until entry; release = exit; checked against a sequential lock",
	Family: "mutex",
	Model: porcupine.Model{
		Init: func() any { return model.None },
		Step: func(state, input, _ any) (bool, any) {
			holder, op := state.(model.NodeID), input.(lockInput)
			switch {
			case op.Op == Acquire && holder == model.None:
				return true, op.Client
			case op.Op == Release && holder == op.Client:
				return true, model.None
			}
			return false, state
		},
		DescribeOperation: func(input, _ any) string {
			op := input.(lockInput)
			return fmt.Sprintf("%v %v", op.Client, op.Op)
		},
		DescribeState: func(state any) string {
			if h := state.(model.NodeID); h != model.None {
				return "held by " + h.String()
			}
			return "free"
		},
	},
	Record: func(h History, i model.NodeID, o model.Obs) History {
		switch o.Kind {
		case model.ObsRequest:
			return h.Abandon(i, isAcquire).Call(i, uint8(Acquire), model.MsgID{})
		case model.ObsEnter:
			if h.pending(i) < 0 { // entered without asking: as if asked just now
				h = h.Call(i, uint8(Acquire), model.MsgID{})
			}
			return h.Return(i, isAcquire, model.MsgID{}, true)
		case model.ObsExit:
			h = h.Call(i, uint8(Release), model.MsgID{})
			return h.Return(i, func(HistoryOp) bool { return true }, model.MsgID{}, true)
		case model.ObsCrash:
			return h.Abandon(i, isAcquire)
		}
		return h
	},
	Input:   func(op HistoryOp) (any, any) { return lockInput{op.Client, LockOp(op.Op)}, nil },
	OpNames: []string{Acquire.String(), Release.String()},
}

// RegisterOp is an operation on the register.
type RegisterOp uint8

const (
	Write RegisterOp = iota
	Read
)

func (o RegisterOp) String() string { return [...]string{"write", "read"}[o] }

type registerInput struct {
	Client model.NodeID
	Op     RegisterOp
	Value  model.MsgID // Write: the value written (its message's id)
}

func isWrite(op HistoryOp) bool { return RegisterOp(op.Op) == Write }
func isRead(op HistoryOp) bool  { return RegisterOp(op.Op) == Read }

// Register is a register replicated on every node over total-order
// multicast: a write is the multicast of a value, called at the multicast
// (model.Multicast) and returning when its writer delivers it
// (model.Delivered); a read is called at model.ReadCall and returns at
// model.ReadReturn, with the value of the last write its replica
// delivered. A crash abandons a pending read; a pending write may still
// take effect through the others. Its sequential model: a register that
// starts with the zero MsgID (initial) and holds the last value written.
var Register = &Object{
	Name:   "register",
	Doc:    "write = multicast a value until the writer delivers it; read = the reader's replica's value; checked against a sequential register",
	Family: "multicast",
	Model: porcupine.Model{
		Init: func() any { return model.MsgID{} },
		Step: func(state, input, output any) (bool, any) {
			op := input.(registerInput)
			if op.Op == Write {
				return true, op.Value
			}
			return output.(model.MsgID) == state.(model.MsgID), state
		},
		DescribeOperation: func(input, output any) string {
			op := input.(registerInput)
			if op.Op == Write {
				return fmt.Sprintf("%v write %v", op.Client, op.Value)
			}
			return fmt.Sprintf("%v read %v", op.Client, output)
		},
		DescribeState: func(state any) string { return state.(model.MsgID).String() },
	},
	Record: func(h History, i model.NodeID, o model.Obs) History {
		switch o.Kind {
		case model.ObsMulticast:
			return h.Call(i, uint8(Write), o.Msg())
		case model.ObsReadCall:
			return h.Call(i, uint8(Read), model.MsgID{})
		case model.ObsDeliver:
			v := o.Msg()
			return h.Return(i, func(op HistoryOp) bool { return isWrite(op) && op.Value == v }, v, true)
		case model.ObsReadReturn:
			return h.Return(i, isRead, o.Msg(), false)
		case model.ObsCrash:
			return h.Abandon(i, isRead)
		}
		return h
	},
	Input: func(op HistoryOp) (any, any) {
		if RegisterOp(op.Op) == Write {
			return registerInput{op.Client, Write, op.Value}, nil
		}
		return registerInput{Client: op.Client, Op: Read}, op.Value
	},
	OpNames:     []string{Write.String(), Read.String()},
	TakesEffect: isWrite,
}

// ObjectFor returns the object built on protocols of the family, or nil.
func ObjectFor(family string) *Object {
	for _, o := range []*Object{Lock, Register} {
		if o.Family == family {
			return o
		}
	}
	return nil
}
