package checker_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-check/vigil/checker"
)

// fuzzParse fuzzes parse from seeds: a refusal is one line, and a value
// that parses is in range (wrong names what is out of range in it, or
// returns "") and reads back from its String.
func fuzzParse[T fmt.Stringer](f *testing.F, seeds []string, parse func(string) (T, error), wrong func(T) string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		if bad := wrong(v); bad != "" {
			t.Fatalf("%q parses to %s", s, bad)
		}
		again, err := parse(v.String())
		if err != nil || again.String() != v.String() {
			t.Fatalf("%q parses to %v, which reads back as %v, %v", s, v, again, err)
		}
	})
}

// A scheduler that parses reads back from its String, and a pct depth is
// from 1 to 100.
func FuzzParseScheduler(f *testing.F) {
	fuzzParse(f, []string{"", "uniform", "swarm", "pct:1", "pct:100", "pct:101", "pct:0", "pct:-2", "pct:07", "pct:", "PCT:3"},
		checker.ParseScheduler, func(sch checker.Scheduler) string {
			if sch.Kind == "pct" && (sch.Depth < 1 || sch.Depth > 100) {
				return fmt.Sprintf("depth %d", sch.Depth)
			}
			return ""
		})
}

// A shard spec that parses is shard I of K, 0 ≤ I < K, and reads back
// from its String.
func FuzzParseShard(f *testing.F) {
	fuzzParse(f, []string{"0/1", "2/7", "7/7", "-1/3", "1/0", "1", "a/b", "01/2", "0/9223372036854775807", "1/2/3"},
		checker.ParseShard, func(sh checker.Shard) string {
			if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
				return sh.String()
			}
			return ""
		})
}
