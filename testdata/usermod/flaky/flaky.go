// Package flaky holds two variants of two-phase commit whose handlers are
// not deterministic, the mistakes vigil reports as faults rather than
// exploring worlds no run would meet: a participant that stamps its Yes
// vote with the wall clock, and one that locks the transaction's rows in
// the order Go's map iteration happens to give. They are not registered in
// cmd/commit-vigil, whose check --all must pass.
package flaky

import (
	"time"

	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// State is a two-phase commit node's state and what the variants add to
// it. It prints as twopc.State does (its String method is promoted),
// which shows neither addition.
type State struct {
	twopc.State
	VotedAt int64 // when the participant voted Yes (Stamped)
	Locked  []int // the rows the participant locked, in order (Unordered)
}

// rows are the transaction's rows, a set: enough of them that two
// iterations over it agree on their order next to never.
var rows = func() map[int]bool {
	m := map[int]bool{}
	for r := range 512 {
		m[r] = true
	}
	return m
}()

// Protocol is two-phase commit with its flaw: Stamped, Do of a Yes vote
// reads the clock; Unordered, Receive of canCommit? locks the rows in
// map order.
type Protocol struct{ Stamped, Unordered bool }

var inner twopc.Protocol

func (Protocol) Init(ctx *model.Ctx[twopc.Msg]) State { return State{State: inner.Init(ctx)} }

func (Protocol) Actions(env *model.Env, s State) []model.Action { return inner.Actions(env, s.State) }

func (p Protocol) Do(ctx *model.Ctx[twopc.Msg], s State, a model.Action) State {
	next := s
	next.State = inner.Do(ctx, s.State, a)
	if p.Stamped && a == twopc.VoteYes {
		next.VotedAt = time.Now().UnixNano()
	}
	return next
}

func (p Protocol) Receive(ctx *model.Ctx[twopc.Msg], s State, from model.NodeID, m twopc.Msg) State {
	next := s
	next.State = inner.Receive(ctx, s.State, from, m)
	if p.Unordered && m.Type == twopc.CanCommit {
		next.Locked = nil
		for r := range rows {
			next.Locked = append(next.Locked, r)
		}
	}
	return next
}

func (Protocol) Timeout(ctx *model.Ctx[twopc.Msg], s State, t model.Timer) State {
	next := s
	next.State = inner.Timeout(ctx, s.State, t)
	return next
}

func (Protocol) Recover(_ *model.Ctx[twopc.Msg], s State) State { return s }

// describe is the description of a variant; only atomicity, read from
// the observations, applies to its state.
func describe(name string, p Protocol) *suite.Protocol {
	return &suite.Protocol{
		Name: name, Family: "commit",
		Summary:    "two-phase commit with a handler that is not deterministic",
		Properties: []*properties.Property{twopc.Atomicity},
		Claims:     []string{"atomicity"},
		Compile:    suite.Compiler[State, twopc.Msg]("commit/"+name, p, nil),
		Scenarios:  []suite.Scenario{{Name: "no-crash", N: 3, Expect: checker.Pass}},
	}
}

// Stamped and Unordered describe the variants for vigil's tools.
var (
	Stamped   = describe("twopc-stamped", Protocol{Stamped: true})
	Unordered = describe("twopc-unordered", Protocol{Unordered: true})
)
