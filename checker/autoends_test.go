package checker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
)

// A fault in any part of an auto search ends the search with it (the
// other ends, on the shipped protocols, are internal/regress's
// TestAutoEnds).
func TestAutoEndsAtAFault(t *testing.T) {
	faulty := func() *checker.Machine {
		m, err := checker.Compile("pingpong", pingPong{"receive-panic"}, model.Config{N: 2, Crashes: 1, Timing: model.Async}, quiet)
		require.NoError(t, err)
		return m
	}
	for _, c := range []struct {
		name  string
		probe time.Duration
		part  string // the one part the search ran
	}{
		{"fault in the probe", time.Minute, "probe"},
		{"fault in the exhaustive search", -1, "exhaustive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := checker.Auto(context.Background(), faulty(), checker.AutoOptions{Probe: c.probe, Exhaustive: checker.Options{MaxStates: 1000},
				Random: checker.RandomOptions{Walks: 20, Workers: 1}})
			require.Equal(t, checker.ModeAuto, res.Mode)
			require.Equal(t, checker.CutNone, res.Cut)
			require.Equal(t, checker.Error, res.Verdict)
			require.Len(t, res.Parts, 1)
			require.Equal(t, c.part, res.Parts[0].Part)
			require.NotNil(t, res.Fault)
			require.Equal(t, checker.Unknown, res.Properties[0].Verdict)
		})
	}
}
