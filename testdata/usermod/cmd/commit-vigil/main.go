// Command commit-vigil is vigil over this module's protocols: every command
// and flag of vigil, for two-phase commit.
package main

import (
	"os"

	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/checker/suite"
)

func main() {
	var r suite.Registry
	r.MustRegister(twopc.Description)
	os.Exit(cli.Main(&r, os.Args[1:], os.Stdout, os.Stderr))
}
