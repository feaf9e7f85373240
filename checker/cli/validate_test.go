package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/internal/tracegen"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/bully"
)

// bullyLogs writes in a new directory the logs of a run of bully's
// scenario: the events of more, then, if cex, the search's counterexample
// to unique-leader; and, if runFile, its run.json.
func bullyLogs(t *testing.T, scenario string, more []checker.TraceStep, cex, runFile bool) string {
	t.Helper()
	sc, err := bully.Description.Scenario(scenario)
	require.NoError(t, err)
	cfg, err := sc.Config()
	require.NoError(t, err)
	m, err := tracegen.Widened(bully.Description, scenario)
	require.NoError(t, err)
	events := slices.Clone(more)
	if cex {
		res, err := suite.Exhaustive(context.Background(), bully.Description, &sc, checker.Options{})
		require.NoError(t, err)
		events = append(events, res.Property("unique-leader").Counterexample.Events...)
	}
	logs, err := tracegen.FromTrace(m, events)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, logs.Write(dir))
	if runFile {
		rf := validate.RunFile{Protocol: bully.Description.Path(), Config: cfg, Properties: sc.Props}
		require.NoError(t, rf.Write(filepath.Join(dir, validate.RunFileName)))
	}
	return dir
}

var settled = []checker.TraceStep{
	{Kind: "deliver", Node: 1, From: 0, Msg: "election"}, {Kind: "deliver", Node: 0, From: 1, Msg: "answer"},
	{Kind: "deliver", Node: 0, From: 3, Msg: "coordinator"}, {Kind: "deliver", Node: 1, From: 3, Msg: "coordinator"},
	{Kind: "crash", Node: 3},
}

func TestValidatePrintsItsVerdict(t *testing.T) {
	passing := bullyLogs(t, "sync-crash", settled, false, true)
	bare := bullyLogs(t, "sync-crash", settled, false, false)
	failing := bullyLogs(t, "async-crash", settled[:1], true, true)
	html := filepath.Join(t.TempDir(), "report.html")
	trace := filepath.Join(t.TempDir(), "cex.json")
	untraced := filepath.Join(t.TempDir(), "none.json")
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"the run file says what the logs are", []string{passing}, 0, []string{
			"election/bully n=4 fifo sync crashes=1 recoveries=0 ranks=[0 1 2 3] initiators=all: the logs in " + passing,
			"  9 events taken (n0 3, n1 3, n2 1, n3 2), followed under async timing and unordered channels",
			"the logs agree with the model, and no property fails: elected, unique-leader, agreement, highest-leader, termination, live-leader",
			"verdict: pass"}},
		{"the protocol and flags say what the logs are", []string{"bully", "-crashes", "1", "-props", "unique-leader", bare}, 0, []string{
			"election/bully n=4 fifo sync crashes=1",
			"no property fails: unique-leader\n"}},
		{"-props in place of the run file's", []string{"-props", "agreement", passing}, 0, []string{"no property fails: agreement\n"}},
		{"a violation", []string{failing}, 1, []string{
			"counterexample to unique-leader: n0 and n3 both believe they are the leader",
			"   1. n0  timeout answer",
			"note: unique-leader fails at n0: " + filepath.Join(failing, "n0.jsonl") + ":2: timeout answer; the counterexample is its causal past",
			"verdict: fail"}},
		{"a violation as a chart", []string{"-format", "mermaid", failing}, 1, []string{"%% election/bully", "sequenceDiagram", "unique-leader fails"}},
		{"a pass as a chart", []string{"-format", "mermaid", passing}, 0, []string{"Note over n0,n3: the logs agree with the model, and no property fails: no counterexample to draw"}},
		{"an HTML report and a trace file", []string{"-html", html, "-trace", trace, failing}, 1, []string{"counterexample to unique-leader"}},
		{"no trace file for a pass", []string{"-trace", untraced, passing}, 0, []string{"verdict: pass"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := vigil(append([]string{"validate"}, c.args...)...)
			require.Equal(t, c.code, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			require.Empty(t, errOut)
			for _, w := range c.want {
				require.Contains(t, out, w)
			}
		})
	}
	page, err := os.ReadFile(html)
	require.NoError(t, err)
	require.Contains(t, string(page), "Counterexample to unique-leader")
	require.Contains(t, string(page), "the logs of a real run")
	_, err = os.Stat(untraced)
	require.ErrorIs(t, err, os.ErrNotExist, "no violation, no trace file")

	// the counterexample is a run of the model the logs were followed in
	code, out, errOut := vigil("replay", trace)
	require.Equal(t, 1, code, errOut)
	require.Contains(t, out, "counterexample to unique-leader: n0 and n3 both believe they are the leader")
	require.Contains(t, out, "unordered async crashes=1")
}

func TestValidateFindsADiscrepancy(t *testing.T) {
	dir := bullyLogs(t, "sync-crash", settled, false, true)
	path := filepath.Join(dir, "n1.jsonl")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	require.Contains(t, lines[1], `"event":"receive"`)
	spoilt := strings.Replace(lines[1], `"sends":[{"to":0,"msg":{"K":1}}]`, `"sends":[{"to":0,"msg":{"K":2}}]`, 1)
	require.NotEqual(t, lines[1], spoilt)
	lines[1] = spoilt
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644))

	code, out, _ := vigil("validate", dir)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, `discrepancy: n1: `+path+`:2: receive {"K":0} from n0: logged 1 send: coordinator to n0; the model sends 1: answer to n0`)
	require.Contains(t, out, "verdict: fail")
}

func TestValidateRefusesBadInput(t *testing.T) {
	dir := bullyLogs(t, "sync-crash", settled, false, true)
	bare := bullyLogs(t, "sync-crash", settled, false, false)
	malformed := bullyLogs(t, "sync-crash", nil, false, true)
	require.NoError(t, os.WriteFile(filepath.Join(malformed, "n2.jsonl"), []byte("{\"node\":2,\n"), 0o644))
	unknown := bullyLogs(t, "sync-crash", nil, false, false)
	require.NoError(t, (&validate.RunFile{Protocol: "election/nope", Config: model.Config{N: 4}}).Write(filepath.Join(unknown, validate.RunFileName)))
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "validate needs the directory of a run's logs"},
		{[]string{"-props", "agreement"}, "flag needs an argument: -props"},
		{[]string{"bully", "-first"}, "validate needs the directory of a run's logs"},
		{[]string{filepath.Join(dir, "absent")}, "cannot read the logs in " + filepath.Join(dir, "absent") + ": no such file or directory"},
		{[]string{filepath.Join(dir, "n0.jsonl")}, "n0.jsonl is no directory"},
		{[]string{bare}, "holds no run.json: give the protocol and its flags"},
		{[]string{malformed}, filepath.Join(malformed, "n2.jsonl") + ":1: not a record"},
		{[]string{unknown}, `run.json: unknown protocol "election/nope"`},
		{[]string{"nosuch", bare}, `unknown protocol "nosuch"`},
		{[]string{"bully", "-n", "3", bare}, "the logs in " + bare + " are of 4 nodes, the configuration's of 3"},
		{[]string{"bully", "-n", "3", dir}, "run.json gives the run's configuration: -n does not apply"},
		{[]string{"lelann", dir}, "is a run of election/bully, not lelann"},
		{[]string{"-format", "json", dir}, "validate prints text or mermaid, not json"},
		{[]string{"-walks", "3", dir}, "-walks is a flag of check's search: it does not apply to validate"},
		{[]string{"--all", dir}, "-all is a flag of check's search"},
		{[]string{"bully", "-requests", "2", dir}, "run.json gives the run's configuration: -requests does not apply"},
		{[]string{"-props", "nothing", dir}, `has no property "nothing"`},
	} {
		code, out, errOut := vigil(append([]string{"validate"}, c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, out)
		require.Empty(t, out, c.args)
		require.Contains(t, errOut, c.want, c.args)
		require.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %s", errOut)
	}

	code, out, errOut := vigil("validate", "-h")
	require.Equal(t, 0, code)
	require.Empty(t, out)
	require.True(t, strings.HasPrefix(errOut, "usage: "+validateUsage), errOut)
}
