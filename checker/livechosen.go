package checker

import "fmt"

// takeChosen is take for a walk whose Scheduler is not uniform: it
// chooses among the events that move, listed as a Stepper lists them
// (see sim.Walker.Moves), with the same chooser and the same draws as
// stepWalk.choose, so that the walk takes the same steps from the same
// seed on a Walker as on a Stepper.
func (d *liveDraw) takeChosen(r *walkResult) bool {
	lw := d.lw
	var nproto int
	d.runs, nproto = lw.Moves(d.runs[:0], d.choice.byNode())
	if r.fault = lw.Fault(); r.fault != nil {
		return false
	}
	total := 0
	for _, run := range d.runs {
		total += run.N
	}
	if d.forced.goesRound(total == nproto && nproto == 1, lw.Fingerprint) {
		r.cycled = true
		return false
	}
	var k int
	if nproto == 0 {
		// the run ends here; the walk goes on with a fault with
		// probability 1/2, if the scheduler injects one
		r.quiesce(d.judge)
		if r.fault != nil || total == 0 || d.rng.IntN(2) == 0 {
			return false
		}
		if !d.undecided() {
			r.cutFirst = d.first
			return false
		}
		var ok bool
		if k, ok = d.choice.choose(d.runs, r.steps); !ok {
			return false
		}
	} else {
		r.complete = false
		k, _ = d.choice.choose(d.runs, r.steps)
	}
	if lw.TakeMove(k) {
		return true
	}
	if r.fault = lw.Fault(); r.fault == nil {
		// Moves turned down every step that stutters and ran every
		// handler whose step it lists: Take takes what it lists
		panic(fmt.Sprintf("checker: the walker turned down event %d (%v), which it listed as moving", k, kindAt(d.runs, k)))
	}
	return false
}
