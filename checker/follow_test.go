package checker_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/bully"
)

func deliver(from, to int, msg string) checker.TraceStep {
	return checker.TraceStep{Kind: "deliver", Node: to, From: from, Msg: msg}
}

// A Follower takes a run one event at a time and ends where Replay of the
// whole run ends, with the same trace; it judges each world on demand.
func TestFollowerTakesARunAsReplayDoes(t *testing.T) {
	m, err := checker.Compile("flood", Flood{}, model.Config{N: 3, Channels: model.Unordered},
		properties.UniqueLeader, properties.Agreement, properties.Termination)
	require.NoError(t, err)
	run := []checker.TraceStep{
		deliver(0, 1, "{Rank:0}"), deliver(2, 1, "{Rank:2}"), deliver(1, 0, "{Rank:1}"),
		deliver(2, 0, "{Rank:2}"), deliver(0, 2, "{Rank:0}"), deliver(1, 2, "{Rank:1}"),
	}
	f, err := checker.Follow(m)
	require.NoError(t, err)
	for k, s := range run {
		quiescent, err := f.Quiescent()
		require.NoError(t, err)
		require.False(t, quiescent, "before step %d", k+1)
		stutter, err := f.Step(s)
		require.NoError(t, err)
		require.False(t, stutter)
		prop, detail, err := f.Judge()
		require.NoError(t, err)
		require.Empty(t, prop, detail)
	}
	quiescent, err := f.Quiescent()
	require.NoError(t, err)
	require.True(t, quiescent)

	want, err := checker.Replay(m, &checker.Trace{Events: run})
	require.NoError(t, err)
	require.Equal(t, "elected", want.Property, "Replay names the goal the run reaches")
	want.Property, want.Detail, want.Witness = "", "", false
	require.Equal(t, want, f.Trace())
	require.Equal(t, []string{"leader=n2"}, f.Trace().Events[1].Observed)

	_, err = f.Step(deliver(0, 1, "{Rank:0}"))
	require.ErrorContains(t, err, "n0 → n1  {Rank:0} is not enabled at that point of the run", "delivered already")
}

// Judge names the first invariant a world violates; under asynchronous
// timing, bully's lowest node may time out and lead beside the highest.
func TestFollowerJudgesEachWorld(t *testing.T) {
	m, err := bully.Description.Compile(model.Config{N: 3, Channels: model.Unordered, Timing: model.Async},
		[]*properties.Property{properties.UniqueLeader, properties.Agreement})
	require.NoError(t, err)
	f, err := checker.Follow(m)
	require.NoError(t, err)
	prop, _, err := f.Judge()
	require.NoError(t, err)
	require.Empty(t, prop, "n2 alone leads at start-up")

	stutter, err := f.Step(checker.TraceStep{Kind: "timeout", Node: 0, Timer: "answer"})
	require.NoError(t, err)
	require.False(t, stutter)
	prop, detail, err := f.Judge()
	require.NoError(t, err)
	require.Equal(t, "unique-leader", prop)
	require.Equal(t, "n0 and n2 both believe they are the leader", detail)
	tr := f.Trace()
	require.Len(t, tr.Events, 1)
	require.Equal(t, []string{"leader=n0"}, tr.Events[0].Observed)
	require.Empty(t, tr.Events[0].Sent, "n0 has no lower node to tell")
	require.Equal(t, []checker.NodeState{{Node: 0, Alive: true, State: "idle L=n0"}}, tr.Events[0].Changes)
}

// ticker's timer re-arms itself and changes nothing: its timeout is a
// stutter, no step of the model's.
type ticker struct{}

func (ticker) Init(ctx *model.Ctx[int]) int {
	ctx.SetTimer("tick")
	return 0
}
func (ticker) Receive(_ *model.Ctx[int], s int, _ model.NodeID, _ int) int { return s }
func (ticker) Timeout(ctx *model.Ctx[int], s int, _ model.Timer) int {
	ctx.SetTimer("tick")
	return s
}

func TestFollowerTakesAStutterAsNoStep(t *testing.T) {
	m, err := checker.Compile("ticker", ticker{}, model.Config{N: 1, Timing: model.Async})
	require.NoError(t, err)
	f, err := checker.Follow(m)
	require.NoError(t, err)
	stutter, err := f.Step(checker.TraceStep{Kind: "timeout", Node: 0, Timer: "tick"})
	require.NoError(t, err)
	require.True(t, stutter)
	require.Empty(t, f.Trace().Events)
	_, err = f.Step(checker.TraceStep{Kind: "timeout", Node: 0, Timer: "tock"})
	require.ErrorContains(t, err, "n0  timeout tock is not enabled")
}

// panicky's Receive panics: a Follower reports the fault with the run to it.
type panicky struct{}

func (panicky) Init(ctx *model.Ctx[int]) int {
	ctx.Send(1-ctx.Self(), 7)
	return 0
}
func (panicky) Receive(*model.Ctx[int], int, model.NodeID, int) int { panic("no") }

func TestFollowerReportsAFault(t *testing.T) {
	m, err := checker.Compile("panicky", panicky{}, model.Config{N: 2, Channels: model.Unordered})
	require.NoError(t, err)
	f, err := checker.Follow(m)
	require.NoError(t, err)
	_, err = f.Step(deliver(0, 1, "7"))
	var fault *checker.Fault
	require.True(t, errors.As(err, &fault), "got %v", err)
	require.Equal(t, "no", fault.Panic)
	require.True(t, fault.Trace.FaultInStep)
	require.Len(t, fault.Trace.Events, 1)
}
