package sim

import "github.com/vigil-check/vigil/model"

// Run is N events enabled that a list names one after another, of one
// kind and one node (see Event.Node): a scheduler that chooses by kind
// and node (checker's PCT and swarm) reads no more of them. The network's
// and the messages' faults name no node in a Walker's runs.
type Run struct {
	Kind EventKind
	Node model.NodeID
	N    int
	// Forged: the run is the choices of one traitor's step (see
	// Event.Forge), which a uniform draw takes as one.
	Forged bool
}

// enable adds d to the deliveries enabled on channel c, and to those to
// its receiver.
func (w *walker[S, M]) enable(c, d int) {
	w.chans.add(c, d)
	w.toNode[c%w.n] += int32(d)
}

// Moves lists the events enabled that move as runs (see Walker.Moves).
func (w *walker[S, M]) Moves(buf []Run, byReceiver bool) ([]Run, int) {
	w.byReceiver = byReceiver
	for _, i := range w.dirty {
		if w.fault != nil {
			return buf, 0
		}
		w.refresh(i)
	}
	w.dirty = w.dirty[:0]
	if w.fault == nil {
		w.turnDownStutters()
	}
	if w.fault != nil {
		return buf, 0
	}
	// a tick waits for no due timer turned down
	total, protocol := w.Enabled()
	if w.fault != nil {
		return buf, 0
	}
	listed := 0
	add := func(kind EventKind, node model.NodeID, n int) {
		if n > 0 {
			buf = append(buf, Run{Kind: kind, Node: node, N: n})
			listed += n
		}
	}
	if byReceiver {
		for i, d := range w.toNode {
			add(Deliver, model.NodeID(i), int(d))
		}
	} else {
		add(Deliver, model.None, w.chans.total)
	}
	for k := 0; k < w.local.total; {
		i, _ := w.local.find(k)
		nd := &w.nodes[i]
		timeouts, acts := 0, 0
		for _, s := range nd.slots {
			switch {
			case nd.out(s).gone:
			case s >= 0:
				timeouts++
			default:
				acts++
			}
		}
		add(Timeout, model.NodeID(i), timeouts) // a node's timeouts come first
		add(Act, model.NodeID(i), acts)
		k += int(w.local.count[i])
	}
	if w.ticks {
		add(Tick, 0, 1)
	}
	cuts := w.Cuts()
	add(Partition, 0, cuts)
	add(Heal, 0, w.Network()-cuts)
	losses, dups := w.MessageFaults()
	add(Lose, 0, losses)
	add(Duplicate, 0, dups)
	if w.faultsOpen() {
		for i, dead := range w.dead {
			switch {
			case !dead && w.crashes < w.cfg.Crashes:
				add(Crash, model.NodeID(i), 1)
			case dead && w.recovers < w.cfg.Recoveries:
				add(Recover, model.NodeID(i), 1)
			}
		}
	}
	if listed != total {
		panic("moves: the events listed are not those counted")
	}
	return buf, protocol
}

func (w *walker[S, M]) TakeMove(k int) bool {
	if k >= w.chans.total || !w.byReceiver {
		return w.Take(k)
	}
	// the receiver's j-th delivery, the j-th on its channels in order
	i := 0
	for ; k >= int(w.toNode[i]); i++ {
		k -= int(w.toNode[i])
	}
	c := i
	for ; k >= int(w.chans.count[c]); c += w.n {
		k -= int(w.chans.count[c])
	}
	return w.Take(w.chans.prefix(c) + k)
}

// turnDownStutters turns down every timeout and action enabled whose step
// would stutter, as far as no handler faults.
func (w *walker[S, M]) turnDownStutters() {
	for i := range w.nodes {
		if w.local.count[i] == 0 {
			continue
		}
		nd := &w.nodes[i]
		for _, s := range nd.slots {
			if nd.out(s).gone {
				continue
			}
			out := w.outcome(model.NodeID(i), s)
			if out == nil {
				return // a fault: the walk is over
			}
			if w.stutters(model.NodeID(i), &out.r) {
				w.turnDown(model.NodeID(i), out)
			}
		}
	}
}
