package cli

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/internal/handlers"
)

// justified marks a line that no scenario can execute, with the reason:
//
//	// unreachable: the server never asks itself for the token
//
// on the line of the code or the line above it.
const justified = "unreachable:"

// uncovered reads a Go coverage profile (go tool covdata textfmt, or go
// test -coverprofile) of protocol packages run under the scenarios, and
// lists the lines of their handler code (see handlers.Spans) that no scenario
// executed, without the rendering methods (String); -all lists the rest
// too (validation, descriptions, properties), which does not fail. A line
// marked unreachable (see justified) is counted apart. It exits 1 while an
// unjustified line of handler code is left.
func uncovered(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("uncovered", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	only := fs.String("only", "", "report files whose path (in the module) contains this, e.g. protocols/")
	every := fs.Bool("all", false, "list every block not executed, not only the handlers' code")
	if err := parseFlags(fs, args, "vigil uncovered [-only PATH] [-all] PROFILE   (run from the module's root)", stderr); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return badInput("uncovered needs one coverage profile (go tool covdata textfmt -o FILE)")
	}
	module, err := modulePath("go.mod")
	if err != nil {
		return usageError{err}
	}
	blocks, err := handlers.ReadProfile(fs.Arg(0))
	if err != nil {
		return usageError{err}
	}
	// a block is executed if any of its copies in the profile was
	files := map[string]map[[2]int]bool{} // file → its blocks' line ranges → executed
	for _, b := range blocks {
		rel, ok := strings.CutPrefix(b.File, module+"/")
		if !ok || !strings.Contains(rel, *only) || strings.HasSuffix(rel, "_test.go") {
			continue
		}
		if files[rel] == nil {
			files[rel] = map[[2]int]bool{}
		}
		r := [2]int{b.From, b.To}
		files[rel][r] = files[rel][r] || b.Count > 0
	}
	names := slices.Sorted(maps.Keys(files))
	dirs := map[string]bool{}
	for _, name := range names {
		dirs[path.Dir(name)] = true
	}
	spans, err := handlers.Spans(module, slices.Sorted(maps.Keys(dirs)))
	if err != nil {
		return usageError{err}
	}
	inHandler := func(file string, line int) bool {
		return slices.ContainsFunc(spans[file], func(r [2]int) bool { return r[0] <= line && line <= r[1] })
	}
	var open, excused, outside int
	for _, name := range names {
		src, err := readSource(name)
		if err != nil {
			return usageError{err}
		}
		var ranges [][2]int
		for r, ran := range files[name] {
			if !ran {
				ranges = append(ranges, r)
			}
		}
		slices.SortFunc(ranges, func(a, b [2]int) int { return a[0] - b[0] })
		for _, r := range ranges {
			fn := src.funcAt(r[0])
			if fn == "String" || fn == "GoString" {
				continue // rendering, not behaviour
			}
			if src.justified(r[0], r[1]) {
				excused++
				continue
			}
			handler := inHandler(name, r[0])
			if !handler {
				outside++
				if !*every {
					continue
				}
			}
			if handler {
				open++
			}
			mark := ""
			if !handler {
				mark = " [outside the handlers]"
			}
			fmt.Fprintf(stdout, "%s:%d (%s)%s: %s\n", name, r[0], fn, mark, src.line(r[0]))
		}
	}
	fmt.Fprintf(stdout, "%d blocks of handler code not executed in %d files, and %d marked %q; %d blocks outside the handlers not executed%s\n",
		open, len(names), excused, "// "+justified, outside, map[bool]string{false: " (-all lists them)", true: ""}[*every])
	if open > 0 {
		return errFailed
	}
	return nil
}

// modulePath reads the module path from a go.mod.
func modulePath(gomod string) (string, error) {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", fmt.Errorf("run vigil uncovered from the module's root: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`), nil
		}
	}
	return "", fmt.Errorf("%s names no module", gomod)
}

// source is a Go file: its lines and the functions that span them.
type source struct {
	lines []string
	funcs []funcSpan
}

type funcSpan struct {
	name     string
	from, to int
}

func readSource(path string) (*source, error) {
	b, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		return nil, fmt.Errorf("cannot read the source the profile names: %w", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, b, 0)
	if err != nil {
		return nil, err
	}
	s := &source{lines: strings.Split(string(b), "\n")}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			s.funcs = append(s.funcs, funcSpan{fd.Name.Name, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	return s, nil
}

// line is line n, trimmed.
func (s *source) line(n int) string {
	if n < 1 || n > len(s.lines) {
		return ""
	}
	return strings.TrimSpace(s.lines[n-1])
}

// funcAt names the function around line n.
func (s *source) funcAt(n int) string {
	for _, f := range s.funcs {
		if f.from <= n && n <= f.to {
			return f.name
		}
	}
	return "?"
}

// justified reports whether lines from..to, or the line above them, say
// why no scenario reaches them.
func (s *source) justified(from, to int) bool {
	for n := max(1, from-1); n <= to && n <= len(s.lines); n++ {
		if _, after, ok := strings.Cut(s.lines[n-1], "//"); ok && strings.HasPrefix(strings.TrimSpace(after), justified) {
			return true
		}
	}
	return false
}
