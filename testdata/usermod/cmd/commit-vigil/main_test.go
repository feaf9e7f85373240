package main

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"example.com/commit/service"
)

// asCommitVigil, set in the environment, makes this test binary act as
// commit-vigil: vigil run starts its nodes as processes of it.
const asCommitVigil = "COMMIT_VIGIL_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asCommitVigil) == "1" {
		main()
	}
	os.Exit(m.Run())
}

func commitVigilIn(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commitVigil(args, &out, &errOut)
	return code, out.String() + errOut.String()
}

// The module's own binary runs its two-phase commit as processes, watched
// live, and validates the logs they leave.
func TestRunAndValidateTheModulesProtocol(t *testing.T) {
	t.Setenv(asCommitVigil, "1")
	dir := t.TempDir()
	code, out := commitVigilIn(t, "run", "twopc", "-n", "3", "-for", "1s", "-tick", "20ms", "-log", dir)
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "the logs agree with the model")
	code, out = commitVigilIn(t, "validate", dir)
	require.Equal(t, 0, code, out)
}

// The hand-written service's clean runs validate against the model; its
// divergent coordinator, which commits on a majority, is caught at the
// vote that it commits on.
func TestValidateTheHandWrittenService(t *testing.T) {
	for _, c := range []struct {
		divergent bool
		code      int
		says      string
	}{
		{false, 0, "the logs agree with the model, and no property fails"},
		{true, 1, `discrepancy: n0: `},
	} {
		dir := t.TempDir()
		opts := service.Options{N: 4, Dir: dir, YesVotes: true, Seed: 1, Divergent: c.divergent}
		cl, err := service.Start(opts)
		require.NoError(t, err)
		select {
		case <-cl.Quiet():
		case <-time.After(5 * time.Second):
			cl.Stop()
			t.Fatal("the run is not over after 5s")
		}
		require.NoError(t, cl.Stop())
		require.NoError(t, service.WriteRunFile(opts))
		code, out := commitVigilIn(t, "validate", dir)
		require.Equal(t, c.code, code, out)
		require.Contains(t, out, c.says)
		if c.divergent {
			require.Contains(t, out, "logged 3 sends: doCommit to n1, doCommit to n2, doCommit to n3; the model sends nothing")
		}
	}
}
