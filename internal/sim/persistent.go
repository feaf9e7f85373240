package sim

import (
	"cmp"
	"math/bits"
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
// The events enabled in w of a set S of nodes are a persistent set (P.
// Godefroid, Partial-Order Methods for the Verification of Concurrent
// Systems, LNCS 1032, 1996, ch. 4) when no run from w of the other nodes'
// steps can give a node of S an event it does not already have: those
// steps are then independent of S's, whatever S's nodes do first. A run of
// other nodes' steps could do so in three ways only: by sending a node of
// S a message on a channel that was empty (on a non-empty FIFO channel it
// queues behind the head the node may already take), by a fault (a crash,
// recovery, cut, heal, loss or duplication, which may change what timers
// wait for), or by time passing (bounded timing). So S qualifies where no
// fault can happen any more, every node up outside S that may send to a
// node of S has a message in flight to it, and the channels are FIFO and
// time untimed: the checker tests those two for the run, and
// PersistentSets the rest for w. The smallest such S holding node i is
// found by closing {i} under "add every node up that may send to a member
// and has nothing in flight to it" (the stubborn-set construction of A.
// Valmari, with a node's possible senders as the transitions that may
// enable its receptions). Whether S's steps are invisible, and the cycle
// proviso, are the search's to check.

// PersistentSets appends to buf sets of nodes (bit i for node i) whose
// events among evs, the events enabled in w (Enabled: its protocol events
// first, nproto of them), form a persistent set smaller than them all:
// each the least such set holding one of the nodes, fewest events first,
// each once. It requires FIFO channels, untimed steps and at most 64
// nodes, and appends nothing where a fault may still happen.
func (s *Stepper) PersistentSets(w World, evs []Event, nproto int, buf []uint64) []uint64 {
	cfg := &s.m.cfg
	if nproto < 2 || nproto < len(evs) || !s.faultsOver(w) {
		return buf
	}
	if s.po == nil {
		s.po = newPersistentScratch(cfg)
	}
	n := cfg.N
	events, joins, closed := s.po.events[:n], s.po.joins[:n], s.po.closed[:n]
	clear(events)
	clear(closed)
	for _, e := range evs[:nproto] {
		events[e.Node]++
	}
	var live uint64
	for i := range n {
		if !recDead(w[1+i]) {
			live |= 1 << i
		}
	}
	// joins[i]: the nodes a set holding i must hold too, those up that may
	// send to i with nothing in flight to it
	for i := range n {
		joins[i] = s.po.mayReach[i] & live
	}
	for _, mw := range s.Msgs(w) {
		joins[msgTo(mw)] &^= 1 << msgFrom(mw)
	}
	// A set holding j holds the least set holding j: closed[j] keeps it
	// once found, and full the nodes whose least set holds every event.
	var full uint64
	start := len(buf)
seeds:
	for i := range n {
		if events[i] == 0 {
			continue
		}
		set, todo := uint64(0), uint64(1)<<i
		for todo != 0 {
			j := bits.TrailingZeros64(todo)
			switch {
			case full&(1<<j) != 0:
				full |= 1 << i
				continue seeds
			case closed[j] != 0:
				set |= closed[j]
			default:
				set |= 1 << j
				todo |= joins[j]
			}
			todo &^= set
		}
		closed[i] = set
		if setEvents(set, events) == nproto {
			full |= 1 << i
		} else if !slices.Contains(buf[start:], set) {
			buf = append(buf, set)
		}
	}
	slices.SortStableFunc(buf[start:], func(a, b uint64) int {
		return cmp.Compare(setEvents(a, events), setEvents(b, events))
	})
	return buf
}

// setEvents is the number of events of the nodes of set.
func setEvents(set uint64, events []int) int {
	n := 0
	for ; set != 0; set &= set - 1 {
		n += events[bits.TrailingZeros64(set)]
	}
	return n
}

// persistentScratch is what PersistentSets keeps between calls: the
// topology's senders and room for its per-node figures.
type persistentScratch struct {
	mayReach      []uint64 // per node, the other nodes that may send to it
	events        []int    // per node, its events enabled
	joins, closed []uint64 // see PersistentSets
}

func newPersistentScratch(cfg *model.Config) *persistentScratch {
	return &persistentScratch{mayReach: mayReach(cfg), events: make([]int, cfg.N),
		joins: make([]uint64, cfg.N), closed: make([]uint64, cfg.N)}
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
	g, err := cfg.Graph()
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
