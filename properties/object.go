package properties

import (
	"fmt"
	"slices"

	"github.com/anishathalye/porcupine"
	"github.com/vigil-check/vigil/model"
)

// An Object is a service that clients see, built on a protocol: a lock on
// mutual exclusion, a register on total-order multicast. Its Recorder reads
// a run's observations as the calls and returns of its clients (one client
// per node), and porcupine checks the history against the sequential Model:
// the run is linearizable when every operation can be placed at one
// instant between its call and its return, in an order the Model accepts.
type Object struct {
	Name   string
	Doc    string
	Family string // the protocol family it is built on
	Model  porcupine.Model
	// NewRecorder returns a recorder for one run of n nodes.
	NewRecorder func(n int) Recorder
}

// A Recorder builds one run's client history.
type Recorder interface {
	// Observe reports observation o of node i, made by the run's step at.
	Observe(i model.NodeID, o model.Obs, at int64)
	// Crash reports that node i crashed: its pending call never returns.
	Crash(i model.NodeID)
	// History returns the operations that returned; a call still pending
	// when the run ends is left out, as if it never took effect (for a
	// lock: an acquire that was not granted).
	History() []porcupine.Operation
}

// LockOp is an operation on the lock.
type LockOp uint8

const (
	Acquire LockOp = iota
	Release
)

func (o LockOp) String() string { return [...]string{"acquire", "release"}[o] }

// Lock is a lock service on mutual exclusion: acquire is a request and
// the entry it leads to (the call at the request, the return at the
// entry), release is an exit (call and return at the exit step). Its
// sequential model: the lock is free or held by one client; acquire takes
// a free lock, release frees the lock its client holds.
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
	NewRecorder: func(n int) Recorder {
		r := &lockRecorder{called: make([]int64, n)}
		for i := range r.called {
			r.called[i] = -1
		}
		return r
	},
}

type lockInput struct {
	Client model.NodeID
	Op     LockOp
}

type lockRecorder struct {
	called []int64 // per node: the step of its pending acquire, or -1
	ops    []porcupine.Operation
}

func (r *lockRecorder) Observe(i model.NodeID, o model.Obs, at int64) {
	op := func(kind LockOp, call int64) {
		r.ops = append(r.ops, porcupine.Operation{ClientId: int(i), Input: lockInput{i, kind}, Call: call, Return: at})
	}
	switch o.Kind {
	case model.ObsRequest:
		r.called[i] = at
	case model.ObsEnter:
		if r.called[i] >= 0 {
			op(Acquire, r.called[i])
		} else {
			op(Acquire, at) // entered without asking: as if asked just now
		}
		r.called[i] = -1
	case model.ObsExit:
		op(Release, at)
	}
}

func (r *lockRecorder) Crash(i model.NodeID) { r.called[i] = -1 }

func (r *lockRecorder) History() []porcupine.Operation { return r.ops }

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

// Register is a register replicated on every node over total-order
// multicast: a write is the multicast of a value, called at the multicast
// (model.Multicast) and returning when its writer delivers it
// (model.Delivered); a read is called at model.ReadCall and returns at
// model.ReadReturn, with the value of the last write its replica
// delivered. Its sequential model: a register that starts with the zero
// MsgID (initial) and holds the last value written.
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
	NewRecorder: func(n int) Recorder { return &registerRecorder{pending: make([]pendingCall, n)} },
}

type pendingCall struct {
	at    int64 // the step of the call
	op    RegisterOp
	value model.MsgID
	open  bool
}

type registerRecorder struct {
	pending []pendingCall // per node: its client's call in progress
	ops     []porcupine.Operation
	last    int64
}

func (r *registerRecorder) Observe(i model.NodeID, o model.Obs, at int64) {
	r.last = max(r.last, at)
	c := &r.pending[i]
	switch o.Kind {
	case model.ObsMulticast:
		*c = pendingCall{at: at, op: Write, value: o.Msg(), open: true}
	case model.ObsReadCall:
		*c = pendingCall{at: at, op: Read, open: true}
	case model.ObsDeliver:
		if c.open && c.op == Write && c.value == o.Msg() {
			r.ops = append(r.ops, porcupine.Operation{ClientId: int(i), Input: registerInput{i, Write, c.value}, Call: c.at, Return: at})
			c.open = false
		}
	case model.ObsReadReturn:
		if c.open && c.op == Read {
			r.ops = append(r.ops, porcupine.Operation{ClientId: int(i), Input: registerInput{Client: i, Op: Read}, Call: c.at, Output: o.Msg(), Return: at})
			c.open = false
		}
	}
}

// Crash leaves the node's call pending: a write may still take effect
// through the others (History keeps it open), a read returns nothing.
func (r *registerRecorder) Crash(model.NodeID) {}

// History returns the operations that returned, and the writes still
// pending, as returning after the run: a write may have reached the
// others before its writer crashed or the run stopped.
func (r *registerRecorder) History() []porcupine.Operation {
	h := slices.Clone(r.ops)
	for i, c := range r.pending {
		if c.open && c.op == Write {
			id := model.NodeID(i)
			h = append(h, porcupine.Operation{ClientId: i, Input: registerInput{id, Write, c.value}, Call: c.at, Return: r.last + 1})
		}
	}
	return h
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
