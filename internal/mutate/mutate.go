// Package mutate writes one-line mutants of a protocol's handler code, and
// of the code of its properties, as a mutant schema: every mutant compiled
// into one build, each switched on by its number in the environment
// variable VIGIL_MUTANT (0: none), so that a mutation check needs one
// build, not one per mutant. The build takes the mutated files as a go
// build -overlay, leaving the source tree as it is.
//
// The catalogue of handler code (see handlers.Spans): a comparison's
// boundary moved (< and <=, > and >=), an equality flipped (== and !=), a
// conjunction made a disjunction and back (&& and ||), and an effect dropped
// (a call of Send, SendAll, SetTimer, SetTimerAfter, CancelTimer or
// Observe).
//
// Property code (see handlers.PropertySpans), the judges of every verdict,
// gets those operators and more: an integer constant off by one either way,
// an index moved on by one, a slice's low bound raised or its high bound
// lowered by one, a statement dropped (a call, an assignment, an increment,
// an if, a break or continue), and a counting or range loop's body
// dropped.
//
// Only the code of those spans is mutated, never String methods or lines
// marked "// unreachable:".
package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/vigil-check/vigil/internal/handlers"
)

// Env is the environment variable that selects the mutant a build runs.
const Env = "VIGIL_MUTANT"

// switchVar is the variable each mutated package gets, holding the
// mutant's number.
const switchVar = "vigilMutant"

// Kind says which code a mutant changes.
type Kind uint8

const (
	// Handler code: what a protocol's handlers run.
	Handler Kind = iota
	// Property code: what a property or monitor runs to judge a run.
	Property
)

func (k Kind) String() string {
	if k == Property {
		return "property"
	}
	return "handler"
}

// Mutant is one mutation.
type Mutant struct {
	ID   int // its number, from 1
	Kind Kind
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

// Build writes the schema of the handler code in handlerDirs and of the
// property code in propertyDirs: module-relative directories of the module
// named module, run from the module's root. A line of both is handler
// code.
func Build(module string, handlerDirs, propertyDirs []string) (*Schema, error) {
	spans := map[Kind]map[string][][2]int{}
	var err error
	if spans[Handler], err = handlers.Spans(module, handlerDirs); err != nil {
		return nil, err
	}
	if spans[Property], err = handlers.PropertySpans(module, propertyDirs); err != nil {
		return nil, err
	}
	files := map[string]bool{}
	for _, k := range []Kind{Handler, Property} {
		for f := range spans[k] {
			files[f] = true
		}
	}
	sources, err := load(slices.Sorted(maps.Keys(files)))
	if err != nil {
		return nil, err
	}
	s := &Schema{Files: map[string][]byte{}}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		if err := s.mutateFile(sources[file], spans[Handler][file], spans[Property][file]); err != nil {
			return nil, err
		}
	}
	dirs := map[string]bool{}
	for f := range s.Files {
		dirs[path.Dir(f)] = true
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		var name string
		for f, src := range sources {
			if path.Dir(f) == dir {
				name = src.file.Name.Name
			}
		}
		s.Files[path.Join(dir, "zz_vigil_mutant.go")] = fmt.Appendf(nil,
			"package %s\n\nimport (\n\t\"os\"\n\t\"strconv\"\n)\n\n// %s is the mutant this build runs (see %s).\nvar %s, _ = strconv.Atoi(os.Getenv(%q))\n",
			name, switchVar, Env, switchVar, Env)
	}
	return s, nil
}

// source is a file parsed and type-checked.
type source struct {
	path  string // module-relative
	fset  *token.FileSet
	file  *ast.File
	info  *types.Info
	pkg   *types.Package
	lines []string
}

// load parses and type-checks the packages of files (module-relative),
// and returns each file's syntax.
func load(files []string) (map[string]*source, error) {
	dirs := map[string]bool{}
	for _, f := range files {
		dirs["./"+path.Dir(f)] = true
	}
	if len(dirs) == 0 {
		return nil, nil
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, slices.Sorted(maps.Keys(dirs))...)
	if err != nil {
		return nil, err
	}
	want := map[string]string{} // absolute path → module-relative
	for _, f := range files {
		abs, err := filepath.Abs(filepath.FromSlash(f))
		if err != nil {
			return nil, err
		}
		want[abs] = f
	}
	out := map[string]*source{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		for i, f := range p.Syntax {
			rel, ok := want[p.CompiledGoFiles[i]]
			if !ok {
				continue
			}
			content, err := os.ReadFile(p.CompiledGoFiles[i])
			if err != nil {
				return nil, err
			}
			out[rel] = &source{path: rel, fset: p.Fset, file: f, info: p.TypesInfo, pkg: p.Types, lines: strings.Split(string(content), "\n")}
		}
	}
	for _, f := range files {
		if out[f] == nil {
			return nil, fmt.Errorf("mutate: %s is in no package loaded", f)
		}
	}
	return out, nil
}

// mutateFile adds the mutants of src's handler and property code (the
// line spans given) to s.
func (s *Schema) mutateFile(src *source, handlerSpans, propertySpans [][2]int) error {
	m := &mutator{schema: s, src: src, spans: map[Kind][][2]int{Handler: handlerSpans, Property: propertySpans},
		inConstant: fixedLiterals(src.file, src.info)}
	for _, d := range src.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body == nil || d.Name.Name == "String" || d.Name.Name == "GoString" {
				continue
			}
			// Children first, so that a mutant's expression holds the
			// schema of the expressions inside it.
			rewrite(d.Body, m.mutate)
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for i := range vs.Values {
					vs.Values[i] = rewrite(vs.Values[i], m.mutate).(ast.Expr)
				}
			}
		}
	}
	if m.added == 0 {
		return nil
	}
	var out bytes.Buffer
	if err := printer.Fprint(&out, src.fset, src.file); err != nil {
		return err
	}
	s.Files[src.path] = out.Bytes()
	return nil
}

// mutator writes the mutants of one file.
type mutator struct {
	schema *Schema
	src    *source
	spans  map[Kind][][2]int
	added  int
	// inConstant holds the integer literals off-by-one leaves alone (see
	// fixedLiterals).
	inConstant map[*ast.BasicLit]bool
}

// fixedLiterals finds the integer literals of f whose value must stay a
// constant, or that another operator moves: those within a constant
// expression, a declaration's value (a constant's, maybe), an array's
// length or an array literal's key, and an index or slice bound ("index
// +1" and the slice operators move those).
func fixedLiterals(f *ast.File, info *types.Info) map[*ast.BasicLit]bool {
	fixed := map[*ast.BasicLit]bool{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.INT && len(stack) > 0 {
			switch p := stack[len(stack)-1].(type) {
			case *ast.ArrayType, *ast.SliceExpr, *ast.ValueSpec:
				fixed[lit] = true
			case *ast.KeyValueExpr:
				fixed[lit] = fixed[lit] || p.Key == lit
			case *ast.IndexExpr:
				fixed[lit] = fixed[lit] || p.Index == lit
			case ast.Expr:
				if tv, ok := info.Types[p]; ok && tv.Value != nil {
					fixed[lit] = true
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	return fixed
}

// line is a node's line: its operator's or its own start. The children
// are rewritten first, and a rewritten child has no position.
func (m *mutator) line(n ast.Node) int {
	if b, ok := n.(*ast.BinaryExpr); ok {
		return m.src.fset.Position(b.OpPos).Line
	}
	return m.src.fset.Position(n.Pos()).Line
}

// kind says which code n's line is, if any may be mutated: handler code
// first, then property code, never a line marked unreachable (or one
// below the mark).
func (m *mutator) kind(n ast.Node) (Kind, bool) {
	l := m.line(n)
	if l == 0 {
		return 0, false // a node a mutant wrote
	}
	for _, k := range []int{l - 1, l} {
		if k >= 1 && strings.Contains(m.src.lines[k-1], "// unreachable:") {
			return 0, false
		}
	}
	for _, k := range []Kind{Handler, Property} {
		if slices.ContainsFunc(m.spans[k], func(r [2]int) bool { return r[0] <= l && l <= r[1] }) {
			return k, true
		}
	}
	return 0, false
}

func (m *mutator) add(n ast.Node, k Kind, op string) int {
	id := len(m.schema.Mutants) + 1
	l := m.line(n)
	m.schema.Mutants = append(m.schema.Mutants, Mutant{ID: id, Kind: k, File: m.src.path, Line: l, Op: op, Code: strings.TrimSpace(m.src.lines[l-1])})
	m.added++
	return id
}

// mutate is the rewrite of one node: n, or the schema of its mutants.
func (m *mutator) mutate(n ast.Node) ast.Node {
	k, ok := m.kind(n)
	if !ok {
		return n
	}
	switch n := n.(type) {
	case *ast.BinaryExpr:
		to, ok := flips[n.Op]
		if !ok {
			return n
		}
		id := m.add(n, k, n.Op.String()+" → "+to.String())
		return pick(id, &ast.BinaryExpr{X: n.X, Op: to, Y: n.Y}, n, ast.NewIdent("bool"))
	case *ast.ExprStmt:
		call, ok := n.X.(*ast.CallExpr)
		if !ok || k != Handler {
			return n
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !effects[sel.Sel.Name] {
			return n
		}
		return unless(m.add(n, k, "drop "+sel.Sel.Name), n)
	}
	if k == Property {
		return m.mutateProperty(n)
	}
	return n
}

// mutateProperty adds the operators of property code alone.
func (m *mutator) mutateProperty(n ast.Node) ast.Node {
	switch n := n.(type) {
	case *ast.BasicLit:
		return m.offByOne(n)
	case *ast.IndexExpr:
		if t := m.typeOf(n.X); t != nil && indexable(t) {
			n.Index = m.shift(n.Index, n, "index +1", token.ADD)
		}
	case *ast.SliceExpr:
		if n.Low != nil {
			n.Low = m.shift(n.Low, n, "slice low +1", token.ADD)
		}
		if n.High != nil {
			n.High = m.shift(n.High, n, "slice high -1", token.SUB)
		}
	case *ast.BlockStmt:
		n.List = m.dropStatements(n.List)
	case *ast.CaseClause:
		n.Body = m.dropStatements(n.Body)
	case *ast.RangeStmt:
		m.dropBody(n.Body)
	case *ast.ForStmt:
		if n.Post != nil { // a counting loop: without its body it still ends
			m.dropBody(n.Body)
		}
	}
	return n
}

// offByOne mutates an integer constant into one more and one less, where
// its value may be other than a constant: not an index (which "index +1"
// moves) or part of a larger constant expression.
func (m *mutator) offByOne(lit *ast.BasicLit) ast.Node {
	if lit.Kind != token.INT || m.inConstant[lit] {
		return lit
	}
	t := m.typeOf(lit)
	typ, ok := m.typeExpr(t)
	if !ok {
		return lit
	}
	var out ast.Expr = lit
	for _, op := range []token.Token{token.ADD, token.SUB} {
		if op == token.SUB && lit.Value == "0" && isUnsigned(t) {
			continue
		}
		id := m.add(lit, Property, fmt.Sprintf("%s → %s%s1", lit.Value, lit.Value, op))
		out = pick(id, &ast.BinaryExpr{X: lit, Op: op, Y: intLit(1)}, out, typ)
	}
	return out
}

// shift is e moved by one (op: + or -) when its mutant runs, within node
// n: an index or a slice bound.
func (m *mutator) shift(e ast.Expr, n ast.Node, op string, tok token.Token) ast.Expr {
	typ, ok := m.typeExpr(m.typeOf(e))
	if !ok {
		return e
	}
	return pick(m.add(n, Property, op), &ast.BinaryExpr{X: e, Op: tok, Y: intLit(1)}, e, typ)
}

// dropStatements adds, for each statement of list that may be dropped, a
// mutant without it.
func (m *mutator) dropStatements(list []ast.Stmt) []ast.Stmt {
	for i, st := range list {
		what := droppable(st, i == len(list)-1)
		if what == "" || !st.Pos().IsValid() {
			continue
		}
		if k, ok := m.kind(st); ok && k == Property {
			list[i] = unless(m.add(st, Property, "drop "+what), st)
		}
	}
	return list
}

// droppable names the statement st is if dropping it leaves a program
// that compiles and still ends, else "": a call other than panic, an
// assignment (not a declaration), an increment, a break or continue, an
// if (not one whose branches all end the function, last in its block).
func droppable(st ast.Stmt, last bool) string {
	switch st := st.(type) {
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return ""
			}
			return "call"
		}
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return "assignment"
		}
	case *ast.IncDecStmt:
		return st.Tok.String()
	case *ast.BranchStmt:
		if st.Tok == token.BREAK || st.Tok == token.CONTINUE {
			return st.Tok.String()
		}
	case *ast.IfStmt:
		if !(last && st.Else != nil) {
			return "if"
		}
	}
	return ""
}

// dropBody adds a mutant whose loop runs with an empty body, unless the
// body is one statement, which dropStatements drops.
func (m *mutator) dropBody(body *ast.BlockStmt) {
	if len(body.List) < 2 || !body.Pos().IsValid() {
		return
	}
	id := m.add(body, Property, "drop loop body")
	body.List = []ast.Stmt{unless(id, &ast.BlockStmt{List: body.List})}
}

func (m *mutator) typeOf(e ast.Expr) types.Type {
	if tv, ok := m.src.info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

// typeExpr writes integer type t as the file can name it: a basic type,
// or a named one of this package or of a package the file imports.
func (m *mutator) typeExpr(t types.Type) (ast.Expr, bool) {
	if t == nil {
		return nil, false
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil, false
	}
	imported := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == m.src.pkg {
			return ""
		}
		for _, im := range m.src.file.Imports {
			if strings.Trim(im.Path.Value, `"`) == p.Path() {
				if im.Name != nil {
					return im.Name.Name
				}
				return p.Name()
			}
		}
		imported = false
		return ""
	})
	if !imported {
		return nil, false
	}
	e, err := parser.ParseExpr(s)
	return e, err == nil
}

func indexable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

func isUnsigned(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// unless is the statement if vigilMutant != id { st }: st, except when
// mutant id runs.
func unless(id int, st ast.Stmt) ast.Stmt {
	return &ast.IfStmt{Cond: &ast.BinaryExpr{X: ast.NewIdent(switchVar), Op: token.NEQ, Y: intLit(id)},
		Body: &ast.BlockStmt{List: []ast.Stmt{st}}}
}

// pick is the expression func() T { if vigilMutant == id { return mutated
// }; return original }(): the mutant's value when it runs, the original's
// otherwise, each evaluated only then.
func pick(id int, mutated, original, typ ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: typ}}}},
		Body: &ast.BlockStmt{List: []ast.Stmt{
			&ast.IfStmt{Cond: &ast.BinaryExpr{X: ast.NewIdent(switchVar), Op: token.EQL, Y: intLit(id)},
				Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{mutated}}}}},
			&ast.ReturnStmt{Results: []ast.Expr{original}},
		}},
	}}
}

func intLit(n int) *ast.BasicLit { return &ast.BasicLit{Kind: token.INT, Value: fmt.Sprint(n)} }
