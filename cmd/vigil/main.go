// Command vigil checks distributed coordination protocols: it explores the
// runs of a shipped protocol (every interleaving for small N, random walks
// for large N) and reports, per property, a verdict and a counterexample a
// person can read and replay.
//
//	vigil list
//	vigil check PROTOCOL [flags]
//	vigil check --all
//	vigil replay FILE
//
// Exit codes: 0 every property holds, 1 a property fails, 2 bad usage or
// input, a bound (time, memory, states, depth) cut the search short
// before any counterexample was found, or a protocol handler or monitor
// failed (panicked or mutated its input): then the run to the fault is
// printed.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/vigil-check/vigil/protocols"
)

const usage = `usage:
  vigil list                    list the protocols
  vigil check PROTOCOL [flags]  check a protocol (vigil check -h for flags)
  vigil check --all             check every protocol's scenarios
  vigil replay FILE             replay a counterexample written by -trace
`

// lookup finds a protocol by name, for check and replay; tests add
// protocols of their own.
var lookup = protocols.Lookup

// usageError is bad input: reported on one line, exit code 2.
type usageError struct{ error }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// errFailed: a property failed (exit 1); errIncomplete: a bound stopped the
// search before any counterexample (exit 2). Both are already reported.
// errFaulted: a protocol handler or monitor failed (exit 2), reported
// with the run to it.
var (
	errFailed     = errors.New("a property fails")
	errIncomplete = errors.New("search incomplete")
	errFaulted    = errors.New("a handler or monitor faulted")
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "list":
		err = list(stdout)
	case "check":
		err = check(args[1:], stdout, stderr)
	case "replay":
		err = replay(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = badInput("unknown command %q; try vigil help", args[0])
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFailed):
		return 1
	case errors.Is(err, errIncomplete), errors.Is(err, errFaulted):
		return 2
	default:
		fmt.Fprintf(stderr, "vigil: %v\n", err)
		return 2
	}
}
