package checker

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// Hot walks: a random walk cannot show that a run goes on for ever
// without meeting an obligation (a livelock whose worlds never repeat,
// such as Paxos's dueling proposers, whose ballots keep growing), but it
// can show that one stays outstanding far longer than ordinary runs keep
// it. An Eventually property's pending obligation is the hot state of its
// monitor, as P's liveness monitors call it; a walk on which one stays
// outstanding for more than RandomOptions.HotBound steps is reported as a
// counterexample to the property, a possible livelock, and never as a
// proof.

// DefaultHotBound is the hot bound the command line gives random walks
// over n nodes when none is asked for: 20 000 steps, or 200N² at larger N.
// The ordinary runs of the built-in protocols meet each obligation far
// sooner (a node of a mutual exclusion waits for about N entries of N
// messages each), so a walk past it is stuck in a way worth a look.
func DefaultHotBound(n int) int { return max(20_000, 200*n*n) }

// hotWatch follows, along one walk, how long each obligation of each
// Eventually property has been outstanding without a break.
type hotWatch struct {
	bound int
	props []hotProp
}

// hotProp is one Eventually property's obligations on a walk: those
// outstanding (pend), the step since which each has been (since, by bit),
// and the earliest of those steps (oldest), with its bit.
type hotProp struct {
	p      int
	pend   uint64
	since  [64]int
	oldest int
	bit    int
}

// newHotWatch returns the watch of props' Eventually properties for a
// walk, or nil when bound is 0 (off) or none is Eventually.
func newHotWatch(props []*properties.Property, bound int) *hotWatch {
	if bound <= 0 {
		return nil
	}
	h := &hotWatch{bound: bound}
	for p, prop := range props {
		if prop.When == properties.Eventually && prop.Pending != nil {
			h.props = append(h.props, hotProp{p: p})
		}
	}
	if len(h.props) == 0 {
		return nil
	}
	return h
}

// watch takes in the world v of a walk after at steps, in which the
// properties reading only monitors are as they were a step before
// (sameMonitors), and records in r the properties one of whose
// obligations has now been outstanding for more than the bound. A
// Pending that panics is the fault it returns.
func (h *hotWatch) watch(r *walkResult, props []*properties.Property, v properties.View, at int, sameMonitors bool) *sim.Fault {
	for i := range h.props {
		hp := &h.props[i]
		if _, ok := r.viol[hp.p]; ok {
			continue
		}
		prop := props[hp.p]
		if !sameMonitors || !prop.MonitorOnly {
			pend, f := pending(prop, v)
			if f != nil {
				return f
			}
			if pend != hp.pend {
				for m := pend &^ hp.pend; m != 0; m &= m - 1 {
					hp.since[bits.TrailingZeros64(m)] = at
				}
				hp.pend = pend
				hp.oldest, hp.bit = at+1, -1
				for m := pend; m != 0; m &= m - 1 {
					if b := bits.TrailingZeros64(m); hp.since[b] < hp.oldest {
						hp.oldest, hp.bit = hp.since[b], b
					}
				}
			}
		}
		if hp.pend != 0 && at-hp.oldest > h.bound {
			if r.viol == nil {
				r.viol = map[int]walkViolation{}
			}
			r.viol[hp.p] = walkViolation{at: at, detail: hotDetail(prop, hp.bit, at-hp.oldest, h.bound), hot: at - hp.oldest}
		}
	}
	return nil
}

// hotDetail says what goes wrong on a walk that keeps obligation bit of p
// outstanding for steps steps, past bound.
func hotDetail(p *properties.Property, bit, steps, bound int) string {
	what := fmt.Sprintf("obligation %d stays outstanding", bit)
	if p.Obligation != nil {
		what = p.Obligation(bit)
	}
	return fmt.Sprintf("possible livelock (not a proof): %s for %d steps in a row, past the hot bound of %d", what, steps, bound)
}

// hotOf judges a run replayed world by world: feed takes in the world
// after at steps and reports the violation once an obligation of p has
// been outstanding for more than bound steps, and how long.
type hotOf struct {
	h hotWatch
	r walkResult
}

func newHotOf(p *properties.Property, bound int) *hotOf {
	return &hotOf{h: hotWatch{bound: bound, props: []hotProp{{p: 0}}}}
}

func (o *hotOf) feed(p *properties.Property, v properties.View, at int) (detail string, steps int, f *sim.Fault) {
	if f = o.h.watch(&o.r, []*properties.Property{p}, v, at, false); f != nil {
		return "", 0, f
	}
	viol := o.r.viol[0]
	return viol.detail, viol.hot, nil
}

// markHot gives t, a counterexample whose last hot events kept an
// obligation outstanding past bound, what a person reads of that
// stretch: where it starts, the shortest sequence of events that repeats
// to its end, and its events by kind. m replays the run's events.
func markHot(t *Trace, m *sim.Machine, events []sim.Event, hot, bound int) {
	t.Hot, t.HotBound = hot, bound
	st := m.NewStepper()
	w, _ := st.Init()
	labels := make([]string, 0, hot)
	counts := map[string]int64{}
	for i, ev := range events {
		next, step := st.Apply(w, ev, nil)
		if i >= len(events)-hot {
			kind := m.Labels()[sim.Label(ev, step)]
			labels = append(labels, eventLabel(t.Events[i], kind))
			counts[kind]++
		}
		w = next
	}
	st.TakeFault()
	t.Repeats, t.RepeatTimes = repeating(labels)
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range counts {
			if !yield(k) {
				return
			}
		}
	}) {
		t.HotEvents = append(t.HotEvents, EventCount{Event: k, N: counts[k]})
	}
	slices.SortStableFunc(t.HotEvents, func(a, b EventCount) int { return int(b.N - a.N) })
}

// eventLabel names an event by its node and kind, not by the values it
// carries (a ballot's number, which keeps growing): "n1 → n0 promise",
// "n0 timeout retry".
func eventLabel(s TraceStep, kind string) string {
	switch s.Kind {
	case "deliver":
		return fmt.Sprintf("n%d → n%d %s", s.From, s.Node, strings.TrimPrefix(kind, "receive "))
	case "partition", "heal", "tick":
		return kind
	case "lose", "duplicate":
		return fmt.Sprintf("%s n%d → n%d", kind, s.From, s.Node)
	case "action":
		return fmt.Sprintf("n%d %s", s.Node, strings.TrimPrefix(kind, "action "))
	}
	return fmt.Sprintf("n%d %s", s.Node, kind)
}

// repeating returns the shortest sequence of labels that repeats, back
// to back, up to the end of labels, and how many times, among those that
// cover the most of its end; nil if none covers half of labels with two
// repetitions or more.
func repeating(labels []string) ([]string, int) {
	n := len(labels)
	best, cover := 0, 0
	for p := 1; p <= n/2; p++ {
		k := n - p - 1 // labels[k] == labels[k+p] back from the end
		for k >= 0 && labels[k] == labels[k+p] {
			k--
		}
		c := (n - 1 - k) / p * p // whole repetitions only
		if c > cover {
			best, cover = p, c
		}
	}
	if best == 0 || cover < 2*best || 2*cover < n {
		return nil, 0
	}
	return slices.Clone(labels[n-best:]), cover / best
}

// hotShownEdge is the number of steps Render shows at each end of a hot
// stretch longer than hotShownMax; the JSON trace has them all.
const hotShownEdge, hotShownMax = 10, 40

// hotShown says whether Render shows step i of t, and the line it writes
// before it, if any: where the hot stretch starts, or that the steps
// between the ends of a long stretch are left out (the step after the
// note is then not shown either).
func (t *Trace) hotShown(i int) (show bool, note string) {
	if t.Hot == 0 {
		return true, ""
	}
	from := len(t.Events) - t.Hot
	if i == from {
		return true, fmt.Sprintf("  -- from here the obligation stays outstanding to the end: %d steps, past the hot bound of %d --", t.Hot, t.HotBound)
	}
	if t.Hot <= hotShownMax {
		return true, ""
	}
	tail := min(max(hotShownEdge, len(t.Repeats)), hotShownMax-hotShownEdge)
	lo, hi := from+hotShownEdge, len(t.Events)-tail // [lo, hi) left out
	switch {
	case i == lo:
		return false, fmt.Sprintf("  ... steps %d to %d left out (the JSON trace, -trace FILE, has every step)", lo+1, hi)
	case i > lo && i < hi:
		return false, ""
	}
	return true, ""
}

// hotEnd is the last lines Render writes of a hot walk's counterexample:
// that it proves nothing, the sequence that repeats, and the stretch's
// events by kind.
func (t *Trace) hotEnd() string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "  (a possible livelock, not a proof: the walk stayed hot for %d steps, past the hot bound of %d, and a longer walk might yet meet the obligation)", t.Hot, t.HotBound)
	if len(t.Repeats) > 0 {
		fmt.Fprintf(b, "\n  repeats to the end, %d times: %s", t.RepeatTimes, strings.Join(t.Repeats, ", "))
	}
	var kinds []string
	for _, e := range t.HotEvents {
		kinds = append(kinds, fmt.Sprintf("%s %d", e.Event, e.N))
	}
	fmt.Fprintf(b, "\n  the hot steps by kind: %s", strings.Join(kinds, ", "))
	return b.String()
}

// validHot refuses a hot stretch that a trace cannot have: longer than
// its run, within its bound, or on a lasso.
func (t *Trace) validHot() error {
	switch {
	case t.Hot == 0 && t.HotBound == 0:
		return nil
	case t.Hot < 0 || t.Hot > len(t.Events):
		return fmt.Errorf("a hot stretch of %d steps in a run of %d", t.Hot, len(t.Events))
	case t.HotBound < 0 || t.Hot <= t.HotBound:
		return fmt.Errorf("a hot stretch of %d steps is within its hot bound of %d", t.Hot, t.HotBound)
	case t.Cycle > 0:
		return fmt.Errorf("a run with both a cycle and a hot stretch")
	}
	return nil
}

// judgeHot judges the Eventually properties of props on the run's hot
// stretch (the worlds kept), naming in t the first one of whose
// obligations stays outstanding throughout, with the stretch marked.
// done: the replay ends with out and err (a fault, a property stuck).
func (r *replayer) judgeHot(t *Trace, props []*properties.Property) (out *Trace, done bool, err error) {
	for _, p := range props {
		if p.When != properties.Eventually {
			continue
		}
		stuck := ^uint64(0)
		for _, w := range r.worlds {
			pend, f := pending(p, r.st.View(w))
			if f != nil {
				t.Fault = f.Error()
				return t, true, fmt.Errorf("the run faults on its hot stretch: %w", faultOf(f, t))
			}
			stuck &= pend
		}
		if stuck != 0 {
			t.Property, t.Detail = p.Name, hotDetail(p, bits.TrailingZeros64(stuck), r.in.Hot, r.in.HotBound)
			markHot(t, r.m, r.events, r.in.Hot, r.in.HotBound)
			return t, true, nil
		}
	}
	return t, false, nil
}
