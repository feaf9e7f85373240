package checker

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// TestReturnOrderProvesOnlyLinearizable draws histories of the lock and of
// the register, linearizable or not, from random observations: where the
// one pass in return order accepts a history, porcupine's search must
// too, and the verdict of linearize is porcupine's.
func TestReturnOrderProvesOnlyLinearizable(t *testing.T) {
	lock := []model.ObsKind{model.ObsRequest, model.ObsEnter, model.ObsExit, model.ObsCrash}
	register := []model.ObsKind{model.ObsMulticast, model.ObsReadCall, model.ObsDeliver, model.ObsReadReturn, model.ObsCrash}
	var fast, legal, illegal int
	for _, c := range []struct {
		obj   *properties.Object
		kinds []model.ObsKind
	}{{properties.Lock, lock}, {properties.Register, register}} {
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(1, 4).Draw(t, "n")
			rec := c.obj.NewRecorder()
			for range rapid.IntRange(0, 24).Draw(t, "steps") {
				node := model.NodeID(rapid.IntRange(0, n-1).Draw(t, "node"))
				o := model.Obs{Kind: rapid.SampledFrom(c.kinds).Draw(t, "kind")}
				switch o.Kind {
				case model.ObsMulticast, model.ObsDeliver, model.ObsReadReturn:
					m := model.MsgID{Sender: model.NodeID(rapid.IntRange(0, n-1).Draw(t, "sender")), Seq: rapid.IntRange(1, 2).Draw(t, "seq")}
					o.Arg = model.Delivered(m).Arg
				}
				rec.Observe(node, o)
			}
			h := rec.History()
			want := porcupine.CheckOperations(c.obj.Model, h)
			if inReturnOrder(c.obj.Model, h) {
				fast++
				require.True(t, want, "accepted in return order, but not linearizable: %v", h)
			}
			if want {
				legal++
			} else {
				illegal++
			}
			require.Equal(t, want, linearize(c.obj, h) == porcupine.Ok)
		})
	}
	// the draws must cover both verdicts, and the one pass must decide
	// some histories alone
	require.Positive(t, fast)
	require.Positive(t, illegal)
	require.Greater(t, legal, fast, "some linearizable histories need the search")
}
