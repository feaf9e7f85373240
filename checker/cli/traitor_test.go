package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// -traitors that a run cannot honour is refused in one line, exit 2.
func TestTraitorsRefusedExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "paxos", "-traitors", "1"}, "protocol declares no messages for traitors (it has no Forge method)"},
		{[]string{"check", "agreement/om", "-n", "4", "-traitors", "4"}, "traitors must be between 0 and n-1 = 3"},
		{[]string{"check", "agreement/om", "-n", "4", "-traitors", "-1"}, "traitors must be between 0 and n-1 = 3"},
		{[]string{"check", "agreement/om", "-n", "4", "-traitors", "1", "-channels", "set"}, "set channels with traitors are not supported"},
		{[]string{"check", "agreement/om", "-n", "2", "-traitors", "1"}, "m must be at most n-2"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, stderr := vigil(tc.args...)
			require.Equal(t, 2, code, out+stderr)
			require.Contains(t, stderr, tc.want)
			require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		})
	}
}

// OM(1) with 3 generals and a traitor fails IC2; the counterexample marks
// the traitor's turn and its lie, in text, Mermaid and the trace file,
// which replays to the same steps; the file with the lie made truth no
// longer replays, as the choice is part of the step.
func TestTraitorTraceReplays(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cx.json")
	code, out, _ := vigil("check", "agreement/om", "-n", "3", "-traitors", "1", "-mode", "exhaustive", "-trace", file)
	require.Equal(t, 1, code, out)
	for _, want := range []string{
		"counterexample to ic2: the loyal commander n0 ordered attack, and loyal n1 obeys retreat",
		"n2  turns traitor",
		"n2 (traitor) sends retreat [n0 n2] to n1 in place of attack [n0 n2]",
	} {
		require.Contains(t, out, want)
	}
	code, replayed, stderr := vigil("replay", file)
	require.Equal(t, 1, code, stderr)
	steps := func(s string) string {
		i := strings.Index(s, "counterexample to ic2")
		return s[i : i+strings.Index(s[i:], "(violation")]
	}
	require.Equal(t, steps(out), steps(replayed))

	code, chart, _ := vigil("replay", "-format", "mermaid", file)
	require.Equal(t, 1, code)
	require.Contains(t, chart, "TURNS TRAITOR")
	require.Contains(t, chart, "forged by traitor n2 in place of attack [n0 n2]")

	b, err := os.ReadFile(file)
	require.NoError(t, err)
	truth := strings.Replace(string(b), `"msg": "retreat [n0 n2]",`, `"msg": "attack [n0 n2]",`, 1)
	require.NotEqual(t, string(b), truth, "the file holds the lie")
	honest := filepath.Join(dir, "honest.json")
	require.NoError(t, os.WriteFile(honest, []byte(truth), 0o644))
	code, _, stderr = vigil("replay", honest)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "is not enabled at that point of the run")
}
