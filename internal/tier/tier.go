// Package tier divides vigil's tests in two. The quick tier is what
// `go test ./...` runs: every test, at sizes that finish in minutes on a
// small machine. The long tier, which the -long flag adds and CI always
// runs, is the cross-checks at full size: the engines against a naive
// enumerator, the lean search against the graph search, the incremental
// fingerprint and the walker against Apply, every golden sweep. Nothing
// that guards soundness is only in the long tier at a size of zero: a
// test either runs smaller in the quick tier (Pick) or, where no smaller
// run means anything, says that it waits for -long (Long).
//
// Only tests import this package; its flag is registered in their
// binaries alone, so `go test -long` names the packages that have it
// (CI lists them with go list).
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
