package checker

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// A random walk on a Stepper: its steps, where its run ends, and what it
// records of them (walkResult).

// count counts the messages steps sent, by kind.
func (r *walkResult) count(steps ...*sim.Step) {
	for _, step := range steps {
		if step == nil {
			continue
		}
		for _, snd := range step.Sends {
			k := int(sim.SendKind(snd))
			for len(r.sent) <= k {
				r.sent = append(r.sent, 0)
			}
			if r.sent[k] == 0 {
				r.firstSent = append(r.firstSent, k)
			}
			r.sent[k]++
		}
	}
}

// named gives the walk's counts by kind name, names being kinds' indexes.
func (r *walkResult) named(names []string) []KindCount {
	out := make([]KindCount, len(r.firstSent))
	for i, k := range r.firstSent {
		out[i] = KindCount{names[k], r.sent[k]}
	}
	return out
}

// judge judges the world v of a walk after at steps: its invariants or,
// where the run ends (atEnd), the other properties, those not yet broken.
func (r *walkResult) judge(props []*properties.Property, v properties.View, atEnd bool, at int, sameMonitors bool) {
	// one recover for every property judged: a walk judges after every
	// step, most often every invariant
	p := 0
	defer func() {
		if rec := recover(); rec != nil {
			r.fault = propertyFault(props[p], "Check", rec)
		}
	}()
	for ; p < len(props); p++ {
		prop := props[p]
		if _, ok := r.viol[p]; ok || prop.EveryWorld() == atEnd || sameMonitors && prop.MonitorOnly {
			continue
		}
		if d := prop.Judge(v, atEnd); d != "" {
			if r.viol == nil {
				r.viol = map[int]walkViolation{}
			}
			r.viol[p] = walkViolation{at: at, detail: d}
		}
	}
	if r.hot != nil && !atEnd {
		r.fault = r.hot.watch(r, props, v, at, sameMonitors)
	}
}

// DefaultWalkDepth is the depth bound of a random walk when none is given:
// 100 000 steps, or 2N² at larger N, so that the ordinary runs of the
// built-in protocols end (a ring election of falling ranks takes about
// N²/2 steps).
func DefaultWalkDepth(n int) int { return max(100_000, 2*n*n) }

// undecided reports whether a walk judging props goes on: it stops once
// every one has failed, or with first once any has (a sometimes-property
// reached stops nothing; see settled); one with none to judge (for
// figures or histories) runs to its end.
func (r *walkResult) undecided(props []*properties.Property, first bool) bool {
	found := func(p int) bool { _, ok := r.viol[p]; return ok }
	return len(props) == 0 || !(settled(props, found) || first && anyViolation(props, found))
}

// quiesce judges the quiescent world a walk reached: a run ends there.
func (r *walkResult) quiesce(judge func(atEnd bool)) {
	r.quiescent++
	r.complete = true
	judge(true)
}

// atDepth ends a walk that the depth bound stopped, nproto protocol
// events enabled where it stopped: judged there if the run ends there,
// else cut.
func (r *walkResult) atDepth(nproto int, judge func(atEnd bool)) {
	if nproto == 0 {
		r.quiesce(judge)
	} else {
		r.cut = true
	}
}

// forcedRun holds the worlds a walk met since it last had a choice. A
// run in which one event only is enabled at every step, back to a world
// it met, goes round that cycle for ever: the walk ends there. Hashing a
// world costs (its monitors' states grow with N), and most forced runs
// are the last few steps of a run that ends, so the first grace steps of
// each are not hashed: a cycle is found as surely, at most grace steps
// later.
type forcedRun struct {
	seen  map[uint64]bool
	steps int // since the last choice
	grace int
}

// newForcedRun returns the forced run of a walk over n nodes, whose
// grace is n steps: a cycle that passes each node once (a token going
// round a ring) is hashed from its second lap.
func newForcedRun(n int) *forcedRun { return &forcedRun{seen: map[uint64]bool{}, grace: n} }

// goesRound reports whether the walk, with one event only enabled
// (only), is back at a world of its forced run; fingerprint hashes the
// world it is at.
func (f *forcedRun) goesRound(only bool, fingerprint func() uint64) bool {
	if !only {
		if f.steps > f.grace {
			clear(f.seen)
		}
		f.steps = 0
		return false
	}
	if f.steps++; f.steps <= f.grace {
		return false
	}
	fp := fingerprint()
	if f.seen[fp] {
		return true
	}
	f.seen[fp] = true
	return false
}

type walkViolation struct {
	at     int // number of events before the violating world
	detail string
	// hot: the steps for which an obligation stayed outstanding up to
	// the violating world, past the walk's hot bound (see hotWatch); 0
	// for any other violation
	hot int
}

type walkResult struct {
	m         *sim.Machine // the tables its events name, if it has a violation or a fault
	kinds     []KindCount  // the messages it sent by kind, in the order each kind was first sent
	cover     eventCounts  // its steps by kind of event (label)
	took      []EventCount // the same by name
	events    []sim.Event  // its run, on a Stepper (see liveWalk)
	steps     int          // its length
	viol      map[int]walkViolation
	sent      []int // messages sent by kind index
	firstSent []int // kind indexes, in the order each was first sent
	complete  bool  // ended in a quiescent world
	rounds    int   // its time in asynchronous rounds, if complete (on a clocked Machine)
	quiescent int64
	cutFirst  bool          // ended at its first violation, with more to walk
	cut       bool          // the depth bound ended it before its run ended
	cycled    bool          // it ended on a cycle its run goes round for ever
	fault     *sim.Fault    // a handler or monitor failed past events; the walk ended
	hot       *hotWatch     // how long its obligations have been outstanding, if watched
	entry     *EntryFigures // nil unless asked for and entered
	// the client history's verdict and size, and the history itself
	// when it is not linearizable
	lin     porcupine.CheckResult
	ops     int
	history []porcupine.Operation
}

// stepWalk is a walk under way on a Stepper (see walk).
type stepWalk struct {
	st       *sim.Stepper
	props    []*properties.Property
	rng      *rand.Rand
	choice   chooser
	maxDepth int
	first    bool // Options.First: the walk ends at its first violation
	// uniform: a uniform walk draws among every timeout and action,
	// stutter or not, and draws again without one that stutters (see
	// sim.Walker); the other schedulers choose among the steps that move
	uniform bool
	w, next sim.World
	view    *sim.View
	// the events enabled in w, the first nproto the protocol's, and
	// (uniform) which of them stutter
	evs    []sim.Event
	runs   []sim.Run // evs as runs, for the chooser
	nproto int
	stut   []bool
	keys   map[sim.Event]string // see canonical
	forced *forcedRun
	clock  *entryClock          // the entry figures, if asked for
	rec    *properties.Recorder // the client history, if asked for
	r      walkResult
}

// walk runs the walk of seed on st, at most maxDepth steps, judging
// props, with hot bound hot (0: none); figures asks for its entry
// figures, obj for its client history.
func walk(ctx context.Context, st *sim.Stepper, props []*properties.Property, seed uint64, maxDepth, hot int, figures bool, obj *properties.Object, first bool, sched Scheduler) walkResult {
	k := &stepWalk{r: walkResult{hot: newHotWatch(props, hot)}, st: st, props: props, rng: rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d)), maxDepth: maxDepth, first: first,
		uniform: sched.uniform(), keys: map[sim.Event]string{}}
	cfg := st.Machine().Config()
	k.choice = sched.start(k.rng, cfg.N, cfg.Crashes+cfg.Recoveries+cfg.Partitions+cfg.Losses+cfg.Duplicates+cfg.Traitors)
	k.forced = newForcedRun(cfg.N)
	if !k.begin(ctx, figures, obj) {
		return k.r
	}
	for len(k.r.events) < maxDepth && k.undecided() {
		if stopped(ctx, len(k.r.events)) {
			return k.r // a walk of a batch the search drops
		}
		if !k.step() {
			break
		}
	}
	k.end(obj)
	return k.r
}

// begin starts the walk in the initial world and judges the invariants
// there; it returns false if the walk ends there, at a fault or because
// its search is stopping.
func (k *stepWalk) begin(ctx context.Context, figures bool, obj *properties.Object) bool {
	r := &k.r
	var initSteps []*sim.Step
	k.w, initSteps = k.st.Init()
	if r.fault = k.st.TakeFault(); r.fault != nil || ctx.Err() != nil {
		return false
	}
	r.count(initSteps...)
	if figures {
		k.clock = newEntryClock(len(initSteps))
		for i, step := range initSteps {
			k.clock.step(model.NodeID(i), nil, step)
		}
	}
	if obj != nil {
		k.rec = obj.NewRecorder()
		for i, step := range initSteps {
			recordStep(k.rec, nil, model.NodeID(i), step)
		}
	}
	k.view = k.st.View(nil)
	k.judge(false)
	return r.fault == nil
}

// judge judges the invariants after a step, or, where the run ends
// (atEnd), the other properties; the invariants were judged already.
func (k *stepWalk) judge(atEnd bool) {
	k.r.judge(k.props, k.view.At(k.w), atEnd, len(k.r.events), false)
}

func (k *stepWalk) undecided() bool { return k.r.undecided(k.props, k.first) }

// step takes one step of the walk: it lists the events enabled, chooses
// one and takes it, and judges the world it leads to. It returns false
// where the walk ends: a fault, a forced cycle, or a run that ends (see
// choose).
func (k *stepWalk) step() bool {
	r, st := &k.r, k.st
	if k.uniform {
		k.evs, k.nproto, k.stut = st.EnabledAll(k.w, k.evs[:0], k.stut[:0])
	} else {
		k.evs, k.nproto = st.Enabled(k.w, k.evs[:0])
	}
	if r.fault = st.TakeFault(); r.fault != nil {
		return false // listing the events ran a faulting timeout or action
	}
	moving := k.nproto
	if k.uniform {
		moving -= countTrue(k.stut[:k.nproto])
	}
	if k.forced.goesRound(len(k.evs) == k.nproto && moving == 1, func() uint64 { return st.Fingerprint(k.w) }) {
		r.cycled = true
		return false
	}
	ev, ok := k.choose(moving)
	if !ok {
		return false
	}
	var lost uint32 // a lost message, for the clock
	if ev.Kind == sim.Lose && k.clock != nil {
		lost = st.LostMessage(k.w, ev)
	}
	var step *sim.Step
	k.next, step = st.Apply(k.w, ev, k.next)
	k.w, k.next = k.next, k.w
	r.events = append(r.events, ev)
	if r.fault = st.TakeFault(); r.fault != nil {
		return false // a step that faulted changed nothing: it is not covered
	}
	r.cover.add(sim.Label(ev, step), 1)
	switch {
	case k.clock == nil:
	case ev.Kind == sim.Lose:
		k.clock.lose(ev.From, ev.Node, lost)
	case ev.Kind == sim.Duplicate:
		k.clock.duplicate(ev.From, ev.Node, ev.Arg)
	default:
		k.clock.step(ev.Node, &ev, step)
	}
	if k.rec != nil {
		recordStep(k.rec, &ev, ev.Node, step)
	}
	r.count(step)
	k.judge(false)
	if r.fault != nil {
		return false
	}
	if !k.undecided() && len(r.events) < k.maxDepth {
		r.cutFirst = k.first
	}
	return true
}

// choose chooses the next event among those enabled, moving of the
// protocol's moving (not stuttering). In a quiescent world the run ends
// there, and is judged; the walk goes on with a fault with probability
// 1/2, if one is enabled and the walk is undecided. It returns false
// where the walk ends.
func (k *stepWalk) choose(moving int) (sim.Event, bool) {
	r := &k.r
	for {
		var ev sim.Event
		if k.nproto == 0 {
			r.quiesce(k.judge)
			if r.fault != nil {
				return ev, false
			}
			if len(k.evs) == 0 || k.rng.IntN(2) == 0 {
				return ev, false
			}
			if !k.undecided() {
				r.cutFirst = k.first
				return ev, false
			}
			k.runs = runsOf(k.evs, k.runs[:0])
			at, ok := k.choice.choose(k.runs, len(r.events))
			if !ok {
				return ev, false // the scheduler injects no more faults
			}
			ev = k.evs[at]
		} else {
			r.complete = false
			k.runs = runsOf(k.evs, k.runs[:0])
			at, _ := k.choice.choose(k.runs, len(r.events))
			ev = k.evs[at]
		}
		ev = canonical(k.st.Machine(), k.evs, ev, k.keys)
		if !k.uniform {
			return ev, true
		}
		if i := slices.Index(k.evs, ev); i < k.nproto && k.stut[i] {
			k.evs, k.stut = slices.Delete(k.evs, i, i+1), slices.Delete(k.stut, i, i+1)
			k.nproto--
		} else if i >= k.nproto && moving == 0 && k.nproto > 0 {
			k.evs, k.stut = k.evs[k.nproto:], k.stut[k.nproto:] // a fault, and no step moves
			k.nproto = 0
		} else {
			return ev, true
		}
	}
}

// end judges where the walk ended: where the depth bound stopped it
// undecided, the run ends if nothing is enabled there, else the walk is
// cut. It then gives the walk its length, time in rounds, entry figures
// and client history's verdict.
func (k *stepWalk) end(obj *properties.Object) {
	r := &k.r
	if r.fault != nil {
		r.steps = len(r.events)
		return
	}
	if len(r.events) == k.maxDepth && k.undecided() {
		_, nproto := k.st.Enabled(k.w, k.evs[:0])
		if r.fault = k.st.TakeFault(); r.fault != nil {
			r.steps = len(r.events)
			return
		}
		r.atDepth(nproto, k.judge)
	}
	r.steps = len(r.events)
	if r.complete {
		r.rounds = k.st.Rounds(k.w)
	}
	if k.clock != nil {
		r.entry = k.clock.end(r.complete)
	}
	if k.rec != nil {
		r.linearize(obj, k.rec)
	}
}

// stopped reports, every stopEvery steps of a walk, whether its search
// is stopping: a walk at large N can take minutes, and a time bound
// waits for no walk.
func stopped(ctx context.Context, steps int) bool {
	return steps%stopEvery == 0 && ctx.Err() != nil
}

const stopEvery = 1024

// countTrue counts the true flags of bs.
func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// canonical returns the event that a choice of ev among evs, the events
// enabled, stands for once evs are in an order independent of interned
// ids, so that a walk's draws depend on its seed alone: Enabled lists the
// messages of an unordered channel (to deliver, lose or duplicate), and a
// node's timers, by id, and ids depend on what the Machine met first, in
// this walk or in earlier ones. Such events are listed together, each run
// of them in canonical order sorted by content. A scheduler chooses by
// position, kind and node, never by what tells the events of a run apart,
// so the choice of the k-th event of a run stands for the k-th in content
// order, and only the run chosen from is sorted. keys caches EventKey for
// the walk.
func canonical(m *sim.Machine, evs []sim.Event, ev sim.Event, keys map[sim.Event]string) sim.Event {
	same := func(a, b sim.Event) bool {
		return a.Kind == b.Kind && a.Node == b.Node && a.From == b.From && a.Kind != sim.Act
	}
	k := slices.Index(evs, ev)
	lo, hi := k, k+1
	for lo > 0 && same(evs[lo-1], ev) {
		lo--
	}
	for hi < len(evs) && same(evs[hi], ev) {
		hi++
	}
	if hi-lo == 1 {
		return ev
	}
	key := func(e sim.Event) string {
		k, ok := keys[e]
		if !ok {
			k = m.EventKey(e)
			keys[e] = k
		}
		return k
	}
	// the event of rank k-lo among the run's keys (one key lookup per
	// event, not one per comparison)
	type keyed struct {
		key string
		ev  sim.Event
	}
	run := make([]keyed, 0, hi-lo)
	for _, e := range evs[lo:hi] {
		run = append(run, keyed{key(e), e})
	}
	slices.SortFunc(run, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	return run[k-lo].ev
}

// pick draws an event uniformly, except that the partitions enabled (up to
// N²/2 of them, listed together) count as one, and so do the losses and
// the duplications (one per message in flight): a walk partitions, or
// loses a message, about as often as it crashes a given node, whatever N.
// So do the choices of a traitor's step (listed together, see
// sim.Event.Forge): the step is drawn as any other, then its lies.
func pick(rng *rand.Rand, evs []sim.Event) sim.Event {
	var groups [][2]int
	return evs[pickRun(rng, runsOf(evs, nil), &groups)]
}

// pickRun is pick over the events runs list, whose position among them
// it returns; groups is its scratch.
func pickRun(rng *rand.Rand, runs []sim.Run, groups *[][2]int) int {
	// groups: the runs of events drawn as one choice, [lo, hi) each
	gs := (*groups)[:0]
	total := 0
	for i, r := range runs {
		switch k := r.Kind; {
		case r.Forged:
			gs = append(gs, [2]int{total, total + r.N})
		case k == sim.Partition || k == sim.Lose || k == sim.Duplicate:
			if i > 0 && runs[i-1].Kind == k {
				gs[len(gs)-1][1] += r.N
			} else {
				gs = append(gs, [2]int{total, total + r.N})
			}
		}
		total += r.N
	}
	*groups = gs
	return draw(rng, total, gs)
}

// runsOf appends to buf the runs of evs: each of the events that follow
// one another with the same kind and node, but that the choices of a
// traitor's step (Event.Forge 0, 1, 2, ... in a row) are a run of their
// own, Forged.
func runsOf(evs []sim.Event, buf []sim.Run) []sim.Run {
	for i, e := range evs {
		forged := e.Forge == 0 && i+1 < len(evs) && evs[i+1].Forge == 1
		switch last := len(buf) - 1; {
		case e.Forge != 0: // a lie of the traitor's step listed last
			buf[last].N++
		case !forged && i > 0 && !buf[last].Forged && e.Kind == evs[i-1].Kind && e.Node == evs[i-1].Node:
			buf[last].N++
		default:
			buf = append(buf, sim.Run{Kind: e.Kind, Node: e.Node, N: 1, Forged: forged})
		}
	}
	return buf
}
