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

// A history is a value: two calls after one history leave it, and each
// other, as they were, as the worlds of a search that share a past need.
func TestHistoriesAreValues(t *testing.T) {
	h := History{Ops: make([]HistoryOp, 0, 4)}.Call(0, 0, model.MsgID{}) // room to grow in place
	a, b := h.Call(1, 0, model.MsgID{}), h.Call(2, 0, model.MsgID{})
	require.Equal(t, []model.NodeID{0, 1}, clients(a))
	require.Equal(t, []model.NodeID{0, 2}, clients(b))
	a.Return(1, func(HistoryOp) bool { return true }, model.MsgID{}, true)
	require.Equal(t, int32(-1), a.Ops[1].Return, "Return left a as it was")
	b.Abandon(2, func(HistoryOp) bool { return true })
	require.Equal(t, []model.NodeID{0, 2}, clients(b), "Abandon left b as it was")
	require.Len(t, h.Ops, 1)
}

// A Recorder keeps only its newest history, which grows in place: a run
// of 2 000 lock calls and returns costs a few allocations, not one each.
func TestRecordingIsLinear(t *testing.T) {
	allocs := testing.AllocsPerRun(5, func() {
		rec := Lock.NewRecorder()
		for range 500 {
			for _, o := range []model.Obs{{Kind: model.ObsRequest}, {Kind: model.ObsEnter}, {Kind: model.ObsExit}} {
				rec.Observe(1, o)
			}
		}
	})
	require.Less(t, allocs, 50.0)
}

func clients(h History) []model.NodeID {
	var out []model.NodeID
	for _, op := range h.Ops {
		out = append(out, op.Client)
	}
	return out
}
