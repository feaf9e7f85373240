package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// spinner: node 0 pings itself for ever, counting the pings (so that
// no world comes back, and no walk ends on a cycle).
type spinner struct{}

func (spinner) Init(ctx *model.Ctx[int]) int {
	if ctx.Self() == 0 {
		ctx.Send(0, 0)
	}
	return 0
}
func (spinner) Receive(ctx *model.Ctx[int], s int, _ model.NodeID, m int) int {
	ctx.Send(0, m)
	return s + 1
}
func (spinner) Timeout(_ *model.Ctx[int], s int, _ model.Timer) int { return s }
func (spinner) Recover(_ *model.Ctx[int], s int) int                { return s }

// stopsAfter is a context whose Err is nil for its first calls, then
// Canceled: a search that stops mid-walk, at a point no clock decides.
type stopsAfter struct {
	context.Context
	calls int
}

func (c *stopsAfter) Err() error {
	if c.calls--; c.calls < 0 {
		return context.Canceled
	}
	return nil
}

// A walk of a search that is stopping stops within stopEvery steps, on
// a Walker and on a Stepper: a time bound waits for no walk.
func TestSetupStopsWalks(t *testing.T) {
	m, err := sim.Compile("spinner", spinner{}, model.Config{N: 2})
	require.NoError(t, err)
	depth := 10 * stopEvery
	for _, tc := range []struct {
		name  string
		calls int // of Err before the search stops
		want  int // steps walked
	}{
		{"never", depth, depth},
		{"at once", 0, 0},
		{"in the third thousand steps", 3, 2 * stopEvery},
	} {
		r := liveWalk(&stopsAfter{context.Background(), tc.calls}, m.NewWalker(), nil, 1, depth, 0, false, false, nil, Scheduler{})
		require.Equal(t, tc.want, r.steps, "walker, %s", tc.name)
		r = walk(&stopsAfter{context.Background(), tc.calls}, m.NewStepper(), nil, 1, depth, 0, false, nil, false, Scheduler{})
		require.Equal(t, tc.want, len(r.events), "stepper, %s", tc.name)
	}
}
