// Package mutextest holds what the unit tests of the mutual-exclusion
// protocols share. Every one of them takes its client's local actions from
// mutex.Actions, so they all list the same actions in the same standings:
// Client checks that once for each protocol, on the protocol's own state.
package mutextest

import (
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

// Requests is a run of n nodes in which every node asks for the critical
// section k times (k = 0: forever).
func Requests(n, k int) model.Config {
	return model.Config{N: n, Params: map[string]int{mutex.RequestsParam: k}}
}

// Client is a protocol's client half as the shared tests see it.
type Client[S, M any] struct {
	Handlers checktest.Handlers[S, M] // its Config says how many nodes run
	Self     model.NodeID             // the node whose actions are checked
	// State is the node's state at phase p with asked requests made.
	State func(p mutex.Phase, asked int) S
	// Forever: the protocol lets a node ask forever (requests = 0); the
	// others reject such a run, so it is not checked for them.
	Forever bool
}

// Actions checks the client's local actions: Request when released with
// requests left at an initiator, Exit when held, nothing else.
func (c Client[S, M]) Actions(t *testing.T) {
	t.Helper()
	n := c.Handlers.Config.N
	twice := Requests(n, 2)
	quiet := Requests(n, 2) // every node an initiator but Self
	quiet.Initiators = make([]bool, n)
	for i := range quiet.Initiators {
		quiet.Initiators[i] = model.NodeID(i) != c.Self
	}
	request, exit := []model.Action{mutex.Request}, []model.Action{mutex.Exit}
	steps := []checktest.Step[S, M]{
		{Name: "released with requests left", Config: twice, In: c.State(mutex.Released, 1), Enabled: request},
		{Name: "released, all requests made", Config: twice, In: c.State(mutex.Released, 2)},
		{Name: "released, not an initiator", Config: quiet, In: c.State(mutex.Released, 0)},
		{Name: "wanted: waiting to enter", Config: twice, In: c.State(mutex.Wanted, 1)},
		{Name: "in the critical section", Config: twice, In: c.State(mutex.Held, 1), Enabled: exit},
	}
	if c.Forever {
		steps = append(steps, checktest.Step[S, M]{
			Name: "released, asking forever", Config: Requests(n, 0), In: c.State(mutex.Released, 0), Enabled: request})
	}
	for k := range steps {
		steps[k].Self = c.Self
	}
	c.Handlers.Actions(t, steps)
}
