package checker

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
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
	// unreduced: a search reduced by partial order that judges
	// eventually-properties met a cycle, and searches again without the
	// reduction (see partialOrder)
	unreduced bool
	// clocked: the search over worlds with causal clocks that measures
	// rounds (see Rounds)
	clocked bool
}

// Exhaustive explores every world reachable from m's initial world, breadth
// first, and checks m's properties: invariants in every world, quiescence properties
// in every quiescent world. The first counterexample of each property is
// among the shortest. The search stops early once every property has a
// counterexample (Result.Stopped), or, with Options.First, once any has
// (Result.StoppedFirst). Each level is expanded in parallel and
// merged in a fixed order, so verdicts, state and transition counts, depth
// and counterexample lengths do not depend on Workers. The events of a
// counterexample can, rarely: messages are numbered in the order workers
// first meet them, and unordered channels list deliveries by number.
//
// With Options.First the search stops after merging the wave (a fixed run
// of waveChunks chunks of the level, whatever Workers) in which the first
// violation appeared. That point does not depend on Workers either: a
// wave's chunks are fixed slices of the level, expanded against the
// visited set as the previous wave's merge left it, and merged in order.
// Every counterexample found by then is still among the shortest: the
// levels above were expanded whole, so every shallower world was judged;
// a wave finds quiescence violations at the level's depth and invariant
// violations one deeper, never a deeper one. Stopping at a wave rather than
// at the end of its level saves up to a whole level's expansion, the
// largest part of the search. The properties without a counterexample are
// Unknown, not Pass, and no message figures or cycles are judged: the
// search did not go to the end.
//
// A sweep (Options.Sweep) keeps in memory only the level it expands and the
// one it builds, with each state's parent for counterexamples: the
// visited set holds the next level alone, and no state graph is kept. It is
// the sweep-line method with the search depth as its progress measure, and
// is meant for state spaces whose runs all end (a bounded number of
// requests, messages or faults). Dropping old levels has two costs: a
// state reached at two depths is expanded, and counted, at each (where
// every edge goes one depth down, the usual case when each step consumes
// a message or a bounded action, the counts are exact); and a state space
// with a cycle has paths of every length, so its sweep never ends: it is
// cut by a bound, and verdicts it could not back stay unknown. A sweep that
// ends has thereby shown that every run ends, so an Eventually property
// is judged exactly where runs end, as quiescence properties are, with no
// fairness to assume; message figures are carried from level to level.
// A window (Options.Window) keeps the visited sets of a few earlier levels
// too, and does not expand again a state met in them: far fewer
// duplicates where paths of different lengths meet, as when a fault can
// fall at many points, at the price of the proof that runs end, a cycle
// shorter than the window being cut short like any revisit. Invariants
// and quiescence properties keep their verdicts; an Eventually property
// that did not fail is unknown once a revisit happened, and message
// figures are not given.
//
// Message figures (Options.Messages) and Eventually properties need the
// state graph only where some edge goes back to a level already reached,
// or within one: that is where cycles, and paths of different lengths to
// one state, can be. So the search first goes lean, keeping the visited
// set and two levels of figures, and no graph and no parents (a run with
// counterexamples searches again to their depth for their runs, as a
// sweep does). As long as every edge goes one level down the graph has no
// cycle, every run ends where quiescence is judged, and the figures carry
// from level to level exactly. The first edge that does not makes the
// search start again, keeping the graph; verdicts, counts and figures are
// the same either way.
func Exhaustive(ctx context.Context, m *Machine, opt Options) *Result {
	return m.report(m.exhaustive(ctx, opt))
}

// exhaustive is Exhaustive before report: with the verdicts of the
// triggers not asked for.
func (m *Machine) exhaustive(ctx context.Context, opt Options) *Result {
	res := exhaustive(ctx, m.m, m.props, opt)
	res.settleSometimes()
	if res.Reduction.Kind == SymmetryUsed {
		// a violation is told as its run shows it (see search.trace)
		for i := range res.Properties {
			if cx := res.Properties[i].Counterexample; cx != nil {
				res.Properties[i].Detail = cx.Detail
			}
		}
	}
	return res
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

// search is one exhaustive search under way.
type search struct {
	m *sim.Machine
	judging
	kept
	reductions
	count   int64  // the states met
	quiet   int64  // the quiescent ones
	stopped Cut    // the bound that cut the search, if any
	sink    uint64 // see visited.touch
	// cover: the merged transitions by kind of event (see chunk.cover)
	cover eventCounts
	// fault: a handler or monitor failed expanding a state (the first
	// such state in the merge order of the wave that met it), or a
	// property judging it or a successor (see chunk.fault)
	fault faultAt
	// clocked: the worlds carry causal clocks, and rounds is the least and
	// most time of their quiescent ones (see Options.Rounds)
	clocked bool
	rounds  timeRange
}

// judging is what a search judges, and the first violations it found.
type judging struct {
	props  []*properties.Property
	monIdx []int // per property: its monitor's slot, or -1
	live   []int // the Eventually properties
	fair   Fairness
	first  map[int]violation
	// skip[p]: p had a counterexample when the level began. Expansion
	// reads this, not first, so that a level's violations do not depend on
	// how its waves fall.
	skip []bool
	// onViolation: Options.OnViolation
	onViolation func(FirstViolation)
}

// kept is what a search keeps of the states it met (see keep.go).
type kept struct {
	seen   *seen    // the visited sets
	parent []uint32 // parent[s]: the state s was discovered from
	via    []uint32 // via[s]: position of the event, in parent's Enabled order
	// parents: parent and via are kept (by a search that keeps the graph,
	// or one run again for traces)
	parents  bool
	g        *graph        // the state graph, if kept
	paths    *pathMessages // or the figures, carried level to level
	revisits int64         // edges into the earlier levels kept (see fellBack)
	levelLo  int           // number of the frontier's first state
	levelEnd int           // and of the next level's first (see reachedBefore)
	// fallsBack: the search is lean, and searches again keeping the graph
	// at the first edge back (see fellBack)
	fallsBack bool
}

// reductions are the reductions a search applies.
type reductions struct {
	// sym: the search keeps one world per family of renamings (see
	// Reduction); nil when it keeps every world
	sym *sim.Symmetry
	// por: the search explores some nodes' steps where partial order allows
	// (partialorder.go); observed: the worlds hold monitors, so a step that
	// observes something is visible (two observations in either order may
	// leave a monitor in two states, which a property may tell apart)
	por, observed bool
	reduced       int64 // the states whose steps partial order narrowed
}

// faultAt is a fault f of a handler, monitor or property met expanding
// state src at depth: in its own expansion or judging it (pos < 0), or
// judging its successor at position pos of its enabled events.
type faultAt struct {
	f               *sim.Fault
	src, pos, depth int
}

// timeRange is the least and most time in rounds of the quiescent worlds
// met, if any (hi >= 0).
type timeRange struct{ lo, hi int }

func noTime() timeRange { return timeRange{lo: math.MaxInt, hi: -1} }

func (r *timeRange) add(t int) { r.lo, r.hi = min(r.lo, t), max(r.hi, t) }

func (r *timeRange) merge(o timeRange) { r.lo, r.hi = min(r.lo, o.lo), max(r.hi, o.hi) }

// runBounds are what bound one run of exhaustive: its start, the caller's
// context (outer), and the watch on memory.
type runBounds struct {
	start      time.Time
	outer      context.Context
	overMemory *atomic.Bool
	stopWatch  context.CancelFunc
	bound      string // the memory bound, as MemoryBound says it
}

// stopCause names what stopped a search whose expansion ctx ran out.
func (rb *runBounds) stopCause() Cut {
	if rb.overMemory.Load() {
		return CutMemory
	}
	return stopCause(rb.outer)
}

// again searches m again with opt in the time left, or ends res there,
// cut by time.
func (rb *runBounds) again(m *sim.Machine, props []*properties.Property, opt Options, res *Result) *Result {
	var ok bool
	if opt.Time, ok = timeLeft(opt.Time, time.Since(rb.start)); !ok {
		res.Cut = CutTime
		res.finish(rb.start)
		return res
	}
	rb.stopWatch()
	return exhaustive(rb.outer, m, props, opt)
}

// exhaustive is Exhaustive over the Machine and properties m wraps.
func exhaustive(ctx context.Context, m *sim.Machine, props []*properties.Property, opt Options) *Result {
	rb := &runBounds{start: time.Now(), outer: ctx}
	if err := CheckExhaustiveFits(opt); err != nil {
		return refused(ModeExhaustive, props, err, rb.start)
	}
	workers := workerCount(opt.Workers)
	ctx, cancel := withTime(ctx, opt.Time)
	defer cancel()
	ctx, rb.overMemory, rb.stopWatch, rb.bound = watchMemory(ctx, opt.MaxMemory)
	defer rb.stopWatch()
	res := newResult(ModeExhaustive, props)
	e, opt := newSearch(m, props, opt, res)
	xs := make([]*expander, workers)
	for i := range xs {
		st := m.NewStepper()
		xs[i] = &expander{e: e, st: st, view: st.View(nil)}
	}
	var cur level
	initSteps, f := e.begin(xs, &cur)
	if f != nil {
		res.faulted(newFault(m, nil, f, nil))
		res.finish(rb.start)
		return res
	}
	stoppedFirst := e.levels(ctx, xs, &cur, opt, res, rb)
	if e.fellBack() && e.fault.f == nil && e.stopped == CutNone {
		// search again, with the state graph; it meets the same first
		// violations, already told of
		return rb.again(m, props, e.withGraph(opt), res)
	}
	return e.end(rb, res, opt, &cur, initSteps, stoppedFirst)
}

// newSearch sets up the search of m judging props with opt, and the parts
// of res that say how it searches; it returns opt with the strategy it
// chose recorded (see choose).
func newSearch(m *sim.Machine, props []*properties.Property, opt Options, res *Result) (*search, Options) {
	e := &search{m: m, judging: judging{props: props, first: map[int]violation{}, fair: opt.Fairness,
		skip: make([]bool, len(props)), onViolation: opt.OnViolation},
		clocked: opt.clocked, rounds: noTime()}
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
	return e, opt
}

// begin puts the initial world in cur, the first level, and judges the
// invariants there. It returns the Init steps, or the fault met at
// start-up: in a handler, a monitor, a declared symmetry or a property.
func (e *search) begin(xs []*expander, cur *level) ([]*sim.Step, *sim.Fault) {
	st := xs[0].st
	w0, initSteps := st.Init()
	if f := st.TakeFault(); f != nil {
		return nil, f
	}
	if e.sym != nil {
		if f := symmetricStart(st, e.sym, w0); f != nil {
			return nil, f
		}
	}
	fp0 := st.Fingerprint(w0)
	e.seen.next.insert(fp0)
	e.count = 1
	if e.parents {
		e.parent, e.via = append(e.parent, 0), append(e.via, 0)
	}
	for p, prop := range e.props {
		if prop.EveryWorld() {
			d, f := judgeSafely(prop, xs[0].view.At(w0), false)
			if f != nil {
				return nil, f
			}
			if d != "" {
				e.record(violation{prop: p, src: 0, pos: -1, detail: d})
			}
		}
	}
	cur.first(xs, fp0, w0)
	return initSteps, nil
}

// levels searches breadth first from cur, a level at a time, until no
// state is left, a bound cuts the search, a fault or a lean search's
// fallback ends it, or every property (with Options.First, any) has a
// counterexample. cur is left holding the last level reached, with the
// states not expanded if the search stopped early. It returns whether
// Options.First stopped the search with work left.
func (e *search) levels(ctx context.Context, xs []*expander, cur *level, opt Options, res *Result, rb *runBounds) (stoppedFirst bool) {
	var next level
	var pool []*chunk
	lo := 0 // number of the frontier's first state
	progress := newReporter(opt.Progress)
	stoppedFirst = opt.First && e.violated()
	for depth := 0; cur.len() > 0 && !e.allFailed() && !stoppedFirst; depth++ {
		judgeOnly := opt.MaxDepth > 0 && depth >= opt.MaxDepth
		n := cur.len()
		e.levelLo, e.levelEnd = lo, lo+n
		for p := range e.skip {
			e.skip[p] = e.failed(p)
		}
		e.seen.startLevel(xs, cur)
		next.reset()
		if e.paths != nil {
			e.paths.startLevel()
		}
		complete, stop := e.expandLevel(ctx, xs, &pool, cur, &next, depth, judgeOnly, opt.First, res)
		stoppedFirst = stop
		if e.fault.f != nil || e.fellBack() {
			break
		}
		if !complete {
			e.cut(rb.stopCause())
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
		*cur, next = next, *cur
		if e.paths != nil {
			e.paths.endLevel()
		}
		res.Stats.States = e.count
		if opt.MaxStates > 0 && res.Stats.States >= opt.MaxStates && cur.len() > 0 {
			e.cut(CutStates)
			break
		}
		if rb.overMemory.Load() {
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
	return stoppedFirst
}

// expandLevel expands cur, at depth, into next a wave of chunks at a time,
// merging each wave before the next: the candidates held at once stay
// bounded however wide the level, and later waves find the states earlier
// ones added already visited. pool holds the chunks, reused from level to
// level. It returns whether every wave was expanded (not if ctx ran out,
// a fault or a fallback stopped it), and whether first (Options.First)
// stopped the search after a wave with work left.
func (e *search) expandLevel(ctx context.Context, xs []*expander, pool *[]*chunk, cur, next *level, depth int, judgeOnly, first bool, res *Result) (complete, stoppedFirst bool) {
	nchunks := (cur.len() + chunkSize - 1) / chunkSize
	complete = true
	for c0 := 0; c0 < nchunks && complete; c0 += waveChunks {
		k := min(waveChunks, nchunks-c0)
		for len(*pool) < k {
			*pool = append(*pool, &chunk{})
		}
		chunks := (*pool)[:k]
		complete = e.expandWave(ctx, xs, chunks, cur, e.levelLo, c0, depth, judgeOnly)
		// A fault ends the search before the wave is merged. Each
		// chunk stops at its first faulting state, and chunks are
		// handed out in order, so the first faulting chunk does not
		// depend on Workers.
		if i := slices.IndexFunc(chunks, func(c *chunk) bool { return c.fault.f != nil }); i >= 0 {
			e.fault = chunks[i].fault
			e.fault.depth = depth
			break
		}
		if !complete {
			break
		}
		e.merge(chunks, next, res)
		next.grow()
		edges := e.waveEdges(chunks)
		e.rebuild(xs, chunks, next)
		next.pack(xs, false)
		<-edges
		e.seen.endWave()
		if e.fellBack() {
			break
		}
		if first && e.violated() && (c0+k < nchunks || next.len() > 0) {
			return complete, true
		}
	}
	return complete, false
}

// withGraph is opt for a lean search that fell back (see fellBack) to
// search again keeping the state graph: it meets the same first
// violations, and tells of none told already.
func (e *search) withGraph(opt Options) Options {
	opt.lean, opt.graph = false, true
	return e.toldOnce(opt)
}

// toldOnce is opt for a search again of e's: its OnViolation tells of no
// property e told of already.
func (e *search) toldOnce(opt Options) Options {
	if tell := opt.OnViolation; tell != nil {
		told := map[string]bool{}
		for p := range e.first {
			told[e.props[p].Name] = true
		}
		opt.OnViolation = func(v FirstViolation) {
			if !told[v.Property] {
				tell(v)
			}
		}
	}
	return opt
}

// end settles res once levels is done, cur holding the last level it
// reached: the cut, the stats, the cycles, the verdicts with their runs,
// and the figures. Where symmetry reduced a search that judges cycles and
// found one, it returns instead the result of a search again without the
// reduction.
func (e *search) end(rb *runBounds, res *Result, opt Options, cur *level, initSteps []*sim.Step, stoppedFirst bool) *Result {
	res.Cut = e.stopped
	if res.Cut == CutMemory {
		res.MemoryBound = rb.bound
	}
	faulted := e.fault.f != nil
	res.StoppedFirst = stoppedFirst && !faulted
	res.Stopped = e.allFailed() && res.Cut == CutNone && !stoppedFirst && !faulted
	e.stats(res)
	if e.g != nil {
		if e.sym != nil && len(e.live) > 0 && e.wholeGraph() && !e.g.acyclic() {
			// a cycle of representatives need not be a cycle of worlds,
			// nor fair where one is: search again, every world kept
			opt.Reduce = ReduceNone
			full := rb.again(e.m, e.props, e.toldOnce(opt), res)
			if full != res {
				full.Reduction = SymmetryUse{Kind: SymmetryNotUsed, Detail: e.sym.String() + ", but runs that never end are judged on every world"}
			}
			return full
		}
		if e.reducedCycle() {
			// a cycle of the reduced graph need not be fair where the
			// full graph's is, nor the other way round: search again,
			// every step taken (a search cut short judges no cycle)
			if e.wholeGraph() && !stoppedFirst && !faulted {
				opt.unreduced = true
				return rb.again(e.m, e.props, e.toldOnce(opt), res)
			}
		} else if !stoppedFirst && !faulted {
			e.judgeCycles()
		}
	}
	res.Stats.Revisits = e.revisits
	if e.por {
		res.PartialOrder = partialOrderSummary(e.reduced, e.count)
	}
	res.Coverage = newCoverage(e.m, "transitions", e.cover.byName(e.m.Labels()))
	e.verdicts(res, opt, stoppedFirst)
	if faulted {
		res.faulted(e.faultResult(e.m, e.props, opt))
	}
	if opt.Messages && res.Cut == CutNone && !stoppedFirst && !faulted && e.revisits == 0 {
		switch {
		case e.paths != nil && cur.len() == 0: // (every state was expanded)
			res.Messages = e.paths.ranges(e.m.Kinds(), initSteps)
		case e.g != nil && e.wholeGraph():
			e.g.classesFrom(e.m.SentCounts)
			res.Messages = e.g.messageRanges(e.m.Kinds(), initSteps)
		}
	}
	e.settleRounds(rb, res, opt)
	res.finish(rb.start)
	return res
}

// reducedCycle reports whether the search judges eventually-properties on
// a graph that partial order reduced and that has a cycle (see
// partialorder.go).
func (e *search) reducedCycle() bool {
	return e.por && e.reduced > 0 && len(e.live) > 0 && !e.g.acyclic()
}

// wholeGraph reports whether the state graph holds every state met: the
// search expanded them all.
func (e *search) wholeGraph() bool { return e.g.n() == e.seen.next.len() }

// stats gives res the counts of the search and the memory of what it kept.
func (e *search) stats(res *Result) {
	res.Stats.States = e.count
	res.Stats.Quiescent = e.quiet
	res.Stats.Collision = e.seen.collision(res.Stats.States)
	res.Stats.VisitedBytes = e.seen.visitedBytes(res.Stats.States)
	if e.g != nil {
		res.Stats.GraphBytes = float64(e.seen.next.numberBytes()+e.g.bytes()) / max(1, float64(res.Stats.States))
	}
}

// verdicts gives each property of res its verdict: Fail with the run to
// its first violation (searched for again, where the search kept no
// parents), Unknown where the search stopped at a first violation or a
// sweep's revisits leave an Eventually property unproved, else the Pass
// or Unknown that Result.finish gives.
func (e *search) verdicts(res *Result, opt Options, stoppedFirst bool) {
	var traced *Result
	// (a reduced search's runs need not be the shortest, unless it is
	// itself the search for traces)
	if (!e.parents || e.por && e.reduced > 0 && !opt.traced) && len(e.first) > 0 {
		traced = e.searchForTraces(e.m, e.props, opt)
	}
	for p := range e.props {
		pr := &res.Properties[p]
		v, ok := e.first[p]
		switch {
		case ok:
			pr.Verdict, pr.Detail = Fail, v.detail
			if traced == nil {
				pr.Counterexample = e.trace(v, e.props[p])
				break
			}
			pr.Counterexample = traced.Properties[p].Counterexample
			if cx := pr.Counterexample; cx != nil {
				pr.Detail = cx.Detail // (a shortest run, where partial order found another)
			} else {
				pr.Detail += fmt.Sprintf(" (its run is not shown: the search for it was cut by %s)", traced.Cut)
			}
		case stoppedFirst:
			pr.Verdict, pr.Detail = Unknown, notJudged
		case e.revisits > 0 && e.props[p].When == properties.Eventually:
			pr.Verdict = Unknown
			pr.Detail = "the sweep met states of earlier levels again, so it cannot show that every run ends"
		}
	}
}

// settleRounds gives res the time of complete runs in rounds, where
// opt asks for it: measured by this search, if its worlds carry clocks,
// or by a search of them run again, or why it was not.
func (e *search) settleRounds(rb *runBounds, res *Result, opt Options) {
	faulted := e.fault.f != nil
	switch {
	case e.clocked && res.Cut == CutNone && !faulted && e.rounds.hi >= 0:
		// (a clocked search judges nothing, so it stops for nothing)
		res.Rounds = &Rounds{Min: e.rounds.lo, Max: e.rounds.hi, States: e.count}
	case opt.Rounds && !opt.clocked && res.Cut != CutNone:
		res.RoundsCut = res.Cut
	case opt.Rounds && !opt.clocked && !faulted && e.g != nil && e.wholeGraph() && !e.g.acyclic():
		// a run round a cycle of deliveries never ends, and its clocks
		// grow without bound: the clocked search would never end either
		res.RoundsCut = CutCycle
	case opt.Rounds && !opt.clocked && !faulted:
		// the runs are explored again whatever this search found: an
		// early stop at counterexamples leaves the rounds to measure
		rb.stopWatch() // (the search of rounds watches memory itself)
		measureRounds(rb.outer, e.m, res, opt, time.Since(rb.start))
	}
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
	if !ok && e.onViolation != nil && e.props[v.prop].When != properties.Possibly {
		e.onViolation(FirstViolation{Property: e.props[v.prop].Name, Detail: v.detail, Depth: v.depth})
	}
}

func (e *search) failed(p int) bool { _, ok := e.first[p]; return ok }

// allFailed reports whether the search has nothing left to find: every
// property has a counterexample (see settled for sometimes-properties).
func (e *search) allFailed() bool { return settled(e.props, e.failed) }

// violated reports whether a property that is not a sometimes-property
// has a counterexample, the stop of Options.First.
func (e *search) violated() bool { return anyViolation(e.props, e.failed) }
