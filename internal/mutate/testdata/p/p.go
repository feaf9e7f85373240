// Package p is a protocol for the tests of package mutate.
package p

import "github.com/vigil-check/vigil/model"

type P struct{}

func (P) Init(ctx *model.Ctx[int]) int { return 0 }

func (P) Receive(ctx *model.Ctx[int], s int, from model.NodeID, m int) int {
	if m < s && s != 0 {
		ctx.Send(from, m)
	}
	if m > 9 {
		// unreachable: the test says so
		return s
	}
	return bump(s)
}

func bump(s int) int {
	if s >= 3 {
		return s
	}
	return s + 1
}

// helper is named by no handler: it is not mutated.
func helper(a, b int) bool { return a == b }

func (P) String() string {
	if true == false {
		return "never"
	}
	return "p"
}
