package sim

import (
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// liveMsg is a message in flight with its kind (an index into Kinds).
// In an unordered channel, copies of one message are one event (count of
// them), in content order (key).
//
// The message comes last, beside its kind: a small message then packs with
// the kind into the entry's last word instead of padding one of its own
// (40 bytes for a one-byte message, not 48).
type liveMsg[M any] struct {
	key string
	// stamp: the time it was sent at (see Walker.Now), in a FIFO queue
	stamp int
	// sent: under Bounded timing, the tick it was sent at (see
	// walker.clock); copies sent at different ticks are different
	// messages, as their ages differ
	sent int
	kind uint8
	msg  M
}

// bagMsg is a message in flight in an unordered channel: its copies
// (count), and the times they were sent at, in send order. A FIFO queue
// holds a copy per entry, and no more than a liveMsg: under async timers
// messages pile up in flight, and every byte of an entry is written once
// and read once.
type bagMsg[M any] struct {
	liveMsg[M]
	count  int
	stamps []int
}

// liveChan is a channel that carried a message in the walk: its messages
// in flight, in a FIFO queue (head at head) or a bag (distinct messages by
// key), how many with copies counted, the message faults it lists (see
// liveFaults) and its hash in the Fingerprint (0 while empty), fpOld
// when it is to be hashed again.
type liveChan[M any] struct {
	fifo      []liveMsg[M]
	head      int
	bag       []bagMsg[M]
	len       int
	lose, dup int
	fp        uint64
	fpOld     bool
}

// ch is channel c's record; c carried a message in the walk.
func (w *walker[S, M]) ch(c int) *liveChan[M] { return w.chanRec[w.chanAt[c]-1] }

// inChan is the number of messages in flight in channel c.
func (w *walker[S, M]) inChan(c int) int {
	if k := w.chanAt[c]; k > 0 {
		return w.chanRec[k-1].len
	}
	return 0
}

// useChan gives channel c a record, if it has none in this walk.
func (w *walker[S, M]) useChan(c int) *liveChan[M] {
	if k := w.chanAt[c]; k > 0 {
		return w.chanRec[k-1]
	}
	k := len(w.used)
	if k == len(w.chanRec) {
		w.chanRec = append(w.chanRec, &liveChan[M]{})
	}
	w.used = append(w.used, c)
	w.chanAt[c] = int32(k + 1)
	return w.chanRec[k]
}

// remove takes message j of channel c out of flight.
func (w *walker[S, M]) remove(c, j int) {
	if w.bounded {
		w.sentAt[w.msgAt(c, j).sent%len(w.sentAt)]--
	}
	rec := w.ch(c)
	if w.fifo {
		rec.fifo[rec.head] = liveMsg[M]{}
		rec.head++
		if rec.head == len(rec.fifo) {
			rec.fifo, rec.head = rec.fifo[:0], 0
			w.enable(c, -1)
		}
	} else {
		b := rec.bag
		b[j].stamps = b[j].stamps[1:]
		if b[j].count--; b[j].count == 0 {
			rec.bag = slices.Delete(b, j, j+1)
			w.enable(c, -1)
		}
	}
	rec.len--
	w.inFlight--
	w.staleChan(c)
	w.touch(model.NodeID(c % w.n))
}

// send puts *msg, of kind kind, in flight from i to j, lost if j is down.
// key is its content key, "" if not yet encoded; send returns it, once
// encoded for an unordered channel. *msg must be clipped (see clip).
func (w *walker[S, M]) send(i, j model.NodeID, msg *M, kind uint8, key string, stamp int) string {
	w.sent = append(w.sent, kind)
	if w.dead[j] {
		return key
	}
	if !w.connected(i, j) {
		w.lose(i, j)
		return key
	}
	c := int(i)*w.n + int(j)
	rec := w.useChan(c)
	if w.bounded {
		w.sentAt[w.clock%len(w.sentAt)]++
	}
	if w.fifo {
		if len(rec.fifo) == rec.head {
			w.enable(c, 1)
		}
		if key == "" && w.mf.on { // to tell a channel's messages apart
			key = string(appendKeyOf(w.buf[:0], msg))
		}
		q, head := rec.fifo, rec.head
		if len(q) == cap(q) && head > 0 && head >= len(q)/2 {
			// full, and half of it delivered: the messages in flight move
			// to the front rather than into a larger array (under async
			// timers they pile up, and a queue would only grow)
			n := copy(q, q[head:])
			clear(q[n:])
			q, rec.head = q[:n], 0
		}
		rec.fifo = append(q, liveMsg[M]{msg: *msg, kind: kind, key: key, stamp: stamp, sent: w.clock})
	} else {
		if key == "" {
			key = string(appendKeyOf(w.buf[:0], msg))
		}
		b := rec.bag
		// in content order, and copies of one content youngest first (a
		// Stepper's EventKey: the content, then the age)
		at, found := slices.BinarySearchFunc(b, key, func(e bagMsg[M], key string) int {
			if c := strings.Compare(e.key, key); c != 0 {
				return c
			}
			return w.clock - e.sent
		})
		if found {
			b[at].count++
			b[at].stamps = append(b[at].stamps, stamp)
		} else {
			rec.bag = slices.Insert(b, at, bagMsg[M]{liveMsg[M]{msg: *msg, kind: kind, key: key, sent: w.clock}, 1, []int{stamp}})
			w.enable(c, 1)
		}
	}
	rec.len++
	w.inFlight++
	// j's timers are left as they were: a wait on i, up and connected
	// to j, was not over before, nor is it now
	w.staleChan(c)
	return key
}

// msgAt is message j of channel c: its head under FIFO.
func (w *walker[S, M]) msgAt(c, j int) *liveMsg[M] {
	rec := w.ch(c)
	if w.fifo {
		return &rec.fifo[rec.head]
	}
	return &rec.bag[j].liveMsg
}
