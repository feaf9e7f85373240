package vet_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/vet"
	"github.com/vigil-check/vigil/internal/tier"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestVetDiagnostics runs the analyzer over the packages of testdata/src,
// whose // want comments give the diagnostics each line must get; a line
// without one must get none.
func TestVetDiagnostics(t *testing.T) {
	t.Parallel()
	pkgs := []string{"./handlers", "./monitors"}
	results := analysistest.Run(t, filepath.Join(analysistest.TestData(), "src"), vet.Analyzer, pkgs...)
	require.Len(t, results, len(pkgs))
}

// TestVetOfVigilsOwnCodeIsClean runs the analyzer over vigil's protocols and
// properties, tests included, which must give no diagnostic, and checks
// that it did look at their handlers, monitors and properties.
func TestVetOfVigilsOwnCodeIsClean(t *testing.T) {
	tier.Long(t, "a type-check of every protocol and property package (CI also runs vigil vet on them)")
	t.Parallel()
	mode := packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps |
		packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: filepath.Join("..", ".."), Tests: true},
		"./protocols/...", "./properties/...")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	graph, err := checker.Analyze([]*analysis.Analyzer{vet.Analyzer}, pkgs, nil)
	require.NoError(t, err)
	checked := map[string][]string{}
	for _, act := range graph.Roots {
		require.NoError(t, act.Err)
		for _, d := range act.Diagnostics {
			t.Errorf("%v: %s", act.Package.Fset.Position(d.Pos), d.Message)
		}
		checked[act.Package.PkgPath] = append(checked[act.Package.PkgPath], act.Result.(vet.Checked)...)
	}
	for pkg, want := range map[string][]string{
		"github.com/vigil-check/vigil/protocols/election/bully": {"handler Receive", "handler Timeout", "handler Recover", "handler becomeLeader"},
		"github.com/vigil-check/vigil/protocols/sync/bfs":       {`monitor "tree" callback observe`, `property "bfs-tree" Check`},
		"github.com/vigil-check/vigil/properties":               {"monitor Observe", "monitor ObserveInPlace"},
	} {
		for _, w := range want {
			require.Contains(t, checked[pkg], w, "%s: %v", pkg, checked[pkg])
		}
	}
}
