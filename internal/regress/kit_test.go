package regress

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// The built-in protocols through the kit a user has: each claim holds on
// every configuration and schedule rapid draws, within the assumptions the
// protocol's scenarios name (FIFO channels for LeLann and the active
// lists, no crash where the algorithm assumes none); R-multicast also
// under duplicated messages, which it drops.
func TestKitRapidOnBuiltins(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		space    checktest.Space
	}{
		{"changroberts", checktest.Space{MinN: 1, MaxN: 8, Ranks: true, Channels: true, Initiators: true}},
		{"lelann", checktest.Space{Base: suite.Scenario{Props: []string{"unique-leader", "agreement"}}, MinN: 1, MaxN: 7, Ranks: true, Initiators: true}},
		{"ringbased", checktest.Space{MinN: 1, MaxN: 8, Ranks: true, Channels: true}},
		{"bully", checktest.Space{MinN: 1, MaxN: 7, Ranks: true, Channels: true, Crashes: 1}},
		{"ring", checktest.Space{MinN: 2, MaxN: 6, Ranks: true, Crashes: 1}},
		{"central", checktest.Space{Base: suite.Scenario{Params: map[string]int{"requests": 2}}, MinN: 1, MaxN: 6}},
		{"ricartagrawala", checktest.Space{Base: suite.Scenario{Params: map[string]int{"requests": 2}}, MinN: 1, MaxN: 6, Channels: true}},
		{"sequencer", checktest.Space{Base: suite.Scenario{Channels: model.Unordered, Params: map[string]int{"msgs": 2}}, MinN: 1, MaxN: 5, Initiators: true}},
		{"reliable", checktest.Space{Base: suite.Scenario{Channels: model.Unordered}, MinN: 1, MaxN: 5, Initiators: true, Crashes: 1, Duplicates: 2}},
	}
	for _, c := range cases {
		t.Run(c.protocol, func(t *testing.T) {
			p, err := protocols.Lookup(c.protocol)
			require.NoError(t, err)
			checktest.Rapid(t, p, c.space)
		})
	}
}
