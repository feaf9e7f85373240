package work_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/protocols/work"
)

// Of is the set of the tasks it is given, each once, in any order; a set
// prints the names of its tasks, lowest first.
func TestOf(t *testing.T) {
	for _, c := range []struct {
		tasks   []int
		printed string
	}{
		{nil, "{}"},
		{[]int{3}, "{t3}"},
		{[]int{4, 0, 4}, "{t0 t4}"},
		{[]int{2, 1, 0}, "{t0 t1 t2}"},
	} {
		require.Equal(t, c.printed, work.Of(c.tasks...).String(), "Of%v", c.tasks)
	}
	require.Equal(t, work.All(3), work.Of(0, 1, 2), "the k tasks of a run")
}
