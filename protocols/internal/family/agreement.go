package family

import (
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
)

// Agreement describes what the Byzantine generals' protocols share: their
// properties (IC1, IC2 and termination over properties.Generals, judging
// loyal generals alone) and, unless p claims others, the claim of all of
// them.
func Agreement(p *suite.Protocol) *suite.Protocol {
	p.Family = "agreement"
	p.Properties = properties.Family("agreement")
	if p.Claims == nil {
		p.Claims = []string{"decided", "ic1", "ic2", "termination"}
	}
	return p
}
