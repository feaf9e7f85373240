package sim

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Ticks. Under Bounded timing time passes by one tick at a time: every
// message in flight ages, every timer armed with SetTimerAfter counts
// down. A tick waits while a message is as old as the delay bound or a
// due timer can fire. Below: when a tick is enabled, building the
// successor (Stepper.Apply, with tick), its fingerprint
// (Stepper.Successor) and a Walker's tick, which moves its clock alone.

// tickSuccessor is Successor for a Tick, derived from Apply: a tick
// changes every message word and most node records, so a delta would
// cost what building the successor does.
func (s *Stepper) tickSuccessor(w World, e Event) Successor { return s.builtSuccessor(w, e) }

// ticks reports whether time may pass on in w (Bounded timing), given
// the protocol events enabled there: not while a message is as old as the
// delay bound (it must be delivered first) or a timer is due and can fire
// (urgent); and only when something would change (a message in flight to
// age, a timer to count down).
func (s *Stepper) ticks(w World, enabled []Event, stutters []bool) bool {
	for _, mw := range s.Msgs(w) {
		if msgAge(mw) >= s.m.cfg.Delay {
			return false
		}
	}
	counting := len(s.Msgs(w)) > 0
	for i := range s.m.cfg.N {
		rec := w[1+i]
		if recDead(rec) || recTimers(rec) == 0 {
			continue
		}
		for _, e := range s.timerSet(recTimers(rec)) {
			if !e.timed() {
				continue
			}
			if e.due() {
				for k, ev := range enabled {
					if ev.Kind == Timeout && ev.Node == model.NodeID(i) && ev.Arg == e.timer && (stutters == nil || !stutters[k]) {
						return false // a due timer fires before time passes on
					}
				}
				continue // it cannot fire (its step would change nothing): it waits
			}
			counting = true
		}
	}
	return counting
}

// tick lets one tick pass in w, in place: every message ages, and the
// timers of every live node that count ticks count down.
func (s *Stepper) tick(w World) World {
	for k := s.header; k < len(w); k++ {
		w[k] += ageUnit
	}
	for i := range s.m.cfg.N {
		rec := w[1+i]
		if recDead(rec) || recTimers(rec) == 0 {
			continue
		}
		if ts := s.m.ticked(recTimers(rec)); ts != recTimers(rec) {
			w[1+i] = makeRec(recState(rec), ts, false)
		}
	}
	return w
}

// timePasses reports whether a tick is enabled (Bounded timing; see
// Stepper.ticks): no message is as old as the delay bound, no due timer
// would fire with a step that moves, and a message is in flight or a
// timer counts down. It runs the handlers of the due timers it needs to.
func (w *walker[S, M]) timePasses() bool {
	if delay := w.cfg.Delay; w.clock >= delay && w.sentAt[(w.clock-delay)%len(w.sentAt)] > 0 {
		return false
	}
	counting := w.inFlight > 0
	for i := range w.nodes {
		nd := &w.nodes[i]
		if w.dead[i] {
			continue
		}
		for k := range nd.timers {
			switch r := nd.timers[k].remaining(w.clock); {
			case r > 0:
				counting = true
			case r == 0:
				// a due timer fires first, unless its step would change
				// nothing: then it waits, and time passes on
				out := w.outcome(model.NodeID(i), int32(k))
				if out == nil {
					return false // a fault
				}
				if !out.gone && !w.stutters(model.NodeID(i), &out.r) {
					return false // (one turned down stutters)
				}
			}
		}
	}
	return counting
}

// tick lets one tick pass: every message ages and every timer armed with
// SetTimerAfter counts down, by the clock alone. The outcomes known are
// forgotten, as the timers they arm are due a tick later.
func (w *walker[S, M]) tick() {
	w.clock++
	w.label = uint16(slices.Index(faultKinds, Tick))
	for i := range w.nodes {
		w.nodes[i].forget()
		w.touch(model.NodeID(i))
	}
	for k, c := range w.used {
		if w.chanRec[k].len > 0 {
			w.staleChan(c) // their ages
		}
	}
}
