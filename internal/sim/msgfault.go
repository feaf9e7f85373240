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
// lost alike, and equal messages of a channel duplicated alike.

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

// messageFaultSuccessor is Successor for Lose and Duplicate: a counter of
// w[0] goes up; a message leaves its channel (the ones behind it, under
// FIFO, move up one place) and the timers of either end that wait on the
// other expire, or a copy joins the channel. No node steps, no monitor
// changes.
func (s *Stepper) messageFaultSuccessor(w World, f uint64, e Event) Successor {
	fifo := s.m.cfg.Channels == model.FIFO
	a, b := s.channel(w, e.From, e.Node)
	if e.Kind == Duplicate {
		f += hashWord(0, w[0]+duplicateUnit) - hashWord(0, w[0])
		k := uint64(0)
		if fifo {
			k = uint64(b - a) // at the tail
		}
		f += hashWord(msgTag+k, packMsg(e.From, e.Node, e.Arg))
		return Successor{FP: f, Len: len(w) + 1}
	}
	f += hashWord(0, w[0]+lossUnit) - hashWord(0, w[0])
	msgs := w[s.header:]
	i := s.lostIndex(w, e) - s.header
	if fifo {
		for k := i; k < b; k++ {
			f -= hashWord(msgTag+uint64(k-a), msgs[k])
			if k > i {
				f += hashWord(msgTag+uint64(k-a-1), msgs[k])
			}
		}
	} else {
		f -= hashWord(msgTag, msgs[i])
	}
	f = s.expiryDelta(w, f, e.From, e.Node)
	if e.Node != e.From { // a node's message to itself expires its timers once
		f = s.expiryDelta(w, f, e.Node, e.From)
	}
	return Successor{FP: f, Len: len(w) - 1}
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
