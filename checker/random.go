package checker

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-check/vigil/internal/sim"

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
	// HotBound, if above 0, is the number of steps an obligation of an
	// Eventually property may stay outstanding on a walk without a break
	// (see properties.Property.Pending, the hot state of its monitor): a
	// walk on which one stays outstanding longer is a counterexample to
	// the property, a possible livelock, which is no proof (the run may
	// yet meet it), shown with the stretch of steps that kept it
	// (Trace.Hot). 0 turns the check off; the command line's default is
	// DefaultHotBound.
	HotBound int
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
	return m.report(m.random(ctx, opt))
}

// random is Random before report: with the verdicts of the triggers not
// asked for.
func (m *Machine) random(ctx context.Context, opt RandomOptions) *Result {
	res := random(ctx, m.m, m.props, opt)
	res.settleSometimes()
	return res
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
	ctx, overMemory, stopWatch, bound := watchMemory(ctx, opt.MaxMemory)
	defer stopWatch()
	t := newTally(m, props, opt)
	var run *ShardRun
	if opt.Shard.Count >= 1 {
		run = &ShardRun{Index: opt.Shard.Index, Count: opt.Shard.Count, Search: opt.search(m.Name)}
	}
	pool := newWalkPool(m, props, opt)
	progress := newReporter(opt.Progress)
	for batch := 0; t.more(); batch++ {
		lo, hi := batchAt(batch, opt.Walks)
		mine := opt.Shard.walksOf(batch, lo, hi)
		outs := pool.batch(ctx, mine, lo, hi, maps.Clone(t.failed))
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
		t.takeBatch(batch, lo, outs, mine, run)
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
		run.takeResult(res)
	}
	res.finish(start)
	if run != nil {
		run.Seconds = res.Stats.Seconds
	}
	return res
}

// walkPool is the workers of a random search. Each runs its walks on
// tables of its own, which it drops for fresh ones whenever they outgrow
// walkTables: what a search holds does not grow with the walks it has
// made, and a small protocol keeps its handlers memoised from batch to
// batch. Walks draw their choices from their seeds alone (see canonical),
// so the tables change no walk.
type walkPool struct {
	m     *sim.Machine
	props []*properties.Property
	opt   RandomOptions
	// live: the walks run on Walkers (see walksLive), their runs found
	// again on Steppers
	live bool
	// per worker, once it has had a walk to run (CheckRandomFits counts
	// no more): its tables, a Stepper on them, and its Walker
	tables   []*sim.Machine
	steppers []*sim.Stepper
	walkers  []sim.Walker
}

func newWalkPool(m *sim.Machine, props []*properties.Property, opt RandomOptions) *walkPool {
	workers := workerCount(opt.Workers)
	return &walkPool{m: m, props: props, opt: opt, live: walksLive(m, opt),
		tables: make([]*sim.Machine, workers), steppers: make([]*sim.Stepper, workers), walkers: make([]sim.Walker, workers)}
}

// batch runs the walks mine of the batch [lo, hi) on the workers, and
// returns their results by index from lo. known: the properties that
// failed before the batch, whose violations need no run.
func (p *walkPool) batch(ctx context.Context, mine []int, lo, hi int, known map[int]bool) []walkResult {
	outs := make([]walkResult, hi-lo)
	var next atomic.Int64
	var wg sync.WaitGroup
	for wi := range p.tables {
		wg.Go(func() {
			for {
				j := int(next.Add(1) - 1)
				if j >= len(mine) || ctx.Err() != nil {
					return
				}
				i := mine[j]
				outs[i-lo] = p.walk(ctx, wi, i, known)
			}
		})
	}
	wg.Wait()
	return outs
}

// walk runs walk i on worker wi's tables, made at its first walk and
// made afresh once they outgrow walkTables.
func (p *walkPool) walk(ctx context.Context, wi, i int, known map[int]bool) walkResult {
	if p.tables[wi] == nil {
		p.tables[wi] = p.m.Fresh()
		p.steppers[wi] = p.tables[wi].NewStepper()
	}
	if p.live && p.walkers[wi] == nil {
		p.walkers[wi] = p.m.NewWalker()
	}
	wm, st, lw := p.tables[wi], p.steppers[wi], p.walkers[wi]
	opt, seed := p.opt, p.opt.Seed+uint64(i)
	var o walkResult
	if lw != nil {
		o = liveWalk(ctx, lw, p.props, seed, opt.MaxDepth, opt.HotBound, opt.First, opt.EntryFigures, opt.Object, opt.Scheduler)
		o.kinds = o.named(lw.Kinds())
		o.took = o.cover.named(lw.Labels())
		if o.fault != nil || newViolation(o.viol, known) {
			o = runOf(ctx, st, p.props, opt, seed, o)
		}
	} else {
		o = walk(ctx, st, p.props, seed, opt.MaxDepth, opt.HotBound, opt.EntryFigures, opt.Object, opt.First, opt.Scheduler)
		o.kinds = o.named(wm.Kinds())
		o.took = o.cover.named(wm.Labels())
	}
	if o.fault != nil || newViolation(o.viol, known) {
		o.m = wm // to shrink and render its run
	}
	if wm.TableBytes() > walkTables {
		p.tables[wi] = p.m.Fresh()
		p.steppers[wi] = p.tables[wi].NewStepper()
	}
	return o
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
	o := walk(ctx, st, props, seed, depth, opt.HotBound, false, nil, opt.First, opt.Scheduler)
	same := (o.fault != nil) == (live.fault != nil) && len(o.viol) == len(live.viol)
	for p, v := range live.viol {
		same = same && o.viol[p] == v
	}
	if !same {
		o = walk(ctx, st, props, seed, opt.MaxDepth, opt.HotBound, false, nil, opt.First, opt.Scheduler)
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
