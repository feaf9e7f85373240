package sim

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Message faults. While the run's budgets allow, any message in flight may
// be lost (Lose) or duplicated (Duplicate); w[0] counts both (see World).
// A lost message may be any message of its channel, also under FIFO, where
// the event names it by its index in the channel; a duplicate joins its
// channel as a message sent now would. Enabled lists one event per
// distinct successor a channel gives: equal neighbours of a channel are
// lost alike, and equal messages of a channel duplicated alike. Below:
// the events enabled, building the successor (Stepper.Apply), its
// fingerprint (Stepper.Successor), and a Walker's message faults.

// messageFaults appends the enabled losses, then the duplications.
func (s *Stepper) messageFaults(w World, buf []Event) []Event {
	cfg := &s.m.cfg
	losses, dups := MessageFaultsUsed(w)
	msgs := s.Msgs(w)
	fifo := cfg.Channels == model.FIFO
	if losses < cfg.Losses {
		first := 0 // the first message of msgs[i]'s channel
		for i, mw := range msgs {
			if i > 0 && msgs[i-1]>>32 != mw>>32 {
				first = i
			}
			if i > 0 && msgs[i-1] == mw {
				continue // losing either of two equal neighbours leaves the same world
			}
			arg := msgID(mw)
			if fifo {
				arg = uint32(i - first)
			}
			buf = append(buf, Event{Kind: Lose, Node: msgTo(mw), From: msgFrom(mw), Arg: arg})
		}
	}
	if dups < cfg.Duplicates {
		first := 0
		for i, mw := range msgs {
			if i > 0 && msgs[i-1]>>32 != mw>>32 {
				first = i
			}
			if slices.Contains(msgs[first:i], mw) {
				continue // a copy of an equal message of the channel: the same world
			}
			buf = append(buf, Event{Kind: Duplicate, Node: msgTo(mw), From: msgFrom(mw), Arg: msgID(mw)})
		}
	}
	return buf
}

// LostMessage returns the id of the message a Lose event removes from w.
func (s *Stepper) LostMessage(w World, e Event) uint32 {
	return msgID(w[s.lostIndex(w, e)])
}

// lostIndex returns the index in w of the message a Lose event removes.
func (s *Stepper) lostIndex(w World, e Event) int {
	a, b := s.channel(w, e.From, e.Node)
	if s.m.cfg.Channels == model.FIFO {
		if i := a + int(e.Arg); i < b {
			return s.header + i
		}
	} else if k := slices.Index(w[s.header+a:s.header+b], packMsg(e.From, e.Node, e.Arg)); k >= 0 {
		return s.header + a + k
	}
	panic(fmt.Sprintf("lose %v: no such message in flight", e))
}

// applyLoss is Apply for a Lose event; w is a copy to change.
func (s *Stepper) applyLoss(w World, e Event) World {
	i := s.lostIndex(w, e)
	w[0] += lossUnit
	w = slices.Delete(w, i, i+1)
	s.lose(w, e.From, e.Node)
	return w
}

// lossSuccessor is Successor for a Lose event: a counter of w[0] goes
// up, a message leaves its channel (the ones behind it, under FIFO, move
// up one place) and the timers of either end that wait on the other
// expire. No node steps, no monitor changes.
func (s *Stepper) lossSuccessor(w World, f uint64, e Event) Successor {
	f += hashWord(0, w[0]+lossUnit) - hashWord(0, w[0])
	a, _ := s.channel(w, e.From, e.Node)
	i := s.lostIndex(w, e) - s.header
	f = s.leaves(w, f, e.From, e.Node, i-a, e.Arg)
	f = s.expiryDelta(w, f, e.From, e.Node)
	if e.Node != e.From { // a node's message to itself expires its timers once
		f = s.expiryDelta(w, f, e.Node, e.From)
	}
	return Successor{FP: f, Len: len(w) - 1}
}

// applyDuplication is Apply for a Duplicate event; w is a copy to change.
func (s *Stepper) applyDuplication(w World, e Event) World {
	w[0] += duplicateUnit
	return s.insertMsg(w, packMsg(e.From, e.Node, e.Arg))
}

// duplicationSuccessor is Successor for a Duplicate event: a counter of
// w[0] goes up and a copy of the message joins its channel, at the tail
// under FIFO. No node steps, no monitor changes.
func (s *Stepper) duplicationSuccessor(w World, f uint64, e Event) Successor {
	f += hashWord(0, w[0]+duplicateUnit) - hashWord(0, w[0])
	k := uint64(0)
	if s.m.cfg.Channels == model.FIFO {
		a, b := s.channel(w, e.From, e.Node)
		k = uint64(b - a) // at the tail
	}
	f += hashWord(msgTag+k, packMsg(e.From, e.Node, e.Arg))
	return Successor{FP: f, Len: len(w) + 1}
}

// expiryDelta adds to f the change of node a's record when its timers that
// wait on b expire (see expireOn).
func (s *Stepper) expiryDelta(w World, f uint64, a, b model.NodeID) uint64 {
	rec := w[1+int(a)]
	if ts := recTimers(rec); ts != 0 && !recDead(rec) {
		if exp := s.expired(ts, b); exp != ts {
			f += hashWord(uint64(1+a), makeRec(recState(rec), exp, false)) - hashWord(uint64(1+a), rec)
		}
	}
	return f
}

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
			w.enable(c, -1)
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
