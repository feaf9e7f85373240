package tracegen_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/tracegen"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/tracelog"
)

func machine(t *testing.T, cfg model.Config) *checker.Machine {
	t.Helper()
	m, err := bully.Description.Compile(cfg, nil)
	require.NoError(t, err)
	return m
}

// The logs written read back as tracelog reads a run's, with the clocks a
// real run's would have: a receive merges its sender's clock.
func TestLogsReadBackWithTheirClocks(t *testing.T) {
	m := machine(t, model.Config{N: 3, Crashes: 1})
	logs, err := tracegen.FromTrace(m, []checker.TraceStep{
		{Kind: "deliver", Node: 1, From: 0, Msg: "election"},
		{Kind: "deliver", Node: 0, From: 1, Msg: "answer"},
		{Kind: "crash", Node: 2},
	})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, logs.Write(dir))
	run, err := tracelog.ReadDir(dir)
	require.NoError(t, err)
	require.Equal(t, logs.Run(dir), run)

	answer := run.Nodes[0][1]
	require.Equal(t, tracelog.Receive, answer.Event)
	require.Equal(t, []int{2, 2, 0}, answer.Clock, "n0's start, n1's start and its receipt of the election")
	require.Equal(t, 2, answer.Sent)
	require.Equal(t, []string{"start", "crash"}, []string{run.Nodes[2][0].Event, run.Nodes[2][1].Event})
	require.True(t, run.Nodes[2][1].Time.After(answer.Time), "logged in the order of the run")
}

func TestARunItCannotTakeIsAnError(t *testing.T) {
	m := machine(t, model.Config{N: 3})
	for _, c := range []struct {
		step checker.TraceStep
		err  string
	}{
		{checker.TraceStep{Kind: "deliver", Node: 0, From: 1, Msg: "answer"}, "no answer from n1 to n0 in flight"},
		{checker.TraceStep{Kind: "timeout", Node: 2, Timer: "answer"}, "n2 has no timer answer armed"},
		{checker.TraceStep{Kind: "action", Node: 0, Action: "go"}, "n0 has no action go enabled"},
		{checker.TraceStep{Kind: "partition", Node: 0, From: 1}, "a partition is no event of a real run's logs"},
		{checker.TraceStep{Kind: "crash", Node: 3}, "no node n3"},
	} {
		_, err := tracegen.FromTrace(m, []checker.TraceStep{c.step})
		require.ErrorContains(t, err, c.err, c.step.Kind)
	}
}

// Settle delivers what is in flight, oldest first, until nothing is.
func TestSettleDeliversEverything(t *testing.T) {
	m := machine(t, model.Config{N: 3})
	events, err := tracegen.Settle(m, nil, 100)
	require.NoError(t, err)
	require.NotEmpty(t, events)
	for _, s := range events {
		require.Equal(t, "deliver", s.Kind)
	}
	again, err := tracegen.Settle(m, events, 100)
	require.NoError(t, err)
	require.Equal(t, events, again, "nothing is left in flight")
	short, err := tracegen.Settle(m, nil, 2)
	require.NoError(t, err)
	require.Equal(t, events[:2], short)
}
