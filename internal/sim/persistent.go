package sim

import (
	"cmp"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Partial-order reduction: which nodes' steps may be explored alone.
//
// A step of node i reads and writes i's state and timers, takes the head of
// one channel into i and appends to channels out of i: with every node up
// and the network whole for good, a step of another node j touches none of
// that but the tail of the channel j→i, where a FIFO channel's head is not.
// Steps of different nodes are independent (they commute, and neither turns
// the other off), as long as neither observes anything a monitor reads.
// The nodes that may send to i are every other node on the complete graph,
// and i's senders on the run's topology (model.Graph.Senders): on a
// unidirectional ring, its predecessor alone.
//
// The events of node i enabled in w are a persistent set (P. Godefroid,
// Partial-Order Methods for the Verification of Concurrent Systems, LNCS
// 1032, 1996, ch. 4) when no run from w that leaves them aside can give i
// an event it does not already have. A run of other nodes' steps could do
// so in three ways only: by sending i a message on a channel that was empty
// (on a non-empty FIFO channel it queues behind the head i may already
// take), by a fault (a crash, recovery, cut, heal, loss or duplication,
// which may change what i's timers wait for), or by time passing (bounded
// timing). So node i qualifies where no fault can happen any more, every
// node that may still send to i (every one up) has a message in flight to i,
// and the channels are FIFO and time untimed: the checker tests those two
// for the run, and PersistentNodes the rest for w. Whether i's steps are
// invisible, and the cycle proviso, are the search's to check.

// PersistentNodes appends to buf the nodes whose events among evs, the
// events enabled in w (Enabled: its protocol events first, nproto of them),
// form a persistent set smaller than them all, fewest events first. It
// requires FIFO channels, untimed steps and at most 64 nodes, and appends
// nothing where a fault may still happen.
func (s *Stepper) PersistentNodes(w World, evs []Event, nproto int, buf []model.NodeID) []model.NodeID {
	cfg := &s.m.cfg
	if nproto < 2 || nproto < len(evs) || !s.faultsOver(w) {
		return buf
	}
	var events [64]int
	for _, e := range evs[:nproto] {
		events[e.Node]++
	}
	// senders[i]: the nodes with a message in flight to i; live: those up
	var senders [64]uint64
	for _, mw := range s.Msgs(w) {
		senders[msgTo(mw)] |= 1 << msgFrom(mw)
	}
	var live uint64
	for i := range cfg.N {
		if !recDead(w[1+i]) {
			live |= 1 << i
		}
	}
	if s.mayReach == nil {
		s.mayReach = mayReach(cfg)
	}
	start := len(buf)
	for i := range cfg.N {
		if events[i] > 0 && events[i] < nproto && s.mayReach[i]&live&^senders[i] == 0 {
			buf = append(buf, model.NodeID(i))
		}
	}
	slices.SortStableFunc(buf[start:], func(a, b model.NodeID) int { return cmp.Compare(events[a], events[b]) })
	return buf
}

// mayReach returns, per node i, the set of the other nodes that may send
// to i on cfg's topology.
func mayReach(cfg *model.Config) []uint64 {
	out := make([]uint64, cfg.N)
	if cfg.Topology == "" {
		for i := range out {
			out[i] = (1<<cfg.N - 1) &^ (1 << i)
		}
		return out
	}
	g, err := model.ParseTopology(cfg.Topology, cfg.N)
	if err != nil {
		panic("sim: " + err.Error()) // (a Machine's configuration is valid)
	}
	for i := range out {
		for _, j := range g.Senders(model.NodeID(i)) {
			out[i] |= 1 << j
		}
	}
	return out
}

// faultsOver reports whether no fault can happen from w on: every crash,
// partition, loss and duplication allowed has happened, no node is down
// that may recover, and the network is whole.
func (s *Stepper) faultsOver(w World) bool {
	cfg := &s.m.cfg
	crashes, recoveries := FaultsUsed(w)
	losses, dups := MessageFaultsUsed(w)
	if crashes < cfg.Crashes || PartitionsUsed(w) < cfg.Partitions || s.Split(w) ||
		losses < cfg.Losses || dups < cfg.Duplicates {
		return false
	}
	if recoveries < cfg.Recoveries {
		for i := range cfg.N {
			if recDead(w[1+i]) {
				return false
			}
		}
	}
	return true
}
