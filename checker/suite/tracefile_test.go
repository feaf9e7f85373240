package suite

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/jsonfile"
	"github.com/vigil-check/vigil/model"
)

// A trace file is read whole, within its cap, as one JSON value, and
// validated before use; what NewTraceFile writes reads back as it was.
func TestReadTraceFile(t *testing.T) {
	p := &Protocol{Name: "p", Family: "f"}
	seed := uint64(3)
	tf := NewTraceFile(p, model.Config{N: 2}, nil, &checker.Trace{Property: "x", Seed: &seed,
		Initial: []checker.NodeState{{Node: 0}, {Node: 1}}, Events: []checker.TraceStep{{Kind: "deliver", Node: 1}}})
	b, err := tf.JSON()
	require.NoError(t, err)
	back, err := ParseTraceFile(b)
	require.NoError(t, err)
	require.Equal(t, tf.Trace, back.Trace)
	require.Equal(t, tf.Protocol, back.Protocol)

	dir := t.TempDir()
	file := filepath.Join(dir, "cx.json")
	require.NoError(t, tf.Write(file))
	for _, c := range []struct {
		name    string
		path    string
		capSize int64
		want    string
	}{
		{"as written", file, 0, ""},
		{"larger than the cap", file, int64(len(b)) - 1, file + " is larger than the cap of " + jsonfile.Size(int64(len(b)-1)) + " for a vigil trace"},
		{"exactly the cap", file, int64(len(b)), ""},
		{"endless", "/dev/zero", 1 << 10, "/dev/zero is larger than the cap of 1 KiB for a vigil trace"},
		{"missing", filepath.Join(dir, "none.json"), 0, "cannot read " + filepath.Join(dir, "none.json") + ": no such file or directory"},
		{"a directory", dir, 0, "cannot read " + dir + ": is a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.capSize > 0 {
				defer func(old int64) { traceFileCap = old }(traceFileCap)
				traceFileCap = c.capSize
			}
			got, err := ReadTraceFile(c.path)
			if c.want == "" {
				require.NoError(t, err)
				require.Equal(t, tf.Trace, got.Trace)
				return
			}
			require.EqualError(t, err, c.want)
		})
	}
	require.NoError(t, os.WriteFile(file, append(b, "[]"...), 0o644))
	_, err = ReadTraceFile(file)
	require.EqualError(t, err, file+": not a vigil trace: trailing data after its JSON value, from byte "+strconv.Itoa(len(b)-1))
}
