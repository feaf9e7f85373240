package properties

import (
	"fmt"
	"reflect"

	"github.com/vigil-check/vigil/internal/inplace"
	"github.com/vigil-check/vigil/model"
)

// Invariant returns a property judged in every reachable world: check
// returns "" where it holds, else what is wrong there. Read the nodes'
// states with StateOf, and a monitor's with MonitorState.
func Invariant(name, doc string, check func(v View) string) *Property {
	return &Property{Name: name, Doc: doc, When: Always, Check: check}
}

// Quiescent returns a property judged where runs end: in every quiescent
// world (no delivery, timeout or local action enabled). A quiescent world
// that fails it is a deadlock or a run stuck short of its goal.
func Quiescent(name, doc string, check func(v View) string) *Property {
	return &Property{Name: name, Doc: doc, When: AtQuiescence, Check: check}
}

// Sometimes returns a reachability property of the family: it holds when
// some reachable world reaches the goal, where reached is true (When is
// Possibly). An exhaustive search that finds such a world
// passes it and keeps the shortest run there, its witness; one that
// explored every reachable world and found none fails it; any other
// search that found none leaves it unknown. reached reads the world as an
// invariant's check does (StateOf, MonitorState).
func Sometimes(name, family, doc string, reached func(v View) bool) *Property {
	return &Property{Name: name, Family: family, Doc: doc, When: Possibly, Check: func(v View) string {
		if reached(v) {
			return "reached: " + doc
		}
		return ""
	}}
}

// StateOf returns node i's state in v as the protocol's state type S. The
// value is shared with the checker: read it, never change it.
func StateOf[S any](v View, i model.NodeID) S {
	st := v.State(i)
	s, ok := st.(S)
	if !ok {
		panic(fmt.Sprintf("properties.StateOf: node states are %T, not %v", st, reflect.TypeFor[S]()))
	}
	return s
}

// NewMonitor returns a monitor whose state is a T: start gives it at the
// start of a run, observe gives the state after node reported o (and after
// the crash, model.ObsCrash, or recovery, model.ObsRecover, of node).
// T must be a plain value (see model.Monitor), since the state is part
// of the world the search compares, and observe must return a new value
// rather than change st: the checker re-encodes st after each call and
// reports a monitor that changed it.
func NewMonitor[T any](name string, start func(cfg *model.Config) T, observe func(cfg *model.Config, st T, node model.NodeID, o model.Obs) T) model.Monitor {
	return &typedMonitor[T]{name: name, start: start, observe: observe}
}

// NewSymmetricMonitor is NewMonitor for a state that names nodes, in a
// search that renames interchangeable nodes (see model.Symmetric): rename
// returns st with node i renamed to(i) throughout. A monitor whose state
// names no node passes a rename that returns st.
func NewSymmetricMonitor[T any](name string, start func(cfg *model.Config) T, observe func(cfg *model.Config, st T, node model.NodeID, o model.Obs) T,
	rename func(cfg *model.Config, st T, to func(model.NodeID) model.NodeID) T) model.SymmetricMonitor {
	return &symmetricMonitor[T]{typedMonitor[T]{name: name, start: start, observe: observe}, rename}
}

// NewInPlaceMonitor is NewMonitor for a monitor fed at many steps of a
// random walk, which holds one world at a time and never goes back to an
// earlier one: where a search calls observe, a walk calls observeInPlace
// on a state that only it holds (what start returned, or a deep copy of
// it, then what observeInPlace returned) and never reads it again. So
// observeInPlace may write into the state's slices and return them, where
// observe must copy each one it changes. Both must return the same state
// for the same input, which a walk checks on a sample of calls, and
// neither may store one slice in two places of the state (the next write
// in place would change both). A monitor type of one's own gets the same
// from a walk by having the method ObserveInPlace(cfg *model.Config, st
// any, node model.NodeID, o model.Obs) any.
func NewInPlaceMonitor[T any](name string, start func(cfg *model.Config) T,
	observe, observeInPlace func(cfg *model.Config, st T, node model.NodeID, o model.Obs) T) inplace.Monitor {
	return &inPlaceMonitor[T]{typedMonitor[T]{name: name, start: start, observe: observe}, observeInPlace}
}

type inPlaceMonitor[T any] struct {
	typedMonitor[T]
	inPlace func(cfg *model.Config, st T, node model.NodeID, o model.Obs) T
}

func (m *inPlaceMonitor[T]) ObserveInPlace(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.inPlace(cfg, st.(T), node, o)
}

type symmetricMonitor[T any] struct {
	typedMonitor[T]
	rename func(cfg *model.Config, st T, to func(model.NodeID) model.NodeID) T
}

func (m *symmetricMonitor[T]) RenameNodes(cfg *model.Config, st any, to func(model.NodeID) model.NodeID) any {
	return m.rename(cfg, st.(T), to)
}

type typedMonitor[T any] struct {
	name    string
	start   func(cfg *model.Config) T
	observe func(cfg *model.Config, st T, node model.NodeID, o model.Obs) T
}

func (m *typedMonitor[T]) Name() string                { return m.name }
func (m *typedMonitor[T]) Start(cfg *model.Config) any { return m.start(cfg) }
func (m *typedMonitor[T]) Observe(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.observe(cfg, st.(T), node, o)
}

// MonitorState returns mon's state in v as a T (shared: do not change it).
func MonitorState[T any](v View, mon model.Monitor) T {
	st := v.Monitor(mon)
	t, ok := st.(T)
	if !ok {
		panic(fmt.Sprintf("properties.MonitorState: monitor %s keeps %T, not %v", mon.Name(), st, reflect.TypeFor[T]()))
	}
	return t
}

// CheckNames reports a property list that cannot be checked as one: a
// property without a name or a Check, or two properties of the same name,
// whose verdicts could not be told apart.
func CheckNames(ps []*Property) error {
	seen := map[string]bool{}
	for _, p := range ps {
		switch {
		case p == nil:
			return fmt.Errorf("a nil property")
		case p.Name == "":
			return fmt.Errorf("a property without a name (doc %q)", p.Doc)
		case p.Check == nil:
			return fmt.Errorf("property %s has no Check", p.Name)
		case p.When == Eventually && p.Pending == nil:
			return fmt.Errorf("property %s is an eventually-property without Pending", p.Name)
		case p.Trigger != nil && p.Trigger.When != Possibly:
			return fmt.Errorf("property %s has trigger %s, which is not a sometimes-property", p.Name, p.Trigger.Name)
		case seen[p.Name]:
			return fmt.Errorf("two properties are named %s", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}
