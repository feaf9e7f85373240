package properties

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// Hand-made runs of the lock service: each observation is node and what,
// in the order they happen.
func TestLockHistories(t *testing.T) {
	type obs struct {
		node model.NodeID
		o    model.Obs
	}
	req, enter, exit, crash := model.RequestCS(0), model.EnterCS(), model.ExitCS(), model.Obs{Kind: model.ObsCrash}
	cases := []struct {
		name string
		run  []obs
		ops  int
		ok   bool
	}{
		{"one client, in and out", []obs{{0, req}, {0, enter}, {0, exit}}, 2, true},
		{"two in turn", []obs{{0, req}, {1, req}, {0, enter}, {0, exit}, {1, enter}, {1, exit}}, 4, true},
		{"overlapping acquires, one inside at a time", []obs{{0, req}, {1, req}, {1, enter}, {1, exit}, {0, enter}}, 3, true},
		{"both inside", []obs{{0, req}, {1, req}, {0, enter}, {1, enter}, {0, exit}, {1, exit}}, 4, false},
		{"a second entry before the exit", []obs{{0, req}, {0, enter}, {1, req}, {1, enter}}, 2, false},
		{"a pending acquire is left out", []obs{{0, req}, {0, enter}, {1, req}}, 1, true},
		{"release by a client not holding the lock", []obs{{1, exit}}, 1, false},
		{"a crash abandons the pending acquire", []obs{{0, req}, {0, crash}, {1, req}, {1, enter}}, 1, true},
		{"after a crash and a new request, the entry answers the new one", []obs{{0, req}, {1, req}, {1, enter}, {0, crash}, {1, exit}, {0, req}, {0, enter}}, 3, true},
	}
	for _, c := range cases {
		rec := Lock.NewRecorder()
		for _, o := range c.run {
			rec.Observe(o.node, o.o)
		}
		h := rec.History()
		require.Len(t, h, c.ops, c.name)
		require.Equal(t, c.ok, porcupine.CheckOperations(Lock.Model, h), c.name)
	}
}
