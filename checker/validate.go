package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// maxCount bounds every count and figure read from a shard: far beyond
// what any walk sends or measures, and small enough that the sums and
// products a merge takes of them (messages over every kind and walk, the
// cross-multiplied ratios of EntryFigures) cannot overflow.
const maxCount = 1 << 31

// traceKinds are the kinds of event a TraceStep may have.
var traceKinds = []string{"deliver", "timeout", "action", "crash", "recover", "partition", "heal", "lose", "duplicate", "tick", "traitor"}

// Validate reports the first thing in t that no trace of a run of n nodes
// holds: initial states that are not the n nodes in order, a node outside
// 0..n-1 anywhere (start-up sends, events, changes, sends), an unknown
// kind of event, a negative position or age, a cycle longer than the run,
// an unknown fairness. A trace may list no initial state (one written by
// hand, for Replay, which rebuilds them). A trace read from a file is
// replayed, rendered and drawn by code that indexes by node: validate it
// first.
func (t *Trace) Validate(n int) error {
	node := func(i int) bool { return i >= 0 && i < n }
	if len(t.Initial) != 0 && len(t.Initial) != n {
		return fmt.Errorf("the trace has %d initial states for %d nodes", len(t.Initial), n)
	}
	for i, s := range t.Initial {
		if s.Node != i {
			return fmt.Errorf("initial state %d is node %d's, not node %d's", i+1, s.Node, i)
		}
	}
	if err := checkSends(t.Start, node, "a start-up send"); err != nil {
		return err
	}
	if len(t.StartObserved) > n {
		return fmt.Errorf("start-up observations of %d nodes, of %d", len(t.StartObserved), n)
	}
	if t.Cycle < 0 || t.Cycle > len(t.Events) {
		return fmt.Errorf("a cycle of %d steps in a run of %d", t.Cycle, len(t.Events))
	}
	if err := t.validHot(); err != nil {
		return err
	}
	if t.Fairness != "" {
		if _, err := ParseFairness(t.Fairness); err != nil {
			return err
		}
	}
	for k, s := range t.Events {
		where := fmt.Sprintf("step %d", k+1)
		switch {
		case !slices.Contains(traceKinds, s.Kind):
			return fmt.Errorf("%s: unknown kind of event %q (%s)", where, s.Kind, strings.Join(traceKinds, ", "))
		case !node(s.Node) || !node(s.From):
			return fmt.Errorf("%s: node n%d or n%d is outside n0..n%d", where, s.Node, s.From, n-1)
		case s.Pos < 0 || s.Age < 0:
			return fmt.Errorf("%s: negative position (%d) or age (%d)", where, s.Pos, s.Age)
		}
		for _, c := range s.Changes {
			if !node(c.Node) {
				return fmt.Errorf("%s: it changes node n%d, outside n0..n%d", where, c.Node, n-1)
			}
		}
		if err := checkSends(s.Sent, node, where+": a send"); err != nil {
			return err
		}
	}
	return nil
}

// shown validates t, a trace a merge shows as it is: it must list its
// initial states, but for a fault at start-up, which has no world.
func shown(t *Trace, n int) error {
	if err := t.Validate(n); err != nil {
		return err
	}
	startUp := t.Fault != "" && len(t.Start) == 0 && len(t.StartObserved) == 0 && len(t.Events) == 0
	if len(t.Initial) == 0 && !startUp {
		return fmt.Errorf("the trace lists no initial states")
	}
	return nil
}

func checkSends(sends []Send, node func(int) bool, what string) error {
	for _, s := range sends {
		if !node(s.From) || !node(s.To) {
			return fmt.Errorf("%s from n%d to n%d names a node outside the run", what, s.From, s.To)
		}
	}
	return nil
}

// Validate reports the first thing in r that no shard of the random search
// opt of m can hold, read from a file or made up: a shard index, walk
// index or property index out of range, walks out of order or of another
// shard, negative or inconsistent counts and figures, message kinds and
// events the protocol does not have, counterexamples to properties the
// search does not check, traces whose nodes are not the run's. opt are the
// options the shards ran with, as for MergeShards, which validates every
// run it is given; a tool that reads shards from files calls it first to
// say which file is wrong.
func (r *ShardRun) Validate(m *Machine, opt RandomOptions) error {
	opt.Shard = Shard{}
	cfg := m.m.Config()
	opt = opt.withDefaults(cfg.N)
	switch want := opt.search(m.m.Name); {
	case r.Count < 1 || r.Index < 0 || r.Index >= r.Count:
		return fmt.Errorf("shard %d/%d: no such shard", r.Index, r.Count)
	case r.Search != want:
		return fmt.Errorf("shard %d/%d is of another search (%+v, not %+v)", r.Index, r.Count, r.Search, want)
	case r.Batches < 0 || r.Batches > batchesOf(opt.Walks):
		return fmt.Errorf("shard %d/%d ran %d batches of a search that has %d", r.Index, r.Count, r.Batches, batchesOf(opt.Walks))
	case r.Cut != CutNone && r.Cut != CutTime:
		return fmt.Errorf("shard %d/%d was cut by %q: only a time limit (\"time\") cuts a shard", r.Index, r.Count, r.Cut)
	case !(r.Seconds >= 0):
		return fmt.Errorf("shard %d/%d ran for %v seconds", r.Index, r.Count, r.Seconds)
	}
	end := min(batchStart(r.Batches), opt.Walks)
	sh := Shard{Index: r.Index, Count: r.Count}
	v := newRecordCheck(m, opt)
	for i := range r.Walks {
		rec := &r.Walks[i]
		switch {
		case rec.Walk < 0 || rec.Walk >= end:
			return fmt.Errorf("shard %d/%d: walk %d is outside the %d walks of its %d batches", r.Index, r.Count, rec.Walk, end, r.Batches)
		case !sh.owns(rec.Walk):
			return fmt.Errorf("shard %d/%d: walk %d is another shard's", r.Index, r.Count, rec.Walk)
		case i > 0 && rec.Walk <= r.Walks[i-1].Walk:
			return fmt.Errorf("shard %d/%d: walk %d comes after walk %d", r.Index, r.Count, rec.Walk, r.Walks[i-1].Walk)
		}
		if err := v.check(rec); err != nil {
			return fmt.Errorf("shard %d/%d, walk %d: %w", r.Index, r.Count, rec.Walk, err)
		}
	}
	return r.checkArtifacts(m)
}

// checkArtifacts validates the counterexamples and fault of r.
func (r *ShardRun) checkArtifacts(m *Machine) error {
	n := m.m.Config().N
	seen := map[string]bool{}
	for _, pr := range r.Counterexamples {
		switch {
		case !slices.ContainsFunc(m.props, func(p *properties.Property) bool { return p.Name == pr.Name }):
			return fmt.Errorf("shard %d/%d has a counterexample to %q, a property the search does not check", r.Index, r.Count, pr.Name)
		case seen[pr.Name]:
			return fmt.Errorf("shard %d/%d has two counterexamples to %s", r.Index, r.Count, pr.Name)
		case pr.Verdict != Fail:
			return fmt.Errorf("shard %d/%d: its counterexample to %s has verdict %q, not %q", r.Index, r.Count, pr.Name, pr.Verdict, Fail)
		}
		seen[pr.Name] = true
		if t := pr.Counterexample; t != nil {
			if err := shown(t, n); err != nil {
				return fmt.Errorf("shard %d/%d: the counterexample to %s: %w", r.Index, r.Count, pr.Name, err)
			}
		}
	}
	if f := r.Fault; f != nil {
		if f.Node != model.None && (f.Node < 0 || int(f.Node) >= n) {
			return fmt.Errorf("shard %d/%d: its fault is at node %d, outside n0..n%d", r.Index, r.Count, f.Node, n-1)
		}
		if f.Trace != nil {
			if err := shown(f.Trace, n); err != nil {
				return fmt.Errorf("shard %d/%d: the run to its fault: %w", r.Index, r.Count, err)
			}
		}
	}
	return nil
}

// batchesOf is the number of batches of a search of walks (see
// batchSize).
func batchesOf(walks int) int {
	k := 0
	for k < 4 && batchStart(k) < walks {
		k++
	}
	if walks > batchStart(4) {
		k = 4 + (walks-batchStart(4)-1)/64 + 1
	}
	return k
}

// recordCheck validates the walk records of a search: what the protocol's
// walks can send and take under its configuration.
type recordCheck struct {
	opt    RandomOptions
	nprops int
	kinds  []string // the message kinds the protocol declares; nil: it declares none
	labels []string // the events it may take; nil: any receipt, timeout or action
	faults []string // the faults its configuration allows
}

func newRecordCheck(m *Machine, opt RandomOptions) *recordCheck {
	v := &recordCheck{opt: opt, nprops: len(m.props)}
	labels, declared := m.m.Expected()
	cfg := m.m.Config()
	if cfg.Timing == model.Bounded {
		labels = append(labels, "tick")
	}
	for _, l := range labels {
		if k, ok := strings.CutPrefix(l, "receive "); ok {
			v.kinds = append(v.kinds, k)
		} else if !strings.HasPrefix(l, "timeout ") && !strings.HasPrefix(l, "action ") {
			v.faults = append(v.faults, l)
		}
	}
	if declared {
		v.labels = labels
		if v.kinds == nil {
			v.kinds = []string{} // it declares that no message is sent
		}
	}
	return v
}

// label reports whether a walk may take events labelled l.
func (v *recordCheck) label(l string) bool {
	if v.labels != nil {
		return slices.Contains(v.labels, l)
	}
	for _, prefix := range []string{"receive ", "timeout ", "action "} {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest != ""
		}
	}
	return slices.Contains(v.faults, l)
}

func (v *recordCheck) check(rec *WalkRecord) error {
	opt := v.opt
	switch {
	case rec.Steps < 0 || rec.Steps > opt.MaxDepth:
		return fmt.Errorf("%d steps, outside 0..%d (the depth bound)", rec.Steps, opt.MaxDepth)
	case rec.Quiescent < 0 || rec.Quiescent > rec.Steps+1:
		return fmt.Errorf("%d quiescent worlds in %d steps", rec.Quiescent, rec.Steps)
	case rec.Complete && rec.Quiescent == 0:
		return fmt.Errorf("complete, yet it met no quiescent world")
	case rec.Rounds < 0 || rec.Rounds > 0 && !(rec.Complete && opt.Rounds):
		return fmt.Errorf("%d rounds, in a walk that is not a complete walk of a search measuring rounds", rec.Rounds)
	case rec.Ops < 0 || rec.Ops > 0 && opt.Object == nil:
		return fmt.Errorf("%d operations, in a search with no client history", rec.Ops)
	case rec.Lin != "" && (opt.Object == nil || !slices.Contains([]porcupine.CheckResult{porcupine.Ok, porcupine.Illegal, porcupine.Unknown}, rec.Lin)):
		return fmt.Errorf("linearizability verdict %q: want Ok, Illegal or Unknown, in a search with a client history", rec.Lin)
	}
	for i, p := range rec.Violated {
		switch {
		case p < 0 || p >= v.nprops:
			return fmt.Errorf("it violates property %d, outside 0..%d, the %d properties checked (with their triggers)", p, v.nprops-1, v.nprops)
		case i > 0 && p <= rec.Violated[i-1]:
			return fmt.Errorf("violated properties %v are not ascending", rec.Violated)
		}
	}
	seen := map[string]bool{}
	for _, kc := range rec.Kinds {
		switch {
		case kc.Kind == "" || kc.Kind == "total" || seen[kc.Kind]:
			return fmt.Errorf("message kind %q is empty, reserved (total) or given twice", kc.Kind)
		case v.kinds != nil && !slices.Contains(v.kinds, kc.Kind):
			return fmt.Errorf("message kind %q is not one of the protocol's (%s)", kc.Kind, strings.Join(v.kinds, ", "))
		case kc.N < 0 || kc.N > maxCount:
			return fmt.Errorf("%d messages of kind %s, outside 0..%d", kc.N, kc.Kind, maxCount)
		}
		seen[kc.Kind] = true
	}
	var steps int64
	clear(seen)
	for _, e := range rec.Events {
		switch {
		case seen[e.Event] || !v.label(e.Event):
			return fmt.Errorf("event %q is given twice, or not one the protocol's walks take under this configuration", e.Event)
		case e.N < 0 || e.N > int64(rec.Steps):
			return fmt.Errorf("%d events %s in %d steps", e.N, e.Event, rec.Steps)
		}
		seen[e.Event] = true
		steps += e.N
	}
	// a walk that faulted counts its last step, which coverage leaves out:
	// no event was taken
	if taken := int64(rec.Steps); steps != taken && (!rec.Fault || steps != taken-1) {
		return fmt.Errorf("its events add up to %d steps, not %d", steps, rec.Steps)
	}
	if rec.Entry != nil {
		if !opt.EntryFigures {
			return fmt.Errorf("entry figures, in a search that does not measure them")
		}
		if err := rec.Entry.check(rec.Complete); err != nil {
			return fmt.Errorf("entry figures: %w", err)
		}
	}
	return nil
}

// check validates the entry figures of one walk: one run with entries,
// complete or not.
func (f *EntryFigures) check(complete bool) error {
	want := 0
	if complete {
		want = 1
	}
	switch {
	case f.Entries < 1 || f.Entries > maxCount:
		return fmt.Errorf("%d entries, outside 1..%d", f.Entries, maxCount)
	case f.Runs != 1 || f.Complete != want:
		return fmt.Errorf("%d runs, %d complete, for one walk, complete %v", f.Runs, f.Complete, complete)
	case f.PerEntry.N != want:
		return fmt.Errorf("%d messages-per-entry figures, for one walk, complete %v", f.PerEntry.N, complete)
	}
	if r := f.PerEntry; r.N > 0 {
		for _, x := range []int{r.MinNum, r.MaxNum} {
			if x < 0 || x > maxCount {
				return fmt.Errorf("messages per entry %d, outside 0..%d", x, maxCount)
			}
		}
		for _, d := range []int{r.MinDen, r.MaxDen} {
			if d < 1 || d > maxCount {
				return fmt.Errorf("messages per entry over %d entries, outside 1..%d", d, maxCount)
			}
		}
		if r.MinNum*r.MaxDen > r.MaxNum*r.MinDen {
			return fmt.Errorf("messages per entry: least %d/%d above most %d/%d", r.MinNum, r.MinDen, r.MaxNum, r.MaxDen)
		}
	}
	for _, d := range []struct {
		name string
		s    IntSet
	}{{"client delay", f.ClientDelay}, {"synchronization delay", f.SyncDelay}} {
		s := d.s
		switch {
		case s.N < 0 || s.N > f.Entries:
			return fmt.Errorf("%s measured %d times over %d entries", d.name, s.N, f.Entries)
		case s.N > 0 && (s.Min < 0 || s.Min > s.Max || s.Max > maxCount):
			return fmt.Errorf("%s %d..%d: want 0 ≤ least ≤ most ≤ %d", d.name, s.Min, s.Max, maxCount)
		}
	}
	return nil
}
