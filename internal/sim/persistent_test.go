package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// PersistentNodes names a node only where every other node that may still
// send to it has a message in flight to it, and no fault can happen any
// more: on the complete graph, every other node up; on the unidirectional
// ring, its predecessor.
func TestPersistentNodes(t *testing.T) {
	cases := []struct {
		name  string
		cfg   model.Config
		sends map[model.NodeID][]model.NodeID // what each node sends at Init
		crash string                          // a crash taken first, if any
		want  []model.NodeID
	}{
		{"n0 hears from both", model.Config{N: 3}, map[model.NodeID][]model.NodeID{0: {1}, 1: {0}, 2: {0}}, "", []model.NodeID{0}},
		{"n1 hears from both, n0 not from n2", model.Config{N: 3}, map[model.NodeID][]model.NodeID{0: {1}, 1: {0}, 2: {1}}, "", []model.NodeID{1}},
		{"no one hears from everyone", model.Config{N: 3}, map[model.NodeID][]model.NodeID{0: {1}, 1: {2}, 2: {0}}, "", nil},
		{"one-way ring: each hears from its predecessor", model.Config{N: 3, Topology: "uniring"}, map[model.NodeID][]model.NodeID{0: {1}, 1: {2}, 2: {0}}, "", []model.NodeID{0, 1, 2}},
		{"fewest steps first", model.Config{N: 3}, map[model.NodeID][]model.NodeID{0: {0, 1, 2}, 1: {0, 2}, 2: {0, 1}}, "", []model.NodeID{1, 2, 0}},
		{"a crash may still happen", model.Config{N: 3, Topology: "uniring", Crashes: 1}, map[model.NodeID][]model.NodeID{0: {1}, 1: {2}, 2: {0}}, "", nil},
		{"a node down for good sends nothing", model.Config{N: 3, Crashes: 1}, map[model.NodeID][]model.NodeID{0: {1}, 1: {0}}, "crash n2", []model.NodeID{0, 1}},
		{"a node down may recover", model.Config{N: 3, Crashes: 1, Recoveries: 1}, map[model.NodeID][]model.NodeID{0: {1}, 1: {0}}, "crash n2", nil},
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
			got := h.st.PersistentNodes(w, evs, n, nil)
			require.Equal(t, fmt.Sprint(c.want), fmt.Sprint(got), "in flight: %v", h.inFlight(w))
		})
	}
}
