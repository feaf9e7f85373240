package checker

import (
	"context"
	"math/rand/v2"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// liveWalks turns the Walker on where it serves (see walksLive); tests
// turn it off to compare the two.
var liveWalks = true

// walksLive reports whether the walks of a search with opt on m's
// configuration run on a sim.Walker: any scheduler, no rounds (they need
// a walk's steps), entry figures only where no node crashes and no cut
// parts the network and no message is lost or duplicated, and a
// configuration the Walker runs.
func walksLive(m *sim.Machine, opt RandomOptions) bool {
	// entry figures time the messages lost to a crashed receiver or to a
	// cut as a Stepper's walks do only where none are
	cfg := m.Config()
	return liveWalks && sim.Supported(cfg) &&
		!(opt.EntryFigures && cfg.Crashes+cfg.Partitions+cfg.Losses+cfg.Duplicates > 0) && !opt.Rounds
}

// liveWalk is walk on a Walker: the same draws from the same seed, the
// same world after every step (see sim.Walker), so the same record. It
// keeps no events: a walk whose run is wanted (a new violation, a fault)
// is walked again on a Stepper. hot is the hot bound (see hotWatch).
func liveWalk(ctx context.Context, lw sim.Walker, props []*properties.Property, seed uint64, maxDepth, hot int, first, figures bool, obj *properties.Object, sched Scheduler) walkResult {
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	// the scheduler draws its own choices (PCT's priorities, swarm's
	// kinds) first, as on a Stepper
	var choice chooser
	if !sched.uniform() {
		cfg := lw.Config()
		choice = sched.start(rng, cfg.N, cfg.Crashes+cfg.Recoveries+cfg.Partitions+cfg.Losses+cfg.Duplicates)
	}
	r := walkResult{hot: newHotWatch(props, hot)}
	if !lw.Start(func() bool { return ctx.Err() != nil }) {
		return r // a walk of a batch the search drops
	}
	if r.fault = lw.Fault(); r.fault != nil {
		return r
	}
	_, sent := lw.Step()
	r.countKinds(sent)
	var clock *entryClock
	if figures {
		clock = newEntryClock(lw.N())
		clock.live(lw, sent)
	}
	var rec *properties.Recorder
	if obj != nil {
		rec = obj.NewRecorder()
		record(rec, lw)
	}
	// an invariant that reads only monitors and liveness is judged again
	// only once they changed (see sim.Walker.Epoch)
	judged := ^uint64(0)
	judge := func(atEnd bool) {
		e := lw.Epoch()
		r.judge(props, lw, atEnd, r.steps, !atEnd && e == judged)
		if !atEnd {
			judged = e
		}
	}
	judge(false)
	if r.fault != nil {
		return r
	}
	undecided := func() bool { return r.undecided(props, first) }
	d := &liveDraw{lw: lw, rng: rng, choice: choice, forced: newForcedRun(lw.N()), judge: judge, undecided: undecided, first: first}
	for r.steps < maxDepth && undecided() {
		if stopped(ctx, r.steps) {
			return r // a walk of a batch the search drops
		}
		if !d.take(&r) {
			break
		}
		r.steps++
		label, sent := lw.Step()
		if r.fault = lw.Fault(); r.fault != nil {
			break // a step that faulted changed nothing: it is not covered
		}
		r.cover.add(label, 1)
		r.countKinds(sent)
		if clock != nil {
			clock.live(lw, sent)
		}
		if rec != nil {
			record(rec, lw)
		}
		judge(false)
		if r.fault != nil {
			break
		}
		if !undecided() && r.steps < maxDepth {
			r.cutFirst = first
		}
	}
	if r.fault != nil {
		return r
	}
	if r.steps == maxDepth && undecided() {
		lw.Enabled()
		moving := lw.Moving(1)
		if r.fault = lw.Fault(); r.fault != nil {
			return r
		}
		r.atDepth(moving, judge)
	}
	if clock != nil {
		r.entry = clock.end(r.complete)
	}
	if rec != nil {
		r.linearize(obj, rec)
	}
	return r
}

// liveDraw is how a walk on a Walker chooses and takes its steps:
// uniformly (choice nil), or by a Scheduler's chooser (see takeChosen).
type liveDraw struct {
	lw        sim.Walker
	rng       *rand.Rand
	choice    chooser
	runs      []sim.Run // scratch: the events that move (takeChosen)
	forced    *forcedRun
	judge     func(atEnd bool)
	undecided func() bool
	first     bool // Options.First
}

// take chooses the walk's next step and takes it, judging the run where
// it ends on the way; it returns false where the walk ends (as
// stepWalk.step does): a fault, a forced cycle, or a run that ends.
func (d *liveDraw) take(r *walkResult) bool {
	if d.choice != nil {
		return d.takeChosen(r)
	}
	lw, rng := d.lw, d.rng
	total, nproto := lw.Enabled()
	if r.fault = lw.Fault(); r.fault != nil {
		return false
	}
	only := total == nproto && nproto > 0 && lw.Moving(2) == 1
	if r.fault = lw.Fault(); r.fault != nil {
		return false
	}
	if d.forced.goesRound(only, lw.Fingerprint) {
		r.cycled = true
		return false
	}
	// draw until a step is taken: one that would stutter is drawn
	// again, without it (see sim.Walker)
	for {
		if nproto == 0 {
			r.quiesce(d.judge)
			if r.fault != nil {
				return false
			}
			if total == 0 || rng.IntN(2) == 0 {
				return false
			}
			if !d.undecided() {
				r.cutFirst = d.first
				return false
			}
		} else {
			r.complete = false
		}
		if lw.Take(draw(rng, total, groups(lw, nproto))) {
			return true
		}
		if r.fault = lw.Fault(); r.fault != nil {
			return false // running what was drawn faulted
		}
		total, nproto = lw.Enabled()
	}
}

// record feeds the last step of a Walker to rec.
func record(rec *properties.Recorder, lw sim.Walker) {
	for _, o := range lw.Observed() {
		rec.Observe(o.Node, o.Obs)
	}
}

// groups returns the runs of events of lw that a walk draws as one choice
// each (see pick), [lo, hi) each, nproto protocol events listed first:
// the cuts, right after them, and the losses and the duplications, after
// the network's events.
func groups(lw sim.Walker, nproto int) [][2]int {
	var gs [][2]int
	if cuts := lw.Cuts(); cuts > 0 {
		gs = append(gs, [2]int{nproto, nproto + cuts})
	}
	net := nproto + lw.Network()
	losses, dups := lw.MessageFaults()
	if losses > 0 {
		gs = append(gs, [2]int{net, net + losses})
	}
	if dups > 0 {
		gs = append(gs, [2]int{net + losses, net + losses + dups})
	}
	return gs
}

// draw draws one of total events as pick does, each group of groups
// (sorted, apart) counting as one choice.
func draw(rng *rand.Rand, total int, groups [][2]int) int {
	if len(groups) == 0 {
		return rng.IntN(total)
	}
	grouped := 0
	for _, g := range groups {
		grouped += g[1] - g[0] - 1
	}
	k := rng.IntN(total - grouped)
	for _, g := range groups {
		lo, hi := g[0], g[1]
		switch {
		case k < lo:
			return k
		case k == lo:
			return lo + rng.IntN(hi-lo)
		}
		k += hi - lo - 1
	}
	return k
}

// live times the last step of a Walker, which sent messages of kinds
// sent: its observations at their nodes' times.
func (c *entryClock) live(lw sim.Walker, sent []uint8) {
	c.sent += len(sent)
	for _, o := range lw.Observed() {
		c.observe(o.Node, lw.Now(o.Node), o.Obs)
	}
}

// countKinds counts messages sent by kind index.
func (r *walkResult) countKinds(kinds []uint8) {
	for _, k := range kinds {
		for len(r.sent) <= int(k) {
			r.sent = append(r.sent, 0)
		}
		if r.sent[k] == 0 {
			r.firstSent = append(r.firstSent, int(k))
		}
		r.sent[k]++
	}
}

var _ properties.View = sim.Walker(nil)
