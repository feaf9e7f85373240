package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/vigil-check/vigil/checker/vet"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// errFindings: vet found nondeterminism in handler or monitor code (exit
// 1), which go vet has printed.
var errFindings = errors.New("vet found nondeterminism")

// findingsEnv names the directory in which this binary, run by go vet for
// vigil vet, leaves a file when it reports a finding: go vet exits 1 both
// for findings and for packages it cannot load, which vigil vet tells
// apart by it.
const findingsEnv = "VIGIL_VET_FINDINGS"

const vetUsage = `usage: vigil vet [PACKAGES]

Checks the handler and monitor code of PACKAGES (default ./...) for what
would make the checker's answers wrong: map iteration order reaching a
handler's effects or result, the clock, randomness, os, sync, goroutines
and channels. It runs go vet with this binary as its vet tool:
go vet -vettool=$(which vigil) PACKAGES does the same.
Exit codes: 0 clean, 1 findings, 2 packages that cannot be loaded.
`

// vetCmd is vigil vet: go vet over pkgs with this binary as the vet tool,
// its output streamed to stdout and stderr.
func vetCmd(pkgs []string, stdout, stderr io.Writer) error {
	for _, p := range pkgs {
		switch {
		case p == "-h" || p == "-help" || p == "--help":
			fmt.Fprint(stdout, vetUsage)
			return nil
		case strings.HasPrefix(p, "-"):
			return badInput("vet takes package patterns, not flags: %s", p)
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return badInput("vet runs go vet, and there is no go command on PATH")
	}
	self, err := os.Executable()
	if err != nil {
		return badInput("vet cannot find its own binary for go vet's -vettool: %v", err)
	}
	marks, err := os.MkdirTemp("", "vigil-vet-")
	if err != nil {
		return badInput("vet: %v", err)
	}
	defer os.RemoveAll(marks)
	cmd := exec.Command(goCmd, append([]string{"vet", "-vettool=" + self}, pkgs...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = append(os.Environ(), findingsEnv+"="+marks)
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &exit):
		return badInput("vet: go vet: %v", err)
	}
	if found, _ := filepath.Glob(filepath.Join(marks, "*")); len(found) > 0 {
		return errFindings
	}
	return badInput("vet: go vet could not check %s (see above)", strings.Join(pkgs, " "))
}

// isVetTool reports whether args are go vet's, running this binary as its
// -vettool: -V=full or -flags, which ask what the tool is, or flags and
// the .cfg file of one package to check.
func isVetTool(args []string) bool {
	switch {
	case len(args) == 1 && (args[0] == "-V=full" || args[0] == "-flags"):
		return true
	case len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg"):
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// runVetTool answers go vet, whose tool this binary is: unitchecker
// implements the protocol and exits the process when done.
func runVetTool(args []string) {
	os.Args = append([]string{os.Args[0]}, args...)
	unitchecker.Main(vetAnalyzer())
}

// vetAnalyzer is vet.Analyzer, which under vigil vet also leaves a mark
// in findingsEnv's directory for each finding.
func vetAnalyzer() *analysis.Analyzer {
	marks := os.Getenv(findingsEnv)
	if marks == "" {
		return vet.Analyzer
	}
	a := *vet.Analyzer
	a.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if f, err := os.CreateTemp(marks, "finding-"); err == nil {
				f.Close()
			} else {
				fmt.Fprintf(os.Stderr, "vigil vet: %v\n", err)
			}
			report(d)
		}
		return vet.Analyzer.Run(pass)
	}
	return &a
}
