package checker

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/vigil-check/vigil/properties"
)

// Shard is one part of a random search split over machines: the walks
// whose index is Index modulo Count (Count ≥ 1). Each shard of a search is
// run with the same options but Shard, and MergeShards combines their
// ShardRuns into the result the whole search gives on one machine.
type Shard struct {
	Index, Count int
}

// ParseShard reads I/K, 0 ≤ I < K.
func ParseShard(s string) (Shard, error) {
	i, k, ok := strings.Cut(s, "/")
	idx, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(k)
	if !ok || err1 != nil || err2 != nil || count < 1 || idx < 0 || idx >= count {
		return Shard{}, fmt.Errorf("shard %q: want I/K, the shard I from 0 to K-1 of K", s)
	}
	return Shard{Index: idx, Count: count}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// owns reports whether walk i is the shard's.
func (s Shard) owns(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// walksOf lists the walks of batch [lo, hi) that the shard walks: its
// own, and every walk of the first batch, which tells whether walks end
// (see tally.more).
func (s Shard) walksOf(batch, lo, hi int) []int {
	var mine []int
	for i := lo; i < hi; i++ {
		if batch == 0 || s.owns(i) {
			mine = append(mine, i)
		}
	}
	return mine
}

// WalkRecord is what a random search keeps of one walk to decide its
// verdicts and figures: a shard reports one per walk it ran.
type WalkRecord struct {
	Walk      int  `json:"walk"` // its index: its seed is the search's Seed plus Walk
	Steps     int  `json:"steps"`
	Quiescent int  `json:"quiescent,omitempty"` // quiescent worlds it met
	Complete  bool `json:"complete,omitempty"`  // it ended in a quiescent world
	Cut       bool `json:"cut,omitempty"`       // the depth bound ended it before its run ended
	Cycled    bool `json:"cycled,omitempty"`    // it ended on a cycle its run goes round for ever
	CutFirst  bool `json:"cut_first,omitempty"` // it ended at its first violation (First) with more to walk
	// Rounds is its time in asynchronous rounds, if complete and measured.
	Rounds int `json:"rounds,omitempty"`
	// Kinds are the messages it sent by kind, in the order each kind was
	// first sent.
	Kinds []KindCount `json:"kinds,omitempty"`
	// Entry: its mutual-exclusion figures, if asked for and entered.
	Entry *EntryFigures `json:"entry,omitempty"`
	// Lin is porcupine's verdict on its client history, if checked, and
	// Ops the history's operations.
	Lin porcupine.CheckResult `json:"linearizable,omitempty"`
	Ops int                   `json:"operations,omitempty"`
	// Violated are the indexes of the properties it broke, ascending.
	Violated []int `json:"violated,omitempty"`
	// Fault: a handler or monitor failed in it.
	Fault bool `json:"fault,omitempty"`
	// Events are its steps by kind of event (see Coverage).
	Events []EventCount `json:"events,omitempty"`
}

// KindCount is how many messages of a kind a walk sent.
type KindCount struct {
	Kind string `json:"kind"`
	N    int    `json:"n"`
}

// record is the walk's record, as walk i of its search.
func (r *walkResult) record(i int) WalkRecord {
	rec := WalkRecord{Walk: i, Steps: r.steps, Quiescent: int(r.quiescent), Complete: r.complete,
		Cut: r.cut, Cycled: r.cycled, CutFirst: r.cutFirst, Kinds: r.kinds, Entry: r.entry,
		Lin: r.lin, Ops: r.ops, Fault: r.fault != nil, Events: r.took}
	if r.complete {
		rec.Rounds = r.rounds
	}
	for p := range r.viol {
		rec.Violated = append(rec.Violated, p)
	}
	slices.Sort(rec.Violated)
	return rec
}

// Search names a random search, so that shards of different searches are
// not merged: every option that changes a walk or the verdicts.
type Search struct {
	Protocol     string `json:"protocol"`
	Walks        int    `json:"walks"`
	Seed         uint64 `json:"seed"`
	MaxDepth     int    `json:"depth"`
	HotBound     int    `json:"hot_bound,omitempty"`
	Scheduler    string `json:"scheduler"`
	First        bool   `json:"first,omitempty"`
	Rounds       bool   `json:"rounds,omitempty"`
	EntryFigures bool   `json:"entry_figures,omitempty"`
	Object       string `json:"object,omitempty"`
}

func (opt RandomOptions) search(protocol string) Search {
	s := Search{Protocol: protocol, Walks: opt.Walks, Seed: opt.Seed, MaxDepth: opt.MaxDepth, HotBound: opt.HotBound,
		Scheduler: opt.Scheduler.String(), First: opt.First, Rounds: opt.Rounds, EntryFigures: opt.EntryFigures}
	if opt.Object != nil {
		s.Object = opt.Object.Name
	}
	return s
}

// ShardRun is what a shard of a random search reports (Result.Shard): a
// record of each of its walks, in order, and the counterexamples, fault
// and history of its walks of lowest seed, which are the whole search's
// when their walks are the lowest of all.
type ShardRun struct {
	Index  int    `json:"index"`
	Count  int    `json:"count"`
	Search Search `json:"search"`
	// Batches is the number of batches of the whole search (see
	// batchSize) whose walks the shard ran; Cut is CutTime if its time
	// limit stopped it before it was done.
	Batches int          `json:"batches"`
	Cut     Cut          `json:"cut,omitempty"`
	Walks   []WalkRecord `json:"walks"`
	// Counterexamples: the first of the shard's walks to break each
	// property, shrunk; Fault: its first walk to meet a fault; Illegal:
	// the seed of its first walk whose client history is not
	// linearizable.
	Counterexamples []PropertyResult `json:"counterexamples,omitempty"`
	Fault           *Fault           `json:"fault,omitempty"`
	Illegal         *uint64          `json:"illegal_history_seed,omitempty"`
	Seconds         float64          `json:"seconds"`
}

// takeResult gives the run what the shard's search found, res: its cut,
// counterexamples, fault and illegal history, and counts its walks in
// res (the shard's own).
func (run *ShardRun) takeResult(res *Result) {
	run.Cut = res.Cut
	run.Counterexamples = res.Failed()
	run.Fault = res.Fault
	if l := res.Linearizability; l != nil && l.Seed != nil {
		run.Illegal = l.Seed
	}
	res.Shard = run
	res.Stats.Walks = len(run.Walks)
}

// MergeShards combines the runs of the K shards of one random search of m
// into the result of the whole search on one machine: the same walks
// taken in the same order, the same stops, verdicts, figures and
// counterexamples (that of the lowest seed for each property). opt are
// the options the shards ran with, Shard aside; the runs must agree with
// them, and each must be valid (see ShardRun.Validate): a run that is not
// is an error, never a panic. Only the time differs: that of the slowest shard. If a shard was
// cut by its time limit, the merged search is cut where that shard
// stopped. The client history of a walk that is not linearizable stays
// with its shard; the result names its seed (Linearizability.Seed), and a
// search of that walk alone finds it again.
func MergeShards(m *Machine, opt RandomOptions, runs []*ShardRun) (*Result, error) {
	if len(runs) == 0 {
		return nil, errors.New("no shard to merge")
	}
	opt.Shard = Shard{}
	opt = opt.withDefaults(m.m.Config().N)
	for _, r := range runs {
		if r == nil {
			return nil, errors.New("a shard's run is nil")
		}
		if err := r.Validate(m, opt); err != nil {
			return nil, err
		}
	}
	k := runs[0].Count
	given := map[int]*ShardRun{} // a map: k, read from a file, may be anything
	for _, r := range runs {
		switch {
		case r.Count != k:
			return nil, fmt.Errorf("shard %d/%d is not one of %d shards", r.Index, r.Count, k)
		case given[r.Index] != nil:
			return nil, fmt.Errorf("shard %d/%d is given twice", r.Index, k)
		}
		given[r.Index] = r
	}
	for i := range len(runs) + 1 {
		if given[i] == nil && i < k {
			return nil, fmt.Errorf("shard %d/%d is missing", i, k)
		}
	}
	byIndex := make([]*ShardRun, k)
	for i, r := range given {
		byIndex[i] = r
	}
	t := newTally(m.m, m.props, opt)
	next := make([]int, k) // each shard's next record
	art := &shardArtifacts{props: m.props}
	for batch := 0; t.more(); batch++ {
		for _, r := range byIndex {
			if batch < r.Batches {
				continue
			}
			if r.Cut == CutNone {
				return nil, fmt.Errorf("shard %d/%d stopped after %d batches, before the search it is part of", r.Index, k, r.Batches)
			}
			t.res.Cut = r.Cut
		}
		if t.res.Cut != CutNone {
			break
		}
		lo, hi := batchAt(batch, opt.Walks)
		for i := lo; i < hi; i++ {
			r := byIndex[i%k]
			if next[r.Index] >= len(r.Walks) || r.Walks[next[r.Index]].Walk != i {
				return nil, fmt.Errorf("shard %d/%d has no record of walk %d", r.Index, k, i)
			}
			rec := &r.Walks[next[r.Index]]
			next[r.Index]++
			if batch == 0 {
				t.first(rec)
			}
			art.run, art.seed = r, opt.Seed+uint64(i)
			if !t.take(rec, art) {
				break
			}
		}
		if art.err != nil {
			return nil, art.err
		}
		t.batchDone(hi)
	}
	res := t.end()
	res.finish(time.Now())
	res.settleSometimes()
	res.Stats.Seconds, res.Stats.StatesPerS = 0, 0
	for _, r := range byIndex {
		res.Stats.Seconds = max(res.Stats.Seconds, r.Seconds)
	}
	if res.Stats.Seconds > 0 {
		res.Stats.StatesPerS = float64(res.Stats.States) / res.Stats.Seconds
	}
	return m.report(res), nil
}

// shardArtifacts are the artifacts of a walk of a shard: those of its
// walks of lowest seed, the only ones a merge asks for.
type shardArtifacts struct {
	props []*properties.Property
	run   *ShardRun
	seed  uint64
	err   error // the first artifact missing
}

func (a *shardArtifacts) missing(what string) {
	if a.err == nil {
		a.err = fmt.Errorf("shard %d/%d has no %s of the walk of seed %d", a.run.Index, a.run.Count, what, a.seed)
	}
}

func (a *shardArtifacts) counterexample(p int) *Trace {
	for _, pr := range a.run.Counterexamples {
		if t := pr.Counterexample; pr.Name == a.props[p].Name && t != nil && t.Seed != nil && *t.Seed == a.seed {
			return t
		}
	}
	a.missing("counterexample to " + a.props[p].Name)
	return &Trace{Property: a.props[p].Name}
}

func (a *shardArtifacts) fault() *Fault {
	if f := a.run.Fault; f != nil && f.Trace != nil && f.Trace.Seed != nil && *f.Trace.Seed == a.seed {
		return f
	}
	a.missing("fault")
	return &Fault{}
}

func (a *shardArtifacts) history() []porcupine.Operation { return nil }
