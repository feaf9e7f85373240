package sim

import (
	"hash/maphash"

	"github.com/vigil-check/vigil/model"
)

// Fingerprint hashes the world: faults used, each node's liveness,
// state and timers, the monitors' states and every channel's messages in
// order. It is a sum of hashes of the parts, each part hashed again only
// once it changed, as a Stepper's fingerprint is: walks ask for it at
// every step where only one event is enabled, a message going round a
// ring, say.
func (w *walker[S, M]) Fingerprint() uint64 {
	if !w.fpOn {
		if w.fpNode == nil {
			w.fpNode, w.fpNodeOld = make([]uint64, w.n), make([]bool, w.n)
		}
		w.fpOn, w.fpTotal = true, 0
		clear(w.fpNode)
		clear(w.fpNodeOld)
		for i := range w.n {
			w.staleNode(model.NodeID(i))
		}
		for _, c := range w.used {
			w.staleChan(c) // an empty channel adds 0
		}
	}
	for _, i := range w.fpNodes {
		w.fpNodeOld[i] = false
		nd := &w.nodes[i]
		b := append(w.buf[:0], byte(i), byte(i>>8))
		if w.dead[i] {
			b = append(b, 1)
		}
		b = appendKeyOf(b, &nd.state)
		b = append(b, byte(len(nd.timers)))
		for _, tm := range nd.timers {
			b = append(b, tm.id.key...)
			for _, j := range tm.wait {
				b = append(b, byte(j), byte(j>>8))
			}
			if tm.at > 0 {
				b = append(b, byte(tm.remaining(w.clock)))
			}
			b = append(b, 0xff)
		}
		w.buf = b
		h := maphash.Bytes(w.seed, b)
		w.fpTotal += h - w.fpNode[i]
		w.fpNode[i] = h
	}
	for _, c := range w.fpChans {
		rec := w.ch(c)
		rec.fpOld = false
		n := rec.len
		if n == 0 {
			w.fpTotal -= rec.fp
			rec.fp = 0
			continue
		}
		// the count, as messages of an empty type encode to nothing
		b := append(w.buf[:0], byte(c), byte(c>>8), byte(c>>16), byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
		if w.fifo {
			for k := rec.head; k < len(rec.fifo); k++ {
				b = appendKeyOf(b, &rec.fifo[k].msg)
				if w.bounded {
					b = append(b, byte(w.clock-rec.fifo[k].sent))
				}
			}
		} else {
			for _, e := range rec.bag {
				b = append(b, e.key...)
				b = append(b, byte(e.count), byte(e.count>>8))
				if w.bounded {
					b = append(b, byte(w.clock-e.sent))
				}
			}
		}
		w.buf = b
		h := maphash.Bytes(w.seed, b)
		w.fpTotal += h - rec.fp
		rec.fp = h
	}
	w.fpNodes, w.fpChans = w.fpNodes[:0], w.fpChans[:0]
	// the monitors change only where the epoch does
	if !w.monKeyed || w.monEpoch != w.epoch {
		w.monKey = w.monKey[:0]
		for _, st := range w.mons {
			w.monKey = AppendKey(w.monKey, st)
		}
		w.monKeyed, w.monEpoch = true, w.epoch
	}
	b := append(w.buf[:0], byte(w.crashes), byte(w.recovers), byte(w.net.parts), byte(w.mf.losses), byte(w.mf.dups))
	b = append(b, w.net.groups...)
	b = append(b, w.monKey...)
	w.buf = b
	return w.fpTotal + maphash.Bytes(w.seed, b)
}

// staleNode and staleChan mark a part of the world whose hash changed;
// staleChan, called whenever a channel changes, also counts again the
// message faults it lists.
func (w *walker[S, M]) staleNode(i model.NodeID) {
	if w.fpOn && !w.fpNodeOld[i] {
		w.fpNodeOld[i] = true
		w.fpNodes = append(w.fpNodes, i)
	}
}

func (w *walker[S, M]) staleChan(c int) {
	w.recount(c)
	if rec := w.ch(c); w.fpOn && !rec.fpOld {
		rec.fpOld = true
		w.fpChans = append(w.fpChans, c)
	}
}
