package protocols

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each built-in protocol is its package's Description itself, not a copy,
// listed under its own path; and every protocol package (a directory
// with a description.go) has its row in the list.
func TestBuiltinsAreTheirPackagesDescriptions(t *testing.T) {
	for _, b := range builtin {
		p, err := Lookup(b.path)
		require.NoError(t, err)
		require.Same(t, b.d, p, b.path)
		require.Equal(t, b.path, b.d.Path())
	}
	require.Len(t, All(), len(builtin))
	packages, err := filepath.Glob(filepath.Join("*", "*", "description.go"))
	require.NoError(t, err)
	require.Len(t, builtin, len(packages), "a protocol package without its row in builtin")
}
