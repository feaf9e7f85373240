package family

import (
	"fmt"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Exclusion describes what the mutual-exclusion protocols share: their
// properties and claims, the requests parameter, the lock clients see and
// the evaluation figures of their runs.
func Exclusion(p *suite.Protocol) *suite.Protocol {
	p.Family = "mutex"
	p.Properties = append(properties.Family("mutex"), properties.Lock.Linearizable())
	if p.Claims == nil {
		p.Claims = []string{"entered", "mutual-exclusion", "no-deadlock", "no-starvation"}
	}
	p.Params = []suite.Param{{Name: mutex.RequestsParam, Default: 1,
		Doc: "times each node asks for the critical section (0: forever, central and tokenring only)"}}
	p.Object = func(model.Config) *properties.Object { return properties.Lock }
	p.EntryFigures = true
	return p
}

// Requests checks the requests parameter: how many times each node
// asks for the critical section, 0 for forever. why, if set, is why
// forever is not supported.
func Requests(name, why string) func(cfg model.Config) error {
	return func(cfg model.Config) error {
		r := cfg.Param(mutex.RequestsParam, 1)
		switch {
		case r < 0:
			return fmt.Errorf("%s: requests must be at least 0, not %d", name, r)
		case r == 0 && why != "":
			return fmt.Errorf("%s: requests must be at least 1 here, not 0 (forever): %s", name, why)
		}
		return nil
	}
}
