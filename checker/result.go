// Package checker holds vigil's engines: a protocol compiled with the
// properties to check (Compile, Machine), exhaustive breadth-first search
// over fingerprinted worlds, seeded random walks, runs stepped by hand
// (Run), and the analyses and traces they share (message complexity over
// the state graph, time in asynchronous rounds, shrinking, schedulers of
// random walks, counterexample replay and rendering, faults of handlers
// and monitors). It depends on model, properties and its internal
// machinery, never on protocols. Its subpackages describe protocols for
// the tools (suite), check them in go test (checktest) and run the command
// line over any registry of them (cli).
package checker

import (
	"fmt"
	"time"

	"github.com/vigil-check/vigil/properties"
)

// Verdict is a property's outcome.
type Verdict string

const (
	// Pass: no counterexample in what the search explored. It is a proof
	// for the configuration only when Result.Complete says so: an
	// exhaustive search that no bound cut. Random walks that find nothing
	// pass too, and prove nothing (Complete is false).
	Pass    Verdict = "pass"
	Fail    Verdict = "fail"    // a counterexample was found
	Unknown Verdict = "unknown" // no counterexample, but a bound cut the search short
	// Error is a search's verdict, never a property's, when a protocol
	// handler or a monitor failed (Result.Fault): the search ended there;
	// or when it did not start (Result.Refused).
	Error Verdict = "error"
)

// PropertyResult is one property's verdict, with its counterexample on Fail.
type PropertyResult struct {
	Name           string  `json:"name"`
	Verdict        Verdict `json:"result"`
	Detail         string  `json:"detail,omitempty"`
	Counterexample *Trace  `json:"counterexample,omitempty"`
	// Sometimes: the property is a sometimes-property (properties.Possibly),
	// which passes where some run reaches its goal. Witness is then that
	// run, the shortest an exhaustive search met; a random walk's replays
	// from its seed.
	Sometimes bool   `json:"sometimes,omitempty"`
	Witness   *Trace `json:"witness,omitempty"`
	// By names the part of an auto search (see Auto) that decided the
	// verdict: "exhaustive", "probe" or "walks"; "" for a search of one
	// mode, and for a property no part decided.
	By string `json:"by,omitempty"`
}

// Stats describe a search.
type Stats struct {
	States      int64   `json:"states"`
	Transitions int64   `json:"transitions"`
	Depth       int     `json:"depth"`
	Seconds     float64 `json:"seconds"`
	StatesPerS  float64 `json:"states_per_second"`
	Quiescent   int64   `json:"quiescent_states"`
	Walks       int     `json:"walks,omitempty"`
	// WalksCut counts the walks the depth bound ended before their runs
	// ended (random only): properties judged where runs end saw none of
	// their ends.
	WalksCut int `json:"walks_cut,omitempty"`
	// WalksCycled counts the walks that ended on a cycle: one event only
	// enabled at every step, back to a world met before, so that the run
	// goes round it for ever (random only). Their runs never end.
	WalksCycled int `json:"walks_cycled,omitempty"`
	// Collision is an upper bound on the probability that two distinct
	// worlds shared a fingerprint, which could hide states (exhaustive only).
	Collision float64 `json:"fingerprint_collision_probability"`
	// VisitedBytes is the visited set's memory per state (exhaustive only).
	VisitedBytes float64 `json:"visited_bytes_per_state,omitempty"`
	// Revisits counts the edges of a sweep into the earlier levels it kept
	// (Options.Window): with any, it cannot show that every run ends.
	Revisits int64 `json:"sweep_revisits,omitempty"`
	// GraphBytes is the state graph's memory per state, when it is kept
	// for message figures: state numbering, edges and their weights.
	GraphBytes float64 `json:"graph_bytes_per_state,omitempty"`
}

// MessageRange is the least and most messages of one kind ("total" for
// all kinds) sent in a complete run (one ending in a quiescent world), over
// every complete run explored. Unbounded means a run can send arbitrarily
// many (a cycle that sends messages can be followed by quiescence).
type MessageRange struct {
	Kind      string `json:"kind"`
	Min       int    `json:"min"`
	Max       int    `json:"max"`
	Unbounded bool   `json:"unbounded,omitempty"`
}

func (r MessageRange) String() string {
	if r.Unbounded {
		return fmt.Sprintf("%s %d..∞", r.Kind, r.Min)
	}
	if r.Min == r.Max {
		return fmt.Sprintf("%s %d", r.Kind, r.Min)
	}
	return fmt.Sprintf("%s %d..%d", r.Kind, r.Min, r.Max)
}

// Rounds is the time of a complete run in asynchronous rounds: the length
// of its longest causal chain of messages, each sent by the receiver of
// the one before after receiving it, over every complete run explored (the
// least and the most). It is the time the run takes when every message
// takes at most one unit of time and local steps none, as the Leader
// Election notes count it; messages lost or never received are no link
// in a chain.
type Rounds struct {
	Min int `json:"min"`
	Max int `json:"max"`
	// States: the worlds an exhaustive search explored to measure it,
	// which carry causal clocks and so outnumber the plain ones.
	States int64 `json:"states,omitempty"`
}

func (r Rounds) String() string {
	if r.Min == r.Max {
		return fmt.Sprintf("rounds %d", r.Min)
	}
	return fmt.Sprintf("rounds %d..%d", r.Min, r.Max)
}

// Mode is the kind of search a Result reports.
type Mode string

const (
	ModeExhaustive Mode = "exhaustive" // Exhaustive
	ModeRandom     Mode = "random"     // Random, and MergeShards
	// ModeAuto: an auto search whose exhaustive part did not decide it
	// (see Auto); one it decided reports ModeExhaustive.
	ModeAuto Mode = "auto"
	// ModeReplay: a trace replayed (see Replay), as the command line
	// reports it.
	ModeReplay Mode = "replay"
)

// Cut names the bound that stopped a search early (Result.Cut), or why
// the time of its runs in rounds was not measured (Result.RoundsCut).
type Cut string

const (
	CutNone   Cut = ""      // nothing cut the search
	CutDepth  Cut = "depth" // Options.MaxDepth
	CutStates Cut = "states"
	CutTime   Cut = "time"
	CutMemory Cut = "memory"
	// CutCanceled: the caller's context was canceled (the command line
	// cancels it on SIGINT and SIGTERM).
	CutCanceled Cut = "canceled"
	// CutCycle (RoundsCut only): some runs go round a cycle and never
	// end, so their time is unbounded.
	CutCycle Cut = "cycle"
	// CutFault (RoundsCut only): the search of rounds met a fault that
	// the search itself did not.
	CutFault Cut = "fault"
)

// Result is what an engine reports.
type Result struct {
	Mode Mode `json:"mode"`
	// Fairness under which eventually-properties were judged on cycles
	// (exhaustive search of such properties only).
	Fairness string `json:"fairness,omitempty"`
	// Scheduler of a random search's walks, when not uniform
	// (RandomOptions.Scheduler).
	Scheduler string  `json:"scheduler,omitempty"`
	Verdict   Verdict `json:"verdict"`
	// Complete: the search explored every world reachable in the
	// configuration (exhaustive, no bound cut it, no fault ended it), so
	// that a Pass is a proof for it. A random search is never complete.
	Complete   bool             `json:"complete"`
	Properties []PropertyResult `json:"properties"`
	// Vacuous: the passes whose trigger no run reached (see
	// properties.Property.Trigger): they may hold only because what they
	// speak of never happens. The verdicts stand.
	Vacuous []Vacuity `json:"vacuous,omitempty"`
	Stats   Stats     `json:"stats"`
	// Messages is nil when no complete run was explored.
	Messages []MessageRange `json:"messages"`
	// Rounds: the time of complete runs, when asked for (Options.Rounds,
	// RandomOptions.Rounds) and measured; nil when no complete run was
	// explored, or RoundsCut says why it was not measured: the bound that
	// cut the search, or CutCycle where some runs never end (an exhaustive
	// search that keeps its state graph sees it).
	Rounds    *Rounds `json:"rounds,omitempty"`
	RoundsCut Cut     `json:"rounds_cut,omitempty"`
	// Entry holds the mutual-exclusion figures of a random search asked
	// for them (RandomOptions.EntryFigures), nil if no walk entered.
	Entry *EntryFigures `json:"entry_figures,omitempty"`
	// Linearizability is the porcupine check of the walks' client
	// histories, when a random search was asked for it.
	Linearizability *Linearizability `json:"linearizability,omitempty"`
	// Cut names the bound that stopped the search early (CutNone if
	// none): CutDepth, CutStates, CutTime or CutMemory, or CutCanceled
	// when the caller's context was. The time bound covers the search's
	// setup too (its tables, its first world): a search cut there reports
	// what it did so far, maybe nothing.
	Cut Cut `json:"cut,omitempty"`
	// MemoryBound, when the memory bound cut the search, is that bound
	// and where it comes from ("5.6 GiB, half of the cgroup's memory.max,
	// 11.2 GiB"; see MemoryBound).
	MemoryBound string `json:"memory_bound,omitempty"`
	// Refused: the search did not start, and why: an option no search
	// takes (see Options.Validate, RandomOptions.Validate), or tables it
	// would make before exploring that cannot fit in its memory bound
	// (see CheckExhaustiveFits, CheckRandomFits). The verdict is then
	// Error, with no Fault, and every property Unknown.
	Refused string `json:"refused,omitempty"`
	// Sweep: an exhaustive search that kept two levels in memory
	// (Options.Sweep).
	Sweep bool `json:"sweep,omitempty"`
	// Reduction says how an exhaustive search of a protocol that declares
	// a symmetry used it (SymmetryUsed: its states are families of
	// worlds), or why not.
	Reduction SymmetryUse `json:"reduction,omitzero"`
	// PartialOrder says whether an exhaustive search explored some nodes'
	// steps alone where no other node could reach them first (see
	// ReduceAll), or "none: " and why not.
	PartialOrder string `json:"partial_order,omitempty"`
	// Stopped: the search ended early because every property already had
	// a counterexample (every one that is not a sometimes-property; where
	// all are, every one was reached); the stats cover what was explored
	// until then.
	Stopped bool `json:"stopped_early,omitempty"`
	// StoppedFirst: the search ended at its first violation, as
	// Options.First or RandomOptions.First asked, with work left; the
	// properties without a counterexample are Unknown (Detail: notJudged)
	// and the stats cover what was explored until then. Stopped is then
	// false, even if every property failed by that point.
	StoppedFirst bool `json:"stopped_at_first,omitempty"`
	// Fault: a protocol handler or monitor failed, and the search ended
	// there; the verdict is Error, the properties without a counterexample
	// Unknown, the stats cover what was explored until then.
	Fault *Fault `json:"fault,omitempty"`
	// Coverage: how often the search took each kind of event, and what
	// it never took.
	Coverage *Coverage `json:"coverage,omitempty"`
	// Shard: what a shard of a random search (RandomOptions.Shard)
	// reports for MergeShards. The rest of the result is over the shard's
	// own walks.
	Shard *ShardRun `json:"shard,omitempty"`
	// Parts: the parts of an auto search, in the order they ran (see
	// Auto), with their stats; nil for a search of one mode.
	Parts []PartStats `json:"parts,omitempty"`
}

// notJudged is the detail of a property left Unknown by a search that
// stopped at its first violation.
const notJudged = "not judged to the end: the search stopped at the first violation"

// Failed returns the results of the properties that failed.
func (r *Result) Failed() []PropertyResult {
	var out []PropertyResult
	for _, p := range r.Properties {
		if p.Verdict == Fail {
			out = append(out, p)
		}
	}
	return out
}

// Property returns the result for the named property, or nil.
func (r *Result) Property(name string) *PropertyResult {
	for i := range r.Properties {
		if r.Properties[i].Name == name {
			return &r.Properties[i]
		}
	}
	return nil
}

func (r *Result) finish(start time.Time) {
	r.Stats.Seconds = time.Since(start).Seconds()
	if r.Stats.Seconds > 0 {
		r.Stats.StatesPerS = float64(r.Stats.States) / r.Stats.Seconds
	}
	r.decide()
	r.Complete = r.Mode == ModeExhaustive && r.Cut == CutNone && r.Fault == nil && !r.Stopped && !r.StoppedFirst
}

// decide gives every property without a verdict Pass, or Unknown where a
// bound cut the search, and r the verdict they add up to.
func (r *Result) decide() {
	r.Verdict = Pass
	for i := range r.Properties {
		if r.Properties[i].Verdict == "" {
			r.Properties[i].Verdict = Pass
			if r.Cut != CutNone {
				r.Properties[i].Verdict = Unknown
			}
		}
		switch r.Properties[i].Verdict {
		case Fail:
			r.Verdict = Fail
		case Unknown:
			if r.Verdict == Pass {
				r.Verdict = Unknown
			}
		}
	}
	if l := r.Linearizability; l != nil {
		switch {
		case l.Verdict == Fail:
			r.Verdict = Fail
		case l.Verdict == Unknown && r.Verdict == Pass:
			r.Verdict = Unknown
		}
	}
	if r.Fault != nil {
		r.Verdict = Error
	}
}

// faulted ends a result with fault f: properties without a counterexample
// are Unknown.
func (r *Result) faulted(f *Fault) {
	r.Fault = f
	for i := range r.Properties {
		if r.Properties[i].Verdict != Fail {
			r.Properties[i].Verdict, r.Properties[i].Detail = Unknown, faultDetail
		}
	}
}

func newResult(mode Mode, props []*properties.Property) *Result {
	r := &Result{Mode: mode}
	for _, p := range props {
		r.Properties = append(r.Properties, PropertyResult{Name: p.Name, Sometimes: p.When == properties.Possibly})
	}
	return r
}

// String summarises a result in one line.
func (r *Result) String() string {
	return fmt.Sprintf("%s %s: %d states, %d transitions, depth %d, %.2fs", r.Mode, r.Verdict, r.Stats.States, r.Stats.Transitions, r.Stats.Depth, r.Stats.Seconds)
}
