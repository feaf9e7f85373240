package sim

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/vigil-check/vigil/model"
)

// Timeouts and actions: the steps a node takes of its own accord, a
// timer it armed firing (Timeout) or a local action it declares enabled
// (Act). Either may stutter, leave the world as it is, and is then not
// listed as enabled (Stepper) or is turned down when drawn (Walker).
// Below: when a timer may fire (waitOver), when a step stutters, building
// the successor (Stepper.Apply), its fingerprint (Stepper.Successor), and
// a Walker's timeouts and actions.

// applyLocal is Apply for a Timeout or Act event; w is a copy to change.
func (s *Stepper) applyLocal(w World, e Event) (World, *Step) {
	return s.apply(w, e.Node, w[1+int(e.Node)], input(e), e.Forge)
}

// localSuccessor is Successor for a Timeout or Act event.
func (s *Stepper) localSuccessor(w World, f uint64, e Event) Successor {
	return s.stepSuccessor(w, f, e, len(w), model.Obs{}, model.None)
}

// stutters reports whether input in at node i (record rec) would leave w
// as it is: the same record (after the expiries of messages lost to cuts),
// no observation, every message lost. Such a step is not listed as
// enabled; see the package doc.
func (s *Stepper) stutters(w World, i model.NodeID, rec uint64, in uint64) bool {
	if s.set {
		return s.setStutters(w, i, rec, in)
	}
	st := s.step(i, rec, in)
	if len(st.Obs) > 0 {
		return false
	}
	after := st.Rec
	for _, snd := range st.Sends {
		j := SendTo(snd)
		if recDead(w[1+int(j)]) {
			continue
		}
		if s.Connected(w, i, j) {
			return false
		}
		// lost to a cut: i's timers waiting on j expire, and j's on i
		if ts := recTimers(after); ts != 0 {
			after = makeRec(recState(after), s.expired(ts, j), false)
		}
		if ts := recTimers(w[1+int(j)]); ts != 0 && s.expired(ts, i) != ts {
			return false
		}
	}
	return after == rec
}

// setStutters is stutters under set channels, where a step whose successor
// is w itself is one that leaves node i's record as it is, sends only
// messages the set holds, and leaves every monitor in its state. It is
// exact, not a bound: a step that stutters is not a transition (see
// Enabled). Because handlers are deterministic (checked) and memoised, and
// the set only grows, a delivery that stutters does so in every later
// world where the receiver's record and the monitors are unchanged: the
// check costs a memo lookup and a search of the set per send, and no
// handler runs again for it.
func (s *Stepper) setStutters(w World, i model.NodeID, rec uint64, in uint64) bool {
	st := s.step(i, rec, in)
	if st.Rec != rec&^deadBit {
		return false
	}
	for _, snd := range st.Sends {
		if !s.inSet(w, packMsg(i, SendTo(snd), SendMsg(snd))) {
			return false
		}
	}
	if len(st.Obs) == 0 {
		return true
	}
	mons := w[1+s.m.cfg.N : s.net]
	s.mons = append(s.mons[:0], mons...)
	for _, o := range st.Obs {
		s.observeSlots(s.mons, i, o)
	}
	return slices.Equal(s.mons, mons)
}

// waitOver reports whether a Sync timer of node i waiting on ws may fire:
// every node of ws crashed or cut off from i, and nothing from them to i in
// flight.
func (s *Stepper) waitOver(w World, i model.NodeID, ws []model.NodeID) bool {
	for _, j := range ws {
		if s.reaches(w, i, j) {
			return false
		}
	}
	if s.set {
		// a set never empties: the wait is over once the nodes waited on
		// are down, their messages still deliverable, as a perfect
		// failure detector that suspects no live node
		return true
	}
	for _, mw := range s.Msgs(w) {
		if msgTo(mw) == i && slices.Contains(ws, msgFrom(mw)) {
			return false
		}
	}
	return true
}

// outcome is the outcome of node i's slot s, run now if it did not run
// yet; nil after a fault.
func (w *walker[S, M]) outcome(i model.NodeID, s int32) *liveOut[S, M] {
	nd := &w.nodes[i]
	out := nd.out(s)
	if out.ran {
		return out
	}
	var r liveResult[S, M]
	var ok bool
	if s >= 0 {
		tm := nd.timers[s]
		r, ok = w.run(i, "Timeout", func(c *model.Ctx[M]) S { return w.t.timed.Timeout(c, nd.state, tm.t) }, nil, int(s), false)
		if !ok {
			w.nameInput(func() string { return fmt.Sprint(tm.t) })
		}
		if !tm.id.labeled {
			tm.id.label, tm.id.labeled = w.eventLabel(evKey{v: tm.t}), true
		}
		r.label = tm.id.label
	} else {
		a := nd.acts[^s]
		r, ok = w.run(i, "Do", func(c *model.Ctx[M]) S { return w.t.actor.Do(c, nd.state, a) }, nil, -1, false)
		if !ok {
			w.nameInput(func() string { return fmt.Sprint(a) })
		}
		r.label = w.eventLabel(evKey{action: true, v: a})
	}
	if !ok {
		return nil
	}
	out.r, out.ran = r, true
	if s >= 0 {
		nd.ran = append(nd.ran, s)
	}
	return out
}

// takeLocal takes timeout or action k of those the walker counts
// enabled (w.local), unless it stutters (then it is turned down) or its
// handler faults; it reports whether it did.
func (w *walker[S, M]) takeLocal(k int) bool {
	i, j := w.local.find(k)
	out := w.outcome(model.NodeID(i), w.slotAt(i, j))
	if out == nil {
		return false // a fault: the walk is over
	}
	if w.stutters(model.NodeID(i), &out.r) {
		w.turnDown(model.NodeID(i), out)
		return false
	}
	w.begin()
	w.label = out.r.label
	w.apply(model.NodeID(i), out.r)
	return true
}

// slotAt returns node i's j-th slot not turned down.
func (w *walker[S, M]) slotAt(i, j int) int32 {
	nd := &w.nodes[i]
	for _, s := range nd.slots {
		if nd.out(s).gone {
			continue
		}
		if j == 0 {
			return s
		}
		j--
	}
	panic("take: slot out of range")
}

// out is the outcome of slot s (see liveNode.slots), run or not.
func (nd *liveNode[S, M]) out(s int32) *liveOut[S, M] {
	if s >= 0 {
		return &nd.outs[s]
	}
	return &nd.actOuts[^s]
}

// turnDown leaves out, a timeout or action of node i that stutters, until
// the next step.
func (w *walker[S, M]) turnDown(i model.NodeID, out *liveOut[S, M]) {
	out.gone = true
	w.gone = append(w.gone, goneOut[S, M]{i, out})
	w.local.add(int(i), -1)
}

func (w *walker[S, M]) Moving(atMost int) int {
	n := w.chans.total
	if w.ticks {
		n++ // a tick always moves: it ages a message or counts a timer down
	}
	for i := range w.nodes {
		if n >= atMost {
			break
		}
		nd := &w.nodes[i]
		if w.local.count[i] == 0 {
			continue
		}
		for _, s := range nd.slots {
			if nd.out(s).gone {
				continue
			}
			out := w.outcome(model.NodeID(i), s)
			if out == nil {
				return n // a fault: the walk is over
			}
			if !w.stutters(model.NodeID(i), &out.r) {
				if n++; n >= atMost {
					break
				}
			}
		}
	}
	return n
}

// refresh recomputes the timeouts and actions enabled at node i, stutter
// or not: its timeouts whose wait is over and its actions.
func (w *walker[S, M]) refresh(i model.NodeID) {
	nd := &w.nodes[i]
	nd.dirty = false
	nd.slots = nd.slots[:0]
	if !w.dead[i] {
		if !nd.known {
			// cleared before they shrink, outs and actOuts hold zeros
			// past their lengths, so that they grow into no stale outcome
			nd.clearOuts()
			nd.outs = slices.Grow(nd.outs[:0], len(nd.timers))[:len(nd.timers)]
			clear(nd.acts)
			nd.acts, nd.acted, nd.known = nd.acts[:0], false, true
		}
		// with every node up and connected, no wait on a node is over:
		// most steps, where a node may hold a timer per peer
		async, waitsEnd := w.cfg.Timing == model.Async, w.down > 0 || w.net.split
		for k := range nd.timers {
			tm := &nd.timers[k]
			var fires bool
			switch {
			case tm.at > 0: // Bounded timing only
				fires = tm.at <= w.clock
			case async || len(tm.wait) == 0:
				fires = true
			default:
				fires = waitsEnd && w.waitOver(i, tm.wait)
			}
			if fires {
				nd.slots = append(nd.slots, int32(k))
			}
		}
		if !nd.acted && w.t.actor != nil {
			if f := catch(func() {
				nd.acts = append(nd.acts, w.t.actor.Actions(&w.ctxs[i].Env, nd.state)...)
				if w.checkNow() {
					again := w.t.actor.Actions(&w.ctxs[i].Env, freshCopy(&nd.state, w.t.writableS))
					if _, differ := firstDifference(nd.acts, again); differ {
						panic(nondeterministic("actions", slices.Clone(nd.acts), again))
					}
				}
				for _, a := range nd.acts {
					if err := checkPlainComparable(a); err != nil {
						panic(misuse(fmt.Sprintf("declared action %v: %v", a, err)))
					}
				}
			}); f != nil {
				f.Protocol, f.Handler, f.Node = w.m.Name, "Actions", i
				w.setFault(f)
				return
			}
			clear(nd.actOuts)
			nd.actOuts = slices.Grow(nd.actOuts[:0], len(nd.acts))[:len(nd.acts)]
			nd.acted = true
		}
		for a := range nd.acts {
			nd.slots = append(nd.slots, ^int32(a))
		}
	}
	w.local.add(int(i), len(nd.slots)-int(w.local.count[i]))
}

// waitOver reports whether a Sync timer of node i waiting on ws may fire:
// every node of ws down or cut off from i, and nothing from them to i in
// flight.
func (w *walker[S, M]) waitOver(i model.NodeID, ws []model.NodeID) bool {
	for _, j := range ws {
		if !w.dead[j] && w.connected(i, j) || w.inChan(int(j)*w.n+int(i)) > 0 {
			return false
		}
	}
	return true
}

// stutters reports whether step r of node i leaves the world as it is
// (see Stepper.stutters): no observation, every message sent lost (to a
// node that is down, or to a cut that expires no timer of its receiver),
// the same timers (after those lost messages expired them) and the same
// state.
func (w *walker[S, M]) stutters(i model.NodeID, r *liveResult[S, M]) bool {
	if len(r.obs) > 0 {
		return false
	}
	nd := &w.nodes[i]
	lost := false // to a cut
	for _, s := range r.sends {
		j := s.To
		if w.dead[j] {
			continue
		}
		if w.connected(i, j) {
			return false
		}
		lost = true
		if waitsOn(w.nodes[j].timers, i) {
			return false // its receiver's timer expires
		}
	}
	var lostTo []bool
	if lost {
		w.lostTo = slices.Grow(w.lostTo[:0], w.n)[:w.n]
		clear(w.lostTo)
		for _, s := range r.sends {
			w.lostTo[s.To] = !w.dead[s.To]
		}
		lostTo = w.lostTo
	}
	if !r.keepsTimers(lostTo, &w.merge) {
		return false
	}
	if r.same == 0 && shallowEqual(&r.state, &nd.state) {
		r.same = 1 // the handler returned its input, or a copy of it
	}
	if r.same == 0 && differs(&w.t.diffS, &r.state, &nd.state) {
		r.same = -1 // a number or a length changed
	}
	if r.same == 0 {
		if !nd.keyed {
			nd.key, nd.keyed = appendKeyOf(nd.key[:0], &nd.state), true
		}
		w.buf = appendKeyOf(w.buf[:0], &r.state)
		r.same = -1
		if string(w.buf) == string(nd.key) {
			r.same = 1
		}
	}
	return r.same > 0
}

// shallowEqual reports whether a and b hold the same bytes: the same
// values, sharing whatever they point to, so with the same key (an
// unequal pair may still be equal in content).
func shallowEqual[S any](a, b *S) bool {
	n := unsafe.Sizeof(*a)
	return string(unsafe.Slice((*byte)(unsafe.Pointer(a)), n)) == string(unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}
