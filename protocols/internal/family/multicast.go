package family

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// Group describes what the multicast protocols share: their properties,
// the msgs parameter, and for those that order every message (withReads)
// the reads parameter, a replicated register over the total order.
func Group(withReads bool, p *suite.Protocol) *suite.Protocol {
	p.Family = "multicast"
	p.Properties = properties.Family("multicast")
	p.Params = []suite.Param{{Name: properties.MsgsParam, Default: 1, Doc: "operations each initiator issues (values multicast, or register writes and reads)"}}
	name, compile := p.Path(), p.Compile
	p.Compile = func(cfg model.Config, props []*properties.Property) (*checker.Machine, error) {
		if err := multicast.CheckParams(name, cfg, withReads); err != nil {
			return nil, err
		}
		return compile(cfg, props)
	}
	if withReads {
		p.Params = append(p.Params, suite.Param{Name: multicast.ReadsParam, Values: []string{"none", "local", "ordered"},
			Doc: "a replicated register over the total order, whose reads are local or ordered (none: no register)"})
		p.Object = func(cfg model.Config) *properties.Object {
			if multicast.Reads(cfg.Param(multicast.ReadsParam, 0)) == multicast.NoReads {
				return nil
			}
			return properties.Register
		}
		p.Properties = append(p.Properties, properties.Register.Linearizable())
	}
	return p
}
