package round

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Received is an algorithm message a synchronizer holds until the pulse
// that takes it: sent in pulse Pulse by From.
type Received[M any] struct {
	Pulse int
	From  model.NodeID
	Msg   M
}

// Keep returns rs with r added, in a fresh slice (handlers never change
// their input), after those of an earlier or the same (pulse, sender):
// kept so, what a node holds has one form whatever order it came in.
func Keep[M any](rs []Received[M], r Received[M]) []Received[M] {
	at := len(rs)
	for i, x := range rs {
		if x.Pulse > r.Pulse || x.Pulse == r.Pulse && x.From > r.From {
			at = i
			break
		}
	}
	return slices.Insert(slices.Clip(rs), at, r) // clipped full: Insert copies
}

// Take splits off what rs holds of pulse p, as the input of pulse p+1,
// and returns the rest (nil when nothing is left), messages of earlier
// pulses included: a synchronizer that did not wait for them leaves them
// there.
func Take[M any](rs []Received[M], p int) (in []In[M], rest []Received[M]) {
	for _, r := range rs {
		if r.Pulse == p {
			in = append(in, In[M]{From: r.From, Msg: r.Msg})
		} else {
			rest = append(rest, r)
		}
	}
	return in, rest
}
