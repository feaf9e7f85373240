package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// Reduction says which reductions an exhaustive search may apply.
type Reduction uint8

const (
	// ReduceAll applies every reduction where it is sound.
	//
	// Symmetry, where the protocol declares interchangeable nodes
	// (model.Symmetric): the search keeps one world of each family of
	// renamings, so it counts families, not worlds; every verdict, every
	// counterexample (a run of worlds, rebuilt from the representatives),
	// the quiescent states up to renaming and the message figures are
	// those of the full search. Where eventually-properties are judged on
	// cycles, a cycle of representatives need not be one of worlds: a
	// search that meets one searches again without the reduction.
	//
	// Partial order, where symmetry does not apply, channels are FIFO and
	// steps untimed (see partialorder.go): from a world where no fault can
	// happen any more, the search takes alone the steps of a set of nodes
	// that every node outside it that may still send to one of them has a
	// message in flight to, unless one observes something an invariant
	// could tell apart.
	// Every verdict, the quiescent worlds and the message figures are the
	// full search's, and a counterexample is among the shortest (its run
	// is searched for again without the reduction). Where
	// eventually-properties or figures are judged on a graph with cycles,
	// the search meets an edge back and searches again without it
	// (Result.PartialOrder says so).
	ReduceAll Reduction = iota
	// ReduceNone keeps every world.
	ReduceNone
)

func (r Reduction) String() string { return [...]string{"all", "none"}[r] }

// ParseReduction reads "all" or "none".
func ParseReduction(s string) (Reduction, error) {
	switch s {
	case "all", "":
		return ReduceAll, nil
	case "none":
		return ReduceNone, nil
	}
	return 0, fmt.Errorf("unknown reduction %q: want all or none", s)
}

// SymmetryUse says what an exhaustive search did with the symmetry its
// protocol declares (Result.Reduction). JSON shows it as one line of text
// (see String), and reads that line back (a shard's result, a file).
type SymmetryUse struct {
	Kind SymmetryKind
	// Detail names the interchangeable nodes ("n1 n2 n3
	// interchangeable") where the search used or declined the symmetry,
	// and says why where it could not use it.
	Detail string
}

// SymmetryKind is what a search did with a declared symmetry.
type SymmetryKind string

const (
	// NoSymmetry: the protocol declares none in this configuration, or the
	// search does not reduce at all (the one measuring rounds).
	NoSymmetry SymmetryKind = ""
	// SymmetryUsed: the search kept one world per family of renamings,
	// so it counts families, not worlds.
	SymmetryUsed SymmetryKind = "used"
	// SymmetryNotUsed: the declared symmetry could not serve this search;
	// Detail says why.
	SymmetryNotUsed SymmetryKind = "not used"
	// SymmetryDeclined: Options.Reduce was ReduceNone.
	SymmetryDeclined SymmetryKind = "declined"
)

// The text of each kind of SymmetryUse, around its Detail.
const (
	symmetryUsedPrefix     = "symmetry: "
	symmetryNotUsedPrefix  = "none: "
	symmetryDeclinedPrefix = "none, as asked ("
	symmetryDeclinedSuffix = ")"
)

// String is the use as the command line and JSON show it:
// "symmetry: n1 n2 n3 interchangeable", "none: " and why not, or
// "none, as asked (n1 n2 n3 interchangeable)"; "" for NoSymmetry.
func (u SymmetryUse) String() string {
	switch u.Kind {
	case SymmetryUsed:
		return symmetryUsedPrefix + u.Detail
	case SymmetryNotUsed:
		return symmetryNotUsedPrefix + u.Detail
	case SymmetryDeclined:
		return symmetryDeclinedPrefix + u.Detail + symmetryDeclinedSuffix
	}
	return ""
}

// IsZero reports whether the use is NoSymmetry, which JSON leaves out.
func (u SymmetryUse) IsZero() bool { return u.Kind == NoSymmetry }

// MarshalText is String.
func (u SymmetryUse) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText reads what String writes.
func (u *SymmetryUse) UnmarshalText(b []byte) error {
	s := string(b)
	switch {
	case s == "":
		*u = SymmetryUse{}
	case strings.HasPrefix(s, symmetryUsedPrefix):
		*u = SymmetryUse{Kind: SymmetryUsed, Detail: strings.TrimPrefix(s, symmetryUsedPrefix)}
	case strings.HasPrefix(s, symmetryNotUsedPrefix):
		*u = SymmetryUse{Kind: SymmetryNotUsed, Detail: strings.TrimPrefix(s, symmetryNotUsedPrefix)}
	case strings.HasPrefix(s, symmetryDeclinedPrefix) && strings.HasSuffix(s, symmetryDeclinedSuffix):
		*u = SymmetryUse{Kind: SymmetryDeclined, Detail: strings.TrimSuffix(strings.TrimPrefix(s, symmetryDeclinedPrefix), symmetryDeclinedSuffix)}
	default:
		return fmt.Errorf("reduction %q: want \"symmetry: \", \"none: \" or \"none, as asked (\" and the nodes", s)
	}
	return nil
}

// The first symmetryAll states, then one in symmetrySample, are renamed
// and expanded again, to check that the declared symmetry holds there.
const (
	symmetryAll    = 1024
	symmetrySample = 61
)

// reduction returns the symmetry a search of m with opt reduces by, if
// any, and what Result.Reduction says of it.
func reduction(m *sim.Machine, opt Options) (*sim.Symmetry, SymmetryUse) {
	if opt.clocked { // (worlds with clocks, measuring rounds only)
		return nil, SymmetryUse{}
	}
	sym, why := m.Symmetry()
	switch {
	case sym == nil && why == "":
		return nil, SymmetryUse{}
	case sym == nil:
		return nil, SymmetryUse{Kind: SymmetryNotUsed, Detail: why}
	case opt.Reduce == ReduceNone:
		return nil, SymmetryUse{Kind: SymmetryDeclined, Detail: sym.String()}
	}
	return sym, SymmetryUse{Kind: SymmetryUsed, Detail: sym.String()}
}

// symmetricStart checks that renaming the interchangeable nodes leaves the
// initial world as it is, as a declared symmetry must.
func symmetricStart(st *sim.Stepper, sym *sim.Symmetry, w0 sim.World) *sim.Fault {
	n := st.Machine().Config().N
	for k := range sym.Pairs() {
		to := sym.Transposition(n, k)
		if r := st.Rename(w0, to, nil); !slices.Equal(r, w0) {
			a, b := swapped(to)
			return symmetryFault(st, fmt.Sprintf("declares %v and %v interchangeable, but renaming them changes the initial world", a, b))
		}
	}
	return st.TakeFault()
}

func swapped(to []model.NodeID) (a, b model.NodeID) {
	a, b = model.None, model.None
	for i, j := range to {
		if model.NodeID(i) != j {
			if a == model.None {
				a = model.NodeID(i)
			} else {
				b = model.NodeID(i)
			}
		}
	}
	return a, b
}

func symmetryFault(st *sim.Stepper, misuse string) *sim.Fault {
	if f := st.TakeFault(); f != nil {
		return f // a renaming that failed
	}
	return &sim.Fault{Fault: model.Fault{Protocol: st.Machine().Name, Handler: "Interchangeable", Node: model.None, Misuse: misuse}}
}

// successor is Stepper.Successor, of the representative's family under
// symmetry: built and renamed, where a plain search only fingerprints it.
func (x *expander) successor(w sim.World, f0 uint64, ev sim.Event) sim.Successor {
	if x.e.sym == nil {
		return x.st.Successor(w, f0, ev)
	}
	var step *sim.Step
	x.buf, step = x.st.Apply(w, ev, x.buf)
	x.can = x.st.Canonical(x.e.sym, x.buf, x.can)
	return sim.Successor{FP: x.st.Fingerprint(x.can), Step: step, Len: len(x.can), MonitorsChanged: !x.st.SameMonitors(w, x.buf)}
}

// checkSymmetry checks that the declared symmetry holds at w, state
// number k, whose successors' fingerprints x.fps holds: renamed by a swap
// of two interchangeable nodes (the k-th pair), w must have the same
// successors' families, be quiescent alike, and pass and fail the same
// invariants.
func (x *expander) checkSymmetry(w sim.World, k int, quiet bool) *sim.Fault {
	st, sym := x.st, x.e.sym
	to := sym.Transposition(st.Machine().Config().N, k)
	a, b := swapped(to)
	r := st.Rename(w, to, nil)
	evs, nproto := st.Enabled(r, nil)
	fps := make([]uint64, 0, len(evs))
	for _, ev := range evs {
		next, _ := st.Apply(r, ev, nil)
		fps = append(fps, st.Fingerprint(st.Canonical(sym, next, nil)))
	}
	mine := slices.Sorted(slices.Values(x.fps))
	slices.Sort(fps)
	what := ""
	switch {
	case (nproto == 0) != quiet:
		what = "whether it is quiescent"
	case !slices.Equal(mine, fps):
		what = "what it can do next"
	default:
		for p, prop := range x.e.props {
			if !prop.EveryWorld() {
				continue
			}
			if (x.check(p, prop, w) == "") != (x.check(p, prop, r) == "") {
				what = "the verdict of " + prop.Name
				break
			}
		}
	}
	if x.pfault != nil {
		f := x.pfault
		x.pfault = nil
		return f
	}
	if what == "" {
		return st.TakeFault()
	}
	return symmetryFault(st, fmt.Sprintf("declares %v and %v interchangeable, but renaming them in this world changes %s", a, b, what))
}
