// Package cli is vigil's command line, over any registry of protocols:
// cmd/vigil runs it over the built-in ones, and a binary of one's own over
// its own protocols, with every command and flag:
//
//	func main() {
//		var r suite.Registry
//		r.MustRegister(twopc.Description)
//		os.Exit(cli.Main(&r, os.Args[1:], os.Stdout, os.Stderr))
//	}
//
// The commands:
//
//	vigil list [-format text|markdown]
//	vigil check PROTOCOL [flags]
//	vigil check --all
//	vigil replay [-format text|mermaid] [-html FILE] FILE
//	vigil validate [PROTOCOL [check flags]] [-format text|mermaid] [-html FILE] [-trace FILE] DIR
//	vigil explore PROTOCOL [-port N] [check flags]
//	vigil run PROTOCOL [-for D] [-log DIR] [-chaos SPEC] [check flags]
//	vigil node (PROTOCOL [check flags] | -run run.json) -id I -peers ... -log FILE
//	vigil merge SHARD.json ...
//	vigil uncovered PROFILE
//	vigil vet [PACKAGES]
//
// vet checks handler and monitor code for nondeterminism (package
// checker/vet) through go vet, whose -vettool this binary also is: Main
// answers go vet's calls of the tool itself, and then exits the process.
//
// validate replays the logs of a real run, in a directory (package
// tracelog's, which vigil's runtime writes), through the protocol's model
// (package checker/validate): it exits 1 where a log does what the model
// does not, or the run violates a property.
//
// A shard (check -shard I/K) exits 0 once it has printed its part: the
// verdict is the merge's. Exit codes: 0 no property fails (a proof only
// when the search was exhaustive and complete: random walks that find
// nothing say "not a proof"), 1 a property fails, 2 bad usage or
// input, a handler or monitor that failed, or a bound (time, memory,
// states, depth) that cut the search short before any counterexample was
// found.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/vigil-check/vigil/checker/suite"
)

const usage = `usage:
  vigil list                    list the protocols (-format markdown: as a Markdown table)
  vigil check PROTOCOL [flags]  check a protocol (vigil check -h for flags)
  vigil check --all             check every protocol's scenarios
  vigil replay FILE             replay a counterexample written by -trace
  vigil validate [PROTOCOL] DIR check the logs of a real run against the protocol's model
  vigil explore PROTOCOL        step through a protocol's worlds on a local web page (-port N)
  vigil run PROTOCOL            run the protocol's nodes as processes on this machine, with faults (-for D -log DIR -chaos SPEC)
  vigil node PROTOCOL           run one node of a real run (-id I -peers HOST:PORT,... -log FILE)
  vigil merge SHARD.json ...    combine the shards of a random search (check -shard I/K)
  vigil uncovered PROFILE       the protocol code no scenario executed (a Go coverage profile)
  vigil vet [PACKAGES]          check handler and monitor code for nondeterminism (go vet; default ./...)
`

// usageError is bad input: reported on one line, exit code 2.
type usageError struct{ error }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// parseFlags parses a command's args into fs, whose output is discarded so
// that a bad flag is one line (a usageError). Under -h it prints usage and
// the flags to stderr and returns flag.ErrHelp, which Main answers with
// exit code 0 and nothing more.
func parseFlags(fs *flag.FlagSet, args []string, usage string, stderr io.Writer) error {
	err := fs.Parse(args)
	switch {
	case err == flag.ErrHelp:
		fs.SetOutput(stderr)
		fmt.Fprintln(stderr, "usage: "+usage)
		fs.PrintDefaults()
		return err
	case err != nil:
		return usageError{err}
	}
	return nil
}

// errFailed: a property failed (exit 1); errIncomplete: a bound stopped the
// search before any counterexample (exit 2). Both are already reported.
var (
	errFailed     = errors.New("a property fails")
	errIncomplete = errors.New("search incomplete")
	errFaulted    = errors.New("a handler or monitor faulted")
)

// Main runs the command line args (without the program's name) over the
// protocols of r, writing to stdout and stderr, and returns the exit code.
func Main(r *suite.Registry, args []string, stdout, stderr io.Writer) int {
	if isVetTool(args) {
		runVetTool(args)
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "list":
		err = listCmd(r, args[1:], stdout)
	case "check":
		err = check(r, args[1:], stdout, stderr)
	case "replay":
		err = replay(r, args[1:], stdout, stderr)
	case "validate":
		err = validateCmd(r, args[1:], stdout, stderr)
	case "merge":
		err = merge(r, args[1:], stdout, stderr)
	case "explore":
		err = exploreCmd(r, args[1:], stdout, stderr)
	case "run":
		err = runCmd(r, args[1:], stdout, stderr)
	case "node":
		err = nodeCmd(r, args[1:], stderr)
	case "uncovered":
		err = uncovered(args[1:], stdout, stderr)
	case "vet":
		err = vetCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = badInput("unknown command %q; try vigil help", args[0])
	}
	var stop interrupted
	switch {
	case err == nil, err == flag.ErrHelp:
		return 0
	case errors.As(err, &stop):
		return 128 + int(stop.sig)
	case errors.Is(err, errFailed), errors.Is(err, errFindings):
		return 1
	case errors.Is(err, errIncomplete), errors.Is(err, errFaulted):
		return 2
	default:
		fmt.Fprintf(stderr, "vigil: %v\n", err)
		return 2
	}
}
