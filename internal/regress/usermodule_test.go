package regress

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/tier"
)

// The user's path, end to end: testdata/usermod is a module of its own
// holding a protocol vigil does not ship (two-phase commit), properties
// and observations of its own, tests written with the kit and a vigil
// binary of a few lines. Its tests pass, and its binary lists, checks and
// replays the protocol with vigil's flags, so the path cannot rot. It
// builds and links a second vigil binary: the long tier runs it.
func TestUserModule(t *testing.T) {
	t.Parallel()
	tier.Long(t, "a build and test of another module, its vigil binary and fifteen runs of it")
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "usermod"))
	require.NoError(t, err)
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	gorun := func(args ...string) string {
		cmd := exec.Command(goTool, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	out := gorun("test", "-count=1", "./...")
	require.Contains(t, out, "ok  \texample.com/commit/twopc")

	bin := filepath.Join(t.TempDir(), "commit-vigil")
	gorun("build", "-o", bin, "./cmd/commit-vigil")
	trace := filepath.Join(t.TempDir(), "cx.json")
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"list"}, 0, []string{"commit/twopc", "(scenarios: no-crash, unordered, coordinator-crash; parameters: no-votes, yes-votes)"}},
		{[]string{"check", "twopc"}, 0, []string{"commit/twopc [no-crash] n=4", "atomicity        pass", "termination      pass", "messages per complete run: total 7..9"}},
		{[]string{"check", "commit/twopc", "-scenario", "coordinator-crash", "-trace", trace}, 1,
			[]string{"termination      fail: the run is over and n1, alive, is still prepared", "n1 observed: voted=yes", "n0  crash"}},
		{[]string{"replay", trace}, 1, []string{"counterexample to termination", "the run is over"}},
		{[]string{"check", "--all"}, 0, []string{"commit/twopc", "coordinator-crash", "every verdict is the expected one"}},
		// the protocol's own parameter is a flag: with yes votes only, every run commits
		{[]string{"check", "twopc", "-n", "5", "-no-votes", "0"}, 0, []string{"params=map[no-votes:0]", "doCommit 4", "verdict: pass"}},
		{[]string{"check", "twopc", "-param", "no-votes=0", "-channels", "unordered", "-timing", "async", "-props", "atomicity,commit-validity"}, 0,
			[]string{"n=4 unordered async", "verdict: pass"}},
		{[]string{"check", "twopc", "-n", "12", "-crashes", "1", "-mode", "random", "-walks", "200", "-seed", "3", "-first", "-workers", "1"}, 1,
			[]string{"random search", "termination      fail", "stopped at the first violation"}},
		{[]string{"check", "twopc", "-n", "3", "-crashes", "1", "-recoveries", "1", "-json"}, 1, []string{`"protocol": "commit/twopc"`, `"verdict": "fail"`}},
		{[]string{"check", "twopc", "-n", "4", "-sweep", "-max-states", "100000", "-time", "1m", "-memory", "1024"}, 0, []string{"exhaustive (sweep) search", "verdict: pass"}},
		{[]string{"check", "twopc", "-fairness", "strong", "-depth", "30"}, 0, []string{"verdict: pass"}},
		// prepare, vote, decide: three rounds, exhaustively and on PCT walks
		{[]string{"check", "twopc", "-rounds"}, 0, []string{"time per complete run: rounds 3 (", "verdict: pass"}},
		{[]string{"check", "twopc", "-mode", "random", "-walks", "50", "-scheduler", "pct:2", "-rounds"}, 0,
			[]string{"random search, pct:2 scheduler", "time per complete run: rounds 3 (over the walks that ended)"}},
		// the coordinator talks to each participant alone: a star will do,
		// a line will not (n2 is no neighbour of n0)
		{[]string{"check", "twopc", "-topology", "star", "-losses", "0", "-timing", "bounded:2"}, 0, []string{"topology=star", "verdict: pass"}},
		{[]string{"check", "twopc", "-n", "3", "-topology", "line"}, 2, []string{"sent to n2, which is not a neighbour of n0 on topology line"}},
		{[]string{"check", "bully"}, 2, []string{`unknown protocol "bully" (known: commit/twopc)`}},
		{[]string{"check", "twopc", "-requests", "2"}, 2, []string{"flag provided but not defined: -requests"}},
		{[]string{"check", "twopc", "-param", "requests=2"}, 2, []string{"commit/twopc has no parameter requests (it has: no-votes, yes-votes)"}},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, c.args...)
		out, err := cmd.CombinedOutput()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else {
			require.NoError(t, err)
		}
		require.Equal(t, c.code, code, "%v:\n%s", c.args, out)
		for _, w := range c.want {
			require.Contains(t, string(out), w, "%v", c.args)
		}
		require.NotContains(t, string(out), "panic", "%v", c.args)
	}
}
