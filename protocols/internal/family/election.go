package family

import (
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
)

// ElectionClaims are the claims of an election that elects the highest
// live node whoever initiates.
func ElectionClaims() []string {
	return []string{"unique-leader", "agreement", "highest-leader", "termination", "live-leader"}
}

// Election describes what the election protocols share: their properties.
func Election(p *suite.Protocol) *suite.Protocol {
	p.Family = "election"
	p.Properties = properties.Family("election")
	return p
}
