package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// PersistentSets closes a node's set under "add every node up that may
// still send to a member and has nothing in flight to it", and gives the
// sets that leave some event out, where no fault can happen any more: on
// the complete graph the senders are every other node up; on the
// unidirectional ring, the predecessor.
func TestPersistentSets(t *testing.T) {
	type sends = map[model.NodeID][]model.NodeID // what each node sends at Init
	cases := []struct {
		name  string
		cfg   model.Config
		sends sends
		crash string // a crash taken first, if any
		want  string // the sets, fewest events first
	}{
		{"n0 hears from both", model.Config{N: 3}, sends{0: {1}, 1: {0}, 2: {0}}, "", "[[0]]"},
		{"n1 hears from both; n0 not from n2, which needs both", model.Config{N: 3}, sends{0: {1}, 1: {0}, 2: {1}}, "", "[[1]]"},
		{"every set needs every node", model.Config{N: 3}, sends{0: {1}, 1: {2}, 2: {0}}, "", "[]"},
		{"one-way ring: each hears from its predecessor", model.Config{N: 3, Topology: "uniring"}, sends{0: {1}, 1: {2}, 2: {0}}, "", "[[0] [1] [2]]"},
		{"fewest steps first", model.Config{N: 3}, sends{0: {0, 1, 2}, 1: {0, 2}, 2: {0, 1}}, "", "[[1] [2] [0]]"},
		{"a closed pair: n0 needs n1, which hears from all", model.Config{N: 4}, sends{0: {1}, 2: {0, 1}, 3: {0, 1, 2}}, "", "[[1] [0 1]]"},
		{"a crash may still happen", model.Config{N: 3, Topology: "uniring", Crashes: 1}, sends{0: {1}, 1: {2}, 2: {0}}, "", "[]"},
		{"a node down for good sends nothing", model.Config{N: 3, Crashes: 1}, sends{0: {1}, 1: {0}}, "crash n2", "[[0] [1]]"},
		{"a node down may recover", model.Config{N: 3, Crashes: 1, Recoveries: 1}, sends{0: {1}, 1: {0}}, "crash n2", "[]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := script{init: func(ctx *model.Ctx[tmsg]) tstate {
				for k, to := range c.sends[ctx.Self()] {
					ctx.Send(to, tmsg{V: k})
				}
				return tstate{}
			}}
			h, w := compile(t, p, c.cfg)
			if c.crash != "" {
				w = h.do(t, w, c.crash)
			}
			evs, n := h.st.Enabled(w, nil)
			got := [][]int{}
			for _, set := range h.st.PersistentSets(w, evs, n, nil) {
				var nodes []int
				for i := range c.cfg.N {
					if set&(1<<i) != 0 {
						nodes = append(nodes, i)
					}
				}
				got = append(got, nodes)
			}
			require.Equal(t, c.want, fmt.Sprint(got), "in flight: %v", h.inFlight(w))
		})
	}
}
