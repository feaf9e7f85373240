// Package multicasttest holds the fixtures of the multicast protocols'
// handler tests: their runs of N nodes, the values of the application's
// operations, and the work and sends of a multicast (see package
// multicast). Only tests import it.
package multicasttest

import (
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

// N is the number of nodes in the handler tests' runs.
const N = 3

// Crashes is a run of N that allows a crash: a multicast's sends are
// queued as work rather than sent at once.
var Crashes = model.Config{N: N, Crashes: 1}

// Handlers runs tables of steps through p's handlers in a run of N with no
// crash. The inputs' lists get spare capacity, so that a handler that
// appends to them in place fails: the family's helpers share a work list's
// tail between states.
func Handlers[S, M any](p model.Protocol[S, M]) checktest.Handlers[S, M] {
	return checktest.Handlers[S, M]{Protocol: p, Config: model.Config{N: N}, SpareCapacity: true}
}

// ValueOf is the value of operation k of node p, a write or a multicast.
func ValueOf(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

// Delivered is the delivery of operation k of node p, as observed.
func Delivered(p model.NodeID, k int) model.Obs {
	return model.Delivered(model.MsgID{Sender: p, Seq: k})
}

// SendTo is the work item that sends m to j.
func SendTo[M any](j model.NodeID, m M) multicast.Item[M] {
	return multicast.Item[M]{To: j, Msg: m}
}

// DeliverOf is the work item that delivers v, behind the sends before it.
func DeliverOf[M any](v multicast.Value) multicast.Item[M] {
	return multicast.Item[M]{To: model.None, Value: v}
}

// ToAll is B-multicast(g, m) in a run of N with no crash: m sent at once
// to nodes 0, 1 and 2, in that order.
func ToAll[M any](m M) []model.Sent[M] {
	return checktest.SentTo(m, 0, 1, 2)
}

// QueuedToAll is B-multicast(g, m) in a run of N with crashes: the loop of
// sends to nodes 0, 1 and 2 queued as work.
func QueuedToAll[M any](m M) []multicast.Item[M] {
	return []multicast.Item[M]{SendTo(0, m), SendTo(1, m), SendTo(2, m)}
}

// MsgOf is the message of operation k of node p in the protocols that
// send the value alone (multicast.Data).
func MsgOf(p model.NodeID, k int) multicast.Data { return multicast.Data{Value: ValueOf(p, k)} }
