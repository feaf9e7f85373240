package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
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
			want: "violates property 99, outside 0..4"},
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
			sf.Shard.Counterexamples[0].Counterexample.Events[0].Node = 40
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
