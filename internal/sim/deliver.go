package sim

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
)

// deliver delivers message j (in content order) of channel c.
func (w *walker[S, M]) deliver(c, j int) {
	from, to := model.NodeID(c/w.n), model.NodeID(c%w.n)
	var lm *liveMsg[M]
	var stamp int
	if rec := w.ch(c); w.fifo {
		lm = &rec.fifo[rec.head]
		stamp = lm.stamp
	} else {
		lm = &rec.bag[j].liveMsg
		stamp = rec.bag[j].stamps[0]
	}
	w.label = w.receiveLabel(lm.kind)
	nd := &w.nodes[to]
	r, ok := w.run(to, "Receive", func(ctx *model.Ctx[M]) S { return w.t.p.Receive(ctx, nd.state, from, lm.msg) }, &lm.msg, -1, true)
	if !ok {
		w.nameInput(func() string { return fmt.Sprintf("%s from %v", w.t.kindAt(&lm.msg), from) })
		return
	}
	w.now[to] = max(w.now[to], stamp)
	w.remove(c, j)
	w.apply(to, r)
}

// receiveLabel is the label of receiving a message of kind k.
func (w *walker[S, M]) receiveLabel(k uint8) uint16 {
	for len(w.rcvLabel) <= int(k) {
		w.rcvLabel = append(w.rcvLabel, w.labelOf("receive "+w.kinds[len(w.rcvLabel)]))
	}
	return w.rcvLabel[k]
}
