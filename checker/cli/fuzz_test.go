package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/suite"
)

// oneLine fails t on an error of more than one line.
func oneLine(t *testing.T, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Fatalf("a two-line error: %q", err)
	}
}

// Two shards that read are merged or refused, never with a panic; a merge
// that succeeds gives a result whose every counterexample is a trace of
// the run's nodes, whose figures are ranges, which prints, and whose
// first counterexample makes a trace file that reads back.
func FuzzMerge(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b []byte) {
		sa, err := parseShard(a)
		oneLine(t, err)
		sb, err2 := parseShard(b)
		oneLine(t, err2)
		if err != nil || err2 != nil {
			return
		}
		ms, err := mergeShardFiles(builtins, []string{"a.json", "b.json"}, []*shardFile{sa, sb})
		oneLine(t, err)
		if err != nil {
			return
		}
		res, n := ms.res, ms.cfg.N
		if len(res.Properties) != len(ms.props) {
			t.Fatalf("%d verdicts for %d properties", len(res.Properties), len(ms.props))
		}
		for _, pr := range res.Properties {
			if cx := pr.Counterexample; cx != nil {
				if err := cx.Validate(n); err != nil {
					t.Fatalf("the counterexample to %s: %v", pr.Name, err)
				}
				msc.New(cx)
			}
		}
		for _, r := range res.Messages {
			if r.Min < 0 || r.Min > r.Max {
				t.Fatalf("messages %s %d..%d", r.Kind, r.Min, r.Max)
			}
		}
		if w := sa.Shard.Search.Walks; res.Stats.Walks > w || res.Stats.Walks < 0 {
			t.Fatalf("%d walks merged of a search of %d", res.Stats.Walks, w)
		}
		for _, format := range []string{"text", "json"} {
			f := &checkFlags{format: format}
			if err := present(io.Discard, ms.p, ms.scenario, ms.cfg, ms.props, res, f); err != nil && usageErr(err) {
				t.Fatalf("the merged result does not print as %s: %v", format, err)
			}
		}
		if cx := firstTrace(res); cx != nil && n <= suite.MaxReplayNodes {
			out, err := suite.NewTraceFile(ms.p, ms.cfg, ms.props, cx).JSON()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := suite.ParseTraceFile(out); err != nil {
				t.Fatalf("the merged counterexample's trace file does not read back: %v", err)
			}
		}
	})
}

// usageErr reports whether err is an error, not a verdict.
func usageErr(err error) bool {
	return err != errFailed && err != errIncomplete && err != errFaulted
}

// A trace file that reads replays or is refused, never with a panic: a
// replayed run is a trace of the run's nodes that renders and draws.
func FuzzReplay(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		tf, err := suite.ParseTraceFile(b)
		oneLine(t, err)
		if err != nil || tf.Config.N > 8 {
			return // replays of many nodes are slow: the cap on N is tested apart
		}
		p, err := builtins.Lookup(tf.Protocol)
		if err != nil {
			return
		}
		got, err := tf.Replay(p)
		if got == nil {
			if err == nil {
				t.Fatal("no trace and no error")
			}
			return
		}
		if err := got.Validate(tf.Config.N); err != nil {
			t.Fatalf("the replayed run: %v", err)
		}
		checker.Render(io.Discard, got)
		msc.New(got)
	})
}
