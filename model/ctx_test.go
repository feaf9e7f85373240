package model

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/effects"
)

// What a handler does through its Ctx lands, in order, in the buffer an
// engine reaches through effects.Of, and a fresh context's buffer is
// empty.
func TestCtxEffectsReachTheEngine(t *testing.T) {
	type buffer = effects.Buffer[Sent[string], NodeID, Obs]
	cases := []struct {
		name    string
		handler func(ctx *Ctx[string])
		want    buffer
	}{
		{"nothing", func(*Ctx[string]) {}, buffer{}},
		{"sends", func(ctx *Ctx[string]) {
			ctx.Send(2, "a")
			ctx.SendAll([]NodeID{0, 1}, "b")
		}, buffer{Sends: []Sent[string]{{2, "a"}, {0, "b"}, {1, "b"}}}},
		{"timers", func(ctx *Ctx[string]) {
			ctx.SetTimer("t", 1, 2)
			ctx.SetTimerAfter("u", 0)
			ctx.CancelTimer("t")
			ctx.SetTimer("v")
		}, buffer{Timers: []effects.Timer[NodeID]{
			{Timer: "t", Armed: true, WaitOn: []NodeID{1, 2}},
			{Timer: "u", Armed: true, Ticks: 1}, // at least one tick
			{Timer: "t"},
			{Timer: "v", Armed: true},
		}}},
		{"observations", func(ctx *Ctx[string]) {
			ctx.Observe(Leader(1))
			ctx.Observe(EnterCS())
		}, buffer{Obs: []Obs{Leader(1), EnterCS()}}},
	}
	for _, c := range cases {
		ctx := NewCtx[string](Config{N: 3}, 0)
		c.handler(ctx)
		got := effects.Of(ctx).(*buffer)
		require.Equal(t, c.want.Sends, got.Sends, c.name)
		require.Equal(t, c.want.Timers, got.Timers, c.name)
		require.Equal(t, c.want.Obs, got.Obs, c.name)
	}
}

// The package's API is the protocol author's: what only an engine calls
// lives behind internal/, and no exported name of the package is one of
// the hooks that were moved there.
func TestAPIHasNoEngineHook(t *testing.T) {
	hooks := []string{
		"Reset", "AppendSent", "AppendTimers", "AppendObserved", // Ctx's, for an engine's reuse
		"Timers", "Observed", // Ctx's readers: checktest's now
		"CheckKeyable", "InPlaceMonitor", "ObserveInPlace", "TimerEffect",
	}
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			require.NoError(t, err)
			files = append(files, f)
		}
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/vigil-check/vigil/model")
	require.NoError(t, err)
	var names []string
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			names = append(names, f.Name)
		}
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			names = append(names, v.Names...)
		}
	}
	funcs(p.Funcs)
	values(p.Consts)
	values(p.Vars)
	for _, ty := range p.Types {
		names = append(names, ty.Name)
		funcs(ty.Funcs)
		funcs(ty.Methods)
		values(ty.Consts)
		values(ty.Vars)
		if it, ok := ty.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.InterfaceType); ok {
			for _, m := range it.Methods.List {
				for _, n := range m.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	require.Contains(t, names, "Send", "the API is read whole")
	for _, h := range hooks {
		require.NotContains(t, names, h, "model exports the engine hook %s", h)
	}
}
