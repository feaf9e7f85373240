package checker

import (
	"fmt"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
)

// EntryFigures are the evaluation figures of a mutual-exclusion protocol
// (the "number of messages, client delay, synchronization delay" of
// V. Vlassov and J. Montelius, Coordination, lecture notes, ID2201
// Distributed Systems, KTH, after G. Coulouris et al., Distributed Systems:
// Concepts and Design, ch. 15),
// measured on the runs of a random search: least and most over every entry
// to the critical section of every walk.
//
// Delays are counted in message transmissions. Each walk gives its events
// times: a message takes one unit, a local step none, and an event happens
// as early as the order of events at its node allows (a node's time after
// a receipt is the larger of its own and the message's arrival). Then
//   - the client delay of an entry is its time minus the time of the
//     node's request (central server: the round trip request–grant, 2);
//   - its synchronization delay, when the node was already waiting as the
//     critical section was last left, is its time minus the time of that
//     exit (central server: release–grant, 2; Ricart-Agrawala: one reply).
//
// Messages per entry are those sent in a complete run (one that ends)
// divided by the entries in it: a token that circulates for ever gives
// none.
type EntryFigures struct {
	Entries     int    `json:"entries"`  // entries measured
	Runs        int    `json:"runs"`     // walks with at least one entry
	Complete    int    `json:"complete"` // complete runs with an entry
	PerEntry    Ratio  `json:"messages_per_entry"`
	ClientDelay IntSet `json:"client_delay"`
	SyncDelay   IntSet `json:"synchronization_delay"`
}

// IntSet is a least and a most; empty until the first value is added.
type IntSet struct {
	Min, Max int
	N        int // values added
}

func (r *IntSet) add(x int) {
	if r.N == 0 || x < r.Min {
		r.Min = x
	}
	if r.N == 0 || x > r.Max {
		r.Max = x
	}
	r.N++
}

func (r *IntSet) merge(o IntSet) {
	if o.N > 0 {
		r.add(o.Min)
		r.add(o.Max)
		r.N += o.N - 2
	}
}

func (r IntSet) String() string {
	switch {
	case r.N == 0:
		return "none"
	case r.Min == r.Max:
		return fmt.Sprint(r.Min)
	}
	return fmt.Sprintf("%d..%d", r.Min, r.Max)
}

// Ratio is a least and a most of messages/entries over complete runs.
type Ratio struct {
	MinNum, MinDen int // the least: MinNum/MinDen
	MaxNum, MaxDen int
	N              int
}

func (r *Ratio) add(num, den int) {
	if r.N == 0 || num*r.MinDen < r.MinNum*den {
		r.MinNum, r.MinDen = num, den
	}
	if r.N == 0 || num*r.MaxDen > r.MaxNum*den {
		r.MaxNum, r.MaxDen = num, den
	}
	r.N++
}

func (r *Ratio) merge(o Ratio) {
	if o.N > 0 {
		r.add(o.MinNum, o.MinDen)
		r.add(o.MaxNum, o.MaxDen)
		r.N += o.N - 2
	}
}

func ratio(num, den int) string {
	if num%den == 0 {
		return fmt.Sprint(num / den)
	}
	return fmt.Sprintf("%.2f", float64(num)/float64(den))
}

func (r Ratio) String() string {
	if r.N == 0 {
		return "none"
	}
	lo, hi := ratio(r.MinNum, r.MinDen), ratio(r.MaxNum, r.MaxDen)
	if lo == hi {
		return lo
	}
	return lo + ".." + hi
}

func (f *EntryFigures) String() string {
	per := "messages per entry " + f.PerEntry.String()
	if f.Complete == 0 {
		per = "no run ends, so no messages per entry"
	}
	return fmt.Sprintf("%s, client delay %v, synchronization delay %v (in message transmissions, over %d entries in %d runs)",
		per, f.ClientDelay, f.SyncDelay, f.Entries, f.Runs)
}

func (f *EntryFigures) merge(o *EntryFigures) {
	f.Entries += o.Entries
	f.Runs += o.Runs
	f.Complete += o.Complete
	f.PerEntry.merge(o.PerEntry)
	f.ClientDelay.merge(o.ClientDelay)
	f.SyncDelay.merge(o.SyncDelay)
}

// entryClock times the events of one walk (see EntryFigures).
type entryClock struct {
	now      []int            // per node: the time of its last event
	inFlight map[uint64][]int // per from/to/message: arrival times, oldest first
	asked    []int            // per node: the time of its request, -1 if none
	waiting  []bool           // per node: waiting as the last exit happened
	lastExit int              // time of the last exit, -1 before the first
	sent     int
	fig      EntryFigures
}

func newEntryClock(n int) *entryClock {
	c := &entryClock{now: make([]int, n), inFlight: map[uint64][]int{},
		asked: make([]int, n), waiting: make([]bool, n), lastExit: -1}
	for i := range c.asked {
		c.asked[i] = -1
	}
	return c
}

func flightKey(from, to model.NodeID, msg uint32) uint64 {
	return uint64(from)<<48 | uint64(to)<<32 | uint64(msg)
}

// lose and duplicate time the loss and the duplication of a message from
// one node to another: identical messages are interchangeable, so the
// newest is lost, and a copy arrives as late as the newest.
func (c *entryClock) lose(from, to model.NodeID, msg uint32) {
	k := flightKey(from, to, msg)
	if q := c.inFlight[k]; len(q) > 0 {
		c.inFlight[k] = q[:len(q)-1]
	}
}

func (c *entryClock) duplicate(from, to model.NodeID, msg uint32) {
	k := flightKey(from, to, msg)
	if q := c.inFlight[k]; len(q) > 0 {
		c.inFlight[k] = append(q, q[len(q)-1])
	}
}

// step times one step at node i, the delivery of ev if it is one.
func (c *entryClock) step(i model.NodeID, ev *sim.Event, step *sim.Step) {
	if ev != nil {
		switch ev.Kind {
		case sim.Deliver:
			k := flightKey(ev.From, ev.Node, ev.Arg)
			if q := c.inFlight[k]; len(q) > 0 {
				// identical messages are interchangeable: take the
				// oldest, as a FIFO channel would
				c.now[i] = max(c.now[i], q[0])
				c.inFlight[k] = q[1:]
			}
		case sim.Crash:
			c.asked[i], c.waiting[i] = -1, false
		}
	}
	if step == nil {
		return
	}
	t := c.now[i]
	for _, s := range step.Sends {
		k := flightKey(i, sim.SendTo(s), sim.SendMsg(s))
		c.inFlight[k] = append(c.inFlight[k], t+1)
		c.sent++
	}
	for _, o := range step.Obs {
		c.observe(i, t, o)
	}
}

// observe times observation o of node i at time t.
func (c *entryClock) observe(i model.NodeID, t int, o model.Obs) {
	switch o.Kind {
	case model.ObsRequest:
		c.asked[i] = t
	case model.ObsEnter:
		if c.asked[i] >= 0 {
			c.fig.ClientDelay.add(t - c.asked[i])
		}
		if c.waiting[i] {
			c.fig.SyncDelay.add(t - c.lastExit)
		}
		c.asked[i], c.waiting[i] = -1, false
		c.fig.Entries++
	case model.ObsExit:
		c.lastExit = t
		for j, a := range c.asked {
			c.waiting[j] = a >= 0
		}
	}
}

// end closes the walk; complete says it ended in a quiescent world.
func (c *entryClock) end(complete bool) *EntryFigures {
	if c.fig.Entries == 0 {
		return nil
	}
	c.fig.Runs = 1
	if complete {
		c.fig.Complete = 1
		c.fig.PerEntry.add(c.sent, c.fig.Entries)
	}
	return &c.fig
}
