// Package tier divides vigil's tests in two. The quick tier is what
// `go test ./...` runs: every test, the cross-checks at sizes that finish
// in minutes on a small machine. The long tier, which the -long flag adds
// and CI always runs, is the cross-checks at full size: the engines
// against a naive enumerator on every configuration, the lean search
// against the graph search on every scenario, the incremental fingerprint
// and the walker against Apply on longer runs, every golden sweep. A test
// either runs smaller in the quick tier (Pick) or, where no smaller run
// means anything, is skipped there with a word on what it is (Long).
//
// Only tests import this package, so only the test binaries of packages
// that use it know -long, and go test refuses the flag for the others:
// name the packages, and put the flag after them (`go test ./checker/cli/
// ./internal/regress/ -long`; before them, go test takes it for its own).
// CI finds them with go list.
package tier

import (
	"flag"
	"testing"
)

var long = flag.Bool("long", false, "run the long tier of tests: the cross-checks and golden searches at full size (minutes; CI does)")

// IsLong reports whether the long tier runs.
func IsLong() bool { return *long }

// Long skips t in the quick tier, saying what it is and that -long runs it.
func Long(t testing.TB, what string) {
	t.Helper()
	if !*long {
		t.Skipf("%s: in the long tier, run with -long (CI does)", what)
	}
}

// Pick is quick in the quick tier and full in the long tier: the size of a
// test that runs in both.
func Pick[T any](quick, full T) T {
	if *long {
		return full
	}
	return quick
}
