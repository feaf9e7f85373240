package mutate

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The catalogue applies to handler code and what it calls, not to other
// functions, String methods or lines marked unreachable; every mutant is
// switched by its number, and the schema still parses.
func TestBuild(t *testing.T) {
	s, err := Build("github.com/vigil-check/vigil/internal/mutate", []string{"testdata/p"})
	require.NoError(t, err)
	var got []string
	for _, m := range s.Mutants {
		got = append(got, m.String())
	}
	require.Equal(t, []string{
		"testdata/p/p.go:11 < → <=: if m < s && s != 0 {",
		"testdata/p/p.go:11 != → ==: if m < s && s != 0 {",
		"testdata/p/p.go:11 && → ||: if m < s && s != 0 {",
		"testdata/p/p.go:12 drop Send: ctx.Send(from, m)",
		"testdata/p/p.go:14 > → >=: if m > 9 {", // the mark is on the line below: the branch may become reachable
		"testdata/p/p.go:22 >= → >: if s >= 3 {",
	}, got)
	src := string(s.Files["testdata/p/p.go"])
	for _, want := range []string{"vigilMutant == 1", "vigilMutant == 2", "vigilMutant == 3", "vigilMutant != 4", "vigilMutant == 5", "vigilMutant == 6"} {
		require.Contains(t, src, want)
	}
	require.NotContains(t, src, "vigilMutant == 7")
	_, err = parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	require.NoError(t, err, src)
	sw := string(s.Files["testdata/p/zz_vigil_mutant.go"])
	require.True(t, strings.HasPrefix(sw, "package p\n"), sw)
	require.Contains(t, sw, `os.Getenv("VIGIL_MUTANT")`)
}
