// Package handlers finds, in a protocol's Go source, the code its handlers
// may run and the code its properties judge runs with, and reads Go's
// coverage profiles: what vigil uncovered reports and the mutation check
// mutates.
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
	return reach(module, dirs, false, func(c code) bool { return c.method && names[c.name] })
}

// monitorMethods are the methods the checker calls on a monitor (see
// model.Monitor and SymmetricMonitor, and properties.NewInPlaceMonitor).
var monitorMethods = map[string]bool{"Start": true, "Observe": true, "ObserveInPlace": true, "RenameNodes": true}

// PropertySpans finds, in the packages of dirs, the code that judges a
// run: each top-level declaration that builds a property (a Property
// literal) or a monitor (a call of a New…Monitor function), the monitor
// methods, and every function or method they name, transitively, within
// those packages; String, GoString and Name methods, which only render,
// are left out. It returns, per file, the line spans of that code.
func PropertySpans(module string, dirs []string) (map[string][][2]int, error) {
	return reach(module, dirs, true, func(c code) bool { return c.method && monitorMethods[c.name] || buildsJudge(c.node) })
}

// buildsJudge reports whether n holds a Property composite literal or a
// call of a function named New…Monitor.
func buildsJudge(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			found = found || typeName(n.Type) == "Property"
		case *ast.CallExpr:
			name := typeName(n.Fun)
			found = found || strings.HasPrefix(name, "New") && strings.HasSuffix(name, "Monitor")
		}
		return !found
	})
	return found
}

// typeName is the name an identifier or a package-qualified identifier
// ends with, or "".
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr: // a generic function instantiated
		return typeName(e.X)
	}
	return ""
}

// code is a top-level function, method or variable declaration of a
// package, a node of the call graph reach walks.
type code struct {
	file     string
	from, to int
	node     ast.Node // the *ast.FuncDecl, or the *ast.ValueSpec of a variable
	name     string
	method   bool
	imports  map[string]string // local name → module-relative directory
	imported map[string]bool   // the module-relative directories imported
	dir      string
	reached  bool
}

// reach finds, in the packages of dirs, the code isRoot selects and every
// function or method it names, transitively, within those packages, and
// returns, per file, the line spans of that code. It works on syntax
// alone, so it over-approximates: a method call x.M(...) counts as a call
// of every method named M, in any of the packages, since a call through an
// interface may reach any of them. Rendering methods (String, GoString,
// Name) are never reached.
//
// For judges (property code), top-level variables count as code too (a
// property is one), and a method call reaches only the methods of the
// caller's package and of those it imports: a property reads the protocol
// it belongs to, not every protocol that happens to name a method alike.
func reach(module string, dirs []string, judges bool, isRoot func(code) bool) (map[string][][2]int, error) {
	funcs := map[string]map[string]*code{} // dir → name → top-level function or variable
	methods := map[string][]*code{}        // name → methods of that name, in any dir
	var all []*code
	fset := token.NewFileSet()
	for _, dir := range dirs {
		entries, err := os.ReadDir(filepath.FromSlash(dir))
		if err != nil {
			return nil, err
		}
		funcs[dir] = map[string]*code{}
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
			imports, imported := map[string]string{}, map[string]bool{}
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
				imports[local], imported[rel] = rel, true
			}
			add := func(n ast.Node, name string, method bool) {
				c := &code{file: file, from: fset.Position(n.Pos()).Line, to: fset.Position(n.End()).Line,
					node: n, name: name, method: method, imports: imports, imported: imported, dir: dir}
				all = append(all, c)
				if method {
					methods[name] = append(methods[name], c)
				} else {
					funcs[dir][name] = c
				}
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Body != nil {
						add(d, d.Name.Name, d.Recv != nil)
					}
				case *ast.GenDecl:
					if !judges || d.Tok != token.VAR {
						continue
					}
					for _, s := range d.Specs {
						vs := s.(*ast.ValueSpec)
						if len(vs.Values) > 0 {
							add(vs, vs.Names[0].Name, false)
						}
					}
				}
			}
		}
	}
	var queue []*code
	visit := func(c *code) {
		if c != nil && !c.reached && !(c.method && rendering[c.name]) {
			c.reached = true
			queue = append(queue, c)
		}
	}
	for _, c := range all {
		if isRoot(*c) {
			visit(c)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		var names func(n ast.Node) bool
		names = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok {
					if dir, ok := c.imports[id.Name]; ok {
						if fs := funcs[dir]; fs != nil {
							visit(fs[n.Sel.Name])
						}
						return false
					}
				}
				for _, m := range methods[n.Sel.Name] {
					if !judges || m.dir == c.dir || c.imported[m.dir] {
						visit(m)
					}
				}
				ast.Inspect(n.X, names)
				return false
			case *ast.Ident:
				visit(funcs[c.dir][n.Name])
			}
			return true
		}
		body := c.node
		if fd, ok := body.(*ast.FuncDecl); ok {
			body = fd.Body
		}
		ast.Inspect(body, names)
	}
	out := map[string][][2]int{}
	for _, c := range all {
		if c.reached {
			out[c.file] = append(out[c.file], [2]int{c.from, c.to})
		}
	}
	return out, nil
}

// rendering are the methods that only describe a value, never judge or
// change it.
var rendering = map[string]bool{"String": true, "GoString": true, "Name": true}
