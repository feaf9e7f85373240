package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/vigil-check/vigil/protocols"
)

func list(out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, p := range protocols.All() {
		var names []string
		for _, s := range p.Scenarios {
			names = append(names, s.Name)
		}
		fmt.Fprintf(tw, "%s\t%s\t(scenarios: %s)\n", p.Path(), p.Summary, strings.Join(names, ", "))
	}
	return tw.Flush()
}
