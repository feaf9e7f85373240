package properties

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// Hand-made runs of the lock service: each observation is node, what, step.
func TestLockHistories(t *testing.T) {
	type obs struct {
		node model.NodeID
		o    model.Obs
		at   int64
	}
	req, enter, exit := model.RequestCS(0), model.EnterCS(), model.ExitCS()
	cases := []struct {
		name string
		run  []obs
		ops  int
		ok   bool
	}{
		{"one client, in and out", []obs{{0, req, 1}, {0, enter, 3}, {0, exit, 4}}, 2, true},
		{"two in turn", []obs{{0, req, 1}, {1, req, 2}, {0, enter, 3}, {0, exit, 4}, {1, enter, 6}, {1, exit, 7}}, 4, true},
		{"overlapping acquires, one inside at a time", []obs{{0, req, 1}, {1, req, 2}, {1, enter, 5}, {1, exit, 6}, {0, enter, 8}}, 3, true},
		{"both inside", []obs{{0, req, 1}, {1, req, 2}, {0, enter, 3}, {1, enter, 4}, {0, exit, 5}, {1, exit, 6}}, 4, false},
		{"a second entry before the exit", []obs{{0, req, 1}, {0, enter, 2}, {1, req, 3}, {1, enter, 4}}, 2, false},
		{"a pending acquire is left out", []obs{{0, req, 1}, {0, enter, 2}, {1, req, 3}}, 1, true},
		{"release by a client not holding the lock", []obs{{1, exit, 1}}, 1, false},
	}
	for _, c := range cases {
		rec := Lock.NewRecorder(2)
		for _, o := range c.run {
			rec.Observe(o.node, o.o, o.at)
		}
		h := rec.History()
		require.Len(t, h, c.ops, c.name)
		require.Equal(t, c.ok, porcupine.CheckOperations(Lock.Model, h), c.name)
	}
}
