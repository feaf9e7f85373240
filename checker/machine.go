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
	m     *sim.Machine
	props []*properties.Property
}

// Compile builds the Machine that runs protocol p, named name, under cfg
// and checks props. It rejects a configuration that is not valid, state or
// message types that have no canonical encoding (they must be plain
// values; see model.Protocol) and property lists that cannot be checked
// together (see properties.CheckNames).
func Compile[S, M any](name string, p model.Protocol[S, M], cfg model.Config, props ...*properties.Property) (*Machine, error) {
	if err := properties.CheckNames(props); err != nil {
		return nil, err
	}
	m, err := sim.Compile(name, p, cfg, properties.Monitors(props)...)
	if err != nil {
		return nil, err
	}
	return &Machine{m: m, props: slices.Clone(props)}, nil
}

// Name is the name the protocol was compiled under.
func (m *Machine) Name() string { return m.m.Name }

// Config is the run's configuration.
func (m *Machine) Config() model.Config { return *m.m.Config() }

// Properties are the properties a search of m checks.
func (m *Machine) Properties() []*properties.Property { return slices.Clone(m.props) }

// WithProperties returns a Machine sharing m's tables that checks props
// instead: a subset of m's, or any that read no monitor m lacks (none, to
// run walks for their figures alone).
func (m *Machine) WithProperties(props ...*properties.Property) (*Machine, error) {
	if err := properties.CheckNames(props); err != nil {
		return nil, err
	}
	for _, mon := range properties.Monitors(props) {
		if !slices.Contains(m.m.Monitors(), mon) {
			return nil, fmt.Errorf("monitor %s, which a property reads, is not attached to %s: compile with that property", mon.Name(), m.Name())
		}
	}
	return &Machine{m: m.m, props: slices.Clone(props)}, nil
}
