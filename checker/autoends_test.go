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
	cases := []struct {
		name    string
		ctx     context.Context
		m       func() *checker.Machine
		probe   time.Duration
		mode    checker.Mode
		cut     checker.Cut
		verdict checker.Verdict
		parts   []string
	}{
		{"fault in the probe", context.Background(), faulty, time.Minute, checker.ModeAuto, checker.CutNone, checker.Error, []string{"probe"}},
		{"fault in the exhaustive search", context.Background(), faulty, -1, checker.ModeAuto, checker.CutNone, checker.Error, []string{"exhaustive"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.m()
			res := checker.Auto(c.ctx, m, checker.AutoOptions{Probe: c.probe, Exhaustive: checker.Options{MaxStates: 1000},
				Random: checker.RandomOptions{Walks: 20, Workers: 1}})
			require.Equal(t, c.mode, res.Mode)
			require.Equal(t, c.cut, res.Cut)
			require.Equal(t, c.verdict, res.Verdict)
			var parts []string
			for _, p := range res.Parts {
				parts = append(parts, p.Part)
			}
			require.Equal(t, c.parts, parts)
			if c.verdict == checker.Error {
				require.NotNil(t, res.Fault)
				require.Equal(t, checker.Unknown, res.Properties[0].Verdict)
			}
		})
	}
}
