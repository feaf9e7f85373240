package sim

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Crashes and recoveries. A crash stops a node: its timers are disarmed,
// the messages in flight to it vanish (under set channels they stay in the
// set, undelivered while it is down), its state is kept for Recover, and
// the monitors observe ObsCrash; no handler runs. A recovery brings it
// back: the monitors observe ObsRecover, then its Recover handler runs.
// w[0] counts both (see World). Below: building the successor
// (Stepper.Apply), its fingerprint (Stepper.Successor) and a Walker's
// crash and recovery.

// applyCrash is Apply for a Crash event; w is a copy to change.
func (s *Stepper) applyCrash(w World, e Event) World {
	w[0]++
	// Timers are disarmed; the state is kept for Recover.
	w[1+int(e.Node)] = makeRec(recState(w[1+int(e.Node)]), 0, true)
	if !s.set { // a set only grows: its messages to the node wait
		w = s.dropTo(w, e.Node)
	}
	s.observe(w, e.Node, model.Obs{Kind: model.ObsCrash})
	return w
}

// crashSuccessor is Successor for a Crash event.
func (s *Stepper) crashSuccessor(w World, f uint64, e Event) Successor {
	fifo := s.m.cfg.Channels == model.FIFO
	s.mons = append(s.mons[:0], w[1+s.m.cfg.N:s.net]...)
	size := len(w)
	f += hashWord(0, w[0]+1) - hashWord(0, w[0])
	rec := w[1+int(e.Node)]
	f += hashWord(uint64(1+e.Node), makeRec(recState(rec), 0, true)) - hashWord(uint64(1+e.Node), rec)
	msgs := w[s.header:]
	k := uint64(0)
	for i, mw := range msgs {
		k = msgPos(msgs, i, k, fifo)
		if msgTo(mw) == e.Node && !s.set {
			f -= hashWord(msgTag+k, mw) // whole channels vanish: no shifts
			size--
		}
	}
	s.observeSlots(s.mons, e.Node, model.Obs{Kind: model.ObsCrash})
	f, changed := s.monitorDelta(w, f)
	return Successor{FP: f, Len: size, MonitorsChanged: changed}
}

// applyRecovery is Apply for a Recover event; w is a copy to change.
func (s *Stepper) applyRecovery(w World, e Event) (World, *Step) {
	w[0] += 1 << 8
	s.observe(w, e.Node, model.Obs{Kind: model.ObsRecover})
	return s.apply(w, e.Node, w[1+int(e.Node)], input(e), e.Forge)
}

// recoverySuccessor is Successor for a Recover event.
func (s *Stepper) recoverySuccessor(w World, f uint64, e Event) Successor {
	f += hashWord(0, w[0]+1<<8) - hashWord(0, w[0])
	return s.stepSuccessor(w, f, e, len(w), model.Obs{Kind: model.ObsRecover}, model.None)
}

// dropTo removes the messages in flight to node i.
func (s *Stepper) dropTo(w World, i model.NodeID) World {
	out := w[:s.header]
	for _, mw := range w[s.header:] {
		if msgTo(mw) != i {
			out = append(out, mw)
		}
	}
	return out
}

func (w *walker[S, M]) crash(i model.NodeID) {
	w.crashes++
	w.epoch++
	w.label = uint16(slices.Index(faultKinds, Crash))
	nd := &w.nodes[i]
	w.dead[i], nd.timers = true, nil
	w.down++
	nd.forget()
	for from := range w.n {
		c := from*w.n + int(i)
		for w.inChan(c) > 0 {
			w.remove(c, 0)
		}
	}
	w.obs = append(w.obs, NodeObs{i, model.Obs{Kind: model.ObsCrash}})
	w.observe(i, model.Obs{Kind: model.ObsCrash})
	w.touchAll()
}

func (w *walker[S, M]) recover(i model.NodeID) {
	w.recovers++
	w.epoch++
	nd := &w.nodes[i]
	w.obs = append(w.obs, NodeObs{i, model.Obs{Kind: model.ObsRecover}})
	w.observe(i, model.Obs{Kind: model.ObsRecover})
	if w.fault != nil {
		return
	}
	nd.timers = nil
	r, ok := w.run(i, "Recover", func(c *model.Ctx[M]) S { return w.t.rec.Recover(c, nd.state) }, nil, -1, true)
	if !ok {
		return
	}
	w.dead[i] = false
	w.down--
	w.label = r.label
	w.apply(i, r)
	w.touchAll()
}

// faultsOpen reports whether a crash or a recovery may still happen.
func (w *walker[S, M]) faultsOpen() bool {
	return w.crashes < w.cfg.Crashes || w.recovers < w.cfg.Recoveries
}
