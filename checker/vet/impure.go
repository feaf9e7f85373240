package vet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// clock are package time's functions that read the clock or wait on it;
// its types, constants and the arithmetic of Duration are pure.
var clock = map[string]bool{
	"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "Tick": true,
	"NewTimer": true, "NewTicker": true, "AfterFunc": true,
}

// outsideWorld says, for each package all of whose functions reach
// outside the model, why that breaks a handler, and what to do instead.
var outsideWorld = map[string]string{
	"math/rand":    "randomness the checker does not choose gives different runs from one state; let the checker choose, with a local action or a message per outcome",
	"math/rand/v2": "randomness the checker does not choose gives different runs from one state; let the checker choose, with a local action or a message per outcome",
	"crypto/rand":  "randomness the checker does not choose gives different runs from one state; let the checker choose, with a local action or a message per outcome",
	"os":           "the process and its environment are outside the model; take settings from the configuration (Env.Param)",
	"sync":         "the checker calls handlers one at a time on plain values, and memory shared between calls is outside the model; keep everything in the state",
	"sync/atomic":  "the checker calls handlers one at a time on plain values, and memory shared between calls is outside the model; keep everything in the state",
}

const (
	clockWhy   = "the clock is outside the model, so runs from one state differ; model time with timers (ctx.SetTimer, ctx.SetTimerAfter)"
	channelWhy = "channels and goroutines are outside the model, which sees only a step's state and effects; send messages with ctx.Send"
)

// checkImpure reports what in u reaches outside the model: the clock,
// randomness, the process, shared memory, goroutines and channels.
func checkImpure(pass *analysis.Pass, u unit, report func(token.Pos, string)) {
	info := pass.TypesInfo
	say := func(pos token.Pos, what, why string) {
		report(pos, fmt.Sprintf("%s %s: %s", u.who, what, why))
	}
	ast.Inspect(u.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			say(n.Go, "starts a goroutine", channelWhy)
		case *ast.SendStmt:
			say(n.Arrow, "sends on a channel", channelWhy)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				say(n.OpPos, "receives from a channel", channelWhy)
			}
		case *ast.SelectStmt:
			say(n.Select, "selects on channels", channelWhy)
		case *ast.RangeStmt:
			if _, ok := info.TypeOf(n.X).Underlying().(*types.Chan); ok {
				say(n.For, "ranges over a channel", channelWhy)
			}
		case *ast.CallExpr:
			if b, ok := typeutil.Callee(info, n).(*types.Builtin); ok && b.Name() == "make" && len(n.Args) > 0 {
				if _, ok := info.TypeOf(n.Args[0]).Underlying().(*types.Chan); ok {
					say(n.Lparen, "makes a channel", channelWhy)
				}
			}
		case *ast.Ident:
			if what, why := outsideUse(info.Uses[n]); what != "" {
				say(n.Pos(), what, why)
			}
		}
		return true
	})
}

// outsideUse says how a use of obj reaches outside the model ("calls
// time.Now"), and why that is wrong; "" when it does not.
func outsideUse(obj types.Object) (what, why string) {
	if obj == nil || obj.Pkg() == nil {
		return "", ""
	}
	path := obj.Pkg().Path()
	switch obj := obj.(type) {
	case *types.Func:
		recv := obj.Signature().Recv()
		name := obj.Pkg().Name() + "." + obj.Name()
		if recv != nil {
			name = obj.Pkg().Name() + "." + recvName(recv.Type()) + "." + obj.Name()
		}
		switch {
		case path == "time" && recv == nil && clock[obj.Name()]:
			return "calls " + name, clockWhy
		case path == "time" && recv != nil && (recvName(recv.Type()) == "Timer" || recvName(recv.Type()) == "Ticker"):
			return "calls " + name, clockWhy
		case outsideWorld[path] != "":
			return "calls " + name, outsideWorld[path]
		}
	case *types.Var:
		if outsideWorld[path] != "" && obj.Parent() == obj.Pkg().Scope() {
			return "reads " + obj.Pkg().Name() + "." + obj.Name(), outsideWorld[path]
		}
	}
	return "", ""
}

// recvName is the name of a method's receiver type, without pointer.
func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return types.TypeString(t, nil)
}
