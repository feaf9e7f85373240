// Command vigil checks distributed coordination protocols: it explores the
// runs of a built-in protocol (every interleaving for small N, random walks
// for large N) and reports, per property, a verdict and a counterexample a
// person can read and replay.
//
//	vigil list
//	vigil check PROTOCOL [flags]
//	vigil check --all
//	vigil replay FILE
//
// Exit codes: 0 every property holds, 1 a property fails, 2 bad usage or
// input, a handler or monitor that failed, or a bound (time, memory,
// states, depth) that cut the search short before any counterexample was
// found. The command line itself is package checker/cli, which a binary of
// one's own runs over its own protocols.
package main

import (
	"os"

	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/protocols"
)

func main() {
	os.Exit(cli.Main(protocols.Registry(), os.Args[1:], os.Stdout, os.Stderr))
}
