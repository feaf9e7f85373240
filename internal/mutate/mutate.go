// Package mutate writes one-line mutants of a protocol's handler code as a
// mutant schema: every mutant compiled into one build, each switched on by
// its number in the environment variable VIGIL_MUTANT (0: none), so that a
// mutation check needs one build, not one per mutant. The build takes the
// mutated files as a go build -overlay, leaving the source tree as it is.
//
// The catalogue: a comparison's boundary moved (< and <=, > and >=), an
// equality flipped (== and !=), a conjunction made a disjunction and back
// (&& and ||), and an effect dropped (a call of Send, SendAll, SetTimer,
// SetTimerAfter, CancelTimer or Observe). Only handler code is mutated
// (see handlers.Spans), never String methods or lines marked
// "// unreachable:".
package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/internal/handlers"
)

// Env is the environment variable that selects the mutant a build runs.
const Env = "VIGIL_MUTANT"

// switchVar is the variable each mutated package gets, holding the
// mutant's number.
const switchVar = "vigilMutant"

// Mutant is one mutation.
type Mutant struct {
	ID   int    // its number, from 1
	File string // module-relative path
	Line int
	Op   string // what changed: "< → <=", "drop Send"
	Code string // the line, trimmed
}

func (m Mutant) String() string { return fmt.Sprintf("%s:%d %s: %s", m.File, m.Line, m.Op, m.Code) }

// Schema is the mutants of some packages and the files that hold them.
type Schema struct {
	Mutants []Mutant
	// Files maps each mutated or added file, module-relative, to its
	// content.
	Files map[string][]byte
}

var flips = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS,
	token.GTR: token.GEQ, token.GEQ: token.GTR,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LAND: token.LOR, token.LOR: token.LAND,
}

var effects = map[string]bool{"Send": true, "SendAll": true, "SetTimer": true, "SetTimerAfter": true, "CancelTimer": true, "Observe": true}

// Build writes the schema of the handler code in dirs, module-relative
// directories of the module named module, run from the module's root.
func Build(module string, dirs []string) (*Schema, error) {
	spans, err := handlers.Spans(module, dirs)
	if err != nil {
		return nil, err
	}
	s := &Schema{Files: map[string][]byte{}}
	for _, file := range slices.Sorted(maps.Keys(spans)) {
		if err := s.mutateFile(file, spans[file]); err != nil {
			return nil, err
		}
	}
	for _, dir := range dirs {
		var pkg string
		for f := range s.Files {
			if path.Dir(f) == dir {
				pkg = f
			}
		}
		if pkg == "" {
			continue
		}
		name, err := packageName(pkg)
		if err != nil {
			return nil, err
		}
		s.Files[path.Join(dir, "zz_vigil_mutant.go")] = fmt.Appendf(nil,
			"package %s\n\nimport (\n\t\"os\"\n\t\"strconv\"\n)\n\n// %s is the mutant this build runs (see %s).\nvar %s, _ = strconv.Atoi(os.Getenv(%q))\n",
			name, switchVar, Env, switchVar, Env)
	}
	return s, nil
}

func packageName(file string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.FromSlash(file), nil, parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	return f.Name.Name, nil
}

// mutateFile adds the mutants of file's handler code (the line spans
// given) to s.
func (s *Schema) mutateFile(file string, spans [][2]int) error {
	src, err := os.ReadFile(filepath.FromSlash(file))
	if err != nil {
		return err
	}
	lines := strings.Split(string(src), "\n")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return err
	}
	// a node's line is its operator's or its own start: the children are
	// rewritten first, and a rewritten child has no position
	line := func(n ast.Node) int {
		if b, ok := n.(*ast.BinaryExpr); ok {
			return fset.Position(b.OpPos).Line
		}
		return fset.Position(n.Pos()).Line
	}
	eligible := func(n ast.Node) bool {
		l := line(n)
		if !slices.ContainsFunc(spans, func(r [2]int) bool { return r[0] <= l && l <= r[1] }) {
			return false
		}
		for _, k := range []int{l - 1, l} { // the line, or the one above, says it is unreachable
			if k >= 1 && strings.Contains(lines[k-1], "// unreachable:") {
				return false
			}
		}
		return true
	}
	added := 0
	add := func(n ast.Node, op string) int {
		id := len(s.Mutants) + 1
		s.Mutants = append(s.Mutants, Mutant{ID: id, File: file, Line: line(n), Op: op, Code: strings.TrimSpace(lines[line(n)-1])})
		added++
		return id
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Name.Name == "String" || fd.Name.Name == "GoString" {
			continue
		}
		// Children first, so that a mutant's expression holds the schema
		// of the expressions inside it.
		rewrite(fd.Body, func(n ast.Node) ast.Node {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				to, ok := flips[n.Op]
				if !ok || !eligible(n) {
					return n
				}
				id := add(n, n.Op.String()+" → "+to.String())
				mutated := &ast.BinaryExpr{X: n.X, Op: to, Y: n.Y}
				return pick(id, mutated, n)
			case *ast.ExprStmt:
				call, ok := n.X.(*ast.CallExpr)
				if !ok {
					return n
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !effects[sel.Sel.Name] || !eligible(n) {
					return n
				}
				id := add(n, "drop "+sel.Sel.Name)
				return &ast.IfStmt{Cond: &ast.BinaryExpr{X: ast.NewIdent(switchVar), Op: token.NEQ, Y: intLit(id)},
					Body: &ast.BlockStmt{List: []ast.Stmt{n}}}
			}
			return n
		})
	}
	if added == 0 {
		return nil
	}
	var out bytes.Buffer
	if err := printer.Fprint(&out, fset, f); err != nil {
		return err
	}
	s.Files[file] = out.Bytes()
	return nil
}

// pick is the expression func() bool { if vigilMutant == id { return
// mutated }; return original }(): the mutant's value when it runs, the
// original's otherwise, each evaluated only then.
func pick(id int, mutated, original ast.Expr) ast.Expr {
	boolType := ast.NewIdent("bool")
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: boolType}}}},
		Body: &ast.BlockStmt{List: []ast.Stmt{
			&ast.IfStmt{Cond: &ast.BinaryExpr{X: ast.NewIdent(switchVar), Op: token.EQL, Y: intLit(id)},
				Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{mutated}}}}},
			&ast.ReturnStmt{Results: []ast.Expr{original}},
		}},
	}}
}

func intLit(n int) *ast.BasicLit { return &ast.BasicLit{Kind: token.INT, Value: fmt.Sprint(n)} }
