package suite

import (
	"strings"
	"testing"
)

// A parameter value that parses is printed by Format as it was given, and
// reads back.
func FuzzParamParse(f *testing.F) {
	for _, s := range []string{"0", "2", "-1", "+3", " 4", "4 ", "007", "two", "none", "local", "ordered", "9223372036854775808"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, named bool) {
		p := Param{Name: "requests"}
		if named {
			p = Param{Name: "reads", Values: []string{"none", "local", "ordered"}}
		}
		v, err := p.Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		if p.Format(v) != s {
			t.Fatalf("%q parses to %d, which prints as %q", s, v, p.Format(v))
		}
		if again, err := p.Parse(p.Format(v)); err != nil || again != v {
			t.Fatalf("%d does not read back from %q: %d, %v", v, p.Format(v), again, err)
		}
	})
}

// A trace file that parses has a valid configuration of at most
// MaxReplayNodes nodes and a trace whose every node is one of them; it
// reads back from what JSON writes of it.
func FuzzParseTraceFile(f *testing.F) {
	f.Add([]byte(`{"protocol":"election/bully","config":{"n":3},"properties":["unique-leader"],"trace":{"events":[{"kind":"deliver","node":0,"from":2,"msg":"answer"}]}}`))
	f.Add([]byte(`{"protocol":"p","config":{"n":32768},"trace":{"events":[]}}`))
	f.Add([]byte(`{"protocol":"p","config":{"n":2},"trace":{"initial":[{"node":0},{"node":1}],"events":[{"kind":"crash","node":1}],"cycle":1}} {}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tf, err := ParseTraceFile(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		n := tf.Config.N
		if n < 1 || n > MaxReplayNodes || tf.Trace.Validate(n) != nil {
			t.Fatalf("accepted a trace of %d nodes that does not validate", n)
		}
		tr := tf.Trace
		if tr.Cycle < 0 || tr.Cycle > len(tr.Events) {
			t.Fatalf("accepted a cycle of %d steps in %d", tr.Cycle, len(tr.Events))
		}
		for _, ev := range tr.Events {
			if ev.Node < 0 || ev.Node >= n || ev.From < 0 || ev.From >= n {
				t.Fatalf("accepted event %+v of a run of %d nodes", ev, n)
			}
		}
		out, err := tf.JSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseTraceFile(out)
		if err != nil {
			t.Fatalf("%s does not read back: %v", out, err)
		}
		if again, _ := back.JSON(); string(again) != string(out) {
			t.Fatalf("%s reads back as %s", out, again)
		}
	})
}
