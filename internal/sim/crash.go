package sim

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

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
