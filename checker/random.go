package checker

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// RandomOptions tune the random engine. Walk i draws its choices from seed
// Seed+i alone, so a walk that fails is replayed by Seed = its seed and
// Walks = 1, whatever the other options.
type RandomOptions struct {
	Walks    int           // default 1000
	Seed     uint64        // seed of walk 0
	MaxDepth int           // steps per walk; default DefaultWalkDepth(N)
	Time     time.Duration // 0: no limit; it covers the search's setup
	Workers  int           // 0: one per core; at most MaxWorkers
	// MaxMemory bounds the heap, in bytes (0: MemoryBound): a search
	// whose walkers' tables cannot fit is refused (see CheckRandomFits),
	// and one whose walks outgrow it is cut (Result.Cut CutMemory).
	MaxMemory uint64
	// Progress, if set, receives the search's progress about once a second.
	Progress func(Progress)
	// OnViolation, if set, is told of each property's first violation as
	// soon as the search finds it (shrunk), from the search's own goroutine.
	OnViolation func(FirstViolation)
	// EntryFigures: measure the mutual-exclusion figures of the walks
	// (Result.Entry).
	EntryFigures bool
	// Object, if set, turns each walk's observations into a client
	// history and checks it with porcupine (Result.Linearizability).
	Object *properties.Object
	// ShrinkTime bounds the time spent shortening each counterexample
	// (default 2s); the shortened run is replayed, so it is always valid.
	// A counterexample whose shrinking it cut says so (Trace.ShrinkCut).
	ShrinkTime time.Duration
	// First stops at the first violation: a walk ends at its first
	// violating world, and no batch of walks starts once one has failed
	// (see Random); properties without a counterexample are then Unknown.
	First bool
	// Scheduler chooses each walk's events (default: uniformly).
	Scheduler Scheduler
	// Rounds asks for the time in asynchronous rounds of the walks that
	// end (Result.Rounds): the walks then run over worlds whose nodes and
	// messages carry causal clocks. They run the same protocol, but copies
	// of a message sent at different depths are distinct deliveries, so
	// the walks of a seed differ from those without Rounds.
	Rounds bool
	// Shard, if its Count is 1 or more, runs that shard of the search alone
	// (Result.Shard); MergeShards combines the shards' runs.
	Shard Shard
}

// batchSize is the number of walks of batch k (from 0), between checks for
// early stops: 4, 8, 16, 32, then 64 each. The batches depend only on the
// options, never on the scheduling of workers, and so does the outcome.
// They start small so that a search whose walks never end (and judge
// nothing where runs end) stops after a few of them.
func batchSize(k int) int { return 4 << min(k, 4) }

// batchStart is the index of the first walk of batch k: the sum of the
// sizes of the batches before it, in closed form, since a shard read from
// a file may claim any number of batches.
func batchStart(k int) int {
	if k <= 4 {
		return 4 * (1<<k - 1)
	}
	return 60 + 64*(k-4)
}

// batchAt returns the bounds [lo, hi) of batch k of a search of walks.
func batchAt(k, walks int) (lo, hi int) {
	lo = batchStart(k)
	return min(lo, walks), min(lo+batchSize(k), walks)
}

// Random runs seeded random walks from m's initial world. Each step picks
// uniformly among the enabled events. A walk ends at the depth bound or in a
// quiescent world; there, if faults are still possible, it goes on with one
// of them with probability 1/2. Invariants are checked in every world of a
// walk, quiescence properties in every quiescent world; a walk in which
// every property has failed stops there. The counterexample
// kept for each property is the one of the walk with the lowest seed, shrunk
// (see shrink).
//
// A handler or monitor that fails (see Fault) ends its walk, and the
// search after its batch: the result is the fault met by the walk of
// lowest seed, with its run (Result.Fault), which replays from that seed.
//
// With opt.First a walk ends at its first violating world and the search
// after the batch of walks (a fixed run of seeds, whatever Workers) in
// which any walk found a violation, so it stops at the same point for any
// number of workers. Every walk of that batch is kept: the properties they
// broke fail, with the counterexample of the lowest seed as usual, and the
// others are Unknown (Result.StoppedFirst) when walks were left to run or a
// walk was cut short by its violation.
//
// Walks run in batches of consecutive seeds (4, 8, 16, 32, then 64), and
// the search stops between batches once every property has failed, or
// when none of the walks of the first batch reached the end of a run and
// only properties judged there are left: walks like those judge nothing
// more. With opt.Shard, a search runs one shard of itself on one machine
// (the walks whose index is Index mod Count, and every walk of the first
// batch to know whether walks end); MergeShards makes the whole search's
// result from the shards' (Result.Shard).
func Random(ctx context.Context, m *Machine, opt RandomOptions) *Result {
	return random(ctx, m.m, m.props, opt)
}

// random is Random over the Machine and properties m wraps.
func random(ctx context.Context, m *sim.Machine, props []*properties.Property, opt RandomOptions) *Result {
	start := time.Now()
	// the time bound covers the setup: the tables, each worker's first
	// walk from its initial world
	outer := ctx
	ctx, cancel := withTime(ctx, opt.Time)
	defer cancel()
	if err := checkRandomFits(m, opt); err != nil {
		return refused(ModeRandom, props, err, start)
	}
	opt = opt.withDefaults(m.Config().N)
	if opt.Rounds {
		clocked, err := m.Clocked()
		if err != nil {
			panic(fmt.Sprintf("checker: %s compiled, but not with causal clocks: %v", m.Name, err))
		}
		m = clocked
	}
	workers := workerCount(opt.Workers)
	ctx, overMemory, stopWatch, bound := watchMemory(ctx, opt.MaxMemory)
	defer stopWatch()
	t := newTally(m, props, opt)
	shard := opt.Shard
	var run *ShardRun
	if shard.Count >= 1 {
		run = &ShardRun{Index: shard.Index, Count: shard.Count, Search: opt.search(m.Name)}
	}
	tables, steppers := make([]*sim.Machine, workers), make([]*sim.Stepper, workers)
	live, walkers := walksLive(m, opt), make([]sim.Walker, workers)
	progress := newReporter(opt.Progress)
	for batch := 0; t.more(); batch++ {
		lo, hi := batchAt(batch, opt.Walks)
		// A shard walks its own walks of each batch, and every walk of the
		// first, which tells whether walks end (see tally.more).
		var mine []int
		for i := lo; i < hi; i++ {
			if batch == 0 || shard.owns(i) {
				mine = append(mine, i)
			}
		}
		outs := make([]walkResult, hi-lo)
		var next atomic.Int64
		known := maps.Clone(t.failed) // read by the workers, written after them
		var wg sync.WaitGroup
		for wi := range workers {
			// Each worker runs its walks on tables of its own, which it
			// drops for fresh ones whenever they outgrow walkTables: what
			// a search holds does not grow with the walks it has made, and
			// a small protocol keeps its handlers memoised from batch to
			// batch. Walks draw their choices from their seeds alone (see
			// canonical), so the tables change no walk.
			wg.Go(func() {
				// (its tables once it has a walk to run: CheckRandomFits
				// counts no more)
				var wm *sim.Machine
				var st *sim.Stepper
				var lw sim.Walker
				defer func() {
					if wm != nil {
						tables[wi], steppers[wi] = wm, st
					}
				}()
				for {
					j := int(next.Add(1) - 1)
					if j >= len(mine) || ctx.Err() != nil {
						return
					}
					if wm == nil {
						if tables[wi] == nil {
							tables[wi] = m.Fresh()
							steppers[wi] = tables[wi].NewStepper()
						}
						if live && walkers[wi] == nil {
							walkers[wi] = m.NewWalker()
						}
						wm, st, lw = tables[wi], steppers[wi], walkers[wi]
					}
					i := mine[j]
					var o walkResult
					if lw != nil {
						o = liveWalk(ctx, lw, props, opt.Seed+uint64(i), opt.MaxDepth, opt.First, opt.EntryFigures, opt.Object)
						o.kinds = o.named(lw.Kinds())
						o.took = o.cover.named(lw.Labels())
						if o.fault != nil || newViolation(o.viol, known) {
							o = runOf(ctx, st, props, opt, opt.Seed+uint64(i), o)
						}
					} else {
						o = walk(ctx, st, props, opt.Seed+uint64(i), opt.MaxDepth, opt.EntryFigures, opt.Object, opt.First, opt.Scheduler)
						o.kinds = o.named(wm.Kinds())
						o.took = o.cover.named(wm.Labels())
					}
					if o.fault != nil || newViolation(o.viol, known) {
						o.m = wm // to shrink and render its run
					}
					outs[i-lo] = o
					if wm.TableBytes() > walkTables {
						wm = m.Fresh()
						st = wm.NewStepper()
					}
				}
			})
		}
		wg.Wait()
		if ctx.Err() != nil {
			// the batch's walks are dropped, those that ended with the
			// others, so that what a search reports does not depend on
			// how far its workers got
			t.res.Cut = stopCause(outer)
			if overMemory.Load() {
				t.res.Cut, t.res.MemoryBound = CutMemory, bound
			}
			break
		}
		if batch == 0 {
			for i := range outs {
				rec := outs[i].record(lo + i)
				t.first(&rec)
			}
		}
		for _, i := range mine {
			if !shard.owns(i) {
				continue
			}
			o := &outs[i-lo]
			rec := o.record(i)
			if run != nil {
				run.Walks = append(run.Walks, rec)
			}
			if !t.take(&rec, &walkArtifacts{o: o, props: props, opt: opt, seed: opt.Seed + uint64(i)}) {
				break // a fault: the search ends with this walk
			}
		}
		t.batchDone(hi)
		if run != nil {
			run.Batches = batch + 1
		}
		progress.report(func(p *Progress) {
			p.Mode, p.Walks, p.Of, p.States = ModeRandom, hi, opt.Walks, t.res.Stats.Transitions
		})
	}
	res := t.end()
	if run != nil {
		run.Cut = res.Cut
		run.Counterexamples = res.Failed()
		run.Fault = res.Fault
		if l := res.Linearizability; l != nil && l.Seed != nil {
			run.Illegal = l.Seed
		}
		res.Shard = run
		res.Stats.Walks = len(run.Walks)
	}
	res.finish(start)
	if run != nil {
		run.Seconds = res.Stats.Seconds
	}
	return res
}

// runOf gives live, a walk on a Walker with a violation or a fault,
// its run: the same walk on a Stepper, as far as the run goes to its last
// violation or its fault. Were the two walks to part (they never should),
// the Stepper's, whose every handler call is checked, is the walk.
func runOf(ctx context.Context, st *sim.Stepper, props []*properties.Property, opt RandomOptions, seed uint64, live walkResult) walkResult {
	depth := live.steps
	if live.fault == nil {
		depth = 0
		for _, v := range live.viol {
			depth = max(depth, v.at)
		}
	}
	o := walk(ctx, st, props, seed, depth, false, nil, opt.First, opt.Scheduler)
	same := (o.fault != nil) == (live.fault != nil) && len(o.viol) == len(live.viol)
	for p, v := range live.viol {
		same = same && o.viol[p] == v
	}
	if !same {
		o = walk(ctx, st, props, seed, opt.MaxDepth, false, nil, opt.First, opt.Scheduler)
		o.kinds = o.named(st.Machine().Kinds())
		o.took = o.cover.named(st.Machine().Labels())
		return o
	}
	live.events, live.fault = o.events, o.fault
	return live
}

func (opt RandomOptions) withDefaults(n int) RandomOptions {
	if opt.Walks <= 0 {
		opt.Walks = 1000
	}
	if opt.ShrinkTime <= 0 {
		opt.ShrinkTime = 2 * time.Second
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultWalkDepth(n)
	}
	return opt
}

// newViolation reports whether viol breaks a property not in known.
func newViolation(viol map[int]walkViolation, known map[int]bool) bool {
	for p := range viol {
		if !known[p] {
			return true
		}
	}
	return false
}

// walkTables is the size of the tables (interned states and messages, in
// bytes of their keys) past which a worker of the random engine starts
// afresh.
const walkTables = 32 << 20

// tally takes in the walks of a random search in the order of their
// seeds, from the walks themselves or from the records of shards (see
// MergeShards), and decides, between batches, whether the search goes on.
// The outcome depends on the walks alone, so a search split in shards
// and merged gives the one result.
type tally struct {
	m                 *sim.Machine
	props             []*properties.Property
	opt               RandomOptions
	res               *Result
	ranges            map[string]*kindRange
	order             []string
	failed            map[int]bool
	done              int  // walks up to the end of the last batch
	ended             bool // some walk of the first batch reached the end of a run
	faults            bool // some walk of the first batch met a fault
	cutFirst, faulted bool
	cover             map[string]int64 // steps by kind of event
}

func newTally(m *sim.Machine, props []*properties.Property, opt RandomOptions) *tally {
	res := newResult(ModeRandom, props)
	if opt.Scheduler.Kind != "" && opt.Scheduler.Kind != "uniform" {
		res.Scheduler = opt.Scheduler.String()
	}
	if opt.Object != nil {
		res.Linearizability = &Linearizability{Object: opt.Object.Name, Verdict: Pass, object: opt.Object}
	}
	return &tally{m: m, props: props, opt: opt, res: res, ranges: map[string]*kindRange{}, failed: map[int]bool{}, cover: map[string]int64{}}
}

// more reports whether the search goes on with another batch of walks:
// it stops when the walks are done, when every property has failed, with
// First when any has, and after a fault. It stops too when no walk of the
// first batch reached the end of a run and what is left to judge is judged
// only where a run ends: walks like those would judge nothing, and those
// properties are unknown. Each rule looks at the first batch or at
// failures alone, so that a shard, which sees the first batch and some of
// the failures, never stops before the whole search would.
func (t *tally) more() bool {
	switch {
	case t.done >= t.opt.Walks || t.faulted || t.faults || t.res.Cut != CutNone:
		return false
	case len(t.props) > 0 && len(t.failed) == len(t.props):
		return false
	case t.opt.First && len(t.failed) > 0:
		return false
	case t.done > 0 && !t.ended && onlyAtEnd(t.props, t.failed):
		return false
	}
	return true
}

// first takes in a walk of the first batch, whichever shard it is in.
func (t *tally) first(rec *WalkRecord) {
	t.ended = t.ended || rec.Quiescent > 0
	t.faults = t.faults || rec.Fault
}

func (t *tally) batchDone(hi int) { t.done = hi }

// artifacts are what a search shows of a walk beyond its record: its
// counterexample to a property, shrunk and rendered, its run to a fault,
// its client history.
type artifacts interface {
	counterexample(p int) *Trace
	fault() *Fault
	history() []porcupine.Operation
}

// walkArtifacts are a walk's artifacts, made from its run when asked for.
type walkArtifacts struct {
	o     *walkResult
	props []*properties.Property
	opt   RandomOptions
	seed  uint64
}

func (a *walkArtifacts) counterexample(p int) *Trace {
	o := a.o
	events, detail, cut := shrink(o.m, a.props[p], o.events[:o.viol[p].at], a.opt.ShrinkTime)
	t := buildTrace(o.m, events)
	t.Property, t.Detail, t.ShrinkCut = a.props[p].Name, detail, cut
	t.Seed = &a.seed
	return t
}

func (a *walkArtifacts) fault() *Fault { return newFault(a.o.m, a.o.events, a.o.fault, &a.seed) }

func (a *walkArtifacts) history() []porcupine.Operation { return a.o.history }

// take takes in the record of the walk next in seed order: its counts and
// figures, and its counterexamples to properties that had none (so the
// lowest seed's is kept). It returns false after a walk that met a fault:
// the search ends with it.
func (t *tally) take(rec *WalkRecord, art artifacts) bool {
	res, seed := t.res, t.opt.Seed+uint64(rec.Walk)
	if rec.Fault {
		res.faulted(art.fault())
		t.faulted = true
	}
	for _, p := range rec.Violated {
		t.failed[p] = true
	}
	t.cutFirst = t.cutFirst || rec.CutFirst
	res.Stats.Walks++
	res.Stats.States += int64(rec.Steps) + 1
	res.Stats.Transitions += int64(rec.Steps)
	res.Stats.Depth = max(res.Stats.Depth, rec.Steps)
	res.Stats.Quiescent += int64(rec.Quiescent)
	for _, e := range rec.Events {
		t.cover[e.Event] += e.N
	}
	if rec.Cut {
		res.Stats.WalksCut++
	}
	if rec.Cycled {
		res.Stats.WalksCycled++
	}
	if l := res.Linearizability; l != nil {
		l.Histories++
		l.Operations += rec.Ops
		switch {
		case rec.Lin == porcupine.Illegal && l.Verdict != Fail:
			l.Verdict, l.Seed, l.History = Fail, &seed, art.history()
		case rec.Lin == porcupine.Unknown && l.Verdict == Pass:
			l.Verdict = Unknown
		}
	}
	if rec.Entry != nil {
		if res.Entry == nil {
			res.Entry = &EntryFigures{}
		}
		res.Entry.merge(rec.Entry)
	}
	for _, p := range rec.Violated {
		if pr := &res.Properties[p]; pr.Verdict != Fail {
			pr.Counterexample = art.counterexample(p)
			pr.Verdict, pr.Detail = Fail, pr.Counterexample.Detail
			if t.opt.OnViolation != nil {
				t.opt.OnViolation(FirstViolation{Property: pr.Name, Detail: pr.Detail, Depth: len(pr.Counterexample.Events)})
			}
		}
	}
	if rec.Complete {
		t.complete(rec)
	}
	return !rec.Fault
}

// complete takes in the figures of a walk that ended in a quiescent world.
func (t *tally) complete(rec *WalkRecord) {
	if t.opt.Rounds {
		if t.res.Rounds == nil {
			t.res.Rounds = &Rounds{Min: rec.Rounds, Max: rec.Rounds}
		}
		t.res.Rounds.Min, t.res.Rounds.Max = min(t.res.Rounds.Min, rec.Rounds), max(t.res.Rounds.Max, rec.Rounds)
	}
	// Every kind counts in every complete walk, 0 where it sent none (see
	// end, which settles the kinds this walk did not send).
	total := 0
	for _, kc := range rec.Kinds {
		total += kc.N
	}
	for _, kc := range append([]KindCount{{"total", total}}, rec.Kinds...) {
		r, ok := t.ranges[kc.Kind]
		if !ok {
			r = &kindRange{MessageRange: MessageRange{Kind: kc.Kind, Min: kc.N, Max: kc.N}}
			t.ranges[kc.Kind] = r
			t.order = append(t.order, kc.Kind)
		}
		r.Min, r.Max = min(r.Min, kc.N), max(r.Max, kc.N)
		r.walks++
	}
}

// end settles the verdicts and figures of the walks taken in.
func (t *tally) end() *Result {
	res, opt := t.res, t.opt
	done := t.done
	res.Coverage = newCoverage(t.m, "steps", t.cover)
	if opt.First && len(t.failed) > 0 && !t.faulted {
		res.StoppedFirst = done < opt.Walks || t.cutFirst
	}
	complete := 0
	if r, ok := t.ranges["total"]; ok {
		complete = r.walks
	}
	for _, name := range t.order {
		r := t.ranges[name]
		if r.walks < complete {
			r.Min = 0 // a complete walk sent none
		}
		res.Messages = append(res.Messages, r.MessageRange)
	}
	if res.Stats.Quiescent == 0 {
		// No walk reached the end of a run: a property judged there was
		// never judged, whatever the walks found elsewhere; but a run that
		// goes round a cycle for ever has no end to judge a quiescence
		// property in, so only a walk the depth bound cut leaves one
		// unknown. (An eventually-property is not judged on the cycles.)
		for p, prop := range t.props {
			if prop.When == properties.AtQuiescence && res.Stats.WalksCut == 0 {
				continue
			}
			if pr := &res.Properties[p]; prop.When != properties.Always && pr.Verdict != Fail {
				pr.Verdict = Unknown
				why := fmt.Sprintf("%d of %d cut by the depth bound of %d steps", res.Stats.WalksCut, res.Stats.Walks, opt.MaxDepth)
				if c := res.Stats.WalksCycled; c > 0 {
					why = fmt.Sprintf("%d of %d on a cycle their runs go round for ever", c, res.Stats.Walks)
					if res.Stats.WalksCut > 0 {
						why = fmt.Sprintf("%d of %d cut by the depth bound of %d steps, %d on a cycle their runs go round for ever", res.Stats.WalksCut, res.Stats.Walks, opt.MaxDepth, c)
					}
				}
				pr.Detail = "not judged: no walk reached the end of a run (" + why + ")"
			}
		}
	}
	if res.StoppedFirst {
		for i := range res.Properties {
			if res.Properties[i].Verdict != Fail {
				res.Properties[i].Verdict, res.Properties[i].Detail = Unknown, notJudged
			}
		}
	}
	if t.faulted {
		res.Messages, res.Rounds = nil, nil // as in an exhaustive search: no figures of a search that ended at a fault
	}
	// A random search that finds no counterexample passes the walks it
	// made, no more: the mode and the stats say which.
	return res
}

// kindRange is the messages of a kind over the complete walks that sent
// any, and how many those are.
type kindRange struct {
	MessageRange
	walks int
}

// count counts the messages steps sent, by kind.
func (r *walkResult) count(steps ...*sim.Step) {
	for _, step := range steps {
		if step == nil {
			continue
		}
		for _, snd := range step.Sends {
			k := int(sim.SendKind(snd))
			for len(r.sent) <= k {
				r.sent = append(r.sent, 0)
			}
			if r.sent[k] == 0 {
				r.firstSent = append(r.firstSent, k)
			}
			r.sent[k]++
		}
	}
}

// named gives the walk's counts by kind name, names being kinds' indexes.
func (r *walkResult) named(names []string) []KindCount {
	out := make([]KindCount, len(r.firstSent))
	for i, k := range r.firstSent {
		out[i] = KindCount{names[k], r.sent[k]}
	}
	return out
}

// judge judges the world v of a walk after at steps: its invariants or,
// where the run ends (atEnd), the other properties, those not yet broken.
func (r *walkResult) judge(props []*properties.Property, v properties.View, atEnd bool, at int, sameMonitors bool) {
	// one recover for every property judged: a walk judges after every
	// step, most often every invariant
	p := 0
	defer func() {
		if rec := recover(); rec != nil {
			r.fault = propertyFault(props[p], "Check", rec)
		}
	}()
	for ; p < len(props); p++ {
		prop := props[p]
		if _, ok := r.viol[p]; ok || (prop.When == properties.Always) == atEnd || sameMonitors && prop.MonitorOnly {
			continue
		}
		if d := prop.Judge(v, atEnd); d != "" {
			if r.viol == nil {
				r.viol = map[int]walkViolation{}
			}
			r.viol[p] = walkViolation{at: at, detail: d}
		}
	}
}

// DefaultWalkDepth is the depth bound of a random walk when none is given:
// 100 000 steps, or 2N² at larger N, so that the ordinary runs of the
// built-in protocols end (a ring election of falling ranks takes about
// N²/2 steps).
func DefaultWalkDepth(n int) int { return max(100_000, 2*n*n) }

// onlyAtEnd reports whether every property not yet failed is judged only
// where a run ends (not an invariant).
func onlyAtEnd(props []*properties.Property, failed map[int]bool) bool {
	for p, prop := range props {
		if !failed[p] && prop.When == properties.Always {
			return false
		}
	}
	return true
}

// undecided reports whether a walk judging nprops properties goes on: it
// stops once every one has failed, or with first once any has; one with
// none to judge (for figures or histories) runs to its end.
func (r *walkResult) undecided(nprops int, first bool) bool {
	return nprops == 0 || (len(r.viol) < nprops && !(first && len(r.viol) > 0))
}

// quiesce judges the quiescent world a walk reached: a run ends there.
func (r *walkResult) quiesce(judge func(atEnd bool)) {
	r.quiescent++
	r.complete = true
	judge(true)
}

// atDepth ends a walk that the depth bound stopped, nproto protocol
// events enabled where it stopped: judged there if the run ends there,
// else cut.
func (r *walkResult) atDepth(nproto int, judge func(atEnd bool)) {
	if nproto == 0 {
		r.quiesce(judge)
	} else {
		r.cut = true
	}
}

// forcedRun holds the worlds a walk met since it last had a choice. A
// run in which one event only is enabled at every step, back to a world
// it met, goes round that cycle for ever: the walk ends there. Hashing a
// world costs (its monitors' states grow with N), and most forced runs
// are the last few steps of a run that ends, so the first grace steps of
// each are not hashed: a cycle is found as surely, at most grace steps
// later.
type forcedRun struct {
	seen  map[uint64]bool
	steps int // since the last choice
	grace int
}

// newForcedRun returns the forced run of a walk over n nodes, whose
// grace is n steps: a cycle that passes each node once (a token going
// round a ring) is hashed from its second lap.
func newForcedRun(n int) *forcedRun { return &forcedRun{seen: map[uint64]bool{}, grace: n} }

// goesRound reports whether the walk, with one event only enabled
// (only), is back at a world of its forced run; fingerprint hashes the
// world it is at.
func (f *forcedRun) goesRound(only bool, fingerprint func() uint64) bool {
	if !only {
		if f.steps > f.grace {
			clear(f.seen)
		}
		f.steps = 0
		return false
	}
	if f.steps++; f.steps <= f.grace {
		return false
	}
	fp := fingerprint()
	if f.seen[fp] {
		return true
	}
	f.seen[fp] = true
	return false
}

type walkViolation struct {
	at     int // number of events before the violating world
	detail string
}

type walkResult struct {
	m         *sim.Machine // the tables its events name, if it has a violation or a fault
	kinds     []KindCount  // the messages it sent by kind, in the order each kind was first sent
	cover     eventCounts  // its steps by kind of event (label)
	took      []EventCount // the same by name
	events    []sim.Event  // its run, on a Stepper (see liveWalk)
	steps     int          // its length
	viol      map[int]walkViolation
	sent      []int // messages sent by kind index
	firstSent []int // kind indexes, in the order each was first sent
	complete  bool  // ended in a quiescent world
	rounds    int   // its time in asynchronous rounds, if complete (on a clocked Machine)
	quiescent int64
	cutFirst  bool          // ended at its first violation, with more to walk
	cut       bool          // the depth bound ended it before its run ended
	cycled    bool          // it ended on a cycle its run goes round for ever
	fault     *sim.Fault    // a handler or monitor failed past events; the walk ended
	entry     *EntryFigures // nil unless asked for and entered
	// the client history's verdict and size, and the history itself
	// when it is not linearizable
	lin     porcupine.CheckResult
	ops     int
	history []porcupine.Operation
}

func walk(ctx context.Context, st *sim.Stepper, props []*properties.Property, seed uint64, maxDepth int, figures bool, obj *properties.Object, first bool, sched Scheduler) walkResult {
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	cfg := st.Machine().Config()
	choice := sched.start(rng, cfg.N, cfg.Crashes+cfg.Recoveries+cfg.Partitions+cfg.Losses+cfg.Duplicates)
	w, initSteps := st.Init()
	var r walkResult
	if r.fault = st.TakeFault(); r.fault != nil || ctx.Err() != nil {
		return r
	}
	r.count(initSteps...)
	var clock *entryClock
	if figures {
		clock = newEntryClock(len(initSteps))
		for i, step := range initSteps {
			clock.step(model.NodeID(i), nil, step)
		}
	}
	var rec *properties.Recorder
	if obj != nil {
		rec = obj.NewRecorder()
		for i, step := range initSteps {
			recordStep(rec, nil, model.NodeID(i), step)
		}
	}
	// judge judges the invariants after a step, or, where the run ends
	// (atEnd), the other properties; the invariants were judged already.
	view := st.View(nil)
	judge := func(atEnd bool) { r.judge(props, view.At(w), atEnd, len(r.events), false) }
	judge(false)
	if r.fault != nil {
		return r
	}
	undecided := func() bool { return r.undecided(len(props), first) }
	var evs []sim.Event
	var stut []bool
	var next sim.World
	keys := map[sim.Event]string{}
	forced := newForcedRun(cfg.N)
	// a uniform walk draws among every timeout and action, stutter or
	// not, and draws again without one that stutters (see sim.Walker);
	// the other schedulers choose among the steps that move
	uniform := sched.Kind == "" || sched.Kind == "uniform"
walking:
	for len(r.events) < maxDepth && undecided() {
		if stopped(ctx, len(r.events)) {
			return r // a walk of a batch the search drops
		}
		var nproto int
		if uniform {
			evs, nproto, stut = st.EnabledAll(w, evs[:0], stut[:0])
		} else {
			evs, nproto = st.Enabled(w, evs[:0])
		}
		if r.fault = st.TakeFault(); r.fault != nil {
			break // listing the events ran a faulting timeout or action
		}
		moving := nproto
		if uniform {
			moving -= countTrue(stut[:nproto])
		}
		if forced.goesRound(len(evs) == nproto && moving == 1, func() uint64 { return st.Fingerprint(w) }) {
			r.cycled = true
			break
		}
		var ev sim.Event
		for {
			if nproto == 0 {
				r.quiesce(judge)
				if r.fault != nil {
					break walking
				}
				if len(evs) == 0 || rng.IntN(2) == 0 {
					break walking
				}
				if !undecided() {
					r.cutFirst = first
					break walking
				}
				var ok bool
				if ev, ok = choice.choose(evs, len(r.events)); !ok {
					break walking // the scheduler injects no more faults
				}
			} else {
				r.complete = false
				ev, _ = choice.choose(evs, len(r.events))
			}
			ev = canonical(st.Machine(), evs, ev, keys)
			if !uniform {
				break
			}
			if k := slices.Index(evs, ev); k < nproto && stut[k] {
				evs, stut = slices.Delete(evs, k, k+1), slices.Delete(stut, k, k+1)
				nproto--
			} else if k >= nproto && moving == 0 && nproto > 0 {
				evs, stut = evs[nproto:], stut[nproto:] // a fault, and no step moves
				nproto = 0
			} else {
				break
			}
		}
		var lost uint32 // a lost message, for the clock
		if ev.Kind == sim.Lose && clock != nil {
			lost = st.LostMessage(w, ev)
		}
		var step *sim.Step
		next, step = st.Apply(w, ev, next)
		w, next = next, w
		r.events = append(r.events, ev)
		if r.fault = st.TakeFault(); r.fault != nil {
			break // a step that faulted changed nothing: it is not covered
		}
		r.cover.add(sim.Label(ev, step), 1)
		switch {
		case clock == nil:
		case ev.Kind == sim.Lose:
			clock.lose(ev.From, ev.Node, lost)
		case ev.Kind == sim.Duplicate:
			clock.duplicate(ev.From, ev.Node, ev.Arg)
		default:
			clock.step(ev.Node, &ev, step)
		}
		if rec != nil {
			recordStep(rec, &ev, ev.Node, step)
		}
		r.count(step)
		judge(false)
		if r.fault != nil {
			break
		}
		if !undecided() && len(r.events) < maxDepth {
			r.cutFirst = first
		}
	}
	if r.fault != nil {
		r.steps = len(r.events)
		return r
	}
	if len(r.events) == maxDepth && undecided() {
		_, nproto := st.Enabled(w, evs[:0])
		if r.fault = st.TakeFault(); r.fault != nil {
			r.steps = len(r.events)
			return r
		}
		r.atDepth(nproto, judge)
	}
	r.steps = len(r.events)
	if r.complete {
		r.rounds = st.Rounds(w)
	}
	if clock != nil {
		r.entry = clock.end(r.complete)
	}
	if rec != nil {
		r.linearize(obj, rec)
	}
	return r
}

// stopped reports, every stopEvery steps of a walk, whether its search
// is stopping: a walk at large N can take minutes, and a time bound
// waits for no walk.
func stopped(ctx context.Context, steps int) bool {
	return steps%stopEvery == 0 && ctx.Err() != nil
}

const stopEvery = 1024

// countTrue counts the true flags of bs.
func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// canonical returns the event that a choice of ev among evs, the events
// enabled, stands for once evs are in an order independent of interned
// ids, so that a walk's draws depend on its seed alone: Enabled lists the
// messages of an unordered channel (to deliver, lose or duplicate), and a
// node's timers, by id, and ids depend on what the Machine met first, in
// this walk or in earlier ones. Such events are listed together, each run
// of them in canonical order sorted by content. A scheduler chooses by
// position, kind and node, never by what tells the events of a run apart,
// so the choice of the k-th event of a run stands for the k-th in content
// order, and only the run chosen from is sorted. keys caches EventKey for
// the walk.
func canonical(m *sim.Machine, evs []sim.Event, ev sim.Event, keys map[sim.Event]string) sim.Event {
	same := func(a, b sim.Event) bool {
		return a.Kind == b.Kind && a.Node == b.Node && a.From == b.From && a.Kind != sim.Act
	}
	k := slices.Index(evs, ev)
	lo, hi := k, k+1
	for lo > 0 && same(evs[lo-1], ev) {
		lo--
	}
	for hi < len(evs) && same(evs[hi], ev) {
		hi++
	}
	if hi-lo == 1 {
		return ev
	}
	key := func(e sim.Event) string {
		k, ok := keys[e]
		if !ok {
			k = m.EventKey(e)
			keys[e] = k
		}
		return k
	}
	// the event of rank k-lo among the run's keys (one key lookup per
	// event, not one per comparison)
	type keyed struct {
		key string
		ev  sim.Event
	}
	run := make([]keyed, 0, hi-lo)
	for _, e := range evs[lo:hi] {
		run = append(run, keyed{key(e), e})
	}
	slices.SortFunc(run, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	return run[k-lo].ev
}

// pick draws an event uniformly, except that the partitions enabled (up to
// N²/2 of them, listed together) count as one, and so do the losses and
// the duplications (one per message in flight): a walk partitions, or
// loses a message, about as often as it crashes a given node, whatever N.
func pick(rng *rand.Rand, evs []sim.Event) sim.Event {
	// groups: the runs of events drawn as one choice, [lo, hi) each
	var groups [][2]int
	for i := 0; i < len(evs); {
		j := i + 1
		if k := evs[i].Kind; k == sim.Partition || k == sim.Lose || k == sim.Duplicate {
			for j < len(evs) && evs[j].Kind == k {
				j++
			}
			groups = append(groups, [2]int{i, j})
		}
		i = j
	}
	return evs[draw(rng, len(evs), groups)]
}

// String summarises a result in one line.
func (r *Result) String() string {
	return fmt.Sprintf("%s %s: %d states, %d transitions, depth %d, %.2fs", r.Mode, r.Verdict, r.Stats.States, r.Stats.Transitions, r.Stats.Depth, r.Stats.Seconds)
}
