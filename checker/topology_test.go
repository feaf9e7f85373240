package checker_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
)

// relay passes a token along the ring of node ids, n0 first, until the
// third hop, whose receiver sends it two nodes on: a neighbour on the
// complete graph, not on a ring of four.
type relay struct{}

type relayMsg struct{ Hop int }

func (relay) Init(ctx *model.Ctx[relayMsg]) int {
	if ctx.Self() == 0 {
		ctx.Send(ctx.Next(), relayMsg{Hop: 1})
	}
	return 0
}

func (relay) Receive(ctx *model.Ctx[relayMsg], s int, _ model.NodeID, m relayMsg) int {
	switch {
	case m.Hop == 3:
		ctx.Send(model.NodeID((int(ctx.Self())+2)%ctx.N()), relayMsg{Hop: m.Hop + 1})
	case m.Hop < 3:
		ctx.Send(ctx.Next(), relayMsg{Hop: m.Hop + 1})
	}
	return s + 1
}

func (relay) Timeout(_ *model.Ctx[relayMsg], s int, _ model.Timer) int { return s }
func (relay) Recover(_ *model.Ctx[relayMsg], s int) int                { return s }

// A send to a node that is not a neighbour is a fault of the protocol:
// every engine reports it with the shortest run to it, the run replays to
// the same fault, and the same protocol on the complete graph is fine.
func TestNonNeighbourSendIsAFault(t *testing.T) {
	const want = "protocol relay: Receive on n3 sent to n1, which is not a neighbour of n3 on topology ring"
	compile := func(topology string) *checker.Machine {
		m, err := checker.Compile("relay", relay{}, model.Config{N: 4, Crashes: 1, Topology: topology}, quiet)
		require.NoError(t, err)
		return m
	}
	runs := []engine{
		exhaustiveEngine("exhaustive/workers=1", checker.Options{Workers: 1}),
		exhaustiveEngine("exhaustive/workers=2", checker.Options{Workers: 2}),
		randomEngine("random", checker.RandomOptions{Walks: 100, Seed: 3, Workers: 2}),
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			res := r.run(compile("ring"))
			require.Equal(t, checker.Error, res.Verdict)
			require.NotNil(t, res.Fault)
			f := res.Fault
			require.Equal(t, want, f.Error())
			require.Equal(t, "Receive", f.Handler)
			require.Equal(t, model.NodeID(3), f.Node)
			tr := f.Trace
			require.NotNil(t, tr)
			if res.Mode == checker.ModeExhaustive {
				require.Len(t, tr.Events, 3, "the shortest run: three hops")
			}
			require.Equal(t, "n2 → n3  {Hop:3}", tr.Events[len(tr.Events)-1].String())
			_, err := checker.Replay(compile("ring"), tr)
			var mf *checker.Fault
			require.True(t, errors.As(err, &mf), "replay: %v", err)
			require.Equal(t, want, mf.Error())

			for _, topology := range []string{"", "complete"} {
				res := r.run(compile(topology))
				require.Nil(t, res.Fault, "topology %q", topology)
				require.Equal(t, checker.Pass, res.Verdict, "topology %q", topology)
			}
		})
	}
}
