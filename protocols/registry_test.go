package protocols_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/protocols"
)

// Every built-in description holds together by the rule the kit and any
// registry apply, and names the stock binary, which replays its traces.
func TestBuiltinsValidate(t *testing.T) {
	all := protocols.All()
	require.NotEmpty(t, all)
	for _, p := range all {
		require.NoError(t, p.Validate())
		require.Equal(t, "vigil", p.Binary, p.Path())
	}
	require.Len(t, protocols.Registry().All(), len(all))
}
