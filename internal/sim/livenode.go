package sim

import (
	"github.com/vigil-check/vigil/model"
)

type liveNode[S, M any] struct {
	state S
	boxed any    // state as an any, for View.State; nil: not yet
	key   []byte // state's encoding, for the stutter check; nil: not yet
	// keyed: key holds state's encoding
	keyed  bool
	timers []liveTimer
	dirty  bool
	// slots lists the node's timeouts whose wait is over (timer index)
	// and its actions (^action index), in the order a walk draws them
	slots []int32
	// known: outs holds the outcomes of its timeouts met so far (by timer
	// index), and, if acted, acts its actions and actOuts their outcomes,
	// for its state and timers as they are. Handlers are pure, so a
	// refresh for a change around the node (a message to it, a crash, a
	// cut) reuses them.
	known bool
	outs  []liveOut[S, M]
	// ran lists the timer indexes whose outcome in outs ran: the only
	// entries of outs that are not zero, so that forgetting clears them
	// and not every timer's (a node may hold many)
	ran     []int32
	acts    []model.Action
	actOuts []liveOut[S, M]
	acted   bool
}

// liveOut is the outcome of a timeout or action, once it ran.
type liveOut[S, M any] struct {
	r   liveResult[S, M]
	ran bool
	// gone: drawn since the last step, it stutters (see Walker.Take)
	gone bool
}

// forget drops the outcomes known: the node's state or timers changed.
func (nd *liveNode[S, M]) forget() { nd.known = false }

// clearOuts zeroes the timer outcomes that ran (see liveNode.ran).
func (nd *liveNode[S, M]) clearOuts() {
	outs := nd.outs[:cap(nd.outs)]
	for _, k := range nd.ran {
		outs[k] = liveOut[S, M]{}
	}
	nd.ran = nd.ran[:0]
}

type goneOut[S, M any] struct {
	node model.NodeID
	out  *liveOut[S, M]
}

// touch marks node i's enabled events for recomputing, and its part of
// the fingerprint.
func (w *walker[S, M]) touch(i model.NodeID) {
	w.staleNode(i)
	if nd := &w.nodes[i]; !nd.dirty {
		nd.dirty = true
		w.dirty = append(w.dirty, i)
	}
}

func (w *walker[S, M]) touchAll() {
	for i := range w.n {
		w.touch(model.NodeID(i))
	}
}

// apply makes r node i's step: its state, timers, sends, observations.
func (w *walker[S, M]) apply(i model.NodeID, r liveResult[S, M]) {
	nd := &w.nodes[i]
	timers := r.timersAfter(true, &w.merge) // nd.forget() below
	nd.state, nd.boxed, nd.keyed, nd.timers = r.state, nil, false, timers
	nd.forget()
	var kind uint8
	var key string
	for k := range r.sends {
		// in place, before the copies of a message sent to many are told
		// alike below: clipped alike, they stay alike
		clip(&w.t.clipM, &r.sends[k].Msg)
	}
	for k := range r.sends {
		s := &r.sends[k]
		// a message sent to many (SendAll) is one value: its kind is
		// looked up and its key encoded once
		if k == 0 || !shallowEqual(&s.Msg, &r.sends[k-1].Msg) {
			kind, key = w.kinds.id(w.t.kindAt(&s.Msg)), ""
		}
		key = w.send(i, s.To, &s.Msg, kind, key, w.now[i]+1)
	}
	for _, o := range r.obs {
		w.obs = append(w.obs, NodeObs{i, o})
		w.observe(i, o)
	}
	w.touch(i)
}

// begin starts a step: the outcomes turned down count again.
func (w *walker[S, M]) begin() {
	w.sent, w.obs = w.sent[:0], w.obs[:0]
	for _, g := range w.gone {
		g.out.gone = false
		w.local.add(int(g.node), 1)
	}
	w.gone = w.gone[:0]
}
