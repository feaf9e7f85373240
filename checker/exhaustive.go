package checker

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

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
	// Progress, if set, receives a status line about once a second.
	Progress io.Writer
}

// chunk is a slice of one BFS level expanded by one worker, and its outcome.
type chunk struct {
	lo, hi int // source states, by number
	// per successor, in source order: the known state number (>= 0) or
	// -1-k for the k-th candidate of this chunk; the step taken.
	succ  []int64
	steps []*model.Step
	nsucc []int32 // successors per source
	// candidates: states not in the visited set when the level began
	cfp    []uint64
	cw     []uint64 // concatenated worlds
	coff   []int32  // start of candidate k's world in cw; len = candidates+1
	candAt []int    // position in succ of each candidate
	quiet  []bool   // per source: quiescent
	viol   []violation
	trans  int64
}

type violation struct {
	prop   int
	source int   // >= 0: a quiescent source state
	cand   int   // >= 0: a candidate of the chunk
	state  int64 // resolved state number
	detail string
}

const chunkSize = 512

// Exhaustive explores every world reachable from m's initial world, breadth
// first, and checks props in each: invariants in every world, quiescence
// properties in every quiescent world. The first counterexample of each
// property is among the shortest. The outcome does not depend on Workers.
func Exhaustive(ctx context.Context, m *model.Machine, props []*properties.Property, opt Options) *Result {
	start := time.Now()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	maxMem := opt.MaxMemory
	if maxMem == 0 {
		maxMem = 16 << 30
	}
	if opt.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Time)
		defer cancel()
	}
	res := newResult("exhaustive", props)
	steppers := make([]*model.Stepper, workers)
	for i := range steppers {
		steppers[i] = m.NewStepper()
	}
	e := &search{m: m, props: props, res: res, st: steppers[0], vis: newVisited(1 << 16)}
	if opt.Messages {
		e.g = &graph{}
	}

	w0, initSteps := e.st.Init()
	e.vis.insert(fingerprint(w0))
	e.parent = append(e.parent, 0)
	for p, prop := range props {
		if prop.When == properties.Always {
			if d := prop.Check(properties.View{S: e.st, W: w0}); d != "" {
				e.record(violation{prop: p, state: 0, detail: d})
			}
		}
	}
	frontier := append([]uint64(nil), w0...)
	foff := []int32{0, int32(len(w0))}
	lo := 0 // number of the frontier's first state
	var (
		lastProgress = time.Now()
		memSample    = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	)
	for depth := 0; ; depth++ {
		n := len(foff) - 1
		if n == 0 || e.allFailed() {
			break
		}
		res.Stats.Depth = depth
		if opt.MaxDepth > 0 && depth >= opt.MaxDepth {
			// Judge the frontier's quiescence, but expand it no further.
			e.expandLevel(ctx, steppers, frontier, foff, lo, true)
			if e.stopped == "" {
				e.cut("depth")
			}
			break
		}
		chunks := e.expandLevel(ctx, steppers, frontier, foff, lo, false)
		if e.stopped != "" {
			break
		}
		// Phase 2, sequential and in order: number the new states.
		var next []uint64
		noff := []int32{0}
		for _, c := range chunks {
			res.Stats.Transitions += c.trans
			k := 0
			for s := c.lo; s < c.hi; s++ {
				if e.g != nil {
					e.g.startNode(c.quiet[s-c.lo])
				}
				for j := int32(0); j < c.nsucc[s-c.lo]; j++ {
					t := c.succ[k]
					if t < 0 {
						cand := int(-1 - t)
						num, fresh := e.vis.insert(c.cfp[cand])
						if fresh {
							e.parent = append(e.parent, uint32(s))
							next = append(next, c.cw[c.coff[cand]:c.coff[cand+1]]...)
							noff = append(noff, int32(len(next)))
						}
						t = int64(num)
						c.succ[k] = t
					}
					if e.g != nil {
						e.g.addEdge(uint32(t), c.steps[k])
					}
					k++
				}
			}
			for _, v := range c.viol {
				if v.cand >= 0 {
					v.state = c.succ[c.candAt[v.cand]]
				} else {
					v.state = int64(v.source)
				}
				e.record(v)
			}
		}
		lo += n
		frontier, foff = next, noff
		res.Stats.States = int64(e.vis.len())
		if opt.MaxStates > 0 && res.Stats.States >= opt.MaxStates && len(foff) > 1 {
			e.cut("states")
			break
		}
		metrics.Read(memSample)
		if used := memSample[0].Value.Uint64(); used > maxMem {
			e.cut("memory")
			break
		}
		if opt.Progress != nil && time.Since(lastProgress) > time.Second {
			lastProgress = time.Now()
			el := time.Since(start).Seconds()
			fmt.Fprintf(opt.Progress, "vigil: depth %d, %d states (%.0f/s), %d in frontier\n",
				depth+1, res.Stats.States, float64(res.Stats.States)/el, len(foff)-1)
		}
	}
	if e.stopped != "" {
		res.Cut = e.stopped
	}
	res.Stats.States = int64(e.vis.len())
	res.Stats.Quiescent = e.quiescent
	s := float64(res.Stats.States)
	res.Stats.Collision = min(1, s*s/(1<<65))
	res.Stats.VisitedBytes = float64(e.vis.bytes()) / max(1, s)
	for p := range props {
		if v, ok := e.first[p]; ok {
			res.Properties[p].Verdict = Fail
			res.Properties[p].Detail = v.detail
			res.Properties[p].Counterexample = e.trace(v, props[p])
		}
	}
	if e.g != nil && res.Cut == "" {
		res.Messages = e.g.messageRanges(m.Kinds(), initSteps)
	}
	res.finish(props, start)
	return res
}

type search struct {
	m         *model.Machine
	props     []*properties.Property
	res       *Result
	st        *model.Stepper
	vis       *visited
	parent    []uint32
	g         *graph
	first     map[int]violation
	quiescent int64
	stopped   string
}

func (e *search) cut(why string) {
	if e.stopped == "" {
		e.stopped = why
	}
}

func (e *search) record(v violation) {
	if e.first == nil {
		e.first = map[int]violation{}
	}
	if _, ok := e.first[v.prop]; !ok {
		e.first[v.prop] = v
	}
}

func (e *search) failed(p int) bool { _, ok := e.first[p]; return ok }

func (e *search) allFailed() bool { return len(e.first) == len(e.props) }

// expandLevel is phase 1: workers expand chunks of the frontier in parallel,
// looking successors up in the visited set (read-only during the phase) and
// checking invariants on those not seen. With judgeOnly the frontier is only
// judged for quiescence.
func (e *search) expandLevel(ctx context.Context, steppers []*model.Stepper, frontier []uint64, foff []int32, lo int, judgeOnly bool) []*chunk {
	n := len(foff) - 1
	chunks := make([]*chunk, (n+chunkSize-1)/chunkSize)
	var nextChunk atomic.Int64
	var wg sync.WaitGroup
	var quiescent atomic.Int64
	var cancelled atomic.Bool
	for _, st := range steppers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := expander{e: e, st: st}
			for {
				ci := int(nextChunk.Add(1) - 1)
				if ci >= len(chunks) || cancelled.Load() {
					return
				}
				if ctx.Err() != nil {
					cancelled.Store(true)
					return
				}
				a, b := ci*chunkSize, min(n, (ci+1)*chunkSize)
				chunks[ci] = x.expand(frontier, foff, a, b, lo, judgeOnly)
				quiescent.Add(x.quiet)
				x.quiet = 0
			}
		}()
	}
	wg.Wait()
	e.quiescent += quiescent.Load()
	if cancelled.Load() {
		e.cut("time")
		return nil
	}
	if judgeOnly {
		for _, c := range chunks {
			for _, v := range c.viol {
				v.state = int64(v.source)
				e.record(v)
			}
		}
	}
	return chunks
}

type expander struct {
	e     *search
	st    *model.Stepper
	evs   []model.Event
	buf   model.World
	quiet int64
}

func (x *expander) expand(frontier []uint64, foff []int32, a, b, lo int, judgeOnly bool) *chunk {
	e := x.e
	c := &chunk{lo: lo + a, hi: lo + b, coff: []int32{0}}
	for i := a; i < b; i++ {
		w := model.World(frontier[foff[i]:foff[i+1]])
		var nproto int
		x.evs, nproto = x.st.Enabled(w, x.evs[:0])
		quiet := nproto == 0
		c.quiet = append(c.quiet, quiet)
		if quiet {
			x.quiet++
			for p, prop := range e.props {
				if prop.When == properties.AtQuiescence {
					if d := prop.Check(properties.View{S: x.st, W: w}); d != "" {
						c.viol = append(c.viol, violation{prop: p, source: lo + i, cand: -1, detail: d})
					}
				}
			}
		}
		if judgeOnly {
			c.nsucc = append(c.nsucc, 0)
			continue
		}
		c.nsucc = append(c.nsucc, int32(len(x.evs)))
		c.trans += int64(len(x.evs))
		for _, ev := range x.evs {
			var step *model.Step
			x.buf, step = x.st.Apply(w, ev, x.buf)
			fp := fingerprint(x.buf)
			c.steps = append(c.steps, step)
			if num := e.vis.lookup(fp); num >= 0 {
				c.succ = append(c.succ, int64(num))
				continue
			}
			cand := len(c.cfp)
			c.succ = append(c.succ, -1-int64(cand))
			c.candAt = append(c.candAt, len(c.succ)-1)
			c.cfp = append(c.cfp, fp)
			c.cw = append(c.cw, x.buf...)
			c.coff = append(c.coff, int32(len(c.cw)))
			for p, prop := range e.props {
				if prop.When == properties.Always && !e.failed(p) {
					if d := prop.Check(properties.View{S: x.st, W: x.buf}); d != "" {
						c.viol = append(c.viol, violation{prop: p, source: -1, cand: cand, detail: d})
					}
				}
			}
		}
	}
	return c
}
