package checker_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// pinger: node 0 pings node 1 at start and every 2 ticks after, three
// times in all; node 1 counts the pings.
type pinger struct{}

type ping struct{}

type beat struct{}

func (beat) String() string { return "beat" }

func (pinger) Init(ctx *model.Ctx[ping]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, ping{})
		ctx.SetTimerAfter(beat{}, 2)
	}
	return 0
}
func (pinger) Receive(_ *model.Ctx[ping], s int, _ model.NodeID, _ ping) int { return s + 1 }
func (pinger) Timeout(ctx *model.Ctx[ping], s int, _ model.Timer) int {
	s++
	ctx.Send(1, ping{})
	if s < 2 {
		ctx.SetTimerAfter(beat{}, 2)
	}
	return s
}
func (pinger) Recover(_ *model.Ctx[ping], s int) int { return s }

// Under bounded timing a counterexample shows the ticks and the age of
// each message it delivers, survives JSON and replays; the shortest run to
// node 1's third ping takes the four ticks of the two beats.
func TestBoundedTimingTraces(t *testing.T) {
	third := properties.Invariant("fewer-than-three", "node 1 gets fewer than three pings", func(v properties.View) string {
		if properties.StateOf[int](v, 1) >= 3 {
			return "n1 got three pings"
		}
		return ""
	})
	m, err := checker.Compile("pinger", pinger{}, model.Config{N: 2, Timing: model.Bounded, Delay: 1}, third)
	require.NoError(t, err)
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	pr := r.Property("fewer-than-three")
	require.Equal(t, checker.Fail, pr.Verdict)
	var out strings.Builder
	checker.Render(&out, pr.Counterexample)
	require.Equal(t, 4, strings.Count(out.String(), ". tick\n"), out.String())
	require.Contains(t, out.String(), "n0  timeout beat")

	b, err := json.Marshal(pr.Counterexample)
	require.NoError(t, err)
	var back checker.Trace
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := checker.Replay(m, &back)
	require.NoError(t, err)
	require.Equal(t, "fewer-than-three", again.Property)
	require.Equal(t, len(pr.Counterexample.Events), len(again.Events))
}
