// Package inplace declares what a random walk asks of a monitor that it
// may update in place. It is an engine's question, not part of a monitor
// author's contract (model.Monitor): a monitor answers it by having the
// method, which properties.NewInPlaceMonitor gives one.
package inplace

import "github.com/vigil-check/vigil/model"

// Monitor is a model.Monitor that can also update a state it is handed
// to keep. A random walk holds one world at a time and never goes back to
// an earlier one, so where a search calls Observe, a walk calls
// ObserveInPlace on a state that only it holds (what Start returned, or a
// deep copy of it where two calls of Start share memory; then what
// ObserveInPlace returned) and never reads st again: ObserveInPlace may
// write into st's slices and return them, where Observe must copy each one
// it changes. It must return what Observe returns for the same input,
// which a walk checks on a sample of calls, and it must not store one
// slice in two places of the state (the next write in place would change
// both).
type Monitor interface {
	model.Monitor
	ObserveInPlace(cfg *model.Config, st any, node model.NodeID, o model.Obs) any
}
