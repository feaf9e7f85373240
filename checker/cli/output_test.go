package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker/suite"
)

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
