package checker

import (
	"math/rand/v2"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// liveWalks turns the Walker on where it serves (see walksLive); tests
// turn it off to compare the two.
var liveWalks = true

// walksLive reports whether the walks of a search with opt on m's
// configuration run on a sim.Walker: uniform draws, none of the figures
// that need a walk's steps (entry figures, rounds, client histories), and
// a configuration the Walker runs.
func walksLive(m *sim.Machine, opt RandomOptions) bool {
	// entry figures time the messages lost to a crashed receiver as a
	// Stepper's walks do only where no node crashes
	return liveWalks && sim.Supported(m.Config()) && (opt.Scheduler.Kind == "" || opt.Scheduler.Kind == "uniform") &&
		!(opt.EntryFigures && m.Config().Crashes > 0) && !opt.Rounds && opt.Object == nil
}

// liveWalk is walk on a Walker: the same draws from the same seed, the
// same world after every step (see sim.Walker), so the same record. It
// keeps no events: a walk whose run is wanted (a new violation, a fault)
// is walked again on a Stepper.
func liveWalk(lw sim.Walker, props []*properties.Property, seed uint64, maxDepth int, first, figures bool) walkResult {
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	var r walkResult
	lw.Start()
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
	judge := func(atEnd bool) { r.judge(props, lw, atEnd, r.steps) }
	judge(false)
	if r.fault != nil {
		return r
	}
	undecided := func() bool {
		return len(props) == 0 || (len(r.viol) < len(props) && !(first && len(r.viol) > 0))
	}
	forced := map[uint64]bool{}
	for r.steps < maxDepth && undecided() {
		total, nproto := lw.Enabled()
		if r.fault = lw.Fault(); r.fault != nil {
			break
		}
		if total == 1 && nproto == 1 {
			fp := lw.Fingerprint()
			if forced[fp] {
				r.cycled = true
				break
			}
			forced[fp] = true
		} else if len(forced) > 0 {
			clear(forced)
		}
		if nproto == 0 {
			r.quiescent++
			r.complete = true
			judge(true)
			if r.fault != nil {
				break
			}
			if total == 0 || rng.IntN(2) == 0 {
				break
			}
			if !undecided() {
				r.cutFirst = first
				break
			}
		} else {
			r.complete = false
		}
		lw.Take(rng.IntN(total))
		r.steps++
		label, sent := lw.Step()
		r.cover.add(label, 1)
		if r.fault = lw.Fault(); r.fault != nil {
			break
		}
		r.countKinds(sent)
		if clock != nil {
			clock.live(lw, sent)
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
		_, nproto := lw.Enabled()
		if r.fault = lw.Fault(); r.fault != nil {
			return r
		}
		if nproto == 0 {
			r.quiescent++
			r.complete = true
			judge(true)
		} else {
			r.cut = true
		}
	}
	if clock != nil {
		r.entry = clock.end(r.complete)
	}
	return r
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
