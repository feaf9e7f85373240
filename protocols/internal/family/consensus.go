package family

import (
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
)

// Consensus describes what the consensus protocols share: their
// properties (agreement, validity, termination over properties.Decisions)
// and, unless p claims others, the claim of all three.
func Consensus(p *suite.Protocol) *suite.Protocol {
	p.Family = "consensus"
	p.Properties = properties.Family("consensus")
	if p.Claims == nil {
		p.Claims = []string{"learned", "agreement", "validity", "termination"}
	}
	return p
}
