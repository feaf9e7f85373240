package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/tracelog"
)

// vigil run starts a process per node, kills one, and leaves each node's
// log; the processes are this test binary, acting as vigil (see TestMain).
func TestRunStartsProcessesAndKillsOne(t *testing.T) {
	t.Setenv(asVigil, "1")
	dir := t.TempDir()
	code, out, errOut := vigil("run", "bully", "-n", "5", "-crashes", "1", "-for", "2s", "-tick", "50ms", "-log", dir)
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
	require.FileExists(t, filepath.Join(dir, validate.RunFileName))

	code, out, errOut = vigil("validate", dir)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	require.Contains(t, out, "the logs agree with the model")

	// a send deleted from the middle of a node's log
	node, line := deleteASend(t, run)
	code, out, _ = vigil("validate", dir)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, fmt.Sprintf("discrepancy: n%d: %s:%d:", node, run.Files[node], line))
}

// deleteASend removes the first send of the middle record, among those
// that send, of the node whose log has most, and returns the node and line.
func deleteASend(t *testing.T, run *tracelog.Run) (node, line int) {
	best := 0
	for i, recs := range run.Nodes {
		if len(recs) > len(run.Nodes[best]) {
			best = i
		}
	}
	var sending []tracelog.Logged
	for _, r := range run.Nodes[best] {
		if len(r.Sends) > 0 {
			sending = append(sending, r)
		}
	}
	require.NotEmpty(t, sending)
	victim := sending[len(sending)/2]
	b, err := os.ReadFile(run.Files[best])
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	var rec tracelog.Record
	require.NoError(t, json.Unmarshal([]byte(lines[victim.Line-1]), &rec))
	rec.Sends = rec.Sends[1:]
	edited, err := json.Marshal(rec)
	require.NoError(t, err)
	lines[victim.Line-1] = string(edited)
	require.NoError(t, os.WriteFile(run.Files[best], []byte(strings.Join(lines, "\n")), 0o644))
	return best, victim.Line
}

// Bully with unreliable timeouts elects two leaders in a real run, and the
// watcher stops the run there; with reliable ones, the run passes.
func TestRunCatchesTheAsyncBullyLive(t *testing.T) {
	t.Setenv(asVigil, "1")
	code, out, errOut := vigil("run", "bully", "-n", "4", "-timing", "async", "-for", "30s", "-tick", "20ms", "-log", t.TempDir())
	require.Equal(t, 1, code, "%s\n%s", out, errOut)
	require.Contains(t, out, "the run was stopped as the watcher found what follows")
	require.Contains(t, out, "counterexample to unique-leader")
	require.Contains(t, out, "the counterexample is its causal past")

	code, out, errOut = vigil("run", "bully", "-n", "4", "-timing", "sync", "-crashes", "0", "-for", "2s", "-tick", "50ms", "-log", t.TempDir())
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	require.Contains(t, out, "verdict: pass")
}

// A run with a kill and a partition, as -chaos sets how long it lasts: the
// runner cuts the links across it and heals them, and the run's logs still
// agree with the model (the invitation election claims its properties
// under one crash and one partition).
func TestRunPartitionsForTheChaosRange(t *testing.T) {
	t.Setenv(asVigil, "1")
	dir := t.TempDir()
	code, out, errOut := vigil("run", "election/invitation", "-scenario", "partition-heal", "-partitions", "1", "-crashes", "1",
		"-chaos", "partition=2-3,delay=0-0.2", "-for", "1s", "-tick", "50ms", "-log", dir)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	split := regexp.MustCompile(`the network splits into \[[0-9 ]+\] and \[[0-9 ]+\] for ([0-9.]+) ticks`).FindStringSubmatch(errOut)
	require.NotNil(t, split, errOut)
	lasts, err := strconv.ParseFloat(split[1], 64)
	require.NoError(t, err)
	require.True(t, lasts >= 2 && lasts <= 3, "a partition of %v ticks", lasts)
	require.Contains(t, errOut, "the partition heals")
	require.Contains(t, errOut, "is killed")
	code, out, errOut = vigil("validate", dir)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
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
		{[]string{"node", "bully", "-n", "3", "-id", "0", "-peers", "a,b,c", "-links", "a,b", "-log", "x"}, "-links needs 3 host:port"},
		{[]string{"node", "-id", "0"}, "needs a protocol, or -run run.json"},
		{[]string{"run", "bully", "-walks", "3"}, "-walks is a flag of check's search"},
		{[]string{"run", "bully", "-json"}, "not json"},
		{[]string{"node", "-run", "absent.json", "-id", "0"}, "absent.json"},
		{[]string{"run", "bully", "-chaos", "delay=3-1"}, `-chaos "delay=3-1": LO 3 is above HI 1`},
		{[]string{"run", "bully", "-chaos", "jitter=1-2"}, `no fault is named "jitter"`},
	} {
		code, _, errOut := vigil(c.args...)
		require.Equal(t, 2, code, "%v: %s", c.args, errOut)
		require.Contains(t, errOut, c.err, "%v", c.args)
	}
}
