// Package properties holds the properties vigil checks: predicates over
// what a View shows of a world (which nodes are alive and connected, their
// ranks and states, the states of monitors, small automata fed with the
// observations protocols report). The protocol-neutral ones serve every
// protocol of a family; Invariant, Quiescent, StateOf, NewMonitor and
// MonitorState help write a protocol's own.
package properties

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// When says in which worlds a property is judged.
type When uint8

const (
	// Always: an invariant, judged in every reachable world.
	Always When = iota
	// AtQuiescence: judged in every quiescent world (no delivery, timeout or
	// action enabled), the end of a complete run. A quiescent world that
	// fails it is a deadlock or a stuck run.
	AtQuiescence
	// Eventually: a liveness property. Pending names the obligations
	// outstanding in a world (bit i: usually "node i waits for something"),
	// and each must be met on every fair run: no quiescent world may have one
	// outstanding, and no fair cycle of worlds may keep one outstanding
	// throughout. The exhaustive engine decides the cycles on its state graph
	// (see checker.Fairness); a random walk can only judge where it ends.
	Eventually
	// Possibly: a sometimes-property (see the constructor Sometimes), a
	// reachability property, "some run reaches the goal".
	// Check is judged in every reachable world, as an invariant's is, and
	// returns what the world reaches of the goal, or "" where it does
	// not: the property holds where some reachable world reaches it. It is
	// the violation of the invariant "the goal is never reached", so it is
	// sound under the reductions exactly where invariants are (symmetry,
	// partial order). Only an exhaustive search that no bound cut can show
	// that no world reaches it; a random search that reaches none knows
	// nothing.
	Possibly
)

func (w When) String() string {
	switch w {
	case AtQuiescence:
		return "at quiescence"
	case Eventually:
		return "eventually"
	case Possibly:
		return "sometimes"
	}
	return "always"
}

// Property is one named, checkable claim.
type Property struct {
	Name    string
	Family  string // the protocol family it speaks of, e.g. "election"
	Doc     string // one precise sentence
	When    When
	Monitor model.Monitor // the monitor it reads, or nil
	// MonitorOnly: Check reads nothing but N, ranks, which nodes are alive
	// and Monitor's state, so engines may cache its result by those.
	MonitorOnly bool
	// Check returns "" when the property holds in v, else what is wrong.
	// For an Eventually property it describes the obligations outstanding
	// in v, or returns "" when none is.
	Check func(v View) string
	// Pending (Eventually only) returns the obligations outstanding in v,
	// one bit each; at most 64.
	Pending func(v View) uint64
	// Obligation (Eventually only) says what bit b of Pending stands for,
	// as a clause: "n2 waits for the critical section".
	Obligation func(b int) string
	// Trigger is the sometimes-property (Possibly) that says the situation this
	// property speaks of happens at all (a leader is elected, a node
	// enters the critical section), or nil. A pass of this property where
	// no run reached its trigger may be vacuous, and vigil warns of it;
	// the engines judge the trigger with the property, asked for or not.
	Trigger *Property
}

// EveryWorld reports whether p is judged in every reachable world (an
// invariant or a sometimes-property), not only where runs end.
func (p *Property) EveryWorld() bool { return p.When == Always || p.When == Possibly }

// Judge returns what is wrong with v for p, or "": an invariant is judged
// in every world, the others only when the run ends there (quiescent),
// where an Eventually property's outstanding obligations are the violation.
// For a sometimes-property (Possibly) it returns what v reaches of the goal, or "":
// engines judge it as the invariant "never reached", and a world where that
// breaks is the property's witness.
func (p *Property) Judge(v View, quiescent bool) string {
	if !p.EveryWorld() && !quiescent {
		return ""
	}
	return p.AtEnd(p.Check(v))
}

// AtEnd words detail d, what Check found wrong where a run ends: for an
// Eventually property, that the run ends with obligations outstanding.
func (p *Property) AtEnd(d string) string {
	if d != "" && p.When == Eventually {
		d = "the run ends while " + d
	}
	return d
}

// View is what a property sees of one world of a run. The checker hands
// one to every Check and Pending call; it is valid for that call only.
type View interface {
	// N is the number of nodes, and Config the run's configuration.
	N() int
	Config() *model.Config
	// Alive reports whether node i is up; Rank is its rank.
	Alive(i model.NodeID) bool
	Rank(i model.NodeID) int
	// Connected reports whether i and j are on the same side of every
	// cut; Split whether the network is partitioned at all.
	Connected(i, j model.NodeID) bool
	Split() bool
	// InFlight is the number of messages sent and not yet delivered or
	// lost.
	InFlight() int
	// State is node i's state, a value of the protocol's state type (see
	// StateOf), shared with the checker: do not change it.
	State(i model.NodeID) any
	// Monitor is mon's state in this world (see MonitorState); mon must be
	// read by one of the properties checked, so that it is attached.
	Monitor(mon model.Monitor) any
}

// registry holds every property by family, then name: families may use
// the same word ("agreement" of leaders, and of deliveries).
var registry = map[string]map[string]*Property{}

func register(ps ...*Property) {
	for _, p := range ps {
		if registry[p.Family] == nil {
			registry[p.Family] = map[string]*Property{}
		}
		if registry[p.Family][p.Name] != nil {
			panic("property registered twice: " + p.Family + "/" + p.Name)
		}
		registry[p.Family][p.Name] = p
	}
}

// Lookup returns the property of that name in the family.
func Lookup(family, name string) (*Property, error) {
	if p := registry[family][name]; p != nil {
		return p, nil
	}
	for f, ps := range registry {
		if ps[name] != nil {
			return nil, fmt.Errorf("property %s speaks of the %s family, not of %s", name, f, family)
		}
	}
	return nil, fmt.Errorf("unknown property %q (known for %s: %s)", name, family, strings.Join(Names(family), ", "))
}

// Names lists the names of a family's properties, sorted.
func Names(family string) []string {
	var ns []string
	for n := range registry[family] {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Family lists the properties of a family, sorted by name.
func Family(f string) []*Property {
	var ps []*Property
	for _, n := range Names(f) {
		ps = append(ps, registry[f][n])
	}
	return ps
}

// Monitors returns the distinct monitors ps read, in first-use order.
func Monitors(ps []*Property) []model.Monitor {
	var ms []model.Monitor
	for _, p := range ps {
		if p.Monitor != nil && !slices.Contains(ms, p.Monitor) {
			ms = append(ms, p.Monitor)
		}
	}
	return ms
}
