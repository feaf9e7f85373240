package checker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-check/vigil/properties"
)

// The defaults of an auto search (see Auto).
const (
	// AutoWalksN is the number of nodes from which Auto runs random walks
	// alone.
	AutoWalksN = 8
	// DefaultProbe is the time of the random probe that starts an auto
	// search; ProbeWalks caps its walks, so that a small protocol whose
	// walks are quick does not spend the whole of it.
	DefaultProbe = time.Second
	ProbeWalks   = 2000
	// DefaultBudget is the exhaustive part's time bound when neither the
	// options nor a bound on the whole search set one.
	DefaultBudget = 60 * time.Second
)

// AutoOptions tune an auto search (see Auto).
type AutoOptions struct {
	// Exhaustive bounds and tunes the exhaustive part: its depth, state,
	// memory and time bounds cut it (Time 0: Budget).
	Exhaustive Options
	// Random tunes the random walks that run after an exhaustive part a
	// bound cut (Walks, Seed, MaxDepth, Time: 0 for the exhaustive part's
	// budget, as walks with figures or client histories can take long),
	// and the probe's walks,
	// but for their number and time: the probe takes its Seed, MaxDepth,
	// Workers, Scheduler and ShrinkTime, and looks for counterexamples
	// alone (no figures, rounds, client histories or shards). Random.OnViolation
	// and Exhaustive.OnViolation hear of each part's first violations,
	// FirstViolation.Part saying which part found them.
	Random RandomOptions
	// Probe is the random probe's time (0: DefaultProbe; below 0: no
	// probe). It also stops after ProbeWalks walks, or once every
	// property has failed.
	Probe time.Duration
	// Budget bounds the exhaustive part's time when Exhaustive.Time is 0
	// (0: three quarters of what Time leaves after the probe, so that the
	// walks have the rest; DefaultBudget if Time is 0 too).
	Budget time.Duration
	// Time bounds the whole search (0: no bound): each part stops at the
	// end of it.
	Time time.Duration
	// OnPart, if set, is told of each part as it ends.
	OnPart func(PartStats)
}

// PartStats describe a part of an auto search: "probe" (the random
// probe), "exhaustive", or "walks" (the random walks after a cut).
type PartStats struct {
	Part string `json:"part"`
	// Cut names the bound that stopped the part, as Result.Cut does.
	Cut Cut `json:"cut,omitempty"`
	// TimeBound is the part's time bound in seconds (0: none).
	TimeBound float64 `json:"time_bound_seconds,omitempty"`
	Stats     Stats   `json:"stats"`
}

// Auto searches m as well as it can within bounds: it reports a violation
// as soon as random walks meet one, proves what an exhaustive search can
// prove within its budget, and walks where that search was cut. Below
// AutoWalksN nodes it runs, in turn:
//
//  1. a random probe: walks for at most Probe, so that a violation that
//     walks meet at once is told (Random.OnViolation) before the
//     exhaustive search spends its budget;
//  2. the exhaustive search, within Budget and the bounds of Exhaustive.
//     If no bound cuts it, its result is the answer, with its shortest
//     counterexamples: Mode ModeExhaustive, the probe in Parts alone (its
//     walks are in no stats and none of its counterexamples is kept);
//  3. if a bound cut it, random walks for the rest (Random), over the
//     properties still without a counterexample, within Random.Time
//     (default: the exhaustive part's budget). Each property is then
//     decided by the strongest part (PropertyResult.By): a counterexample
//     of the exhaustive search (among the shortest), else the probe's,
//     else the walks'; a property with none is Unknown. The result's Mode
//     is ModeAuto, its Stats the exhaustive part's (Seconds: the whole
//     search's), its figures (messages, rounds, entry figures, client
//     histories, coverage) the walks', and Parts has each part's stats.
//
// With no property to check, nothing is left for a probe or walks to
// find: Auto is the exhaustive search alone, for the protocol's states and
// figures, within the budget or the whole of Time, and its result is
// Exhaustive's.
//
// A fault in any part ends the search there, as it ends every search
// (Result.Fault); a canceled context stops the part running and returns
// what the parts found so far (CutCanceled).
//
// The budget of a minute is what a person at a terminal waits for a proof
// without wondering whether the search will ever end; at the few hundred
// thousand states a second of an exhaustive search on two cores, it covers
// some 20 million states (about a gigabyte), far more than any shipped
// scenario has (vigil check --all searches them all in seconds), within
// the memory of a laptop.
//
// From AutoWalksN nodes Auto runs random walks alone (Random, Time bounded
// by the whole search's): a budget would keep such a search safe, but it
// would waste it, since the state spaces of the built-in protocols there
// are beyond any budget a person waits for: bully at N = 8 with one crash
// is 24 million states (1.4 GB) into its first minute on two cores and
// still at depth 6, where at N = 4 its runs reach depth 28. Every such
// check would wait a minute to say what walks say in seconds.
func Auto(ctx context.Context, m *Machine, opt AutoOptions) *Result {
	return m.report(auto(ctx, m, opt))
}

// auto is Auto before report: with the verdicts of the triggers not asked
// for.
func auto(ctx context.Context, m *Machine, opt AutoOptions) *Result {
	a := &autoRun{m: m, opt: opt, start: time.Now()}
	if m.Config().N >= AutoWalksN {
		ro := opt.Random
		ro.Time, _ = a.within(ro.Time)
		return m.random(ctx, ro)
	}
	var probe, exh, walks *Result
	if d := a.probeTime(); d > 0 && len(m.props) > 0 {
		probe = a.run("probe", d, func() *Result { return m.random(ctx, a.probeOptions(d)) })
		if probe.Fault != nil || probe.Cut == CutCanceled {
			return a.combine(probe, nil, nil)
		}
	}
	budget, ok := a.within(a.budget())
	if !ok {
		return a.combine(probe, nil, nil)
	}
	eo := opt.Exhaustive
	eo.Time, eo.OnViolation = budget, tagged(eo.OnViolation, "exhaustive")
	exh = a.run("exhaustive", budget, func() *Result { return m.exhaustive(ctx, eo) })
	if len(m.props) == 0 {
		return exh
	}
	switch {
	case exh.Cut == CutNone && exh.Fault == nil:
		return a.decided(exh)
	case exh.Fault != nil || exh.Cut == CutCanceled:
		return a.combine(probe, exh, nil)
	}
	if wm, ro, ok := a.walksFor(probe, exh); ok {
		walks = a.run("walks", ro.Time, func() *Result { return wm.random(ctx, ro) })
	}
	return a.combine(probe, exh, walks)
}

// autoRun is an auto search under way.
type autoRun struct {
	m     *Machine
	opt   AutoOptions
	start time.Time
	parts []PartStats
}

// run runs the part named part, whose time bound is bound, and records it.
func (a *autoRun) run(part string, bound time.Duration, search func() *Result) *Result {
	res := search()
	ps := PartStats{Part: part, Cut: res.Cut, TimeBound: bound.Seconds(), Stats: res.Stats}
	a.parts = append(a.parts, ps)
	if a.opt.OnPart != nil {
		a.opt.OnPart(ps)
	}
	return res
}

// within bounds a part's time d (0: none) by what is left of the whole
// search's, and reports whether anything is.
func (a *autoRun) within(d time.Duration) (time.Duration, bool) {
	left, ok := timeLeft(a.opt.Time, time.Since(a.start))
	if !ok {
		return 0, false
	}
	if left > 0 && (d <= 0 || left < d) {
		d = left
	}
	return d, true
}

// probeTime is the probe's time bound: Probe, at most a tenth of the
// whole search's time; 0 for no probe.
func (a *autoRun) probeTime() time.Duration {
	d := a.opt.Probe
	switch {
	case d < 0:
		return 0
	case d == 0:
		d = DefaultProbe
	}
	if a.opt.Time > 0 {
		d = min(d, a.opt.Time/10)
	}
	return d
}

// budget is the exhaustive part's time bound before the whole search's
// bound applies.
func (a *autoRun) budget() time.Duration {
	switch {
	case a.opt.Exhaustive.Time > 0:
		return a.opt.Exhaustive.Time
	case a.opt.Budget > 0:
		return a.opt.Budget
	case a.opt.Time > 0 && len(a.m.props) == 0:
		return a.opt.Time // (no walks follow)
	case a.opt.Time > 0:
		left, _ := timeLeft(a.opt.Time, time.Since(a.start))
		if d := left * 3 / 4; d > 10*time.Second {
			return d.Truncate(time.Second) // (a budget that reads well)
		}
		return max(left*3/4, time.Millisecond)
	}
	return DefaultBudget
}

// probeOptions are the probe's: Random's walks, at most ProbeWalks of
// them for d, looking for counterexamples alone.
func (a *autoRun) probeOptions(d time.Duration) RandomOptions {
	r := a.opt.Random
	return RandomOptions{Walks: ProbeWalks, Time: d, Seed: r.Seed, MaxDepth: r.MaxDepth, Workers: r.Workers,
		Scheduler: r.Scheduler, ShrinkTime: r.ShrinkTime, First: r.First,
		Progress: r.Progress, OnViolation: tagged(r.OnViolation, "probe")}
}

// walksFor returns the Machine and options of the walks after an
// exhaustive part that a bound cut: over the properties neither the probe
// nor that part broke, from the seed after the probe's, in the time left;
// ok is false when there is nothing left to walk for, or no time.
func (a *autoRun) walksFor(probe, exh *Result) (wm *Machine, ro RandomOptions, ok bool) {
	var open []*properties.Property
	for _, p := range a.m.Properties() { // (WithProperties adds their triggers)
		if !decidedIn(exh, p.Name) && !decidedIn(probe, p.Name) {
			open = append(open, p)
		}
	}
	ro = a.opt.Random
	if len(open) == 0 && ro.Object == nil && !ro.EntryFigures {
		return nil, ro, false
	}
	if ro.Time <= 0 {
		ro.Time = a.budget()
	}
	if ro.Time, ok = a.within(ro.Time); !ok {
		return nil, ro, false
	}
	if probe != nil {
		ro.Seed += ProbeWalks // walks the probe did not take
	}
	ro.OnViolation = tagged(ro.OnViolation, "walks")
	wm, err := a.m.WithProperties(open...)
	if err != nil {
		panic(fmt.Sprintf("checker: a subset of %s's properties: %v", a.m.Name(), err)) // (a subset reads no monitor m lacks)
	}
	return wm, ro, true
}

// decided is the answer of an exhaustive part that nothing cut: its own
// result, with the parts that ran.
func (a *autoRun) decided(exh *Result) *Result {
	for i := range exh.Properties {
		exh.Properties[i].By = "exhaustive"
	}
	exh.Parts = a.parts
	return exh
}

// combine makes the result of an auto search whose exhaustive part did
// not decide it (a bound cut it, a fault or a cancellation ended it, or
// it never ran) from the parts that ran (nil: did not).
func (a *autoRun) combine(probe, exh, walks *Result) *Result {
	res := newResult(ModeAuto, a.m.props)
	res.Parts = a.parts
	ran := []struct {
		by  string
		res *Result
	}{{"exhaustive", exh}, {"probe", probe}, {"walks", walks}} // strongest first
	for i := range res.Properties {
		pr := &res.Properties[i]
		for _, part := range ran {
			if q := propertyIn(part.res, pr.Name); decidedIn(part.res, pr.Name) {
				*pr = *q
				pr.By = part.by
				break
			}
		}
		if pr.By == "" {
			pr.Verdict, pr.Detail = Unknown, notFound(probe, exh, walks, propertyIn(walks, pr.Name), a.parts, pr.Sometimes)
		}
	}
	switch {
	case exh != nil:
		res.Cut, res.Stats, res.RoundsCut = exh.Cut, exh.Stats, exh.RoundsCut
		res.Fairness, res.Reduction, res.PartialOrder, res.Sweep = exh.Fairness, exh.Reduction, exh.PartialOrder, exh.Sweep
		res.Coverage = exh.Coverage
	case probe == nil || probe.Fault == nil:
		res.Cut = CutTime // no time was left for the exhaustive part
	}
	for _, part := range ran {
		if part.res == nil {
			continue
		}
		if part.res.Cut == CutCanceled {
			res.Cut = CutCanceled
		}
		if part.res.Fault != nil && res.Fault == nil {
			res.faulted(part.res.Fault)
		}
	}
	if walks != nil {
		res.Scheduler, res.Messages, res.Rounds, res.RoundsCut = walks.Scheduler, walks.Messages, walks.Rounds, walks.RoundsCut
		res.Entry, res.Linearizability = walks.Entry, walks.Linearizability
		res.Coverage = neverInBoth(walks.Coverage, res.Coverage)
	}
	perS := res.Stats.StatesPerS
	res.finish(a.start)
	res.Stats.StatesPerS = perS // the exhaustive part's rate
	return res
}

// notFound is the detail of a property no part broke: what was searched,
// and that it proves nothing; walked is its verdict in the walks, if any.
func notFound(probe, exh, walks *Result, walked *PropertyResult, parts []PartStats, sometimes bool) string {
	var where []string
	if exh != nil {
		where = append(where, fmt.Sprintf("%d states of the exhaustive search (%s)", exh.Stats.States, autoCutWords(exh.Cut, parts)))
	}
	n := 0
	for _, r := range []*Result{probe, walks} {
		if r != nil {
			n += r.Stats.Walks
		}
	}
	if n > 0 || len(where) == 0 {
		where = append(where, fmt.Sprintf("%d random walks", n))
	}
	s := "no counterexample in " + strings.Join(where, " nor in ") + ": not a proof"
	if sometimes {
		s = "no run reached it in " + strings.Join(where, " nor in ") + ": not a proof that none does"
	}
	if walked != nil && walked.Verdict == Unknown && walked.Detail != "" {
		s += " (the walks: " + walked.Detail + ")"
	}
	return s
}

// autoCutWords says what cut an exhaustive part.
func autoCutWords(cut Cut, parts []PartStats) string {
	switch cut {
	case CutTime:
		i := slices.IndexFunc(parts, func(p PartStats) bool { return p.Part == "exhaustive" })
		if i >= 0 && parts[i].TimeBound > 0 {
			return fmt.Sprintf("cut by its time budget of %v", time.Duration(parts[i].TimeBound*float64(time.Second)).Round(time.Millisecond))
		}
		return "cut by its time budget"
	case CutCanceled:
		return "canceled"
	}
	return "cut by its " + strings.TrimSuffix(string(cut), "s") + " bound"
}

// neverInBoth is the walks' coverage, whose never-taken events the
// exhaustive part's coverage (if any) did not take either.
func neverInBoth(walks, exh *Coverage) *Coverage {
	if walks == nil || exh == nil {
		return walks
	}
	c := *walks
	c.Never = slices.DeleteFunc(slices.Clone(c.Never), func(e string) bool { return !slices.Contains(exh.Never, e) })
	return &c
}

// propertyIn is the named property's result in r, or nil (r nil too).
func propertyIn(r *Result, name string) *PropertyResult {
	if r == nil {
		return nil
	}
	return r.Property(name)
}

// decidedIn reports whether r (nil: no) decided the named property
// whatever the other parts find: it failed, or, a sometimes-property,
// passed with a witness.
func decidedIn(r *Result, name string) bool {
	p := propertyIn(r, name)
	return p != nil && (p.Verdict == Fail || p.Witness != nil)
}

// tagged is fn telling each violation as found by part; nil if fn is.
func tagged(fn func(FirstViolation), part string) func(FirstViolation) {
	if fn == nil {
		return nil
	}
	return func(v FirstViolation) {
		v.Part = part
		fn(v)
	}
}
