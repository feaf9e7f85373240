package sim

import (
	"cmp"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// liveTimer is an armed timer: its value, its content key (the order in
// which a node's timeouts are drawn) and the nodes it waits on, sorted.
type liveTimer struct {
	t    model.Timer
	id   *timerID
	wait []model.NodeID
	// at: under Bounded timing, the tick a timer armed with SetTimerAfter
	// is due at (see walker.clock); 0 for any other timer
	at int
}

// remaining is the ticks left before timer tm is due at tick clock: 0
// once it is due (a due timer counts no further), -1 if it counts none.
func (tm *liveTimer) remaining(clock int) int {
	if tm.at == 0 {
		return -1
	}
	return max(tm.at-clock, 0)
}

// liveResult is one handler call's outcome, applied when its event is
// taken.
type liveResult[S, M any] struct {
	state S
	// The node's timers afterwards are base (its timers before the
	// call), less base[fired] (fired < 0: none), with ops applied in
	// order: see timersAfter. Kept apart, a candidate that is never taken
	// costs no copy of its node's timers, which may be many.
	base  []liveTimer
	fired int
	ops   []liveOp
	sends []model.Sent[M]
	obs   []model.Obs
	label uint16
	// same: whether state is the node's state before the call (1), is
	// not (-1) or is yet to be compared (0)
	same int8
}

// liveOp arms (armed) or cancels a timer.
type liveOp struct {
	liveTimer
	armed bool
}

// timersAfter returns the node's timers after r, sorted by key: base
// itself when r changes none of them. inPlace builds them in base's
// memory, which only a step taken may do: the node's outcomes, which
// share base, are forgotten then. mb holds the buffers of a merge (see
// mergedTimers); nil, its own.
func (r *liveResult[S, M]) timersAfter(inPlace bool, mb *mergeBuf) []liveTimer {
	if r.fired < 0 && len(r.ops) == 0 {
		return r.base
	}
	if len(r.ops) > 8 {
		merged := r.mergedTimers(mb)
		if inPlace {
			return append(r.base[:0], merged...) // where base has room
		}
		return slices.Clone(merged)
	}
	ts := r.base
	if !inPlace {
		ts = slices.Clone(ts)
	}
	if r.fired >= 0 {
		ts = slices.Delete(ts, r.fired, r.fired+1)
	}
	for _, op := range r.ops {
		at, armed := slices.BinarySearchFunc(ts, op.id, byID)
		switch {
		case op.armed && armed:
			ts[at] = op.liveTimer
		case op.armed:
			ts = slices.Insert(ts, at, op.liveTimer)
		case armed:
			ts = slices.Delete(ts, at, at+1)
		}
	}
	return ts
}

// byID orders timers by content key (see timerID).
func byID(e liveTimer, id *timerID) int { return cmp.Compare(e.id.ord, id.ord) }

// mergeBuf holds a walker's buffers for mergedTimers, reused from call to
// call.
type mergeBuf struct {
	order []opAt
	out   []liveTimer
}

// opAt is operation at of a call, by the rank of its timer's key.
type opAt struct {
	ord uint64
	at  int32
}

// mergedTimers is timersAfter for a call that armed or cancelled many
// timers (a coordinator polling every member): its operations sorted by
// key, the last on each key deciding, merged with base in one pass, where
// one search and one shift of base per operation would cost its length
// each. The timers are built in mb.out, valid until the next call.
func (r *liveResult[S, M]) mergedTimers(mb *mergeBuf) []liveTimer {
	if mb == nil {
		mb = &mergeBuf{}
	}
	// The operations by key: as made, where a loop over the nodes arms
	// them in key order; else sorted by rank, then position (the last on
	// a key deciding), as pairs of integers, which move less than the
	// operations themselves.
	order := mb.order[:0]
	sorted := true
	for k := range r.ops {
		order = append(order, opAt{r.ops[k].id.ord, int32(k)})
		sorted = sorted && (k == 0 || order[k-1].ord < order[k].ord)
	}
	if !sorted {
		slices.SortFunc(order, func(a, b opAt) int {
			if c := cmp.Compare(a.ord, b.ord); c != 0 {
				return c
			}
			return cmp.Compare(a.at, b.at)
		})
		last := order[:0]
		for k, o := range order {
			if k+1 == len(order) || order[k+1].ord != o.ord {
				last = append(last, o)
			}
		}
		order = last
	}
	mb.order = order
	out := mb.out[:0]
	i, j := 0, 0
	for i < len(r.base) || j < len(order) {
		if i == r.fired { // fired: gone, unless an operation arms it again
			i++
			continue
		}
		c := 1 // base[i] after the operation, or base done
		if j == len(order) {
			c = -1
		} else if i < len(r.base) {
			c = cmp.Compare(r.base[i].id.ord, order[j].ord)
		}
		if c < 0 { // left alone
			out = append(out, r.base[i])
			i++
			continue
		}
		if c == 0 { // armed again or cancelled
			i++
		}
		if op := &r.ops[order[j].at]; op.armed {
			out = append(out, op.liveTimer)
		}
		j++
	}
	mb.out = out
	return out
}

// keepsTimers reports whether the node's timers after r are those before
// (base), without building them: every timer r fired, armed or cancelled
// ends as it was. With lostTo (the nodes r's messages to are lost to a
// cut, indexed by node; nil: none), a timer after r that waits on one of
// them counts as expired, waiting on no node (see Walker.lose): it is
// kept only if it waited on none before.
func (r *liveResult[S, M]) keepsTimers(lostTo []bool, mb *mergeBuf) bool {
	expires := func(t *liveTimer) bool {
		return lostTo != nil && slices.ContainsFunc(t.wait, func(j model.NodeID) bool { return lostTo[j] })
	}
	touched := func(id *timerID) bool {
		return r.fired >= 0 && r.base[r.fired].id == id ||
			slices.ContainsFunc(r.ops, func(op liveOp) bool { return op.id == id })
	}
	// a timer r leaves alone is kept unless it expires; none does when no
	// message is lost, the common case, which skips the scan
	if lostTo != nil {
		for k := range r.base {
			if expires(&r.base[k]) && !touched(r.base[k].id) {
				return false
			}
		}
	}
	if r.fired < 0 && len(r.ops) == 0 {
		return true
	}
	if len(r.ops) > 8 { // the quadratic search below would cost more
		after := r.mergedTimers(mb)
		return slices.EqualFunc(after, r.base, func(a, b liveTimer) bool { return keptAs(&a, &b, expires) })
	}
	firedKept := r.fired < 0
	for k := range r.ops {
		op := &r.ops[k]
		if slices.ContainsFunc(r.ops[k+1:], func(later liveOp) bool { return later.id == op.id }) {
			continue // a later op decides
		}
		at, armed := slices.BinarySearchFunc(r.base, op.id, byID)
		if op.armed != armed || armed && !keptAs(&op.liveTimer, &r.base[at], expires) {
			return false
		}
		firedKept = firedKept || at == r.fired && armed
	}
	return firedKept
}

// keptAs reports whether timer a, after a step, is timer b as it was
// before: a waiting on a node its step's messages to are lost to
// expires, so b must wait on none.
func keptAs(a, b *liveTimer, expires func(*liveTimer) bool) bool {
	if a.t != b.t || a.at != b.at {
		return false
	}
	if expires(a) {
		return len(b.wait) == 0
	}
	return slices.Equal(a.wait, b.wait)
}
