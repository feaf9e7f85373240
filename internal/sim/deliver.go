package sim

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Deliveries. A Deliver event hands a message in flight to its receiver,
// which runs Receive on it: the message leaves its channel (under FIFO
// only a channel's head is delivered) and the receiver's step takes
// effect. Under set channels the message stays in the set, to be delivered
// again any number of times, and a crashed node receives nothing (its
// messages wait in the set). Below, the three ways vigil takes one: building the successor
// world (Stepper.Apply), its fingerprint without building it
// (Stepper.Successor) and a Walker's step over live values.

// applyDelivery is Apply for a Deliver event; w is a copy to change.
func (s *Stepper) applyDelivery(w World, e Event) (World, *Step) {
	msgs := w[s.header:]
	i := slices.Index(msgs, packMsg(e.From, e.Node, e.Arg))
	if i < 0 {
		panic(fmt.Sprintf("deliver %v: no such message in flight", e))
	}
	if !s.set {
		w = slices.Delete(w, s.header+i, s.header+i+1)
	}
	return s.apply(w, e.Node, w[1+int(e.Node)], input(e), e.Forge)
}

// deliverySuccessor is Successor for a Deliver event.
func (s *Stepper) deliverySuccessor(w World, f uint64, e Event) Successor {
	if s.set {
		return s.stepSuccessor(w, f, e, len(w), model.Obs{}, model.None)
	}
	f = s.leaves(w, f, e.From, e.Node, 0, e.Arg)
	return s.stepSuccessor(w, f, e, len(w)-1, model.Obs{}, e.From)
}

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
		w.rcvLabel = append(w.rcvLabel, w.labels.id("receive "+w.kinds.list[len(w.rcvLabel)]))
	}
	return w.rcvLabel[k]
}
