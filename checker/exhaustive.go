package checker

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Options bound and tune a search. Zero values mean "no bound" (Workers:
// one per core; MaxMemory: 16 GiB).
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
	// First stops the search once any property has a counterexample,
	// after merging the wave in which the first one appeared (see
	// Exhaustive); properties without one are then Unknown.
	First bool
	// traced: a sweep or a lean search keeps each state's parent, for
	// counterexamples (Exhaustive searches again with them when it found
	// any).
	traced bool
	// lean: the search is lean (see search.lean), chosen by Exhaustive;
	// graph: a lean search met an edge that is not level to level, and
	// the search keeps the state graph instead.
	lean, graph bool
	// clocked: the search over worlds with causal clocks that measures
	// rounds (see Rounds)
	clocked bool
}

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
	quiet int
	// rounds: the least and most time of the quiescent states, when the
	// search measures it (search.rounds)
	roundsLo, roundsHi int
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
	// fault: a handler or monitor failed expanding state faultSrc, or a
	// property's code judging it (faultPos -1) or its successor at
	// faultPos; the chunk's expansion stopped there
	fault    *sim.Fault
	faultSrc int
	faultPos int
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
// (model.MaxNodes) and arguments, interned ids, in 30.
func packEvent(e sim.Event) uint64 {
	if e.Arg >= 1<<30 {
		panic("more than 2^30 distinct messages, timers or actions")
	}
	return uint64(e.Kind)<<60 | uint64(e.Node)<<45 | uint64(e.From)<<30 | uint64(e.Arg)
}

func unpackEvent(p uint64) sim.Event {
	return sim.Event{Kind: sim.EventKind(p >> 60), Node: model.NodeID(p >> 45 & 0x7fff),
		From: model.NodeID(p >> 30 & 0x7fff), Arg: uint32(p & (1<<30 - 1))}
}

func (c *chunk) reset(lo, hi int) {
	*c = chunk{lo: lo, hi: hi, in: c.in, cand: c.cand[:0], viol: c.viol[:0],
		succ: c.succ[:0], steps: c.steps[:0], nsucc: c.nsucc[:0], qs: c.qs[:0], ids: c.ids[:0], pend: c.pend[:0],
		roundsLo: math.MaxInt, roundsHi: -1}
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

const chunkSize = 256

// revisit marks, among a chunk's successors, an edge to a state of an
// earlier level (a sweep's window only).
const revisit = math.MinInt64

// waveChunks is how many chunks are expanded before they are merged: about
// a quarter of a million states, whose candidates take tens of MB. A
// variable so that tests can make waves small.
var waveChunks = 64

type search struct {
	m       *sim.Machine
	props   []*properties.Property
	vis     *visited
	parent  []uint32 // parent[s]: the state s was discovered from
	via     []uint32 // via[s]: position of the event, in parent's Enabled order
	g       *graph
	first   map[int]violation
	quiet   int64
	stopped string
	sink    uint64 // see visited.touch
	monIdx  []int  // per property: its monitor's slot, or -1
	live    []int  // the Eventually properties
	fair    Fairness
	// skip[p]: p had a counterexample when the level began. Expansion
	// reads this, not first, so that a level's violations do not depend on
	// how its waves fall.
	skip []bool
	// Sweep mode: the visited set holds the next level only; paths carries
	// message figures from level to level; peakVisited is the largest the
	// visited set grew.
	sweep bool
	// lean: a search whose figures and liveness would need the state graph
	// goes as a sweep whose window holds every earlier level, merged into
	// one set, and keeps no parents (see Exhaustive). As long as every edge
	// goes from one level to the next the graph has no cycle, runs end
	// where quiescence is judged, and figures carry from level to level;
	// the first edge that does not makes Exhaustive search again with the
	// graph.
	lean        bool
	paths       *pathMessages
	peakVisited int64
	levelLo     int // number of the frontier's first state
	// window: the visited sets of the levels before the next one that a
	// sweep keeps (Options.Window), oldest first; revisits: the edges into
	// them.
	window     []*visited
	windowSize int
	revisits   int64
	// parents: parent and via are kept (not in a sweep's first pass);
	// count is the number of states.
	parents bool
	count   int64
	// pairs: a sweep's pairs of states that shared a visited set, the
	// only ones whose fingerprints could be confused
	pairs float64
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
}

// windowBytes is the memory of a sweep's visited sets.
func (e *search) windowBytes() int64 {
	b := e.vis.bytes() + e.vis.numberBytes()
	for _, v := range e.window {
		b += v.bytes() + v.numberBytes()
	}
	return b
}

// inWindow reports whether fp is a state of one of the earlier levels a
// sweep keeps.
func (e *search) inWindow(fp uint64) bool {
	for _, v := range e.window {
		if _, ok := v.lookup(fp); ok {
			return true
		}
	}
	return false
}

// exhaustive is Exhaustive over the Machine and properties m wraps.
func exhaustive(ctx context.Context, m *sim.Machine, props []*properties.Property, opt Options) *Result {
	start := time.Now()
	workers := workerCount(opt.Workers)
	outer := ctx
	ctx, cancel := withTime(ctx, opt.Time)
	defer cancel()
	ctx, overMemory, stopWatch := watchMemory(ctx, opt.MaxMemory)
	defer stopWatch()
	res := newResult("exhaustive", props)
	e := &search{m: m, props: props, first: map[int]violation{}, fair: opt.Fairness,
		skip: make([]bool, len(props)), windowSize: opt.Window,
		rounds: opt.clocked, roundsLo: math.MaxInt, roundsHi: -1}
	for p, prop := range props {
		e.monIdx = append(e.monIdx, slices.Index(m.Monitors(), prop.Monitor))
		if prop.When == properties.Eventually {
			e.live = append(e.live, p)
		}
	}
	// (rounds need to know whether some runs never end)
	needsGraph := !opt.Sweep && (opt.Messages || len(e.live) > 0 || opt.Rounds && !opt.clocked)
	opt.lean = opt.lean || needsGraph && !opt.graph
	e.lean = opt.lean
	e.sweep = opt.Sweep || e.lean
	e.parents = !e.sweep || opt.traced
	res.Sweep = opt.Sweep
	if len(e.live) > 0 && !opt.Sweep {
		res.Fairness = opt.Fairness.String()
	}
	switch {
	case e.sweep && opt.Messages:
		e.paths = newPathMessages()
	case needsGraph && !e.lean:
		e.g = &graph{pending: make([][]uint64, len(e.live))}
	}
	e.vis = newVisited(e.keepsEdges())
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
	fp0 := xs[0].st.Fingerprint(w0)
	e.vis.insert(fp0)
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
	cur.reset()
	cur.add(fp0, len(w0))
	cur.grow()
	copy(cur.world(0), w0)
	cur.pack(xs, true)
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
		if e.sweep {
			// the visited set of the level to expand goes into the
			// window, or is emptied for the next level
			spare := e.vis
			if e.lean {
				if e.window == nil {
					e.window = []*visited{newVisited(false)}
				}
				e.window[0].insertAll(xs, cur.fps)
			} else if e.windowSize > 1 {
				e.window = append(e.window, e.vis)
				spare = nil
				if len(e.window) > e.windowSize-1 {
					spare = e.window[0]
					e.window = slices.Delete(e.window, 0, 1)
				}
			}
			if spare != nil {
				e.vis = spare.empty()
			} else {
				e.vis = newVisited(e.paths != nil)
			}
		}
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
			e.rebuild(xs, chunks, &next)
			next.pack(xs, false)
			e.peakVisited = max(e.peakVisited, e.windowBytes())
			if e.lean && e.revisits > 0 {
				break
			}
			if opt.First && len(e.first) > 0 && (c0+k < nchunks || next.len() > 0) {
				stoppedFirst = true
				break
			}
		}
		if e.fault != nil || e.lean && e.revisits > 0 {
			break
		}
		if !complete {
			if overMemory.Load() {
				e.cut("memory")
			} else {
				e.cut("time")
			}
			break
		}
		if e.sweep && !e.lean {
			l, w := float64(next.len()), 0.0
			for _, v := range e.window {
				w += float64(v.len())
			}
			e.pairs += l*l/2 + l*w
		}
		if stoppedFirst {
			if next.len() > 0 {
				res.Stats.Depth = depth + 1
			}
			break
		}
		if judgeOnly {
			if res.Stats.Transitions > 0 {
				e.cut("depth")
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
			e.cut("states")
			break
		}
		if overMemory.Load() {
			e.cut("memory")
			break
		}
		if cur.len() > 0 {
			res.Stats.Depth = depth + 1
		}
		progress.report(func(p *Progress) {
			p.Mode, p.Depth, p.States, p.Frontier = "exhaustive", depth+1, res.Stats.States, cur.len()
		})
	}
	if e.lean && e.revisits > 0 && e.fault == nil && e.stopped == "" {
		// an edge back to an earlier level, or within one: search again,
		// with the state graph, in the time left
		opt.lean, opt.graph = false, true
		if opt.Time > 0 {
			if opt.Time -= time.Since(start); opt.Time <= 0 {
				res.Cut = "time"
				res.finish(start)
				return res
			}
		}
		stopWatch()
		return exhaustive(outer, m, props, opt)
	}
	res.Cut = e.stopped
	res.StoppedFirst = stoppedFirst && e.fault == nil
	res.Stopped = e.allFailed() && res.Cut == "" && !stoppedFirst && e.fault == nil
	res.Stats.States = e.count
	res.Stats.Quiescent = e.quiet
	s := float64(res.Stats.States)
	res.Stats.Collision = min(1, s*s/(1<<65))
	if e.sweep && !e.lean {
		res.Stats.Collision = min(1, e.pairs/(1<<64))
	}
	if e.sweep {
		res.Stats.VisitedBytes = float64(e.peakVisited) / max(1, s)
	} else {
		res.Stats.VisitedBytes = float64(e.vis.bytes()) / max(1, s)
	}
	if e.g != nil {
		res.Stats.GraphBytes = float64(e.vis.numberBytes()+e.g.bytes()) / max(1, s)
		if !stoppedFirst && e.fault == nil {
			e.judgeCycles()
		}
	}
	res.Stats.Revisits = e.revisits
	res.Coverage = exhaustiveCoverage(m, xs)
	var traced *Result
	if !e.parents && len(e.first) > 0 {
		traced = e.sweepForTraces(m, props, opt)
	}
	for p := range props {
		if v, ok := e.first[p]; ok {
			res.Properties[p].Verdict = Fail
			res.Properties[p].Detail = v.detail
			if traced != nil {
				res.Properties[p].Counterexample = traced.Properties[p].Counterexample
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
	if opt.Messages && res.Cut == "" && !stoppedFirst && e.fault == nil && e.revisits == 0 {
		switch {
		case e.paths != nil && cur.len() == 0: // (every state was expanded)
			res.Messages = e.paths.ranges(m.Kinds(), initSteps)
		case e.g != nil && e.g.n() == e.vis.len():
			res.Messages = e.g.messageRanges(m.Kinds(), initSteps)
		}
	}
	switch {
	case e.rounds && res.Cut == "" && e.fault == nil && e.roundsHi >= 0:
		// (a clocked search judges nothing, so it stops for nothing)
		res.Rounds = &Rounds{Min: e.roundsLo, Max: e.roundsHi, States: e.count}
	case opt.Rounds && !opt.clocked && res.Cut != "":
		res.RoundsCut = res.Cut
	case opt.Rounds && !opt.clocked && e.fault == nil && e.g != nil && e.g.n() == e.vis.len() && !e.g.acyclic():
		// a run round a cycle of deliveries never ends, and its clocks
		// grow without bound: the clocked search would never end either
		res.RoundsCut = "cycle"
	case opt.Rounds && !opt.clocked && e.fault == nil:
		// the runs are explored again whatever this search found: an
		// early stop at counterexamples leaves the rounds to measure
		stopWatch() // (the search of rounds watches memory itself)
		measureRounds(outer, m, res, opt, time.Since(start))
	}
	res.finish(start)
	return res
}

// exhaustiveCoverage is the coverage of the transitions the expanders
// took.
func exhaustiveCoverage(m *sim.Machine, xs []*expander) *Coverage {
	labels := m.Labels()
	counts := map[string]int64{}
	for _, x := range xs {
		for _, e := range x.cover.named(labels) {
			counts[e.Event] += e.N
		}
	}
	return newCoverage(m, "transitions", counts)
}

// measureRounds gives res the time of complete runs in asynchronous
// rounds, measured by a second search over worlds with causal clocks
// (Options.Rounds), bounded by what is left of opt's bounds.
func measureRounds(ctx context.Context, m *sim.Machine, res *Result, opt Options, spent time.Duration) {
	clocked, err := m.Clocked()
	if err != nil {
		panic(fmt.Sprintf("checker: %s compiled, but not with causal clocks: %v", m.Name, err))
	}
	if opt.Time > 0 {
		if opt.Time <= spent {
			res.RoundsCut = "time"
			return
		}
		opt.Time -= spent
	}
	opt.clocked, opt.Messages, opt.First = true, false, false
	r := exhaustive(ctx, clocked, nil, opt)
	switch {
	case r.Cut != "":
		res.RoundsCut = r.Cut
	case r.Fault != nil: // the same handlers ran without fault: not expected
		res.RoundsCut = "fault"
	default:
		res.Rounds = r.Rounds
	}
}

// faultResult locates the fault met expanding state e.faultSrc and gives
// the run to it. A sweep's first pass keeps no parents: it sweeps again,
// with them, to the fault's level, where the same fault comes back (the
// search is deterministic, and faulting calls are not memoised).
func (e *search) faultResult(m *sim.Machine, props []*properties.Property, opt Options) *Fault {
	if e.parents {
		events := e.events(e.pathTo(e.faultSrc))
		if e.faultPos >= 0 { // a property judging a successor: the run goes there
			st := m.NewStepper()
			w, _ := st.Init()
			for _, ev := range events {
				w, _ = st.Apply(w, ev, nil)
			}
			evs, _ := st.Enabled(w, nil)
			events = append(events, evs[e.faultPos])
		}
		return newFault(m, events, e.fault, nil)
	}
	opt.traced, opt.MaxDepth, opt.Messages, opt.Progress, opt.Time = true, e.faultDepth+1, false, nil, 0
	if again := exhaustive(context.Background(), m, props, opt); again.Fault != nil {
		return again.Fault
	}
	return faultOf(e.fault, &Trace{Fault: e.fault.Error()}) // not met again: no run to show
}

// sweepForTraces sweeps again, keeping parents this time, down to the
// deepest of the first violations: a sweep does not keep them on its first
// pass, which in a passing run would cost 8 bytes a state for nothing. The
// search is deterministic, so it meets the same first violations.
func (e *search) sweepForTraces(m *sim.Machine, props []*properties.Property, opt Options) *Result {
	deepest := 0
	for _, v := range e.first {
		deepest = max(deepest, v.depth)
	}
	opt.traced, opt.MaxDepth, opt.Messages, opt.Progress, opt.Time = true, deepest, false, nil, 0
	again := exhaustive(context.Background(), m, props, opt)
	for p, v := range e.first {
		if pr := again.Properties[p]; pr.Counterexample == nil || pr.Detail != v.detail {
			panic(fmt.Sprintf("checker: the sweep for traces did not meet the violation of %s again", props[p].Name))
		}
	}
	return again
}

// merge takes in a wave's chunks, sequentially and in order: it numbers
// their new states, appends them to the next level (fingerprints, and
// offsets of the worlds that rebuild writes), and records their edges and
// violations.
func (e *search) merge(chunks []*chunk, next *level, res *Result) {
	for _, c := range chunks {
		res.Stats.Transitions += c.trans
		e.quiet += int64(c.quiet)
		e.roundsLo, e.roundsHi = min(e.roundsLo, c.roundsLo), max(e.roundsHi, c.roundsHi)
		e.revisits += c.revisits
		for k := range c.cand {
			if k%16 == 0 {
				e.sink ^= e.vis.touchCands(c.cand[k:min(k+16, len(c.cand))])
			}
			cd := &c.cand[k]
			num, fresh := e.vis.insert(cd.fp)
			cd.dst = -1
			if fresh {
				cd.dst = int32(next.add(cd.fp, int(cd.wlen)))
				e.count++
				if e.parents {
					e.parent = append(e.parent, uint32(c.lo)+uint32(cd.src))
					e.via = append(e.via, uint32(cd.pos))
				}
				if e.paths != nil {
					e.paths.add()
				}
			}
			if e.vis.numbered {
				cd.fp = uint64(num)
			}
		}
		if e.keepsEdges() {
			e.edges(c)
		}
		for _, v := range c.viol {
			e.record(v)
		}
	}
}

// keepsEdges: the edges of each level are wanted, by the state graph or by
// a sweep's message figures, and the visited set numbers states for them.
func (e *search) keepsEdges() bool { return e.g != nil || e.paths != nil }

// edges records the edges out of c's states: into the state graph, or
// into the message figures of the paths that reach the next level.
func (e *search) edges(c *chunk) {
	k := 0
	for i, ns := range c.nsucc {
		if e.g != nil {
			e.g.startNode(c.qs[i])
		} else if c.qs[i] {
			e.paths.end(c.lo - e.levelLo + i)
		}
		for range ns {
			t := c.succ[k]
			if t == revisit {
				k++
				continue
			}
			if t < 0 {
				t = int64(c.cand[-1-t].fp)
			}
			if e.g != nil {
				e.g.addEdge(uint32(t), c.steps[k])
				if len(e.live) > 0 {
					e.g.addLabel(c.ids[k])
				}
			} else {
				e.paths.edge(c.lo-e.levelLo+i, int(t), c.steps[k])
			}
			k++
		}
	}
	if e.g != nil {
		for j, x := range c.pend {
			e.g.pending[j%len(e.live)] = append(e.g.pending[j%len(e.live)], x)
		}
	}
}

// workerCount is n, or one worker per core when n <= 0.
func workerCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// withTime bounds ctx by d, when d > 0.
func withTime(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

// watchMemory samples the heap ten times a second and cancels the returned
// context, setting the flag, once it holds more than limit bytes (default:
// half the machine's memory as the Go runtime sees it, at most 16 GiB).
// Meanwhile the limit is the runtime's soft memory limit too, unless one
// is set lower: the collector then works harder as the heap nears the
// limit, rather than letting garbage double it, so that what trips the
// watch is live data.
func watchMemory(ctx context.Context, limit uint64) (context.Context, *atomic.Bool, context.CancelFunc) {
	if limit == 0 {
		limit = 16 << 30
		if total := systemMemory(); total > 0 {
			limit = min(limit, total/2)
		}
	}
	restore := func() {}
	if prev := debug.SetMemoryLimit(-1); uint64(prev) > limit {
		debug.SetMemoryLimit(int64(limit))
		restore = func() { debug.SetMemoryLimit(prev) }
	}
	ctx, cancel := context.WithCancel(ctx)
	var over atomic.Bool
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				metrics.Read(sample)
				if sample[0].Value.Uint64() > limit {
					over.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return ctx, &over, func() { cancel(); restore() }
}

func (e *search) cut(why string) {
	if e.stopped == "" {
		e.stopped = why
	}
}

// record keeps the first violation of each property: the shallowest, and
// among those the first in the fixed merge order.
func (e *search) record(v violation) {
	if old, ok := e.first[v.prop]; !ok || v.depth < old.depth {
		e.first[v.prop] = v
	}
}

func (e *search) failed(p int) bool { _, ok := e.first[p]; return ok }

func (e *search) allFailed() bool { return len(e.props) > 0 && len(e.first) == len(e.props) }

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
	out    unitWriter // packs units of the next level
	fps    []uint64
	succs  []sim.Successor
	sink   uint64 // see visited.touch
	cover  eventCounts
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

func (x *expander) expand(c *chunk, lv *level, a, depth int, judgeOnly bool) {
	e := x.e
	for i := 0; i < c.hi-c.lo; i++ {
		w := c.in.world(i)
		var nproto int
		x.evs, nproto = x.st.Enabled(w, x.evs[:0])
		// Listing the events runs the handlers of timeouts and actions;
		// the successors, every handler and monitor: a fault stops the
		// chunk (the search ends with the wave).
		if f := x.st.TakeFault(); f != nil {
			c.fault, c.faultSrc, c.faultPos = f, c.lo+i, -1
			return
		}
		c.trans += int64(len(x.evs))
		quiet := nproto == 0
		if quiet {
			c.quiet++
			if e.rounds {
				r := x.st.Rounds(w)
				c.roundsLo, c.roundsHi = min(c.roundsLo, r), max(c.roundsHi, r)
			}
			for p, prop := range e.props {
				if prop.When != properties.Always && !e.skip[p] {
					if d := prop.AtEnd(x.check(p, prop, w)); d != "" {
						c.viol = append(c.viol, violation{prop: p, src: c.lo + i, pos: -1, depth: depth, detail: d})
					}
				}
			}
			if x.pfault != nil {
				c.fault, c.faultSrc, c.faultPos, x.pfault = x.pfault, c.lo+i, -1, nil
				return
			}
		}
		if judgeOnly {
			continue
		}
		edges := e.keepsEdges()
		if edges {
			c.qs = append(c.qs, quiet)
			c.nsucc = append(c.nsucc, int32(len(x.evs)))
		}
		if e.g != nil {
			for _, p := range e.live {
				pend, f := pending(e.props[p], x.view.At(w))
				if f != nil {
					c.fault, c.faultSrc, c.faultPos = f, c.lo+i, -1
					return
				}
				c.pend = append(c.pend, pend)
			}
		}
		// Fingerprint every successor from w's, without building it, then
		// look them all up: the lookups are independent loads that the
		// processor overlaps. Only unseen successors are built.
		f0 := lv.fps[a+i]
		x.fps, x.succs = x.fps[:0], x.succs[:0]
		for _, ev := range x.evs {
			succ := x.st.Successor(w, f0, ev)
			x.fps = append(x.fps, succ.FP)
			x.succs = append(x.succs, succ)
			x.cover.add(sim.Label(ev, succ.Step), 1)
		}
		x.sink ^= e.vis.touch(x.fps)
		for _, v := range e.window {
			x.sink ^= v.touch(x.fps)
		}
		for pos := range x.evs {
			num, seen := e.vis.lookup(x.fps[pos])
			if !seen && e.inWindow(x.fps[pos]) {
				// a state of an earlier level, expanded there already
				c.revisits++
				if edges {
					c.steps = append(c.steps, x.succs[pos].Step)
					c.succ = append(c.succ, revisit)
				}
				continue
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
				continue
			}
			ev := x.evs[pos]
			c.cand = append(c.cand, candidate{fp: x.fps[pos], ev: packEvent(ev), src: int32(i), pos: int32(pos), wlen: int32(x.succs[pos].Len)})
			// A MonitorOnly property cannot change its verdict on a step that
			// changes no monitor and no node's liveness: w was judged already.
			same := ev.Kind != sim.Crash && ev.Kind != sim.Recover && !x.succs[pos].MonitorsChanged
			built := false
			for p, prop := range e.props {
				if prop.When != properties.Always || e.skip[p] || (same && prop.MonitorOnly) {
					continue
				}
				if !built {
					x.buf, _ = x.st.Apply(w, ev, x.buf)
					built = true
				}
				if d := x.check(p, prop, x.buf); d != "" {
					c.viol = append(c.viol, violation{prop: p, src: c.lo + i, pos: pos, depth: depth + 1, detail: d})
				}
			}
			if x.pfault != nil {
				c.fault, c.faultSrc, c.faultPos, x.pfault = x.pfault, c.lo+i, pos, nil
				return
			}
		}
		if f := x.st.TakeFault(); f != nil {
			c.fault, c.faultSrc, c.faultPos = f, c.lo+i, -1
			return
		}
	}
}

// rebuild writes the world of every new state of a wave's chunks into
// next, in parallel.
func (e *search) rebuild(xs []*expander, chunks []*chunk, next *level) {
	eachChunk(context.Background(), xs, len(chunks), func(x *expander, ci int) {
		c := chunks[ci]
		for _, cd := range c.cand {
			if cd.dst >= 0 {
				x.buf, _ = x.st.Apply(c.in.world(int(cd.src)), unpackEvent(cd.ev), x.buf)
				copy(next.world(int(cd.dst)), x.buf)
			}
		}
	})
}
