package family

import (
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
)

// Election describes what the election protocols share: their properties
// and, unless p claims others, the claims of an election that elects the
// highest live node whoever initiates.
func Election(p *suite.Protocol) *suite.Protocol {
	p.Family = "election"
	p.Properties = properties.Family("election")
	if p.Claims == nil {
		p.Claims = []string{"elected", "unique-leader", "agreement", "highest-leader", "termination", "live-leader"}
	}
	return p
}
