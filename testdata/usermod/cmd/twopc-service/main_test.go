package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"example.com/commit/service"
	"github.com/vigil-check/vigil/tracelog"
)

// A run leaves run.json and every node's log, all of them decided.
func TestRunLeavesLogsAndRunFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-n", "3", "-dir", dir, "-for", "300ms", "-seed", "5"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "logs in "+dir)
	require.Contains(t, stderr.String(), "the run is over after")
	require.FileExists(t, filepath.Join(dir, service.RunFileName))
	logs, err := tracelog.ReadDir(dir)
	require.NoError(t, err)
	for i, recs := range logs.Nodes {
		var decided int
		for _, r := range recs {
			for _, o := range r.Observed {
				if o == "decided=commit" || o == "decided=abort" {
					decided++
				}
			}
		}
		require.Equal(t, 1, decided, "n%d decides once", i)
	}
}

func TestBadFlagsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "0"},
		{"-yes-votes", "2"},
		{"-yes-votes", "0", "-no-votes", "0"},
		{"-for", "0s"},
		{"-nodes", "3"},
		{"extra"},
	} {
		dir := t.TempDir()
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, run(context.Background(), append(args, "-dir", dir), &stdout, &stderr), "%v", args)
		require.NotEmpty(t, stderr.String())
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Empty(t, entries, "%v writes nothing", args)
	}
}
