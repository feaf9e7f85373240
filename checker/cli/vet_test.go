package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/testhook"
)

// asVigil, set in the environment, makes this test binary act as a vigil
// binary (cli.Main over the built-in protocols): go vet, run by vigil vet
// in a test, runs it as its vet tool.
const asVigil = "VIGIL_CLI_TEST_AS_VIGIL"

// progressEvery, set in the environment to a duration, makes the vigil
// that asVigil runs report its searches' progress that often rather than
// every second, for tests that wait for a search to be under way.
const progressEvery = "VIGIL_CLI_TEST_PROGRESS_EVERY"

func TestMain(m *testing.M) {
	if os.Getenv(asVigil) == "1" {
		if every := os.Getenv(progressEvery); every != "" {
			d, err := time.ParseDuration(every)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", progressEvery, err)
				os.Exit(2)
			}
			testhook.SetProgressEvery(d)
		}
		os.Exit(Main(builtins, os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// vetModule writes a module that uses vigil, as a user's does, with a
// package of handlers that are not deterministic and one whose are.
func vetModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/vetme\n\ngo 1.26.8\n\nrequire github.com/vigil-check/vigil v0.0.0\n\nreplace github.com/vigil-check/vigil => " + root + "\n",
		"go.sum": string(sum),
		"impure/impure.go": `package impure

import (
	"time"

	"github.com/vigil-check/vigil/model"
)

type State struct {
	Started time.Time
	Peers   map[model.NodeID]bool
}

type Msg struct{}

type Protocol struct{}

func (Protocol) Init(ctx *model.Ctx[Msg]) State { return State{Started: time.Now()} }

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	for j := range s.Peers {
		ctx.Send(j, m)
	}
	return s
}
`,
		"pure/pure.go": `package pure

import (
	"maps"
	"slices"

	"github.com/vigil-check/vigil/model"
)

type State struct{ Peers map[model.NodeID]bool }

type Msg struct{}

type Protocol struct{}

func (Protocol) Init(ctx *model.Ctx[Msg]) State { return State{} }

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	for _, j := range slices.Sorted(maps.Keys(s.Peers)) {
		ctx.Send(j, m)
	}
	return s
}
`,
		"broken/broken.go": "package broken\n\nfunc f() int { return undefined }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	return dir
}

// TestVetCommand runs vigil vet, and go vet with vigil as its vet tool, on
// a module of one's own: findings exit 1 and name the handler, clean code
// exits 0, code that cannot be checked exits 2.
func TestVetCommand(t *testing.T) {
	t.Chdir(vetModule(t))
	t.Setenv(asVigil, "1")
	self, err := os.Executable()
	require.NoError(t, err)
	goVet := func(pkgs ...string) (int, string) {
		var out bytes.Buffer
		cmd := exec.Command("go", append([]string{"vet", "-vettool=" + self}, pkgs...)...)
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode(), out.String()
		}
		require.NoError(t, err)
		return 0, out.String()
	}
	vigilVet := func(pkgs ...string) (int, string) {
		code, stdout, stderr := vigil(append([]string{"vet"}, pkgs...)...)
		return code, stdout + stderr
	}
	impure := []string{
		"impure.go:18:78: handler Init calls time.Now: the clock is outside the model",
		"impure.go:21:2: handler Receive ranges over a map and sends inside the loop: map order is random, so the handler is not deterministic; range over slices.Sorted(maps.Keys(s.Peers))",
	}
	cases := []struct {
		name string
		run  func(pkgs ...string) (int, string)
		pkgs []string
		code int
		want []string
	}{
		{"vigil vet, findings", vigilVet, []string{"./impure"}, 1, impure},
		{"go vet -vettool, findings", goVet, []string{"./impure"}, 1, impure},
		{"vigil vet, clean", vigilVet, []string{"./pure"}, 0, nil},
		{"go vet -vettool, clean", goVet, []string{"./pure"}, 0, nil},
		{"vigil vet, type error", vigilVet, []string{"./broken"}, 2, []string{"undefined: undefined", "vigil: vet: go vet could not check ./broken (see above)"}},
		{"vigil vet, no such package", vigilVet, []string{"./nosuch"}, 2, []string{"vigil: vet: go vet could not check ./nosuch (see above)"}},
		{"vigil vet, a flag", vigilVet, []string{"-json", "./pure"}, 2, []string{"vigil: vet takes package patterns, not flags: -json\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := c.run(c.pkgs...)
			require.Equal(t, c.code, code, out)
			for _, w := range c.want {
				require.Contains(t, out, w)
			}
			if c.code == 0 {
				require.Empty(t, out)
			}
		})
	}
	t.Run("vigil vet, no go command", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		code, out := vigilVet("./pure")
		require.Equal(t, 2, code, out)
		require.Equal(t, "vigil: vet runs go vet, and there is no go command on PATH\n", out)
	})
}

func TestIsVetTool(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-json", "-vigilpure", "/tmp/go-build1/b001/vet.cfg"}, true},
		{nil, false},
		{[]string{"vet", "./..."}, false},
		{[]string{"replay", "trace.cfg"}, false},
		{[]string{"-V=full", "x.cfg", "y"}, false},
	} {
		require.Equal(t, c.want, isVetTool(c.args), "%q", c.args)
	}
}
