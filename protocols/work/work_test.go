package work_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/protocols/work"
)

// A set of tasks is one bit a task: Of builds it, Has and First read it,
// and it prints with the tasks' names.
func TestSet(t *testing.T) {
	for _, c := range []struct {
		name    string
		set     work.Set
		want    work.Set
		members []int
		printed string
	}{
		{name: "no task", set: work.Of(), want: 0, printed: "{}"},
		{name: "one task", set: work.Of(3), want: 8, members: []int{3}, printed: "{t3}"},
		{name: "several, in any order, once each", set: work.Of(4, 0, 4), want: 17, members: []int{0, 4}, printed: "{t0 t4}"},
		{name: "all the tasks of a run", set: work.All(3), want: 7, members: []int{0, 1, 2}, printed: "{t0 t1 t2}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, c.set)
			require.Equal(t, c.printed, c.set.String())
			for task := range 6 {
				require.Equal(t, slices.Contains(c.members, task), c.set.Has(task), "task %d", task)
			}
			if len(c.members) > 0 {
				require.Equal(t, c.members[0], c.set.First())
			}
		})
	}
}
