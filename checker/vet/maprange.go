package vet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// mapOrder returns the diagnostic for r, a range statement of u, when r
// ranges over a map and the order of its iterations can reach u's effects
// or result; else "".
func (s *scope) mapOrder(u unit, r *ast.RangeStmt) string {
	hint, ok := s.mapRange(r.X)
	if !ok {
		return ""
	}
	l := &loop{s: s, r: r, fnBody: enclosingBody(u.body, r), label: s.labelOf(u.body, r), consts: map[string]string{}}
	l.walk()
	switch {
	case l.sensitive != "":
		return fmt.Sprintf("%s ranges over a map and %s inside the loop: map order is random, so the %s is not deterministic; range over %s",
			u.who, l.sensitive, u.what, hint)
	case l.exit != "" && l.update != "":
		return fmt.Sprintf("%s ranges over a map, %s and %s: the entries it visits depend on map order, so the %s is not deterministic; range over %s",
			u.who, l.update, l.exit, u.what, hint)
	}
	return ""
}

// mapRange reports whether x, a range expression, yields a map's entries
// in map order: a map, or maps.Keys, maps.Values or maps.All of one. The
// hint is the sorted range to use instead.
func (s *scope) mapRange(x ast.Expr) (hint string, ok bool) {
	info := s.pass.TypesInfo
	if _, ok := info.TypeOf(x).Underlying().(*types.Map); ok {
		return "slices.Sorted(maps.Keys(" + types.ExprString(x) + "))", true
	}
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "maps" {
		return "", false
	}
	switch fn.Name() {
	case "Keys", "Values", "All":
		return "slices.Sorted(maps.Keys(" + types.ExprString(call.Args[0]) + "))", true
	}
	return "", false
}

// enclosingBody is the body of the innermost function of body (body
// itself, or a function literal in it) that holds r: the function in
// which keys collected by r may be sorted.
func enclosingBody(body *ast.BlockStmt, r *ast.RangeStmt) *ast.BlockStmt {
	in := body
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= r.Pos() && r.End() <= lit.End() {
			in = lit.Body
		}
		return true
	})
	return in
}

// labelOf is r's label in body, or nil.
func (s *scope) labelOf(body *ast.BlockStmt, r *ast.RangeStmt) types.Object {
	var label types.Object
	ast.Inspect(body, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok && ls.Stmt == r {
			label = s.pass.TypesInfo.Defs[ls.Label]
		}
		return label == nil
	})
	return label
}

// loop is what the body of one map range does that its order can reach.
type loop struct {
	s      *scope
	r      *ast.RangeStmt
	fnBody *ast.BlockStmt
	label  types.Object // the loop's label, or nil
	// sensitive is the first thing the loop does whose outcome depends
	// on order ("sends", "appends to out"); update the first
	// order-insensitive update of a variable outside it ("adds to n"),
	// which order reaches only when the loop may stop early (exit)
	sensitive, update, exit string
	// consts: the constant values assigned to each variable outside the
	// loop; one value in any order is the same, two are not
	consts map[string]string
}

func (l *loop) walk() {
	var stack []ast.Node
	ast.Inspect(l.r.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.CallExpr:
			l.call(n)
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				l.assign(n, stack)
			}
		case *ast.IncDecStmt:
			if l.outside(n.X) {
				l.setUpdate("counts in " + types.ExprString(n.X))
			}
		case *ast.ReturnStmt:
			if !inFuncLit(stack) {
				l.ret(n)
			}
		case *ast.BranchStmt:
			if !inFuncLit(stack) {
				l.branch(n, stack)
			}
		}
		return true
	})
}

func (l *loop) setSensitive(what string) {
	if l.sensitive == "" {
		l.sensitive = what
	}
}

func (l *loop) setUpdate(what string) {
	if l.update == "" {
		l.update = what
	}
}

func (l *loop) call(call *ast.CallExpr) {
	info := l.s.pass.TypesInfo
	if b, ok := typeutil.Callee(info, call).(*types.Builtin); ok {
		switch {
		case len(call.Args) == 0:
		case b.Name() == "append" && l.outside(call.Args[0]):
			to := types.ExprString(call.Args[0])
			if idx, ok := ast.Unparen(call.Args[0]).(*ast.IndexExpr); ok && l.isKey(idx.Index) {
				l.setUpdate("appends to " + to) // once per key: one append to each
			} else if l.sortedAfter(to) {
				l.setUpdate("collects into " + to)
			} else {
				l.setSensitive("appends to " + to)
			}
		case b.Name() == "delete" && l.outside(call.Args[0]):
			l.setUpdate("deletes from " + types.ExprString(call.Args[0]))
		}
		return
	}
	if e := l.s.effect(call); e != "" {
		l.setSensitive(e)
	}
}

// orderFree are the compound assignments whose updates give the same
// result in any order, on numbers.
var orderFree = map[token.Token]bool{
	token.ADD_ASSIGN: true, token.SUB_ASSIGN: true, token.MUL_ASSIGN: true,
	token.OR_ASSIGN: true, token.AND_ASSIGN: true, token.XOR_ASSIGN: true, token.AND_NOT_ASSIGN: true,
}

func (l *loop) assign(a *ast.AssignStmt, stack []ast.Node) {
	info := l.s.pass.TypesInfo
	for i, lhs := range a.Lhs {
		if id, ok := lhs.(*ast.Ident); (ok && id.Name == "_") || !l.outside(lhs) {
			continue
		}
		name := types.ExprString(lhs)
		var rhs ast.Expr
		if len(a.Rhs) == len(a.Lhs) {
			rhs = ast.Unparen(a.Rhs[i])
		}
		if idx, ok := lhs.(*ast.IndexExpr); ok {
			if _, isMap := info.TypeOf(idx.X).Underlying().(*types.Map); isMap && !l.appendsTo(rhs, name) {
				l.setUpdate("stores into " + types.ExprString(idx.X))
				continue
			}
			if l.isKey(idx.Index) {
				l.setUpdate("stores into " + types.ExprString(idx.X))
				continue
			}
		}
		switch {
		case a.Tok == token.ASSIGN && l.appendsTo(rhs, name):
			// the append itself is judged, as a call
		case a.Tok == token.ASSIGN && rhs != nil && constValue(info, rhs) != "":
			v := constValue(info, rhs)
			if prev, ok := l.consts[name]; ok && prev != v {
				l.setSensitive("sets " + name + " to different values")
			}
			l.consts[name] = v
		case a.Tok == token.ASSIGN && (comparedIn(stack, name) || minMaxOf(info, rhs, name)):
			l.setUpdate("keeps the least or greatest value in " + name)
		case a.Tok == token.ASSIGN:
			l.setSensitive("writes " + name)
		case orderFree[a.Tok] && isNumber(info.TypeOf(lhs)):
			l.setUpdate("adds to " + name)
		default:
			l.setSensitive("updates " + name + " with " + a.Tok.String())
		}
	}
}

// appendsTo reports whether rhs is append(name, ...).
func (l *loop) appendsTo(rhs ast.Expr, name string) bool {
	call, ok := rhs.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	b, ok := typeutil.Callee(l.s.pass.TypesInfo, call).(*types.Builtin)
	return ok && b.Name() == "append" && types.ExprString(call.Args[0]) == name
}

// constValue is the value of a constant expression (nil included), or "".
func constValue(info *types.Info, e ast.Expr) string {
	if tv, ok := info.Types[e]; ok {
		if tv.Value != nil {
			return tv.Value.ExactString()
		}
		if tv.IsNil() {
			return "nil"
		}
	}
	return ""
}

func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// comparedIn reports whether an if statement around the assignment
// compares name with < or >: the running minimum or maximum, which ends
// the same whatever the order.
func comparedIn(stack []ast.Node, name string) bool {
	for _, n := range stack {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		found := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok {
				switch b.Op {
				case token.LSS, token.GTR, token.LEQ, token.GEQ:
					if types.ExprString(ast.Unparen(b.X)) == name || types.ExprString(ast.Unparen(b.Y)) == name {
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// minMaxOf reports whether rhs is min(name, ...) or max(name, ...).
func minMaxOf(info *types.Info, rhs ast.Expr, name string) bool {
	call, ok := rhs.(*ast.CallExpr)
	if !ok {
		return false
	}
	if b, ok := typeutil.Callee(info, call).(*types.Builtin); !ok || b.Name() != "min" && b.Name() != "max" {
		return false
	}
	for _, a := range call.Args {
		if types.ExprString(ast.Unparen(a)) == name {
			return true
		}
	}
	return false
}

func (l *loop) ret(r *ast.ReturnStmt) {
	for _, e := range r.Results {
		if l.mentionsInside(e) {
			l.setSensitive("returns a value of the iteration")
			return
		}
	}
	if l.exit == "" {
		l.exit = "returns early"
	}
}

func (l *loop) branch(b *ast.BranchStmt, stack []ast.Node) {
	info := l.s.pass.TypesInfo
	exits := false
	switch {
	case b.Label != nil:
		// a jump to a label outside the loop leaves it, but for a
		// continue of the loop itself
		obj := info.Uses[b.Label]
		exits = obj != nil && !l.within(obj.Pos()) && !(b.Tok == token.CONTINUE && obj == l.label)
	case b.Tok == token.BREAK:
		exits = true
		for _, n := range stack {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				exits = false
			}
		}
	}
	if exits && l.exit == "" {
		l.exit = "stops early"
	}
}

func inFuncLit(stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// within reports whether pos is inside the range statement.
func (l *loop) within(pos token.Pos) bool { return l.r.Pos() <= pos && pos < l.r.End() }

// outside reports whether e is, or is part of, a variable declared
// outside the loop: a write to it outlives the iteration.
func (l *loop) outside(e ast.Expr) bool {
	info := l.s.pass.TypesInfo
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			if v, ok := info.Uses[x.Sel].(*types.Var); ok && !v.IsField() {
				return !l.within(v.Pos()) // a package's variable
			}
			e = x.X
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			return ok && !l.within(v.Pos())
		default:
			return false
		}
	}
}

// isKey reports whether e is the loop's key, or a conversion of it: one
// slot per key, which no other iteration writes.
func (l *loop) isKey(e ast.Expr) bool {
	info := l.s.pass.TypesInfo
	key, ok := l.r.Key.(*ast.Ident)
	if !ok {
		return false
	}
	obj := info.ObjectOf(key)
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; !ok || !tv.IsType() || len(x.Args) != 1 {
				return false
			}
			e = x.Args[0]
		case *ast.Ident:
			return obj != nil && info.ObjectOf(x) == obj
		default:
			return false
		}
	}
}

// mentionsInside reports whether e reads a variable declared in the
// loop, its key and value included.
func (l *loop) mentionsInside(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := l.s.pass.TypesInfo.Uses[id].(*types.Var); ok && l.within(v.Pos()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// sorters are the functions that sort a slice given as their first
// argument, by package.
var sorters = map[string]map[string]bool{
	"slices": {"Sort": true, "SortFunc": true, "SortStableFunc": true},
	"sort":   {"Sort": true, "Stable": true, "Slice": true, "SliceStable": true, "Strings": true, "Ints": true, "Float64s": true},
}

// sortedAfter reports whether the function sorts the slice named to after
// the loop: keys collected in map order, then put in an order of their own.
func (l *loop) sortedAfter(to string) bool {
	info := l.s.pass.TypesInfo
	found := false
	ast.Inspect(l.fnBody, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found || call.Pos() < l.r.End() || len(call.Args) == 0 {
			return !found
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !sorters[fn.Pkg().Path()][fn.Name()] {
			return true
		}
		arg := ast.Unparen(call.Args[0])
		if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
			if tv, ok := info.Types[conv.Fun]; ok && tv.IsType() {
				arg = ast.Unparen(conv.Args[0]) // sort.Sort(byRank(keys))
			}
		}
		found = types.ExprString(arg) == to
		return !found
	})
	return found
}
