package ringid_test

import (
	. "github.com/vigil-check/vigil/protocols/election/ringid"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAdd(t *testing.T) {
	list := []ID{{1, 3}, {5, 0}}
	got := Add(list, ID{3, 2})
	require.Equal(t, []ID{{1, 3}, {3, 2}, {5, 0}}, got)
	require.Equal(t, []ID{{1, 3}, {5, 0}}, list, "the input list is left alone")
	require.Equal(t, got, Add(got, ID{3, 2}), "a rank already present adds nothing")
	require.Equal(t, []ID{{7, 1}}, Add(nil, ID{7, 1}))
	require.Equal(t, []int{1, 3, 5}, Ranks(got))
}

// A node's status prints as the notes name it: traces and the state
// space's printed states show these words.
func TestStatusString(t *testing.T) {
	for s, want := range []string{"sleep", "cand", "lost", "leader"} {
		require.Equal(t, want, Status(s).String())
	}
	require.Equal(t, []Status{0, 1, 2, 3}, []Status{Sleep, Cand, Lost, Leader})
}
