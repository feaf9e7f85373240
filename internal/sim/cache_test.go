package sim

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/vigil-check/vigil/model"
)

// TestMemoIsAMap checks a memo against a Go map, through growth past its
// first 1024 slots, with keys drawn from few values so that they collide:
// every key put is found with its value, every other one is not, zero
// values included (a memo tells "absent" from "zero").
func TestMemoIsAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newMemo[monKey, uint32](monKey.hash)
		want := map[monKey]uint32{}
		key := rapid.Custom(func(t *rapid.T) monKey {
			return monKey{mon: rapid.Uint32Range(0, 3).Draw(t, "mon"), state: rapid.Uint32Range(0, 40).Draw(t, "state"),
				node: model.NodeID(rapid.IntRange(0, 3).Draw(t, "node")),
				obs:  model.Obs{Kind: model.ObsKind(rapid.IntRange(0, 2).Draw(t, "kind")), Arg: rapid.IntRange(-2, 2).Draw(t, "arg")}}
		})
		for range rapid.IntRange(1, 1500).Draw(t, "ops") {
			k := key.Draw(t, "key")
			got, ok := c.get(k, k.hash())
			if v, in := want[k]; ok != in || got != v {
				t.Fatalf("get(%+v) = %d, %v; want %d, %v", k, got, ok, v, in)
			}
			if !ok {
				v := rapid.Uint32Range(0, 3).Draw(t, "value")
				c.put(k, k.hash(), v)
				want[k] = v
			}
		}
		if c.n != len(want) {
			t.Fatalf("memo holds %d keys, want %d", c.n, len(want))
		}
	})
}
