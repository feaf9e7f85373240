// Package vet is a static check of the code vigil runs as a protocol's
// handlers and a property's monitors: Analyzer reports, in that code,
// what would make it give different answers to the same inputs. The
// checker explores every run by calling handlers again and again on the
// same states; a handler whose result or effects depend on the clock,
// on randomness, on the order of a map's iteration or on other
// goroutines makes its verdicts and counterexamples wrong, or
// unreproducible, without any error.
//
// Run it with vigil's own command (vigil vet ./...), or with go vet
// (go vet -vettool=$(which vigil) ./...): vigil, and any binary built on
// checker/cli, acts as a vet tool when go vet runs it.
package vet

import (
	"go/ast"
	"go/token"
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer reports nondeterminism in handler and monitor code.
var Analyzer = &analysis.Analyzer{
	Name: "vigilpure",
	Doc: `report nondeterminism in vigil handlers and monitors

vigil explores a protocol's runs by calling its handlers (the functions
and methods that take a *model.Ctx or *model.Env: Init, Receive, Timeout,
Recover, Do, Actions), its monitors (Start, Observe, ObserveInPlace,
RenameNodes of a model.Monitor, the callbacks given to
properties.NewMonitor and its variants), its properties' checks (the
callbacks given to properties.Invariant and Quiescent, a Property's Check
and Pending) and its symmetry (Interchangeable, RenameNodes), and the
functions of the same package they call. That code must be a pure
function of its inputs, or the checker's verdicts are wrong. In it, this
analyzer reports:

  - a range over a map whose order reaches an effect or the result: the
    loop sends, arms or cancels a timer, observes, appends, writes a
    variable declared outside it (other than by a map insert, a delete,
    += or ++ on a number, |= or &=, a min or max), returns a value of
    the loop, or stops early after such an update. Keys collected into a
    slice that the function then sorts are fine;
  - reading the clock (time.Now, time.Since, time.Sleep, timers, ...),
    math/rand, math/rand/v2, crypto/rand, os, sync and sync/atomic;
  - go statements, channel sends and receives, select, make(chan).

A function that is pure though it shares memory (a cache of a pure
function) says so with a line //vigil:pure in its doc comment; it is then
not checked, nor what it calls.`,
	Run:        run,
	ResultType: reflect.TypeFor[Checked](),
}

// Checked is the Analyzer's result: the code of the package it checked,
// named as its diagnostics name it ("handler Receive", "broadcast (called
// by handler Receive)"), in the order it found them.
type Checked []string

const (
	modelPath      = "github.com/vigil-check/vigil/model"
	propertiesPath = "github.com/vigil-check/vigil/properties"
)

func run(pass *analysis.Pass) (any, error) {
	s := newScope(pass)
	reported := map[token.Pos]bool{}
	report := func(pos token.Pos, msg string) {
		if !reported[pos] {
			reported[pos] = true
			pass.Report(analysis.Diagnostic{Pos: pos, Message: msg})
		}
	}
	var checked Checked
	for _, u := range s.units() {
		checked = append(checked, u.who)
		checkImpure(pass, u, report)
		ast.Inspect(u.body, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok {
				if msg := s.mapOrder(u, r); msg != "" {
					report(r.For, msg)
				}
			}
			return true
		})
	}
	return checked, nil
}
