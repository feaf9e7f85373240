package sim

import (
	"math/bits"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Fingerprints. A world's fingerprint is the sum (mod 2^64) of one hash per
// word, each mixed with a tag: the word's index for the header, node and
// monitor slots; for messages, a common tag under unordered channels (the
// in-flight multiset) or the message's position in its channel under FIFO.
// A sum can be updated by a transition's delta, so the fingerprint of a
// successor is known without building the successor: engines build only
// the worlds they have not seen. Distinct worlds collide with probability
// about 2^-64 per pair, as the hashes of distinct (tag, word) pairs are
// independent-looking 64-bit values.

const msgTag = 1 << 40

func hashWord(tag, word uint64) uint64 {
	hi, lo := bits.Mul64(word^0xa0761d6478bd642f, tag*0xe7037ed1a0b428db^0x8ebc6af09c88c6e3)
	return hi ^ lo
}

// Fingerprint returns w's fingerprint.
func (s *Stepper) Fingerprint(w World) uint64 {
	var f uint64
	for i, x := range w[:s.header] {
		f += hashWord(uint64(i), x)
	}
	msgs := w[s.header:]
	fifo := s.m.cfg.Channels == model.FIFO
	k := uint64(0)
	for i, mw := range msgs {
		k = msgPos(msgs, i, k, fifo)
		f += hashWord(msgTag+k, mw)
	}
	return f
}

// msgPos returns the hashing position of msgs[i], given k, that of
// msgs[i-1]: its place in its channel under FIFO, 0 for a multiset.
func msgPos(msgs []uint64, i int, k uint64, fifo bool) uint64 {
	if !fifo || i == 0 || msgs[i-1]>>32 != msgs[i]>>32 {
		return 0
	}
	return k + 1
}

// channel returns the bounds of the messages in flight from one node to
// another: w[s.header+a : s.header+b].
func (s *Stepper) channel(w World, from, to model.NodeID) (a, b int) {
	msgs := w[s.header:]
	ch := uint64(from)<<16 | uint64(to)
	lo, hi := 0, len(msgs) // first message of channel >= ch
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if msgs[mid]>>32 < ch {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	a, b = lo, lo
	for b < len(msgs) && msgs[b]>>32 == ch {
		b++
	}
	return a, b
}

// Successor describes the successor of a world by an event without
// building it (see SuccessorFingerprint).
type Successor struct {
	FP   uint64 // its fingerprint
	Step *Step  // the step taken; nil where no handler runs (crash, loss, duplication)
	Len  int    // its length in words
	// MonitorsChanged reports whether some monitor's state differs.
	MonitorsChanged bool
}

// SuccessorFingerprint returns the fingerprint of the successor of w (of
// fingerprint f) by e, and the Step taken (nil for a crash, a loss or a
// duplication, where no handler runs), without
// building the successor: Apply and Fingerprint of its result agree with it.
func (s *Stepper) SuccessorFingerprint(w World, f uint64, e Event) (uint64, *Step) {
	succ := s.Successor(w, f, e)
	return succ.FP, succ.Step
}

// Successor is SuccessorFingerprint with the successor's size and whether
// its monitors changed.
func (s *Stepper) Successor(w World, f uint64, e Event) Successor {
	cfg := &s.m.cfg
	fifo := cfg.Channels == model.FIFO
	if e.Kind == Lose || e.Kind == Duplicate {
		return s.messageFaultSuccessor(w, f, e)
	}
	if e.Kind == Partition || e.Kind == Heal || e.Kind == Tick || s.losesToCut(w, e) {
		// network changes, and steps that lose a message to a cut (which
		// expires timers at both ends): build the successor
		var st *Step
		s.scratch, st = s.Apply(w, e, s.scratch)
		return Successor{FP: s.Fingerprint(s.scratch), Step: st, Len: len(s.scratch), MonitorsChanged: !s.SameMonitors(w, s.scratch)}
	}
	s.mons = append(s.mons[:0], w[1+cfg.N:s.net]...)
	size := len(w)
	var removedFrom model.NodeID = model.None // FIFO: the channel (removedFrom → e.Node) lost its head
	switch e.Kind {
	case Deliver:
		mw := packMsg(e.From, e.Node, e.Arg)
		if fifo {
			a, b := s.channel(w, e.From, e.Node)
			msgs := w[s.header:]
			for k := a; k < b; k++ {
				f -= hashWord(msgTag+uint64(k-a), msgs[k])
				if k > a {
					f += hashWord(msgTag+uint64(k-a-1), msgs[k])
				}
			}
			removedFrom = e.From
		} else {
			f -= hashWord(msgTag, mw)
		}
		size--
	case Crash:
		f += hashWord(0, w[0]+1) - hashWord(0, w[0])
		rec := w[1+int(e.Node)]
		f += hashWord(uint64(1+e.Node), makeRec(recState(rec), 0, true)) - hashWord(uint64(1+e.Node), rec)
		msgs := w[s.header:]
		k := uint64(0)
		for i, mw := range msgs {
			k = msgPos(msgs, i, k, fifo)
			if msgTo(mw) == e.Node {
				f -= hashWord(msgTag+k, mw) // whole channels vanish: no shifts
				size--
			}
		}
		s.observeSlots(s.mons, e.Node, model.Obs{Kind: model.ObsCrash})
		f, changed := s.monitorDelta(w, f)
		return Successor{FP: f, Len: size, MonitorsChanged: changed}
	case Recover:
		f += hashWord(0, w[0]+1<<8) - hashWord(0, w[0])
		s.observeSlots(s.mons, e.Node, model.Obs{Kind: model.ObsRecover})
	}
	node := e.Node
	rec := w[1+int(node)]
	st := s.step(node, rec, input(e))
	f += hashWord(uint64(1+node), st.Rec) - hashWord(uint64(1+node), rec)
	if fifo && len(st.Sends) > 0 {
		s.sent = slices.Grow(s.sent[:0], cfg.N)[:cfg.N]
		clear(s.sent)
	}
	for _, snd := range st.Sends {
		to := SendTo(snd)
		if !s.reaches(w, node, to) {
			continue
		}
		mw := packMsg(node, to, SendMsg(snd))
		size++
		if !fifo {
			f += hashWord(msgTag, mw)
			continue
		}
		a, b := s.channel(w, node, to)
		k := b - a + int(s.sent[to])
		if removedFrom == node && e.Node == to {
			k-- // the delivered message left this very channel
		}
		s.sent[to]++
		f += hashWord(msgTag+uint64(k), mw)
	}
	for _, o := range st.Obs {
		s.observeSlots(s.mons, node, o)
	}
	f, changed := s.monitorDelta(w, f)
	return Successor{FP: f, Step: st, Len: size, MonitorsChanged: changed}
}

// losesToCut reports whether e is a step that sends a message across a cut
// of w to a live node.
func (s *Stepper) losesToCut(w World, e Event) bool {
	if e.Kind == Crash || !s.Split(w) {
		return false
	}
	for _, snd := range s.step(e.Node, w[1+int(e.Node)], input(e)).Sends {
		if to := SendTo(snd); !recDead(w[1+int(to)]) && !s.Connected(w, e.Node, to) {
			return true
		}
	}
	return false
}

func (s *Stepper) monitorDelta(w World, f uint64) (uint64, bool) {
	base := 1 + s.m.cfg.N
	changed := false
	for k, id := range s.mons {
		if old := w[base+k]; old != id {
			f += hashWord(uint64(base+k), id) - hashWord(uint64(base+k), old)
			changed = true
		}
	}
	return f, changed
}
