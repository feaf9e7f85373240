package checker

import (
	"fmt"

	"github.com/anishathalye/porcupine"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/properties"
)

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
	case settled(t.props, t.found):
		return false
	case t.opt.First && anyViolation(t.props, t.found):
		return false
	case t.done > 0 && !t.ended && onlyAtEnd(t.props, t.failed, t.opt.HotBound > 0):
		return false
	}
	return true
}

// takeBatch takes in the walks of a batch that ran from walk lo (outs,
// by index from lo; mine, the walks run): every walk of the first batch
// tells whether walks end, and each walk of the shard's own is taken in,
// in seed order, and recorded in run (a shard's, or nil).
func (t *tally) takeBatch(batch, lo int, outs []walkResult, mine []int, run *ShardRun) {
	if batch == 0 {
		for i := range outs {
			rec := outs[i].record(lo + i)
			t.first(&rec)
		}
	}
	for _, i := range mine {
		if !t.opt.Shard.owns(i) {
			continue
		}
		o := &outs[i-lo]
		rec := o.record(i)
		if run != nil {
			run.Walks = append(run.Walks, rec)
		}
		if !t.take(&rec, &walkArtifacts{o: o, props: t.props, opt: t.opt, seed: t.opt.Seed + uint64(i)}) {
			break // a fault: the search ends with this walk
		}
	}
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
	hot := 0
	if o.viol[p].hot > 0 {
		hot = a.opt.HotBound
	}
	events, detail, stretch, cut := shrink(o.m, a.props[p], o.events[:o.viol[p].at], hot, a.opt.ShrinkTime)
	t := buildTrace(o.m, events)
	t.Property, t.Detail, t.ShrinkCut = a.props[p].Name, detail, cut
	if stretch > 0 {
		markHot(t, o.m, events, stretch, hot)
	}
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
			if t.opt.OnViolation != nil && !pr.Sometimes {
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

// found reports whether a walk taken in broke property p (reached it, for
// a sometimes-property).
func (t *tally) found(p int) bool { return t.failed[p] }

// end settles the verdicts and figures of the walks taken in.
func (t *tally) end() *Result {
	res, opt := t.res, t.opt
	done := t.done
	res.Coverage = newCoverage(t.m, "steps", t.cover)
	if opt.First && anyViolation(t.props, t.found) && !t.faulted {
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
			if pr := &res.Properties[p]; !prop.EveryWorld() && pr.Verdict != Fail {
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

// onlyAtEnd reports whether every property not yet failed is judged only
// where a run ends (not an invariant, nor, with hot, an Eventually
// property, which a walk that stays hot breaks anywhere).
func onlyAtEnd(props []*properties.Property, failed map[int]bool, hot bool) bool {
	for p, prop := range props {
		if !failed[p] && (prop.EveryWorld() || hot && prop.When == properties.Eventually) {
			return false
		}
	}
	return true
}
