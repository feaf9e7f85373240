package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// exhaustiveProgress is a progress line of an exhaustive search.
var exhaustiveProgress = regexp.MustCompile(`^vigil: depth \d+, \d+ states`)

// In the default mode a violation that random walks meet at once is told
// on stderr before the exhaustive search begins, with what the search
// does next. The process is stopped once it has told it. The probe has an
// hour, so that it stops after its walks whatever the machine's load: a
// busy machine would otherwise end it before the walk that finds the bug.
func TestAutoTellsOfViolationsBeforeTheExhaustiveSearch(t *testing.T) {
	cases := []struct {
		args []string
		want *regexp.Regexp
	}{
		// Maekawa's deadlock lies 20 steps deep, past 1.5 million states
		{[]string{"check", "maekawa", "-n", "4", "-requests", "1", "-workers", "1", "-probe", "1h"},
			regexp.MustCompile(`^vigil: no-deadlock fails on a walk shrunk to \d+ steps: deadlock: .*; the exhaustive search goes on for the other properties`)},
		// the exhaustive search of the other properties runs for its whole budget
		{[]string{"check", "bully", "-n", "4", "-crashes", "1", "-timing", "async", "-workers", "1", "-probe", "1h"},
			regexp.MustCompile(`^vigil: unique-leader fails on a walk shrunk to \d+ steps?: .*; the exhaustive search goes on for the other properties`)},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], c.args...)
			cmd.Env = append(os.Environ(), asVigil+"=1")
			pipe, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			var before []string // the lines before the violation's
			lines := bufio.NewScanner(pipe)
			lines.Buffer(nil, 1<<20)
			found := false
			for !found && lines.Scan() {
				found = c.want.MatchString(lines.Text())
				if !found {
					before = append(before, lines.Text())
				}
			}
			require.True(t, found, "never told: %q", before)
			for _, l := range before {
				require.NotRegexp(t, exhaustiveProgress, l, "the exhaustive search began before the violation was told")
			}
		})
	}
}

// An auto search says in its first line which parts ran and what cut the
// exhaustive one, on each property's line which part decided it, and
// passes only where the exhaustive part was complete.
func TestAutoOutput(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"check", "maekawa", "-n", "4", "-requests", "1", "-max-states", "1000"}, 1, []string{
			"auto search: random probe, exhaustive (cut by the state limit (-max-states) after 1138 states at depth 4), 1000 random walks",
			"  no-deadlock      fail (found by the random probe): deadlock: ",
			"  mutual-exclusion unknown: no counterexample in 1138 states of the exhaustive search (cut by its state bound) nor in 3000 random walks: not a proof\n",
			"\n  probe: 2000 walks, ", "\n  exhaustive: 1138 states, ", "\n  walks: 1000 walks, ",
			"counterexample to no-deadlock: ", "found by the random walk of seed ",
			"verdict: fail\n"}},
		{[]string{"check", "ricartagrawala", "-n", "4", "-max-states", "1000", "-walks", "100"}, 2, []string{
			"auto search: random probe, exhaustive (cut by the state limit (-max-states) after 1260 states at depth 4), 100 random walks",
			"verdict: unknown: no counterexample in 1260 states of the exhaustive search nor in 2100 random walks: not a proof\n"}},
		{[]string{"check", "bully"}, 0, []string{
			", exhaustive search\n", "  unique-leader    pass\n",
			"  a random probe ran first (2000 walks, ", "); the verdicts are the exhaustive search's\n", "verdict: pass\n"}},
		{[]string{"check", "bully", "-n", "8", "-walks", "20"}, 0, []string{
			", random search\n", "verdict: no counterexample in 20 walks"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			code, out, errOut := vigil(c.args...)
			require.Equal(t, c.code, code, out+errOut)
			for _, w := range c.want {
				require.Contains(t, out, w)
			}
		})
	}
}

// The JSON of an auto search has its parts, and each property the part
// that decided it.
func TestAutoJSON(t *testing.T) {
	code, out, _ := vigil("check", "maekawa", "-n", "4", "-requests", "1", "-max-states", "1000", "-walks", "100", "-json")
	require.Equal(t, 1, code, out)
	var doc struct {
		Mode       string `json:"mode"`
		Cut        string `json:"cut"`
		Properties []struct {
			Name    string `json:"name"`
			Verdict string `json:"result"`
			By      string `json:"by"`
		} `json:"properties"`
		Parts []struct {
			Part  string `json:"part"`
			Cut   string `json:"cut"`
			Stats struct {
				States int64 `json:"states"`
				Walks  int   `json:"walks"`
			} `json:"stats"`
		} `json:"parts"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, "auto", doc.Mode)
	require.Equal(t, "states", doc.Cut)
	by := map[string]string{}
	for _, p := range doc.Properties {
		by[p.Name] = p.Verdict + " " + p.By
	}
	require.Equal(t, map[string]string{"entered": "pass probe", "mutual-exclusion": "unknown ", "no-deadlock": "fail probe", "no-starvation": "fail probe"}, by)
	require.Len(t, doc.Parts, 3)
	require.Equal(t, []string{"probe", "exhaustive", "walks"}, []string{doc.Parts[0].Part, doc.Parts[1].Part, doc.Parts[2].Part})
	require.Equal(t, "states", doc.Parts[1].Cut)
	require.Equal(t, int64(1138), doc.Parts[1].Stats.States)
	require.Equal(t, 100, doc.Parts[2].Stats.Walks)
}
