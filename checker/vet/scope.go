package vet

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// unit is one body of code that vigil runs as a handler, a monitor, a
// property's check or a symmetry, or that one of those calls.
type unit struct {
	body *ast.BlockStmt
	// who names the code in a diagnostic: "handler Receive", or
	// "broadcast (called by handler Receive)".
	who string
	// what is the kind of code whose answers the nondeterminism breaks:
	// "handler", "monitor", "property" or "symmetry".
	what string
}

// scope finds a package's handler and monitor code.
type scope struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	// methods: the methods of model's monitor and symmetry interfaces,
	// which a method of the same name and signature implements
	methods []ifaceMethod
	// trusted: the functions whose doc comment vouches, with a line
	// //vigil:pure, that they are pure functions of their arguments
	// (a cache of one, say): neither they nor what they call are checked
	trusted map[*ast.BlockStmt]bool
	// effectful: the package's functions that, directly or through the
	// package's other functions, send, arm or cancel a timer, or observe
	effectful map[*types.Func]bool
}

type ifaceMethod struct {
	name, what string
	sig        *types.Signature
}

func newScope(pass *analysis.Pass) *scope {
	s := &scope{pass: pass, decls: map[*types.Func]*ast.FuncDecl{}, trusted: map[*ast.BlockStmt]bool{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					s.decls[fn] = fd
				}
				s.trusted[fd.Body] = vouchedPure(fd.Doc)
			}
		}
	}
	if m := modelPackage(pass.Pkg); m != nil {
		s.methods = interfaceMethods(m)
	}
	s.effectful = s.findEffectful()
	return s
}

// pureDirective, a line of its own in a function's doc comment, vouches
// that the function is a pure function of its arguments, whatever it
// does inside: a cache of one, in memory shared between calls, that
// gives the same answers as computing them afresh.
const pureDirective = "//vigil:pure"

func vouchedPure(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == pureDirective || strings.HasPrefix(c.Text, pureDirective+" ") {
			return true
		}
	}
	return false
}

// modelPackage is vigil's model package as pkg sees it, or nil when pkg
// does not import it (and so has no handler code).
func modelPackage(pkg *types.Package) *types.Package {
	if pkg.Path() == modelPath {
		return pkg
	}
	for _, p := range pkg.Imports() {
		if p.Path() == modelPath {
			return p
		}
	}
	return nil
}

// interfaceMethods lists the methods of model's interfaces for monitors
// and symmetry that vigil calls as it explores: Name is left out, as it
// is read once. A random walk also calls ObserveInPlace, Observe's twin,
// on a monitor that has it (see properties.NewInPlaceMonitor), though no
// interface of model names it.
func interfaceMethods(m *types.Package) []ifaceMethod {
	var out []ifaceMethod
	for _, def := range []struct{ iface, what string }{
		{"Monitor", "monitor"}, {"SymmetricMonitor", "monitor"},
		{"Symmetric", "symmetry"}, {"Renamer", "symmetry"},
	} {
		obj := m.Scope().Lookup(def.iface)
		if obj == nil {
			continue
		}
		it, ok := obj.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for fn := range it.Methods() {
			if fn.Name() != "Name" {
				out = append(out, ifaceMethod{fn.Name(), def.what, fn.Signature()})
			}
			if def.iface == "Monitor" && fn.Name() == "Observe" {
				out = append(out, ifaceMethod{"ObserveInPlace", def.what, fn.Signature()})
			}
		}
	}
	return out
}

// units returns the package's handler and monitor code: the roots, then
// the package's functions they use, each once, named after the first root
// that reaches it.
func (s *scope) units() []unit {
	queue := s.roots()
	seen := map[*ast.BlockStmt]bool{}
	var out []unit
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if seen[u.body] || s.trusted[u.body] {
			continue
		}
		seen[u.body] = true
		out = append(out, u)
		ast.Inspect(u.body, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			fn, ok := s.pass.TypesInfo.Uses[id].(*types.Func)
			if !ok {
				return true
			}
			if fd := s.decls[fn.Origin()]; fd != nil && !seen[fd.Body] {
				queue = append(queue, unit{fd.Body, fd.Name.Name + " (called by " + rootOf(u.who) + ")", u.what})
			}
			return true
		})
	}
	return out
}

// rootOf is the root named in who: "handler Receive" for "broadcast
// (called by handler Receive)".
func rootOf(who string) string {
	const by = " (called by "
	for i := 0; i+len(by) <= len(who); i++ {
		if who[i:i+len(by)] == by {
			return who[i+len(by) : len(who)-1]
		}
	}
	return who
}

// roots returns the package's handlers, monitor and symmetry methods,
// and the callbacks it gives to properties' constructors, in source order.
func (s *scope) roots() []unit {
	var out []unit
	for _, f := range s.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if u, ok := s.declRoot(fd); ok {
					out = append(out, u)
				}
			}
		}
	}
	for _, f := range s.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				if s.takesContext(s.pass.TypesInfo.TypeOf(n)) {
					out = append(out, unit{n.Body, "handler (func literal)", "handler"})
				}
			case *ast.CallExpr:
				out = append(out, s.constructorCallbacks(n)...)
			case *ast.CompositeLit:
				out = append(out, s.propertyCallbacks(n)...)
			}
			return true
		})
	}
	return out
}

// declRoot reports whether fd is a handler (it takes a *model.Ctx or a
// *model.Env) or a method of a monitor or symmetry interface.
func (s *scope) declRoot(fd *ast.FuncDecl) (unit, bool) {
	fn, ok := s.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return unit{}, false
	}
	if s.takesContext(fn.Type()) {
		return unit{fd.Body, "handler " + fd.Name.Name, "handler"}, true
	}
	if fd.Recv == nil {
		return unit{}, false
	}
	for _, m := range s.methods {
		if m.name == fn.Name() && types.Identical(fn.Signature(), m.sig) {
			return unit{fd.Body, m.what + " " + fd.Name.Name, m.what}, true
		}
	}
	return unit{}, false
}

// takesContext reports whether t is a function type with a *model.Ctx
// or *model.Env parameter.
func (s *scope) takesContext(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok {
		return false
	}
	for p := range sig.Params().Variables() {
		if isModelPointer(p.Type(), "Ctx") || isModelPointer(p.Type(), "Env") {
			return true
		}
	}
	return false
}

// isModelPointer reports whether t is *model.NAME (of any type argument).
func isModelPointer(t types.Type, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && isModelObj(n.Obj(), name)
}

func isModelObj(obj types.Object, name string) bool {
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == modelPath && obj.Name() == name
}

// constructors are properties' functions whose function arguments vigil
// calls as it explores, and what they build.
var constructors = map[string]string{
	"NewMonitor": "monitor", "NewSymmetricMonitor": "monitor", "NewInPlaceMonitor": "monitor",
	"Invariant": "property", "Quiescent": "property",
}

// constructorCallbacks returns the function arguments of call, when it
// calls one of properties' constructors: properties.NewMonitor("tree",
// start, observe) gives `monitor "tree" callback start` and `... observe`.
func (s *scope) constructorCallbacks(call *ast.CallExpr) []unit {
	fn, ok := typeutil.Callee(s.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != propertiesPath || constructors[fn.Name()] == "" {
		return nil
	}
	what := constructors[fn.Name()]
	label := what + nameArg(s.pass.TypesInfo, call.Args)
	params := fn.Signature().Params()
	var out []unit
	for i, arg := range call.Args {
		if i >= params.Len() {
			break
		}
		if body := s.funcBody(arg); body != nil {
			out = append(out, unit{body, label + " callback " + params.At(i).Name(), what})
		}
	}
	return out
}

// nameArg is ` "NAME"` when a constructor's first argument is a constant
// string, as a monitor's or a property's name is.
func nameArg(info *types.Info, args []ast.Expr) string {
	if len(args) == 0 {
		return ""
	}
	if tv, ok := info.Types[args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return " " + strconv.Quote(constant.StringVal(tv.Value))
	}
	return ""
}

// propertyCallbacks returns the Check and Pending functions of a
// properties.Property literal.
func (s *scope) propertyCallbacks(lit *ast.CompositeLit) []unit {
	n, ok := s.pass.TypesInfo.TypeOf(lit).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != propertiesPath || n.Obj().Name() != "Property" {
		return nil
	}
	label := "property"
	var out []unit
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Name" {
			label += nameArg(s.pass.TypesInfo, []ast.Expr{kv.Value})
		}
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok || key.Name != "Check" && key.Name != "Pending" {
			continue
		}
		if body := s.funcBody(kv.Value); body != nil {
			out = append(out, unit{body, label + " " + key.Name, "property"})
		}
	}
	return out
}

// funcBody is the body of the function e denotes, when it is a function
// literal or a function of this package.
func (s *scope) funcBody(e ast.Expr) *ast.BlockStmt {
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return e.Body
	case *ast.Ident:
		return s.declBody(s.pass.TypesInfo.Uses[e])
	case *ast.SelectorExpr:
		return s.declBody(s.pass.TypesInfo.Uses[e.Sel])
	case *ast.IndexExpr: // an instantiated generic function
		return s.funcBody(e.X)
	}
	return nil
}

func (s *scope) declBody(obj types.Object) *ast.BlockStmt {
	if fn, ok := obj.(*types.Func); ok {
		if fd := s.decls[fn.Origin()]; fd != nil {
			return fd.Body
		}
	}
	return nil
}
