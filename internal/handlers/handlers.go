// Package handlers finds, in a protocol's Go source, the code its handlers
// may run, and reads Go's coverage profiles of it: what vigil uncovered
// reports and the mutation check mutates.
package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// names are the methods the checker calls on a protocol (see
// model.Protocol, Timed, Recoverer and Actor): the roots of its handler
// code.
var names = map[string]bool{"Init": true, "Receive": true, "Timeout": true, "Recover": true, "Do": true, "Actions": true}

// Spans finds, in the packages of the module-relative directories
// dirs, the functions a handler may run: the handler methods and every
// function or method they name, transitively, within those packages. It
// works on syntax alone, so it over-approximates: a method call x.M(...)
// counts as a call of every method named M. It returns, per file, the line
// spans of those functions.
func Spans(module string, dirs []string) (map[string][][2]int, error) {
	type fn struct {
		file     string
		from, to int
		decl     *ast.FuncDecl
		imports  map[string]string // local name → module-relative directory
		dir      string
		reached  bool
		isMethod bool
	}
	funcs := map[string]map[string]*fn{} // dir → name → top-level function
	methods := map[string][]*fn{}        // name → methods of that name, in any dir
	var all []*fn
	fset := token.NewFileSet()
	for _, dir := range dirs {
		entries, err := os.ReadDir(filepath.FromSlash(dir))
		if err != nil {
			return nil, err
		}
		funcs[dir] = map[string]*fn{}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			file := path.Join(dir, name)
			f, err := parser.ParseFile(fset, filepath.FromSlash(file), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			imports := map[string]string{}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				rel, ok := strings.CutPrefix(p, module+"/")
				if !ok {
					continue
				}
				local := path.Base(p)
				if im.Name != nil {
					local = im.Name.Name
				}
				imports[local] = rel
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				x := &fn{file: file, from: fset.Position(fd.Pos()).Line, to: fset.Position(fd.End()).Line,
					decl: fd, imports: imports, dir: dir, isMethod: fd.Recv != nil}
				all = append(all, x)
				if x.isMethod {
					methods[fd.Name.Name] = append(methods[fd.Name.Name], x)
				} else {
					funcs[dir][fd.Name.Name] = x
				}
			}
		}
	}
	var queue []*fn
	reach := func(x *fn) {
		if x != nil && !x.reached {
			x.reached = true
			queue = append(queue, x)
		}
	}
	for _, x := range all {
		if x.isMethod && names[x.decl.Name.Name] {
			reach(x)
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok {
					if dir, ok := x.imports[id.Name]; ok {
						if fs := funcs[dir]; fs != nil {
							reach(fs[n.Sel.Name])
						}
						return false
					}
				}
				for _, m := range methods[n.Sel.Name] {
					reach(m)
				}
				ast.Inspect(n.X, visit)
				return false
			case *ast.Ident:
				reach(funcs[x.dir][n.Name])
			}
			return true
		}
		ast.Inspect(x.decl.Body, visit)
	}
	out := map[string][][2]int{}
	for _, x := range all {
		if x.reached {
			out[x.file] = append(out[x.file], [2]int{x.from, x.to})
		}
	}
	return out, nil
}
