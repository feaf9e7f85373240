package vet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// ctxEffects says what each of model.Ctx's effect methods does: the
// effects of a step, which the checker records in order.
var ctxEffects = map[string]string{
	"Send": "sends", "SendAll": "sends",
	"SetTimer": "arms a timer", "SetTimerAfter": "arms a timer",
	"CancelTimer": "cancels a timer", "Observe": "observes",
}

// effect says which effect call adds to the step ("sends", "calls
// broadcast with the context"), or "" when it adds none.
func (s *scope) effect(call *ast.CallExpr) string {
	return s.effectWith(call, s.effectful)
}

// effectWith is effect, with effectful the package's functions known to
// have effects.
func (s *scope) effectWith(call *ast.CallExpr, effectful map[*types.Func]bool) string {
	info := s.pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn != nil {
		if recv := fn.Signature().Recv(); recv != nil && isModelPointer(recv.Type(), "Ctx") {
			return ctxEffects[fn.Name()]
		}
	}
	passesCtx := false
	for _, a := range call.Args {
		if isModelPointer(info.TypeOf(a), "Ctx") {
			passesCtx = true
		}
	}
	switch {
	case !passesCtx:
		return ""
	case fn == nil:
		return "calls " + types.ExprString(call.Fun) + " with the context"
	case fn.Pkg() == s.pass.Pkg && !effectful[fn.Origin()]:
		return "" // it only reads the context
	case fn.Pkg() != nil && fn.Pkg().Path() == modelPath:
		return ""
	}
	return "calls " + fn.Name() + " with the context"
}

// findEffectful returns the package's functions that send, arm or cancel
// a timer or observe, directly or through each other, or that pass the
// context to another package's function.
func (s *scope) findEffectful() map[*types.Func]bool {
	effectful := map[*types.Func]bool{}
	for changed := true; changed; {
		changed = false
		for fn, fd := range s.decls {
			if !effectful[fn] && s.hasEffect(fd.Body, effectful) {
				effectful[fn] = true
				changed = true
			}
		}
	}
	return effectful
}

func (s *scope) hasEffect(body *ast.BlockStmt, effectful map[*types.Func]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found && s.effectWith(call, effectful) != "" {
			found = true
		}
		return !found
	})
	return found
}
