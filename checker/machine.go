package checker

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Machine is a protocol compiled for one configuration, with the
// properties a search checks: the monitors they read are attached to it,
// so that each world carries their states.
type Machine struct {
	m *sim.Machine
	// props are the properties asked for, then the triggers of those
	// (Property.Trigger) that were not: the searches judge them all, and
	// report the first shown alone (see report).
	props []*properties.Property
	shown int
}

// Compile builds the Machine that runs protocol p, named name, under cfg
// and checks props. It rejects a configuration that is not valid, state or
// message types that have no canonical encoding (they must be plain
// values; see model.Protocol) and property lists that cannot be checked
// together (see properties.CheckNames).
//
// The triggers of props (Property.Trigger) are judged with them, asked for
// or not, so that a pass where no run reached its trigger is told
// (Result.Vacuous); those not asked for get no verdict of their own.
func Compile[S, M any](name string, p model.Protocol[S, M], cfg model.Config, props ...*properties.Property) (*Machine, error) {
	if err := properties.CheckNames(props); err != nil {
		return nil, err
	}
	all := withTriggers(props)
	m, err := sim.Compile(name, p, cfg, properties.Monitors(all)...)
	if err != nil {
		return nil, err
	}
	return &Machine{m: m, props: all, shown: len(props)}, nil
}

// withTriggers is props, then the triggers of props that none of them is
// nor is named as.
func withTriggers(props []*properties.Property) []*properties.Property {
	all := slices.Clone(props)
	for _, p := range props {
		if t := p.Trigger; t != nil && !slices.ContainsFunc(all, func(q *properties.Property) bool { return q.Name == t.Name }) {
			all = append(all, t)
		}
	}
	return all
}

// Name is the name the protocol was compiled under.
func (m *Machine) Name() string { return m.m.Name }

// Config is the run's configuration.
func (m *Machine) Config() model.Config { return *m.m.Config() }

// Properties are the properties a search of m checks.
func (m *Machine) Properties() []*properties.Property { return slices.Clone(m.props[:m.shown]) }

// WithProperties returns a Machine sharing m's tables that checks props
// instead: a subset of m's, or any that read no monitor m lacks (none, to
// run walks for their figures alone).
func (m *Machine) WithProperties(props ...*properties.Property) (*Machine, error) {
	if err := properties.CheckNames(props); err != nil {
		return nil, err
	}
	all := withTriggers(props)
	for _, mon := range properties.Monitors(all) {
		if !slices.Contains(m.m.Monitors(), mon) {
			return nil, fmt.Errorf("monitor %s, which a property reads, is not attached to %s: compile with that property", mon.Name(), m.Name())
		}
	}
	return &Machine{m: m.m, props: all, shown: len(props)}, nil
}
