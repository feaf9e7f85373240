package properties

import (
	"fmt"

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

// ObjectFor returns the object built on protocols of the family, or nil.
func ObjectFor(family string) *Object {
	if family == Lock.Family {
		return Lock
	}
	return nil
}
