package checker_test

import (
	"strings"
	"testing"

	"github.com/vigil-check/vigil/checker"
)

// A scheduler that parses reads back from its String, and a pct depth is
// from 1 to 100.
func FuzzParseScheduler(f *testing.F) {
	for _, s := range []string{"", "uniform", "swarm", "pct:1", "pct:100", "pct:101", "pct:0", "pct:-2", "pct:07", "pct:", "PCT:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sch, err := checker.ParseScheduler(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		if sch.Kind == "pct" && (sch.Depth < 1 || sch.Depth > 100) {
			t.Fatalf("%q parses to depth %d", s, sch.Depth)
		}
		again, err := checker.ParseScheduler(sch.String())
		if err != nil || again.String() != sch.String() {
			t.Fatalf("%q parses to %v, which reads back as %v, %v", s, sch, again, err)
		}
	})
}

// A shard spec that parses is shard I of K, 0 ≤ I < K, and reads back
// from its String.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "2/7", "7/7", "-1/3", "1/0", "1", "a/b", "01/2", "0/9223372036854775807", "1/2/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := checker.ParseShard(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("%q parses to %v", s, sh)
		}
		again, err := checker.ParseShard(sh.String())
		if err != nil || again != sh {
			t.Fatalf("%q parses to %v, which reads back as %v, %v", s, sh, again, err)
		}
	})
}
