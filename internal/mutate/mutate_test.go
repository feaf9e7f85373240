package mutate

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The handler catalogue applies to handler code and what it calls, the
// property catalogue to property code and what it calls, neither to other
// functions, String methods or lines marked unreachable; every mutant is
// switched by its number, and the schema still parses.
func TestBuild(t *testing.T) {
	dirs := []string{"testdata/p"}
	s, err := Build("github.com/vigil-check/vigil/internal/mutate", dirs, dirs)
	require.NoError(t, err)
	var got []string
	for _, m := range s.Mutants {
		got = append(got, m.Kind.String()+" "+m.String())
	}
	require.Equal(t, []string{
		"property testdata/p/judge.go:11 0 → 0+1: for i := 0; i < v.N(); i++ {",
		"property testdata/p/judge.go:11 0 → 0-1: for i := 0; i < v.N(); i++ {",
		"property testdata/p/judge.go:11 < → <=: for i := 0; i < v.N(); i++ {",
		"property testdata/p/judge.go:12 index +1: seen[i] = v.Alive(model.NodeID(i))",
		"property testdata/p/judge.go:13 slice low +1: count(seen[1:v.N()])",
		"property testdata/p/judge.go:13 slice high -1: count(seen[1:v.N()])",
		// a block's statements are dropped after what is inside them
		"property testdata/p/judge.go:12 drop assignment: seen[i] = v.Alive(model.NodeID(i))",
		"property testdata/p/judge.go:13 drop call: count(seen[1:v.N()])",
		"property testdata/p/judge.go:11 drop loop body: for i := 0; i < v.N(); i++ {",
		"property testdata/p/judge.go:15 2 → 2+1: if len(seen) > 2 && seen[0] {",
		"property testdata/p/judge.go:15 2 → 2-1: if len(seen) > 2 && seen[0] {",
		"property testdata/p/judge.go:15 > → >=: if len(seen) > 2 && seen[0] {",
		"property testdata/p/judge.go:15 index +1: if len(seen) > 2 && seen[0] {",
		"property testdata/p/judge.go:15 && → ||: if len(seen) > 2 && seen[0] {",
		"property testdata/p/judge.go:15 drop if: if len(seen) > 2 && seen[0] {",
		"property testdata/p/judge.go:22 0 → 0+1: n := 0",
		"property testdata/p/judge.go:22 0 → 0-1: n := 0",
		"property testdata/p/judge.go:25 drop ++: n++",
		"property testdata/p/judge.go:24 drop if: if b {", // a one-statement loop body: dropping it is the statement's mutant
		"property testdata/p/judge.go:28 1 → 1+1: return n + int(mask(s)&1)",
		"property testdata/p/judge.go:28 1 → 1-1: return n + int(mask(s)&1)",
		"property testdata/p/judge.go:36 2 → 2+1: bits |= 2 << i", // a uint64
		"property testdata/p/judge.go:36 2 → 2-1: bits |= 2 << i",
		"property testdata/p/judge.go:36 drop assignment: bits |= 2 << i",
		"property testdata/p/judge.go:35 drop if: if b {",
		"handler testdata/p/p.go:11 < → <=: if m < s && s != 0 {",
		"handler testdata/p/p.go:11 != → ==: if m < s && s != 0 {",
		"handler testdata/p/p.go:11 && → ||: if m < s && s != 0 {",
		"handler testdata/p/p.go:12 drop Send: ctx.Send(from, m)",
		"handler testdata/p/p.go:14 > → >=: if m > 9 {", // the mark is on the line below: the branch may become reachable
		"handler testdata/p/p.go:22 >= → >: if s >= 3 {",
	}, got)
	for _, file := range []string{"testdata/p/p.go", "testdata/p/judge.go"} {
		src := string(s.Files[file])
		_, err = parser.ParseFile(token.NewFileSet(), file, src, 0)
		require.NoError(t, err, src)
	}
	src := string(s.Files["testdata/p/p.go"]) + string(s.Files["testdata/p/judge.go"])
	for _, m := range s.Mutants {
		if !strings.Contains(src, fmt.Sprintf("vigilMutant == %d", m.ID)) {
			require.Contains(t, src, fmt.Sprintf("vigilMutant != %d", m.ID))
		}
	}
	require.NotContains(t, src, fmt.Sprintf("vigilMutant == %d", len(s.Mutants)+1))
	sw := string(s.Files["testdata/p/zz_vigil_mutant.go"])
	require.True(t, strings.HasPrefix(sw, "package p\n"), sw)
	require.Contains(t, sw, `os.Getenv("VIGIL_MUTANT")`)

	// and it compiles, with each mutant's types as the code needs them
	overlay := map[string]map[string]string{"Replace": {}}
	tmp := t.TempDir()
	for file, content := range s.Files {
		dst := filepath.Join(tmp, filepath.Base(file))
		require.NoError(t, os.WriteFile(dst, content, 0o644))
		abs, err := filepath.Abs(file)
		require.NoError(t, err)
		overlay["Replace"][abs] = dst
	}
	ov, err := json.Marshal(overlay)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "overlay.json"), ov, 0o644))
	out, err := exec.Command("go", "vet", "-overlay", filepath.Join(tmp, "overlay.json"), "./testdata/p").CombinedOutput()
	require.NoError(t, err, "%s", out)
}
