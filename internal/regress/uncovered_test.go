package regress

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/protocols"
)

// TestUncoveredProtocolCode runs every scenario of check --all in a vigil
// built with coverage of the protocol packages, as the commands in
// docs/semantics.md ("Code no scenario runs") do, and fails unless every
// line of the protocols' handler code was executed by some scenario or is
// marked unreachable, with the reason.
// testdata/uncovered.golden keeps the summary, so a count that moves is
// seen in review.
func TestUncoveredProtocolCode(t *testing.T) {
	// (not parallel: it changes the working directory)
	tier.Long(t, "a build of vigil with coverage, and every scenario run in it")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	bin, covdir, profile := filepath.Join(dir, "vigil-cover"), filepath.Join(dir, "cov"), filepath.Join(dir, "cov.txt")
	require.NoError(t, os.Mkdir(covdir, 0o755))
	run := func(env []string, name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v: %s", name, args, out)
	}
	run(nil, "go", "build", "-cover", "-coverpkg=./cmd/vigil,./protocols/...", "-o", bin, "./cmd/vigil")
	run([]string{"GOCOVERDIR=" + covdir}, bin, "check", "--all")
	run(nil, "go", "tool", "covdata", "textfmt", "-i="+covdir, "-o="+profile)

	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(root)) // vigil uncovered runs from the module's root
	var out, errOut bytes.Buffer
	code := cli.Main(protocols.Registry(), []string{"uncovered", "-only", "protocols/", profile}, &out, &errOut)
	require.NoError(t, os.Chdir(wd))
	// every line of handler code a scenario executes, or says why none can
	require.Equal(t, 0, code, "%s%s", out.String(), errOut.String())
	// lines move with every edit: the golden names the function and the code
	golden(t, "uncovered.golden", regexp.MustCompile(`(?m)^(\S+\.go):\d+ `).ReplaceAll(out.Bytes(), []byte("$1 ")))
}
