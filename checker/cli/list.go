package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/vigil-check/vigil/checker/suite"
)

// list prints each protocol with its summary, scenarios and parameters.
func list(r *suite.Registry, out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, p := range r.All() {
		var names []string
		for _, s := range p.Scenarios {
			names = append(names, s.Name)
		}
		extra := ""
		if len(p.Params) > 0 {
			extra = "; parameters: " + p.ParamNames()
		}
		fmt.Fprintf(tw, "%s\t%s\t(scenarios: %s%s)\n", p.Path(), p.Summary, strings.Join(names, ", "), extra)
	}
	return tw.Flush()
}
