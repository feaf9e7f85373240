package checker

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/properties"
)

// Options bound and tune a search. Zero values mean "no bound" (Workers:
// one per core, at most MaxWorkers; MaxMemory: MemoryBound). Exhaustive
// refuses options that Validate rejects, or that CheckExhaustiveFits
// finds cannot fit (Result.Refused).
type Options struct {
	MaxDepth  int
	MaxStates int64
	Time      time.Duration
	MaxMemory uint64
	Workers   int
	// Messages asks the exhaustive engine to keep the state graph and
	// compute message complexity over every complete run.
	Messages bool
	// Progress, if set, receives the search's progress about once a second.
	Progress func(Progress)
	// OnViolation, if set, is told of each property's first violation as
	// soon as the search finds it, from the search's own goroutine.
	OnViolation func(FirstViolation)
	// Fairness is the fairness under which Eventually properties are
	// judged on cycles (exhaustive only).
	Fairness Fairness
	// Sweep keeps only the level being expanded and the next one, for
	// state spaces whose runs all end: see Exhaustive.
	Sweep bool
	// Window is how many levels' visited sets a sweep keeps, the next
	// level's included (0 or 1: that one only): a state met again within
	// the window is not expanded again.
	Window int
	// Rounds asks for the time of complete runs in asynchronous rounds
	// (Result.Rounds). Once the search is complete, a second one explores
	// the same runs over worlds whose nodes and messages carry causal
	// clocks (more worlds, bounded by the same options), judging nothing:
	// verdicts and counts are the first search's.
	Rounds bool
	// Reduce names the reductions the search may apply where they are
	// sound (see Reduction).
	Reduce Reduction
	// First stops the search once any property has a counterexample,
	// after merging the wave in which the first one appeared (see
	// Exhaustive); properties without one are then Unknown.
	First bool
	// traced: a sweep or a lean search keeps each state's parent, for
	// counterexamples (Exhaustive searches again with them when it found
	// any).
	traced bool
	// lean: the search is lean (see seen.lean), chosen by Exhaustive;
	// graph: a lean search met an edge that is not level to level, and
	// the search keeps the state graph instead.
	lean, graph bool
	// clocked: the search over worlds with causal clocks that measures
	// rounds (see Rounds)
	clocked bool
}

// violation locates a world that breaks a property: the state numbered src
// itself (pos < 0: a quiescence property), or its successor by the event at
// position pos of its enabled events.
type violation struct {
	prop   int
	src    int
	pos    int
	depth  int
	detail string
	cycle  []uint32 // a fair cycle from src, as edges of the state graph
}

type search struct {
	m      *sim.Machine
	props  []*properties.Property
	seen   *seen    // the visited sets (keep.go)
	parent []uint32 // parent[s]: the state s was discovered from
	via    []uint32 // via[s]: position of the event, in parent's Enabled order
	// parents: parent and via are kept (by a search that keeps the graph,
	// or one run again for traces); count is the number of states.
	parents  bool
	count    int64
	g        *graph        // the state graph, if kept
	paths    *pathMessages // or the figures, carried level to level
	revisits int64         // edges into the earlier levels kept (see fellBack)
	levelLo  int           // number of the frontier's first state
	first    map[int]violation
	quiet    int64
	stopped  Cut
	sink     uint64 // see visited.touch
	// cover: the merged transitions by kind of event (see chunk.cover)
	cover  eventCounts
	monIdx []int // per property: its monitor's slot, or -1
	live   []int // the Eventually properties
	fair   Fairness
	// skip[p]: p had a counterexample when the level began. Expansion
	// reads this, not first, so that a level's violations do not depend on
	// how its waves fall.
	skip []bool
	// fault: a handler or monitor failed expanding state faultSrc (the
	// first such state in the merge order of the wave that met it), or a
	// property judging it or its successor at faultPos (see chunk)
	fault      *sim.Fault
	faultSrc   int
	faultPos   int
	faultDepth int
	// rounds: the worlds carry causal clocks, and the least and most time
	// of their quiescent ones is kept (see Options.Rounds)
	rounds             bool
	roundsLo, roundsHi int
	// sym: the search keeps one world per family of renamings (see
	// Reduction); nil when it keeps every world
	sym *sim.Symmetry
	// por: the search explores some nodes' steps where partial order allows
	// (partialorder.go); observed: the worlds hold monitors, so a step that
	// observes something is visible (two observations in either order may
	// leave a monitor in two states, which a property may tell apart)
	por, observed bool
	reduced       int64 // the states whose steps partial order narrowed
	// fallsBack: the search is lean, and searches again keeping the graph
	// at the first edge back (see fellBack)
	fallsBack bool
	// onViolation: Options.OnViolation
	onViolation func(FirstViolation)
}

// exhaustive is Exhaustive over the Machine and properties m wraps.
func exhaustive(ctx context.Context, m *sim.Machine, props []*properties.Property, opt Options) *Result {
	start := time.Now()
	if err := CheckExhaustiveFits(opt); err != nil {
		return refused(ModeExhaustive, props, err, start)
	}
	workers := workerCount(opt.Workers)
	outer := ctx
	ctx, cancel := withTime(ctx, opt.Time)
	defer cancel()
	ctx, overMemory, stopWatch, bound := watchMemory(ctx, opt.MaxMemory)
	defer stopWatch()
	res := newResult(ModeExhaustive, props)
	e := &search{m: m, props: props, first: map[int]violation{}, fair: opt.Fairness,
		skip:   make([]bool, len(props)),
		rounds: opt.clocked, roundsLo: math.MaxInt, roundsHi: -1, onViolation: opt.OnViolation}
	for p, prop := range props {
		e.monIdx = append(e.monIdx, slices.Index(m.Monitors(), prop.Monitor))
		if prop.When == properties.Eventually {
			e.live = append(e.live, p)
		}
	}
	e.sym, res.Reduction = reduction(m, opt)
	e.por, res.PartialOrder = partialOrder(m, props, opt, e.sym)
	e.observed = len(m.Monitors()) > 0
	opt = e.choose(opt)
	res.Sweep = opt.Sweep
	if len(e.live) > 0 && !opt.Sweep {
		res.Fairness = opt.Fairness.String()
	}
	xs := make([]*expander, workers)
	for i := range xs {
		st := m.NewStepper()
		xs[i] = &expander{e: e, st: st, view: st.View(nil)}
	}

	w0, initSteps := xs[0].st.Init()
	if f := xs[0].st.TakeFault(); f != nil {
		res.faulted(newFault(m, nil, f, nil))
		res.finish(start)
		return res
	}
	if e.sym != nil {
		if f := symmetricStart(xs[0].st, e.sym, w0); f != nil {
			res.faulted(newFault(m, nil, f, nil))
			res.finish(start)
			return res
		}
	}
	fp0 := xs[0].st.Fingerprint(w0)
	e.seen.next.insert(fp0)
	e.count = 1
	if e.parents {
		e.parent, e.via = append(e.parent, 0), append(e.via, 0)
	}
	for p, prop := range props {
		if prop.When == properties.Always {
			d, f := judgeSafely(prop, xs[0].view.At(w0), false)
			if f != nil {
				res.faulted(newFault(m, nil, f, nil))
				res.finish(start)
				return res
			}
			if d != "" {
				e.record(violation{prop: p, src: 0, pos: -1, detail: d})
			}
		}
	}
	var cur, next level
	cur.first(xs, fp0, w0)
	var pool []*chunk
	lo := 0 // number of the frontier's first state
	progress := newReporter(opt.Progress)
	// stoppedFirst: Options.First stopped the search with work left.
	stoppedFirst := opt.First && len(e.first) > 0
	for depth := 0; cur.len() > 0 && !e.allFailed() && !stoppedFirst; depth++ {
		judgeOnly := opt.MaxDepth > 0 && depth >= opt.MaxDepth
		n := cur.len()
		e.levelLo = lo
		nchunks := (n + chunkSize - 1) / chunkSize
		for p := range e.skip {
			e.skip[p] = e.failed(p)
		}
		e.seen.startLevel(xs, &cur)
		next.reset()
		if e.paths != nil {
			e.paths.startLevel()
		}
		// Expand the level a wave of chunks at a time, merging each wave
		// before the next: the candidates held at once stay bounded however
		// wide the level, and later waves find the states earlier ones
		// added already visited.
		complete := true
		for c0 := 0; c0 < nchunks && complete; c0 += waveChunks {
			k := min(waveChunks, nchunks-c0)
			for len(pool) < k {
				pool = append(pool, &chunk{})
			}
			chunks := pool[:k]
			complete = e.expandWave(ctx, xs, chunks, &cur, lo, c0, depth, judgeOnly)
			// A fault ends the search before the wave is merged. Each
			// chunk stops at its first faulting state, and chunks are
			// handed out in order, so the first faulting chunk does not
			// depend on Workers.
			if i := slices.IndexFunc(chunks, func(c *chunk) bool { return c.fault != nil }); i >= 0 {
				e.fault, e.faultSrc, e.faultPos, e.faultDepth = chunks[i].fault, chunks[i].faultSrc, chunks[i].faultPos, depth
				break
			}
			if !complete {
				break
			}
			e.merge(chunks, &next, res)
			next.grow()
			edges := e.waveEdges(chunks)
			e.rebuild(xs, chunks, &next)
			next.pack(xs, false)
			<-edges
			e.seen.endWave()
			if e.fellBack() {
				break
			}
			if opt.First && len(e.first) > 0 && (c0+k < nchunks || next.len() > 0) {
				stoppedFirst = true
				break
			}
		}
		if e.fault != nil || e.fellBack() {
			break
		}
		if !complete {
			if overMemory.Load() {
				e.cut(CutMemory)
			} else {
				e.cut(stopCause(outer))
			}
			break
		}
		e.seen.endLevel(next.len())
		if stoppedFirst {
			if next.len() > 0 {
				res.Stats.Depth = depth + 1
			}
			break
		}
		if judgeOnly {
			if res.Stats.Transitions > 0 {
				e.cut(CutDepth)
			}
			break
		}
		next.pack(xs, true)
		lo += n
		cur, next = next, cur
		if e.paths != nil {
			e.paths.endLevel()
		}
		res.Stats.States = e.count
		if opt.MaxStates > 0 && res.Stats.States >= opt.MaxStates && cur.len() > 0 {
			e.cut(CutStates)
			break
		}
		if overMemory.Load() {
			e.cut(CutMemory)
			break
		}
		if cur.len() > 0 {
			res.Stats.Depth = depth + 1
		}
		progress.report(func(p *Progress) {
			p.Mode, p.Depth, p.States, p.Frontier = ModeExhaustive, depth+1, res.Stats.States, cur.len()
		})
	}
	// again searches again with opt in the time left, or ends res there
	again := func(opt Options) *Result {
		var ok bool
		if opt.Time, ok = timeLeft(opt.Time, time.Since(start)); !ok {
			res.Cut = CutTime
			res.finish(start)
			return res
		}
		stopWatch()
		return exhaustive(outer, m, props, opt)
	}
	if e.fellBack() && e.fault == nil && e.stopped == CutNone {
		// search again, with the state graph; it meets the same first
		// violations, already told of
		opt.lean, opt.graph = false, true
		if tell := opt.OnViolation; tell != nil {
			told := map[string]bool{}
			for p := range e.first {
				told[props[p].Name] = true
			}
			opt.OnViolation = func(v FirstViolation) {
				if !told[v.Property] {
					tell(v)
				}
			}
		}
		return again(opt)
	}
	res.Cut = e.stopped
	if res.Cut == CutMemory {
		res.MemoryBound = bound
	}
	res.StoppedFirst = stoppedFirst && e.fault == nil
	res.Stopped = e.allFailed() && res.Cut == CutNone && !stoppedFirst && e.fault == nil
	res.Stats.States = e.count
	res.Stats.Quiescent = e.quiet
	s := float64(res.Stats.States)
	res.Stats.Collision = e.seen.collision(res.Stats.States)
	res.Stats.VisitedBytes = e.seen.visitedBytes(res.Stats.States)
	if e.g != nil {
		res.Stats.GraphBytes = float64(e.seen.next.numberBytes()+e.g.bytes()) / max(1, s)
		if e.sym != nil && len(e.live) > 0 && e.g.n() == e.seen.next.len() && !e.g.acyclic() {
			// a cycle of representatives need not be a cycle of worlds,
			// nor fair where one is: search again, every world kept
			opt.Reduce = ReduceNone
			full := again(opt)
			if full != res {
				full.Reduction = SymmetryUse{Kind: SymmetryNotUsed, Detail: e.sym.String() + ", but runs that never end are judged on every world"}
			}
			return full
		}
		if !stoppedFirst && e.fault == nil {
			e.judgeCycles()
		}
	}
	res.Stats.Revisits = e.revisits
	if e.por {
		res.PartialOrder = partialOrderSummary(e.reduced, e.count)
	}
	res.Coverage = newCoverage(m, "transitions", e.cover.byName(m.Labels()))
	var traced *Result
	if !e.parents && len(e.first) > 0 {
		traced = e.searchForTraces(m, props, opt)
	}
	for p := range props {
		if v, ok := e.first[p]; ok {
			res.Properties[p].Verdict = Fail
			res.Properties[p].Detail = v.detail
			if traced != nil {
				res.Properties[p].Counterexample = traced.Properties[p].Counterexample
				if cx := res.Properties[p].Counterexample; cx != nil {
					res.Properties[p].Detail = cx.Detail // (a shortest run, where partial order found another)
				}
				if res.Properties[p].Counterexample == nil {
					res.Properties[p].Detail += fmt.Sprintf(" (its run is not shown: the search for it was cut by %s)", traced.Cut)
				}
			} else {
				res.Properties[p].Counterexample = e.trace(v, props[p])
			}
		} else if stoppedFirst {
			res.Properties[p].Verdict = Unknown
			res.Properties[p].Detail = notJudged
		} else if e.revisits > 0 && props[p].When == properties.Eventually {
			res.Properties[p].Verdict = Unknown
			res.Properties[p].Detail = "the sweep met states of earlier levels again, so it cannot show that every run ends"
		}
	}
	if e.fault != nil {
		res.faulted(e.faultResult(m, props, opt))
	}
	if opt.Messages && res.Cut == CutNone && !stoppedFirst && e.fault == nil && e.revisits == 0 {
		switch {
		case e.paths != nil && cur.len() == 0: // (every state was expanded)
			res.Messages = e.paths.ranges(m.Kinds(), initSteps)
		case e.g != nil && e.g.n() == e.seen.next.len():
			e.g.classesFrom(m.SentCounts)
			res.Messages = e.g.messageRanges(m.Kinds(), initSteps)
		}
	}
	switch {
	case e.rounds && res.Cut == CutNone && e.fault == nil && e.roundsHi >= 0:
		// (a clocked search judges nothing, so it stops for nothing)
		res.Rounds = &Rounds{Min: e.roundsLo, Max: e.roundsHi, States: e.count}
	case opt.Rounds && !opt.clocked && res.Cut != CutNone:
		res.RoundsCut = res.Cut
	case opt.Rounds && !opt.clocked && e.fault == nil && e.g != nil && e.g.n() == e.seen.next.len() && !e.g.acyclic():
		// a run round a cycle of deliveries never ends, and its clocks
		// grow without bound: the clocked search would never end either
		res.RoundsCut = CutCycle
	case opt.Rounds && !opt.clocked && e.fault == nil:
		// the runs are explored again whatever this search found: an
		// early stop at counterexamples leaves the rounds to measure
		stopWatch() // (the search of rounds watches memory itself)
		measureRounds(outer, m, res, opt, time.Since(start))
	}
	res.finish(start)
	return res
}

func (e *search) cut(why Cut) {
	if e.stopped == CutNone {
		e.stopped = why
	}
}

// record keeps the first violation of each property: the shallowest, and
// among those the first in the fixed merge order.
func (e *search) record(v violation) {
	old, ok := e.first[v.prop]
	if !ok || v.depth < old.depth {
		e.first[v.prop] = v
	}
	if !ok && e.onViolation != nil {
		e.onViolation(FirstViolation{Property: e.props[v.prop].Name, Detail: v.detail, Depth: v.depth})
	}
}

func (e *search) failed(p int) bool { _, ok := e.first[p]; return ok }

func (e *search) allFailed() bool { return len(e.props) > 0 && len(e.first) == len(e.props) }
