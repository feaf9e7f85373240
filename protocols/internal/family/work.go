package family

import (
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/properties"
)

// Sharing describes what the work-sharing protocols share: their
// properties, with more of the protocol's own, and the tasks parameter.
func Sharing(p *suite.Protocol, more ...*properties.Property) *suite.Protocol {
	p.Family = "work"
	p.Properties = append(properties.Family("work"), more...)
	p.Params = append([]suite.Param{{Name: properties.TasksParam, Default: 0,
		Doc: "tasks the job is divided into (0 or unset: N-1)"}}, p.Params...)
	return p
}
