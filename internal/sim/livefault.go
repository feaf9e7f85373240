package sim

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// A Walker's message faults, listed as a Stepper lists them (see
// messageFaults): one Lose per distinct successor a channel gives (under
// FIFO each message but one of two equal neighbours, by position; in a
// bag each distinct message), then one Duplicate per distinct message of
// a channel, each channel's in content order. Each channel's counts are
// kept up to date while a budget lasts.

// liveFaults counts a walk's message faults.
type liveFaults struct {
	on              bool // the run may lose or duplicate messages
	losses, dups    int  // used so far
	loseAll, dupAll int  // the sums of the events listed per channel (liveChan.lose, dup)
}

// recount counts again the message faults channel c lists.
func (w *walker[S, M]) recount(c int) {
	mf := &w.mf
	if !mf.on || mf.losses >= w.cfg.Losses && mf.dups >= w.cfg.Duplicates {
		return
	}
	lose, dup := 0, 0
	rec := w.ch(c)
	if w.fifo {
		q := rec.fifo[rec.head:]
		for k := range q {
			if k == 0 || q[k].key != q[k-1].key {
				lose++
			}
			if !slices.ContainsFunc(q[:k], func(m liveMsg[M]) bool { return m.key == q[k].key }) {
				dup++
			}
		}
	} else {
		lose, dup = len(rec.bag), len(rec.bag)
	}
	mf.loseAll += lose - rec.lose
	mf.dupAll += dup - rec.dup
	rec.lose, rec.dup = lose, dup
}

// MessageFaults counts the Lose and the Duplicate events enabled, listed
// in that order after the network's.
func (w *walker[S, M]) MessageFaults() (losses, duplicates int) {
	mf := &w.mf
	if !mf.on {
		return 0, 0
	}
	if mf.losses < w.cfg.Losses {
		losses = mf.loseAll
	}
	if mf.dups < w.cfg.Duplicates {
		duplicates = mf.dupAll
	}
	return losses, duplicates
}

// takeMessageFault takes message fault k of those MessageFaults counts.
func (w *walker[S, M]) takeMessageFault(k int) {
	losses, _ := w.MessageFaults()
	lose := k < losses
	if !lose {
		k -= losses
	}
	for _, c := range slices.Sorted(slices.Values(w.used)) { // in channel order, as a Stepper lists them
		count := w.ch(c).dup
		if lose {
			count = w.ch(c).lose
		}
		if k >= count {
			k -= count
			continue
		}
		if lose {
			w.loseOne(c, k)
		} else {
			w.duplicate(c, k)
		}
		return
	}
	panic("take: message fault out of range")
}

// loseOne loses the message of Lose event j of channel c (see recount),
// and the timers of either end that wait on the other expire.
func (w *walker[S, M]) loseOne(c, j int) {
	w.label = uint16(slices.Index(faultKinds, Lose))
	w.mf.losses++
	if rec := w.ch(c); w.fifo {
		q, head := rec.fifo, rec.head
		at := head
		for k := head; ; k++ { // the j-th message unlike the one before it
			if k == head || q[k].key != q[k-1].key {
				if j == 0 {
					at = k
					break
				}
				j--
			}
		}
		rec.fifo = slices.Delete(q, at, at+1)
		if rec.head == len(rec.fifo) {
			rec.fifo, rec.head = rec.fifo[:0], 0
			w.chans.add(c, -1)
		}
		rec.len--
		w.inFlight--
		w.staleChan(c)
		w.touch(model.NodeID(c % w.n))
	} else {
		w.remove(c, j) // a bag's j-th message, in content order
	}
	w.lose(model.NodeID(c/w.n), model.NodeID(c%w.n))
}

// duplicate puts a copy of the message of Duplicate event j of channel c
// in flight, as if sent now.
func (w *walker[S, M]) duplicate(c, j int) {
	w.label = uint16(slices.Index(faultKinds, Duplicate))
	w.mf.dups++
	from := model.NodeID(c / w.n)
	stamp := w.now[from] + 1
	rec := w.ch(c)
	if w.fifo {
		// the j-th distinct message, in content order
		q := rec.fifo[rec.head:]
		var keys []string
		for k := range q {
			if !slices.Contains(keys, q[k].key) {
				keys = append(keys, q[k].key)
			}
		}
		slices.Sort(keys)
		at := slices.IndexFunc(q, func(m liveMsg[M]) bool { return m.key == keys[j] })
		m := q[at]
		m.stamp = stamp
		rec.fifo = append(rec.fifo, m)
	} else {
		b := rec.bag
		b[j].count++
		b[j].stamps = append(b[j].stamps, stamp)
	}
	rec.len++
	w.inFlight++
	// the receiver's timers are left as they were: the channel held a
	// message from the sender, so no wait on it was over
	w.staleChan(c)
}
