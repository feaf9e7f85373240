package checker

import (
	"context"
	"math"
	"sync"
	"sync/atomic"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Expansion: the chunks of a level's states that workers expand in parallel,
// the successors they find, and the worlds of the new ones they rebuild.

// chunk is a run of one BFS level's states expanded by one worker, and its
// outcome. Its buffers are reused from level to level.
type chunk struct {
	lo, hi int // its states, by number
	// Candidates: successors not in the visited set when the level began,
	// kept as fingerprint, source (number - lo), event and world length; the
	// worlds of those that turn out new are rebuilt after the merge.
	cand  []candidate
	viol  []violation
	trans int64
	// cover: its transitions by kind of event (label), counted into the
	// search's coverage when the chunk is merged, as trans into its
	// transitions: a wave a fault or a bound stops is in neither
	cover eventCounts
	quiet int
	// reduced: the states whose steps partial order narrowed
	reduced int
	// rounds: the least and most time of the quiescent states, when the
	// search measures it (search.clocked)
	rounds timeRange
	// revisits: successors found in a sweep's window of earlier levels
	revisits int64
	// For the state graph only: per successor, in order, the state's number
	// if known (>= 0) or -1-k for candidate k; the step taken; the number of
	// successors and quiescence of each state.
	succ  []int64
	steps []*sim.Step
	nsucc []int32
	qs    []bool
	// For liveness only: per successor, its event's identity; per state,
	// the obligations of each Eventually property.
	ids  []uint64
	pend []uint64
	// fault: a handler or monitor failed expanding a state, or a
	// property's code judging it or a successor; the chunk's expansion
	// stopped there
	fault faultAt
	// in: the chunk's worlds, decompressed, for its expansion and then
	// for rebuilding its new successors
	in unitReader
}

// candidate is 32 bytes: a level can have many more candidates than new
// states. After the merge fp holds the candidate's number (graph only).
type candidate struct {
	fp   uint64
	ev   uint64 // the event, packed (see packEvent)
	src  int32  // its source, as number - chunk.lo
	pos  int32  // the event's position in the source's Enabled order
	wlen int32  // the length of its world
	dst  int32  // after the merge: its index in the next level if new, or -1
}

// packEvent packs an event in 64 bits: node ids fit in 15 bits
// (model.MaxNodes) and arguments, interned ids, in 30. A traitor's choice
// of lies (Event.Forge) does not fit beside them: such an event packs to
// byPosition, and is found again by its position among its world's
// events (see rebuild).
func packEvent(e sim.Event) uint64 {
	if e.Arg >= 1<<30 {
		panic("more than 2^30 distinct messages, timers or actions")
	}
	if e.Forge != 0 {
		return byPosition
	}
	return uint64(e.Kind)<<60 | uint64(e.Node)<<45 | uint64(e.From)<<30 | uint64(e.Arg)
}

// byPosition is the packed event that names no event: the candidate's
// position among its source's events does.
const byPosition = uint64(0xf) << 60

func unpackEvent(p uint64) sim.Event {
	return sim.Event{Kind: sim.EventKind(p >> 60), Node: model.NodeID(p >> 45 & 0x7fff),
		From: model.NodeID(p >> 30 & 0x7fff), Arg: uint32(p & (1<<30 - 1))}
}

func (c *chunk) reset(lo, hi int) {
	*c = chunk{lo: lo, hi: hi, in: c.in, cand: c.cand[:0], viol: c.viol[:0], cover: c.cover[:0],
		succ: c.succ[:0], steps: c.steps[:0], nsucc: c.nsucc[:0], qs: c.qs[:0], ids: c.ids[:0], pend: c.pend[:0],
		rounds: noTime()}
}

const chunkSize = 256

// revisit marks, among a chunk's successors, an edge to a state of an
// earlier level (a sweep's window only).
const revisit = math.MinInt64

// waveChunks is how many chunks are expanded before they are merged: about
// a quarter of a million states, whose candidates take tens of MB. A
// variable so that tests can make waves small.
var waveChunks = 64

// eachChunk runs do(x, i) for every chunk i, the chunks shared out among
// the expanders, each on its own goroutine. It stops handing out chunks
// once ctx is done and reports whether every chunk was handled.
func eachChunk(ctx context.Context, xs []*expander, nchunks int, do func(x *expander, i int)) bool {
	var next atomic.Int64
	var cancelled atomic.Bool
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= nchunks || cancelled.Load() {
					return
				}
				if ctx.Err() != nil {
					cancelled.Store(true)
					return
				}
				do(x, i)
			}
		})
	}
	wg.Wait()
	return !cancelled.Load()
}

// expandWave expands chunks, numbered from c0 in the level, in parallel.
// The visited set is only read meanwhile. It returns false when ctx ran
// out.
func (e *search) expandWave(ctx context.Context, xs []*expander, chunks []*chunk, lv *level, lo, c0, depth int, judgeOnly bool) bool {
	n := lv.len()
	return eachChunk(ctx, xs, len(chunks), func(x *expander, ci int) {
		a, b := (c0+ci)*chunkSize, min(n, (c0+ci+1)*chunkSize)
		c := chunks[ci]
		c.reset(lo+a, lo+b)
		c.in.load(lv, c0+ci)
		x.expand(c, lv, a, depth, judgeOnly)
	})
}

type expander struct {
	e    *search
	st   *sim.Stepper
	view *sim.View // what properties see, pointed at each world judged
	// pfault: a property's code panicked in the last check
	pfault *sim.Fault
	evs    []sim.Event
	buf    sim.World
	can    sim.World  // a representative (see search.sym)
	out    unitWriter // packs units of the next level
	fps    []uint64
	succs  []sim.Successor
	sets   []uint64 // partial order: sets of nodes whose steps may be explored alone
	// narrowed: where partial order narrowed the events, their positions
	// in Enabled's order; else empty
	narrowed []int
	sink     uint64 // see visited.touch
	// checked caches verdicts of MonitorOnly properties, direct-mapped
	checked [256]checkEntry
}

type checkEntry struct {
	key    checkKey
	detail string
	ok     bool
}

type checkKey struct {
	prop  int
	mon   uint32
	alive uint64
}

// check judges prop in w, from the cache when the property allows it.
//
// A panic of the property's code is recorded in x.pfault, for the caller
// to end the chunk with.
func (x *expander) check(p int, prop *properties.Property, w sim.World) (d string) {
	defer func() {
		if r := recover(); r != nil {
			x.pfault, d = propertyFault(prop, "Check", r), ""
		}
	}()
	k := x.e.monIdx[p]
	if !prop.MonitorOnly || k < 0 {
		return prop.Check(x.view.At(w))
	}
	alive, ok := x.st.AliveMask(w)
	if !ok {
		return prop.Check(x.view.At(w))
	}
	ck := checkKey{p, x.st.MonitorID(w, k), alive}
	slot := &x.checked[(uint64(ck.mon)*0x9e3779b97f4a7c15^alive*0xbf58476d1ce4e5b9^uint64(p)*0x94d049bb133111eb)>>56]
	if slot.ok && slot.key == ck {
		return slot.detail
	}
	d = prop.Check(x.view.At(w))
	*slot = checkEntry{key: ck, detail: d, ok: true}
	return d
}

// expand expands the states of chunk c, the a-th on of level lv, at
// depth; judgeOnly: the depth bound is reached, and the states are judged
// alone. A fault stops the chunk (the search ends with the wave).
func (x *expander) expand(c *chunk, lv *level, a, depth int, judgeOnly bool) {
	for i := 0; i < c.hi-c.lo; i++ {
		if !x.expandState(c, lv.fps[a+i], i, depth, judgeOnly) {
			return
		}
	}
}

// expandState expands the i-th state of chunk c, of fingerprint f0: it
// judges it if quiescent, and finds its successors, the unseen ones
// judged and kept as candidates, and its edges where the search keeps
// them. It returns false at a fault, recorded in c.
func (x *expander) expandState(c *chunk, f0 uint64, i, depth int, judgeOnly bool) bool {
	e := x.e
	w := c.in.world(i)
	src := c.lo + i
	var nproto int
	x.evs, nproto = x.st.Enabled(w, x.evs[:0])
	// Listing the events runs the handlers of timeouts and actions;
	// the successors, every handler and monitor.
	if f := x.st.TakeFault(); f != nil {
		c.fault = faultAt{f: f, src: src, pos: -1}
		return false
	}
	quiet := nproto == 0
	if quiet && !x.judgeQuiescent(c, w, src, depth) {
		return false
	}
	if judgeOnly {
		c.trans += int64(len(x.evs))
		return true
	}
	x.successors(c, w, f0, nproto)
	edges := e.keepsEdges()
	if edges {
		c.qs = append(c.qs, quiet)
		c.nsucc = append(c.nsucc, int32(len(x.evs)))
	}
	if !x.checkState(c, w, src, quiet) {
		return false
	}
	x.sink ^= e.seen.touch(x.fps)
	for pos := range x.evs {
		if !x.takeSuccessor(c, w, i, pos, depth, edges) {
			return false
		}
	}
	if f := x.st.TakeFault(); f != nil {
		c.fault = faultAt{f: f, src: src, pos: -1}
		return false
	}
	return true
}

// judgeQuiescent counts w, state src, as quiescent, with its time in
// rounds where the search measures it, and judges in it the properties
// judged where runs end. It returns false at a fault of a property.
func (x *expander) judgeQuiescent(c *chunk, w sim.World, src, depth int) bool {
	e := x.e
	c.quiet++
	if e.clocked {
		c.rounds.add(x.st.Rounds(w))
	}
	for p, prop := range e.props {
		if !prop.EveryWorld() && !e.skip[p] {
			if d := prop.AtEnd(x.check(p, prop, w)); d != "" {
				c.viol = append(c.viol, violation{prop: p, src: src, pos: -1, depth: depth, detail: d})
			}
		}
	}
	if x.pfault != nil {
		c.fault, x.pfault = faultAt{f: x.pfault, src: src, pos: -1}, nil
		return false
	}
	return true
}

// successors fingerprints every successor of w, of fingerprint f0,
// without building it, narrowed by partial order where it allows, and
// counts the transitions. The lookups that follow are then independent
// loads that the processor overlaps, and only unseen successors are
// built.
func (x *expander) successors(c *chunk, w sim.World, f0 uint64, nproto int) {
	x.fps, x.succs = x.fps[:0], x.succs[:0]
	for _, ev := range x.evs {
		succ := x.successor(w, f0, ev)
		x.fps = append(x.fps, succ.FP)
		x.succs = append(x.succs, succ)
	}
	x.narrowed = x.narrowed[:0]
	if x.e.por && x.persistent(w, nproto) {
		c.reduced++
	}
	c.trans += int64(len(x.evs))
	for k, ev := range x.evs {
		c.cover.add(sim.Label(ev, x.succs[k].Step), 1)
	}
}

// checkState reads, of w, state src, what the state graph keeps of it
// (the obligations of each Eventually property), and checks the declared
// symmetry there, on a sample of states. It returns false at a fault.
func (x *expander) checkState(c *chunk, w sim.World, src int, quiet bool) bool {
	e := x.e
	if e.g != nil {
		for _, p := range e.live {
			pend, f := pending(e.props[p], x.view.At(w))
			if f != nil {
				c.fault = faultAt{f: f, src: src, pos: -1}
				return false
			}
			c.pend = append(c.pend, pend)
		}
	}
	if e.sym != nil && (src < symmetryAll || src%symmetrySample == 0) {
		if f := x.checkSymmetry(w, src, quiet); f != nil {
			c.fault = faultAt{f: f, src: src, pos: -1}
			return false
		}
	}
	return true
}

// takeSuccessor takes the successor at position pos of w, the i-th state
// of chunk c: its edge, where the search keeps edges, and, if it is not
// in the visited set, a candidate whose invariants are judged. It returns
// false at a fault of a property.
func (x *expander) takeSuccessor(c *chunk, w sim.World, i, pos, depth int, edges bool) bool {
	e := x.e
	num, seen, earlier := e.seen.find(x.fps[pos])
	if earlier {
		// a state of an earlier level, expanded there already
		c.revisits++
		if edges {
			c.steps = append(c.steps, x.succs[pos].Step)
			c.succ = append(c.succ, revisit)
		}
		return true
	}
	if edges {
		c.steps = append(c.steps, x.succs[pos].Step)
		if e.g != nil && len(e.live) > 0 {
			c.ids = append(c.ids, x.st.Identity(w, x.evs[pos]))
		}
		if seen {
			c.succ = append(c.succ, int64(num))
		} else {
			c.succ = append(c.succ, -1-int64(len(c.cand)))
		}
	}
	if seen {
		return true
	}
	ev := x.evs[pos]
	at := x.enabledAt(pos)
	c.cand = append(c.cand, candidate{fp: x.fps[pos], ev: packEvent(ev), src: int32(i), pos: int32(at), wlen: int32(x.succs[pos].Len)})
	// A MonitorOnly property cannot change its verdict on a step that
	// changes no monitor and no node's liveness: w was judged already.
	same := ev.Kind != sim.Crash && ev.Kind != sim.Recover && !x.succs[pos].MonitorsChanged
	built := false
	for p, prop := range e.props {
		if !prop.EveryWorld() || e.skip[p] || (same && prop.MonitorOnly) {
			continue
		}
		if !built {
			x.buf, _ = x.st.Apply(w, ev, x.buf)
			built = true
		}
		if d := x.check(p, prop, x.buf); d != "" {
			c.viol = append(c.viol, violation{prop: p, src: c.lo + i, pos: at, depth: depth + 1, detail: d})
		}
	}
	if x.pfault != nil {
		c.fault, x.pfault = faultAt{f: x.pfault, src: c.lo + i, pos: at}, nil
		return false
	}
	return true
}

// rebuild writes the world of every new state of a wave's chunks into
// next, in parallel.
func (e *search) rebuild(xs []*expander, chunks []*chunk, next *level) {
	eachChunk(context.Background(), xs, len(chunks), func(x *expander, ci int) {
		c := chunks[ci]
		for _, cd := range c.cand {
			if cd.dst >= 0 {
				src := c.in.world(int(cd.src))
				ev := unpackEvent(cd.ev)
				if cd.ev == byPosition {
					x.evs, _ = x.st.Enabled(src, x.evs[:0])
					ev = x.evs[cd.pos]
				}
				x.buf, _ = x.st.Apply(src, ev, x.buf)
				w := x.buf
				if e.sym != nil {
					x.can = x.st.Canonical(e.sym, x.buf, x.can)
					w = x.can
				}
				copy(next.world(int(cd.dst)), w)
			}
		}
	})
}
