package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/tracelog"
)

// vigil run starts a process per node, kills one, and leaves each node's
// log; the processes are this test binary, acting as vigil (see TestMain).
func TestRunStartsProcessesAndKillsOne(t *testing.T) {
	t.Setenv(asVigil, "1")
	dir := t.TempDir()
	code, out, errOut := vigil("run", "bully", "-n", "5", "-crashes", "1", "-for", "2s", "-tick", "20ms", "-log", dir)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	require.Contains(t, errOut, "is killed")
	run, err := tracelog.ReadDir(dir)
	require.NoError(t, err)
	pids := map[int]bool{}
	crashes := 0
	for _, recs := range run.Nodes {
		require.NotEmpty(t, recs)
		require.Equal(t, tracelog.Start, recs[0].Event)
		for _, r := range recs {
			if r.Event == tracelog.Crash {
				crashes++
			} else {
				pids[r.PID] = true
			}
		}
	}
	require.Len(t, pids, 5, "a process per node")
	require.Equal(t, 1, crashes)
	require.FileExists(t, filepath.Join(dir, runFileName))
}

func TestRunRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"run"}, "vigil run needs a protocol"},
		{[]string{"run", "nosuch"}, "nosuch"},
		{[]string{"run", "bully", "-for", "0s"}, "-for and -tick must be positive"},
		{[]string{"run", "agreement/om", "-n", "4", "-traitors", "1"}, "a real run has no traitors"},
		{[]string{"node", "bully", "-n", "3", "-id", "0", "-log", "x"}, "-peers needs 3 host:port"},
		{[]string{"node", "bully", "-n", "3", "-id", "3", "-peers", "a,b,c", "-log", "x"}, "-id must be in 0..2"},
		{[]string{"node", "bully", "-n", "3", "-id", "0", "-peers", "a,b,c"}, "-log needs the file"},
		{[]string{"node", "-id", "0"}, "needs a protocol, or -run run.json"},
		{[]string{"node", "-run", "absent.json", "-id", "0"}, "absent.json"},
	} {
		code, _, errOut := vigil(c.args...)
		require.Equal(t, 2, code, "%v: %s", c.args, errOut)
		require.Contains(t, errOut, c.err, "%v", c.args)
	}
}
