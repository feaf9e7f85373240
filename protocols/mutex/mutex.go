// Package mutex holds what the mutual-exclusion protocols share, which
// follow V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201
// Distributed Systems, KTH Royal Institute of Technology), after
// G. Coulouris, J. Dollimore, T. Kindberg and G. Blair, Distributed Systems:
// Concepts and Design, 5th ed., ch. 15 (Vlassov and Montelius below): their
// RELEASED / WANTED / HELD, the client's two local actions, and how many
// times a node asks.
//
// Each node asks for the critical section "requests" times (run parameter,
// default 1), or forever when it is 0; when the run names initiators, only
// they ask.
package mutex

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// RequestsParam is the run parameter that says how many times each node
// asks for the critical section (default 1; 0: forever).
const RequestsParam = "requests"

// Phase is a node's standing with the critical section, as Vlassov and
// Montelius name it.
type Phase uint8

const (
	Released Phase = iota // not asking
	Wanted                // asked, waiting to enter
	Held                  // in the critical section
)

func (p Phase) String() string { return [...]string{"released", "wanted", "held"}[p] }

// Action is a client's local action.
type Action uint8

const (
	Request Action = iota + 1 // ask for the critical section
	Exit                      // leave it
)

func (a Action) String() string { return [...]string{"", "request", "exit"}[a] }

// Actions are a client's local actions: Request when released with
// requests left (at an initiator), Exit when held.
func Actions(env *model.Env, p Phase, asked int) []model.Action {
	switch {
	case p == Held:
		return []model.Action{Exit}
	case p == Released && env.Initiator() && (forever(env) || asked < env.Param(RequestsParam, 1)):
		return []model.Action{Request}
	}
	return nil
}

// Asked counts one more request; a node that asks forever does not count,
// so that its state stays finite.
func Asked(env *model.Env, asked int) int {
	if forever(env) {
		return asked
	}
	return asked + 1
}

func forever(env *model.Env) bool { return env.Param(RequestsParam, 1) == 0 }

// Dequeue returns q without its head, as a new slice (nil when empty):
// handlers never change the slices of their input state.
func Dequeue(q []model.NodeID) []model.NodeID {
	if len(q) <= 1 {
		return nil
	}
	return slices.Clone(q[1:])
}
