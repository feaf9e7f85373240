// The files vigil reads and writes besides its output: the shards that
// merge reads and the traces that replay reads, refused in one line where
// no search could have written them and fuzzed never to panic, and the
// output files a run writes, created before any work and appearing whole.

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
)

// shardsOf runs the 2 shards of a random search and returns their files'
// contents.
func shardsOf(t *testing.T, args ...string) [2][]byte {
	t.Helper()
	var out [2][]byte
	for i := range 2 {
		code, part, errOut := vigil(append(args, "-shard", fmt.Sprintf("%d/2", i))...)
		require.Equal(t, 0, code, errOut)
		out[i] = []byte(part)
	}
	return out
}

// editShard decodes a shard's file, edits it and encodes it again.
func editShard(t *testing.T, b []byte, edit func(sf *shardFile)) []byte {
	t.Helper()
	var sf shardFile
	require.NoError(t, json.Unmarshal(b, &sf))
	edit(&sf)
	out, err := json.Marshal(sf)
	require.NoError(t, err)
	return out
}

// refused runs vigil and requires a refusal: exit 2, nothing on stdout,
// one line on stderr that contains want and names the file.
func refused(t *testing.T, file, want string, args ...string) {
	t.Helper()
	code, stdout, stderr := vigil(args...)
	require.Equal(t, 2, code, "%v: %s%s", args, stdout, stderr)
	require.Empty(t, stdout)
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line, got %q", stderr)
	require.NotContains(t, stderr, "panic")
	require.Contains(t, stderr, want)
	require.Contains(t, stderr, file, "the error names the file")
}

// A shard that no search could have printed, or that is not of the same
// search as the others, is refused with one line naming its file.
func TestMergeRefusesInvalidShards(t *testing.T) {
	dir := t.TempDir()
	bully := shardsOf(t, "check", "bully", "-timing", "async", "-crashes", "1", "-mode", "random", "-walks", "40", "-depth", "200")
	central := shardsOf(t, "check", "central", "-mode", "random", "-walks", "20")
	walk0 := func(edit func(w *checker.WalkRecord)) func(sf *shardFile) {
		return func(sf *shardFile) { edit(&sf.Shard.Walks[0]) }
	}
	cases := []struct {
		name    string
		shards  [2][]byte
		bad     int // the shard edited
		edit    func(sf *shardFile)
		raw     func(b []byte) []byte // instead of edit
		want    string
		capSize int64
		alone   bool // merge the edited shard alone
	}{
		{name: "violated index out of range", shards: bully, edit: walk0(func(w *checker.WalkRecord) { w.Violated = []int{99} }),
			want: "violates property 99, outside 0..5"},
		{name: "negative steps", shards: bully, edit: walk0(func(w *checker.WalkRecord) { w.Steps = -7 }), want: "-7 steps"},
		{name: "negative message count", shards: bully, bad: 1, edit: walk0(func(w *checker.WalkRecord) {
			w.Kinds = []checker.KindCount{{Kind: "election", N: -7}}
		}), want: "-7 messages of kind election"},
		{name: "unknown message kind", shards: bully, edit: walk0(func(w *checker.WalkRecord) {
			w.Kinds = []checker.KindCount{{Kind: "bogus", N: 0}}
		}), want: `message kind "bogus" is not one of the protocol's`},
		{name: "unknown event", shards: bully, edit: walk0(func(w *checker.WalkRecord) { w.Events[0].Event = "receive bogus" }),
			want: `event "receive bogus"`},
		{name: "counterexample at a node out of range", shards: bully, edit: func(sf *shardFile) {
			i := slices.IndexFunc(sf.Shard.Counterexamples, func(pr checker.PropertyResult) bool { return len(pr.Counterexample.Events) > 0 })
			sf.Shard.Counterexamples[i].Counterexample.Events[0].Node = 40
		}, want: "outside n0..n3"},
		{name: "messages per entry over no entry", shards: central, edit: walk0(func(w *checker.WalkRecord) { w.Entry.PerEntry.MinDen = 0 }),
			want: "messages per entry over 0 entries"},
		{name: "client delay least above most", shards: central, bad: 1, edit: walk0(func(w *checker.WalkRecord) {
			w.Entry.ClientDelay.Min = w.Entry.ClientDelay.Max + 1
		}), want: "client delay"},
		{name: "another seed", shards: bully, bad: 1, edit: func(sf *shardFile) { sf.Shard.Search.Seed++ }, want: "is shard 1/2 of another search"},
		{name: "another count", shards: bully, bad: 1, edit: func(sf *shardFile) { sf.Shard.Count = 3 }, want: "is shard 1/3 of another search"},
		{name: "another configuration", shards: bully, bad: 1, edit: func(sf *shardFile) { sf.Config.Crashes = 0 }, want: "another configuration"},
		{name: "another protocol", shards: bully, bad: 1, edit: func(sf *shardFile) { sf.Protocol = "election/lelann" }, want: "is a shard of another search"},
		{name: "another scenario", shards: bully, bad: 1, edit: func(sf *shardFile) { sf.Scenario = "async-crash" }, want: "is a shard of another search"},
		{name: "the same shard twice", shards: bully, bad: 1, edit: func(sf *shardFile) { sf.Shard.Index = 0 }, want: "shard 0/2 is given twice"},
		{name: "unknown protocol", shards: bully, edit: func(sf *shardFile) { sf.Protocol = "election/nope" }, want: "unknown protocol", alone: true},
		{name: "n out of range", shards: bully, edit: func(sf *shardFile) { sf.Config.N = 40000; sf.Config.Ranks = nil }, want: "n must be between 1 and 32768"},
		{name: "trailing data", shards: bully, raw: func(b []byte) []byte { return append(b, "{}"...) }, want: "trailing data after its JSON value"},
		{name: "empty", shards: bully, raw: func([]byte) []byte { return nil }, want: "it is empty"},
		{name: "no run", shards: bully, raw: func([]byte) []byte { return []byte(`{"protocol":"election/bully","config":{"n":3}}`) }, want: "it has no walks"},
		{name: "larger than the cap", shards: bully, capSize: 1 << 10, want: "larger than the cap of 1 KiB for the file of a shard"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.capSize > 0 {
				defer func(old int64) { shardFileCap = old }(shardFileCap)
				shardFileCap = c.capSize
			}
			var files []string
			for i, b := range c.shards {
				switch {
				case i == c.bad && c.edit != nil:
					b = editShard(t, b, c.edit)
				case i == c.bad && c.raw != nil:
					b = c.raw(b)
				}
				files = append(files, filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.ReplaceAll(c.name, " ", "-"), i)))
				require.NoError(t, os.WriteFile(files[i], b, 0o644))
			}
			if c.alone {
				files = files[c.bad : c.bad+1]
				c.bad = 0
			}
			refused(t, files[c.bad], c.want, append([]string{"merge"}, files...)...)
		})
	}
	// and the shards as printed merge
	var files []string
	for i, b := range bully {
		files = append(files, filepath.Join(dir, fmt.Sprintf("bully-%d.json", i)))
		require.NoError(t, os.WriteFile(files[i], b, 0o644))
	}
	code, out, errOut := vigil(append([]string{"merge"}, files...)...)
	require.Equal(t, 1, code, errOut)
	require.Contains(t, out, "counterexample to unique-leader")

	// an endless file is read no further than the cap
	defer func(old int64) { shardFileCap = old }(shardFileCap)
	shardFileCap = 1 << 20
	refused(t, "/dev/zero", "/dev/zero is larger than the cap of 1 MiB", "merge", "/dev/zero", files[1])
}

// merge -json prints the merged result as JSON.
func TestMergeJSON(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, b := range shardsOf(t, "check", "lelann", "-n", "5", "-mode", "random", "-walks", "20") {
		files = append(files, filepath.Join(dir, fmt.Sprintf("lelann-%d.json", i)))
		require.NoError(t, os.WriteFile(files[i], b, 0o644))
	}
	code, out, errOut := vigil(append([]string{"merge", "-json"}, files...)...)
	require.Equal(t, 0, code, errOut)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Equal(t, "pass", res["verdict"])
}

// asyncBullyTrace writes the counterexample of the asynchronous bully
// algorithm to a trace file in dir and returns its path.
func asyncBullyTrace(t *testing.T, dir string) string {
	t.Helper()
	file := filepath.Join(dir, "cx.json")
	code, out, _ := vigil("check", "bully", "-scenario", "async-crash", "-trace", file)
	require.Equal(t, 1, code, out)
	return file
}

// A trace file that no search could have written is refused with one
// line naming it, before anything is replayed.
func TestReplayRefusesInvalidTraces(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(asyncBullyTrace(t, dir))
	require.NoError(t, err)
	edit := func(f func(tf *suite.TraceFile)) []byte {
		var tf suite.TraceFile
		require.NoError(t, json.Unmarshal(good, &tf))
		f(&tf)
		b, err := json.Marshal(tf)
		require.NoError(t, err)
		return b
	}
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"n = 32768", edit(func(tf *suite.TraceFile) { tf.Config.N, tf.Config.Ranks = 32768, nil }), "n = 32768: vigil replays traces of at most 1024 nodes"},
		{"n past MaxNodes", edit(func(tf *suite.TraceFile) { tf.Config.N, tf.Config.Ranks = 1<<20, nil }), "n must be between 1 and 32768"},
		{"a receiver out of range", edit(func(tf *suite.TraceFile) { tf.Trace.Events[0].Node = 4 }), "step 1: node n4 or n0 is outside n0..n3"},
		{"a change out of range", edit(func(tf *suite.TraceFile) { tf.Trace.Events[0].Changes[0].Node = -3 }), "it changes node n-3"},
		{"an unknown event", edit(func(tf *suite.TraceFile) { tf.Trace.Events[0].Kind = "teleport" }), `unknown kind of event "teleport"`},
		{"a negative cycle", edit(func(tf *suite.TraceFile) { tf.Trace.Cycle = -1 }), "a cycle of -1 steps"},
		{"a cycle longer than the run", edit(func(tf *suite.TraceFile) { tf.Trace.Cycle = 2 }), "a cycle of 2 steps in a run of 1"},
		{"a property not checked", edit(func(tf *suite.TraceFile) { tf.Trace.Property = "mutual-exclusion" }), `violates "mutual-exclusion", which is not among its properties`},
		{"no protocol", edit(func(tf *suite.TraceFile) { tf.Protocol = "" }), "it names no protocol"},
		{"trailing data", append(append([]byte{}, good...), `{"protocol":"x"}`...), "trailing data after its JSON value"},
		{"a number", []byte("42"), "not a vigil trace: json: cannot unmarshal number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			require.NoError(t, os.WriteFile(file, c.file, 0o644))
			refused(t, file, c.want, "replay", file)
		})
	}
	// an endless file is read no further than the cap
	refused(t, "/dev/zero", "/dev/zero is larger than the cap of 16 MiB for a vigil trace", "replay", "/dev/zero")
}

// An output that cannot be created is refused before any work, naming
// it; one whose write fails after the work leaves the result on stdout,
// the verdict's exit code, and a warning on stderr.
func TestOutputsComeFirst(t *testing.T) {
	dir := t.TempDir()
	cx := asyncBullyTrace(t, dir)
	var shards []string
	for i, b := range shardsOf(t, "check", "bully", "-timing", "async", "-crashes", "1", "-mode", "random", "-walks", "20", "-depth", "200") {
		shards = append(shards, filepath.Join(dir, fmt.Sprintf("shard-%d.json", i)))
		require.NoError(t, os.WriteFile(shards[i], b, 0o644))
	}
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("x"), 0o644))
	under := filepath.Join(plain, "x.json") // under a file: cannot be made
	corrupt := filepath.Join(dir, "corrupt.json")
	require.NoError(t, os.WriteFile(corrupt, []byte("{"), 0o644))
	for _, c := range []struct {
		args []string
		path string
		want string
	}{
		{[]string{"merge", "-trace", under, shards[0], shards[1]}, under, "cannot write the counterexample (-trace) to " + under + ": not a directory"},
		{[]string{"merge", "-trace", under, corrupt}, under, "cannot write the counterexample (-trace)"}, // before the shards are read
		{[]string{"merge", "-trace", dir, shards[0], shards[1]}, dir, "it is a directory"},
		{[]string{"replay", "-html", under, cx}, under, "cannot write the HTML report (-html) to " + under},
		{[]string{"replay", "-html", under, corrupt}, under, "cannot write the HTML report (-html)"}, // before the trace is read
		// check opens its outputs before it searches (a search would
		// tell of its first violation on stderr: refused says nothing but
		// the error)
		{[]string{"check", "bully", "-scenario", "async-crash", "-trace", under}, under, "cannot write the counterexample (-trace) to " + under},
		{[]string{"check", "bully", "-scenario", "async-crash", "-html", under}, under, "cannot write the HTML report (-html) to " + under},
		{[]string{"check", "isis", "-n", "8", "-reads", "local", "-linearizability-html", under}, under, "cannot write the history drawing (-linearizability-html) to " + under},
		{[]string{"check", "bully", "-scenario", "async-crash", "-trace", dir}, dir, "it is a directory"},
	} {
		refused(t, c.path, c.want, c.args...)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, strings.HasSuffix(e.Name(), ".tmp"), "an abandoned output leaves nothing behind: %s", e.Name())
	}

	// /dev/full takes the file and fails every write
	for _, args := range [][]string{
		{"merge", "-trace", "/dev/full", shards[0], shards[1]},
		{"replay", "-html", "/dev/full", cx},
		{"check", "bully", "-scenario", "async-crash", "-trace", "/dev/full"},
		{"check", "bully", "-scenario", "async-crash", "-html", "/dev/full"},
	} {
		code, stdout, stderr := vigil(args...)
		require.Equal(t, 1, code, "%v: the verdict's exit code: %s", args, stderr)
		require.Contains(t, stdout, "counterexample to unique-leader", "%v: the result is printed", args)
		require.Contains(t, stderr, "vigil: warning: writing the ")
		require.Contains(t, stderr, "to /dev/full: no space left on device")
		require.Equal(t, 1, strings.Count(stderr, "vigil: warning"), stderr)
	}
}

// An output file appears whole at its path on Commit, replaces the file
// there (keeping its mode) or the one a symbolic link points to, and
// leaves the path as it was when abandoned.
func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.json")
	o, err := openOutput(path, "counterexample (-trace)")
	require.NoError(t, err)
	_, err = os.Stat(path)
	require.True(t, os.IsNotExist(err), "nothing at the path before Commit")
	require.NoError(t, o.Commit([]byte("one")))
	require.NoError(t, o.Close(), "Close after Commit does nothing")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "one", string(b))
	require.Error(t, o.Commit([]byte("again")), "a file is committed once")

	require.NoError(t, os.Chmod(path, 0o600))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(path, link))
	o, err = openOutput(link, "counterexample (-trace)")
	require.NoError(t, err)
	require.NoError(t, o.Commit([]byte("two")))
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "two", string(b), "the link's target is replaced")
	st, err := os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, st.Mode().Type(), "the link stays a link")
	st, err = os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	o, err = openOutput(path, "counterexample (-trace)")
	require.NoError(t, err)
	require.NoError(t, o.Close())
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "two", string(b), "abandoned: the file is as it was")
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	require.Len(t, entries, 1, "and no temporary file is left")

	// a write that fails leaves no file behind
	gone := filepath.Join(dir, "gone")
	o, err = openOutput(filepath.Join(gone, "x.json"), "HTML report (-html)")
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(gone))
	err = o.Commit([]byte("three"))
	require.ErrorContains(t, err, "writing the HTML report (-html) to "+filepath.Join(gone, "x.json"))
	_, err = os.Stat(gone)
	require.True(t, os.IsNotExist(err))
}

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
		if cx := firstTrace(res, true); cx != nil && n <= suite.MaxReplayNodes {
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

// A trace recorded under set channels replays from its file: its run
// delivers one message twice (the synchronizer's node takes a packet of
// pulse 0 again as the next pulse's), which only a set allows, so the same
// file with unordered channels is refused at that step.
func TestReplaySetChannelTrace(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "set.json")
	code, out, errOut := vigil("check", "bfs-simple", "-n", "3", "-channels", "set", "-props", "pulse-order", "-mode", "exhaustive", "-trace", file)
	require.Equal(t, 1, code, out+errOut)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var tf suite.TraceFile
	require.NoError(t, json.Unmarshal(b, &tf))
	require.Equal(t, model.Set, tf.Config.Channels)
	evs := tf.Trace.Events
	require.Len(t, evs, 2)
	require.Equal(t, evs[0].String(), evs[1].String(), "the same message delivered twice")

	code, replayed, errOut := vigil("replay", file)
	require.Equal(t, 1, code, errOut)
	require.Equal(t, 2, strings.Count(replayed, "n0 → n1  packed(0)[invite(1)]"), replayed)
	require.Contains(t, replayed, "counterexample to pulse-order: n1 acts in pulse 1 on a message n0 did not send it in pulse 0")

	tf.Config.Channels = model.Unordered
	unordered, err := json.Marshal(tf)
	require.NoError(t, err)
	other := filepath.Join(dir, "unordered.json")
	require.NoError(t, os.WriteFile(other, unordered, 0o644))
	refused(t, other, "step 2 (n0 → n1  packed(0)[invite(1)]) is not enabled", "replay", other)
}
