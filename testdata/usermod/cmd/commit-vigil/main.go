// Command commit-vigil is vigil over this module's protocols: every command
// and flag of vigil, for two-phase commit.
package main

import (
	"io"
	"os"

	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/checker/suite"
)

func main() { os.Exit(commitVigil(os.Args[1:], os.Stdout, os.Stderr)) }

// commitVigil is vigil's command line over this module's protocols.
func commitVigil(args []string, stdout, stderr io.Writer) int {
	var r suite.Registry
	r.MustRegister(twopc.Description)
	return cli.Main(&r, args, stdout, stderr)
}
