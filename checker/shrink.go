package checker

import (
	"slices"
	"time"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"

	"github.com/vigil-check/vigil/properties"
)

// shrink makes a counterexample shorter. A candidate run is a list of
// events replayed forgivingly: an event that is not enabled when its turn
// comes is skipped (removing a send removes the deliveries of what it
// sent), and a run that stops short of the end where a quiescence
// property is judged is completed by delivering what is in flight, in a
// fixed order, until it ends. A candidate is kept when the run it gives
// violates prop and is shorter than the best so far. The candidates are
// the faults alone, then, in rounds until none is kept or the budget runs
// out: every event of one node dropped, for each node; the faults dropped
// one by one; each crash moved to another node or to the start (with its
// recovery, if any); each lost message exchanged for one sent earlier,
// lost as soon as sent; and runs
// of events, halving their length down to single events (delta
// debugging).
// The result is the run a candidate gave, so it always replays; cut
// reports that the budget ran out before a round kept nothing, so that
// a shorter run may exist.
//
// With hot above 0, the violation is a hot walk's (see hotWatch): a
// candidate is kept when an obligation of prop stays outstanding for
// more than hot steps in a row, and a run that stops short of that is
// completed as above, until it does, the obligation is met, or the run
// ends. stretch is then the shrunk run's hot steps, up to its end.
func shrink(m *sim.Machine, prop *properties.Property, events []sim.Event, hot int, budget time.Duration) (best []sim.Event, detail string, stretch int, cut bool) {
	r := &shrinker{st: m.NewStepper(), prop: prop, hot: hot, keys: map[sim.Event]string{}, deadline: time.Now().Add(budget)}
	best, detail = r.run(events)
	if best == nil {
		return events, "", 0, false // not a counterexample: leave it alone
	}
	stretch = r.stretch
	try := func(cand []sim.Event) bool {
		got, d := r.run(cand)
		if got == nil || len(got) >= len(best) {
			return false
		}
		best, detail, stretch = got, d, r.stretch
		return true
	}
	// the faults alone, the run completed around them; a hot walk's run
	// is no shorter than its bound, and one completed in canonical order
	// from its faults, as long, reads better: it repeats
	if faults := slices.DeleteFunc(slices.Clone(best), func(e sim.Event) bool { return !faultKind(e.Kind) }); (len(faults) > 0 || hot > 0) && !r.late() {
		if got, d := r.run(faults); hot > 0 && got != nil && len(got) <= len(best) {
			best, detail, stretch = got, d, r.stretch
		} else {
			try(faults)
		}
	}
	if hot > 0 && stretch == len(best) {
		return best, detail, stretch, false // hot from the start: none is shorter
	}
	for progress := true; progress && !r.late(); {
		progress = false
		for n := range m.Config().N {
			if r.late() {
				break
			}
			drop := func(e sim.Event) bool { return int(e.Node) == n || (e.Kind == sim.Deliver && int(e.From) == n) }
			if slices.ContainsFunc(best, drop) && try(slices.DeleteFunc(slices.Clone(best), drop)) {
				progress = true
			}
		}
		for i := 0; i < len(best) && !r.late(); i++ {
			if faultKind(best[i].Kind) && try(slices.Delete(slices.Clone(best), i, i+1)) {
				progress, i = true, i-1
			}
		}
		// a crash of another node, or the same crash earlier, may show the
		// same bug sooner
		for i := 0; i < len(best) && !r.late(); i++ {
			if best[i].Kind != sim.Crash {
				continue
			}
			rec := slices.IndexFunc(best[i+1:], func(e sim.Event) bool { return e.Kind == sim.Recover && e.Node == best[i].Node })
			for n := range m.Config().N {
				other := slices.Clone(best)
				other[i].Node = model.NodeID(n)
				if rec >= 0 {
					other[i+1+rec].Node = model.NodeID(n) // its recovery too
				}
				if try(other) {
					progress = true
					break
				}
			}
			if i > 0 && try(slices.Concat([]sim.Event{best[i]}, best[:i], best[i+1:])) {
				progress = true
				continue
			}
			// and its recovery with it
			j := slices.IndexFunc(best[i+1:], func(e sim.Event) bool { return e.Kind == sim.Recover && e.Node == best[i].Node })
			if j >= 0 {
				j += i + 1
				rest := slices.Delete(slices.Delete(slices.Clone(best), j, j+1), i, i+1)
				if try(slices.Concat([]sim.Event{best[i], best[j]}, rest)) {
					progress = true
				}
			}
		}
		// another message lost earlier may show the same bug sooner (a
		// server's first grant rather than a client's last request)
		for i := 0; i < len(best) && !r.late(); i++ {
			if best[i].Kind != sim.Lose {
				continue
			}
			if r.earlierLoss(best, i, try) {
				progress = true
			}
		}
		for size := max(1, len(best)/2); !r.late(); size = max(1, size/2) {
			for at := 0; at+size <= len(best) && !r.late(); {
				if try(slices.Concat(best[:at], best[at+size:])) {
					progress = true
					continue // the same position now holds later events
				}
				at += size
			}
			if size == 1 {
				break
			}
		}
	}
	return best, detail, stretch, r.late()
}

// earlierLoss tries runs that lose, instead of the message best[i]
// loses, one sent before it, right after its send, the earliest first,
// and reports whether try kept one. best replays as it is (it is a run
// that shrink's replay gave).
func (r *shrinker) earlierLoss(best []sim.Event, i int, try func([]sim.Event) bool) bool {
	st := r.st
	rest := slices.Delete(slices.Clone(best), i, i+1)
	w, _ := st.Init()
	var next sim.World
	var evs []sim.Event
	for k, ev := range best[:i] {
		var step *sim.Step
		next, step = st.Apply(w, ev, next)
		w, next = next, w
		if st.TakeFault() != nil || r.late() {
			return false
		}
		if step == nil || len(step.Sends) == 0 {
			continue
		}
		evs, _ = st.Enabled(w, evs[:0])
		if st.TakeFault() != nil {
			return false
		}
		for _, snd := range step.Sends {
			// the loss of the message just sent: under FIFO the last of
			// its channel; none if it was lost already (its receiver is
			// down or cut off)
			at := -1
			for j, e := range evs {
				if e.Kind == sim.Lose && e.From == ev.Node && e.Node == sim.SendTo(snd) && st.LostMessage(w, e) == sim.SendMsg(snd) {
					at = j
				}
			}
			if at >= 0 && try(slices.Concat(rest[:k+1], []sim.Event{evs[at]}, rest[k+1:])) {
				return true
			}
		}
	}
	return false
}

func faultKind(k sim.EventKind) bool {
	switch k {
	case sim.Crash, sim.Recover, sim.Partition, sim.Heal, sim.Lose, sim.Duplicate, sim.Traitor:
		return true
	}
	return false
}

type shrinker struct {
	st   *sim.Stepper
	prop *properties.Property
	// hot: the hot bound a candidate must exceed, or 0 (see shrink), and
	// stretch the hot steps of the last run that did
	hot, stretch int
	keys         map[sim.Event]string // EventKey, for canonical
	deadline     time.Time
	evs          []sim.Event
	next         sim.World
}

func (r *shrinker) late() bool { return time.Now().After(r.deadline) }

// run replays events forgivingly (see shrink) and returns the events it
// applied up to the first world that violates the property, with the
// violation, or nil if no world does. A run that meets a fault of a
// handler or monitor shows nothing either: a shorter run can reach worlds
// no walk did.
func (r *shrinker) run(events []sim.Event) ([]sim.Event, string) {
	st := r.st
	w, _ := st.Init()
	if st.TakeFault() != nil {
		return nil, ""
	}
	var applied []sim.Event
	var hot *hotOf
	if r.hot > 0 {
		hot = newHotOf(r.prop, r.hot)
	}
	// judge returns the violation in w, or bad when listing its events met
	// a fault; nproto is the protocol events enabled there
	judge := func() (d string, nproto int, bad bool) {
		r.evs, nproto = st.Enabled(w, r.evs[:0])
		if st.TakeFault() != nil {
			return "", 0, true
		}
		var f *sim.Fault
		if hot != nil {
			d, r.stretch, f = hot.feed(r.prop, st.View(w), len(applied))
		} else {
			d, f = judgeSafely(r.prop, st.View(w), nproto == 0)
		}
		return d, nproto, f != nil // a property that panics here shows nothing
	}
	step := func(ev sim.Event) bool {
		r.next, _ = st.Apply(w, ev, r.next)
		w, r.next = r.next, w
		applied = append(applied, ev)
		return st.TakeFault() == nil
	}
	d, nproto, bad := judge()
	if bad {
		return nil, ""
	} else if d != "" {
		return applied, d
	}
	for _, ev := range events {
		if !slices.Contains(r.evs, ev) {
			continue
		}
		if !step(ev) {
			return nil, ""
		}
		if d, nproto, bad = judge(); bad {
			return nil, ""
		} else if d != "" {
			return applied, d
		}
	}
	if r.prop.EveryWorld() {
		return nil, ""
	}
	// Complete the run: the first protocol event in canonical order, each
	// time, until the run ends; a run that does not end within as many
	// steps again as it has (and, for a hot walk, its bound) is given up.
	for limit := len(applied) + len(events) + r.hot + 64; nproto > 0 && len(applied) < limit; {
		i := slices.IndexFunc(r.evs, func(e sim.Event) bool { return !faultKind(e.Kind) && e.Kind != sim.Tick })
		if i < 0 {
			i = slices.IndexFunc(r.evs, func(e sim.Event) bool { return e.Kind == sim.Tick })
		}
		if i < 0 || !step(canonical(st.Machine(), r.evs, r.evs[i], r.keys)) {
			return nil, ""
		}
		if d, nproto, bad = judge(); bad {
			return nil, ""
		} else if d != "" {
			return applied, d
		}
	}
	return nil, ""
}
