package sim

import (
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// Partitions. The network of a World is a labelling of the nodes by group:
// two nodes can exchange messages only when they carry the same label. The
// labels are numbered in order of first appearance by node id (node 0 is
// always in group 0), so equal groupings are equal words; a whole network
// is all zeros. A Partition event cuts the ring of node ids 0..N-1 in two
// places, separating the arc a..b (1 ≤ a ≤ b ≤ N-1) from the rest; within
// the groups it splits, the two sides become groups of their own. Cuts
// refine one another, so k partitions make at most 2k groups. A Heal
// makes the network whole again. Below: the events enabled, building the
// successor (Stepper.Apply: partition, heal), its fingerprint
// (Stepper.Successor) and a Walker's network and its steps.

func netWords(cfg *model.Config) int {
	if cfg.Partitions == 0 {
		return 0
	}
	return (cfg.N + 15) / 16
}

// Groups renders the grouping of w, e.g. "n0 n3 | n1 n2"; "" when whole.
func (s *Stepper) Groups(w World) string {
	if !s.Split(w) {
		return ""
	}
	var groups [16][]string
	for i := range model.NodeID(s.m.cfg.N) {
		g := s.Group(w, i)
		groups[g] = append(groups[g], i.String())
	}
	var out []string
	for _, g := range groups {
		if len(g) > 0 {
			out = append(out, strings.Join(g, " "))
		}
	}
	return strings.Join(out, " | ")
}

func inArc(i, a, b int) bool { return a <= i && i <= b }

// cuts reports whether separating the arc a..b splits some group of w.
func (s *Stepper) cuts(w World, a, b int) bool {
	return !s.Split(w) || splitsAGroup(s.m.cfg.N, a, b, func(i int) int { return s.Group(w, model.NodeID(i)) })
}

// splitsAGroup reports whether separating the arc a..b of n nodes, whose
// group labels group gives, splits some group. A whole network it always
// splits: node 0 is outside the arc, node a inside.
func splitsAGroup(n, a, b int, group func(i int) int) bool {
	var in, out [32]bool
	for i := range n {
		g := group(i)
		if inArc(i, a, b) {
			in[g] = true
		} else {
			out[g] = true
		}
		if in[g] && out[g] {
			return true
		}
	}
	return false
}

// networkEvents appends the enabled partitions, then heal.
func (s *Stepper) networkEvents(w World, buf []Event) []Event {
	n := s.m.cfg.N
	if PartitionsUsed(w) < s.m.cfg.Partitions {
		for a := 1; a < n; a++ {
			for b := a; b < n; b++ {
				if s.cuts(w, a, b) {
					buf = append(buf, Event{Kind: Partition, Node: model.NodeID(a), From: model.NodeID(b)})
				}
			}
		}
	}
	if s.Split(w) {
		buf = append(buf, Event{Kind: Heal})
	}
	return buf
}

// partition separates the arc a..b in w, in place: messages in flight
// between nodes it separates are lost.
func (s *Stepper) partition(w World, a, b int) World {
	n := s.m.cfg.N
	w[0] += 1 << 16
	// new label: the pair (old label, side), renumbered by first appearance
	var renum [32]int8
	for i := range renum {
		renum[i] = -1
	}
	labels := make([]int, n)
	next := int8(0)
	for i := range n {
		k := s.Group(w, model.NodeID(i)) * 2
		if inArc(i, a, b) {
			k++
		}
		if renum[k] < 0 {
			renum[k] = next
			next++
		}
		labels[i] = int(renum[k])
	}
	clear(w[s.net:s.tw])
	for i, l := range labels {
		w[s.net+i/16] |= uint64(l) << (4 * (i % 16))
	}
	// messages across the new cut are lost
	out := w[:s.header]
	for _, mw := range w[s.header:] {
		if s.Connected(w, msgFrom(mw), msgTo(mw)) {
			out = append(out, mw)
		} else {
			s.lose(out, msgFrom(mw), msgTo(mw))
		}
	}
	return out
}

// heal is Apply for a Heal event, in place: every node is in group 0
// again. Timers that expired stay expired (see lose).
func (s *Stepper) heal(w World) World {
	clear(w[s.net:s.tw])
	return w
}

// networkSuccessor is Successor for a Partition or a Heal, derived from
// Apply: both are rare and rewrite the network words, and a partition
// drops the messages across its cut.
func (s *Stepper) networkSuccessor(w World, e Event) Successor { return s.builtSuccessor(w, e) }

// lose records that a message between i and j was lost to a cut: the
// timers of each that wait on the other expire. They may fire at any time
// from then on, even after a heal, as a real timeout would: whatever they
// wait for may have been lost. w is changed in place.
func (s *Stepper) lose(w World, i, j model.NodeID) {
	s.expireOn(w, i, j)
	s.expireOn(w, j, i)
}

// expireOn expires node a's timers that wait on b.
func (s *Stepper) expireOn(w World, a, b model.NodeID) {
	rec := w[1+int(a)]
	if ts := recTimers(rec); ts != 0 && !recDead(rec) {
		if exp := s.expired(ts, b); exp != ts {
			w[1+int(a)] = makeRec(recState(rec), exp, false)
		}
	}
}

// expired returns timer set ts with the timers that wait on b made to wait
// on no node.
func (s *Stepper) expired(ts uint32, b model.NodeID) uint32 {
	k := [2]uint32{ts, uint32(b)}
	if e, ok := s.expiries[k]; ok {
		return e
	}
	e := s.m.expire(ts, func(j model.NodeID) bool { return j == b })
	s.expiries[k] = e
	return e
}

// expire returns timer set ts with every timer that waits on a node lost(j)
// made to wait on no node.
func (m *Machine) expire(ts uint32, lost func(model.NodeID) bool) uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	es := slices.Clone(m.timerSets[ts])
	changed := false
	for k, e := range es {
		if slices.ContainsFunc(m.waitSets[e.wait], lost) {
			es[k].wait = m.internWaitSet(nil)
			changed = true
		}
	}
	if !changed {
		return ts
	}
	return m.internTimerSet(es)
}

// A Walker's network: each node's group label, as a Stepper keeps it in a
// World (see above), the cuts that may come next, and the
// expiry of timers waiting across a cut.

// liveNet is the network of a walk.
type liveNet struct {
	groups []uint8 // per node; all 0: whole
	split  bool
	parts  int // partitions so far
	// arcs lists the cuts enabled (a..b, as Partition events name them),
	// recomputed once the grouping changed (stale)
	arcs  [][2]model.NodeID
	stale bool
}

func (w *walker[S, M]) connected(i, j model.NodeID) bool {
	return !w.net.split || w.net.groups[i] == w.net.groups[j]
}

// partitionsOpen counts the Partition and Heal events enabled.
func (w *walker[S, M]) partitionsOpen() int {
	k := 0
	if w.net.parts < w.cfg.Partitions {
		if w.net.stale {
			w.net.arcs, w.net.stale = w.net.arcs[:0], false
			for a := 1; a < w.n; a++ {
				for b := a; b < w.n; b++ {
					if w.cuts(a, b) {
						w.net.arcs = append(w.net.arcs, [2]model.NodeID{model.NodeID(a), model.NodeID(b)})
					}
				}
			}
		}
		k = len(w.net.arcs)
	}
	if w.net.split {
		k++
	}
	return k
}

func (w *walker[S, M]) Network() int {
	if w.cfg.Partitions == 0 {
		return 0
	}
	return w.partitionsOpen()
}

func (w *walker[S, M]) Cuts() int {
	if w.cfg.Partitions == 0 || w.net.parts >= w.cfg.Partitions {
		return 0
	}
	w.partitionsOpen() // the arcs up to date
	return len(w.net.arcs)
}

// cuts reports whether separating the arc a..b splits some group.
func (w *walker[S, M]) cuts(a, b int) bool {
	return !w.net.split || splitsAGroup(w.n, a, b, func(i int) int { return int(w.net.groups[i]) })
}

// takeNetwork takes Partition or Heal event k of those partitionsOpen
// counts.
func (w *walker[S, M]) takeNetwork(k int) {
	if w.net.parts < w.cfg.Partitions {
		if k < len(w.net.arcs) {
			w.partition(int(w.net.arcs[k][0]), int(w.net.arcs[k][1]))
			return
		}
		k -= len(w.net.arcs)
	}
	if k != 0 || !w.net.split {
		panic("take: event out of range")
	}
	w.label = uint16(slices.Index(faultKinds, Heal))
	clear(w.net.groups)
	w.net.split, w.net.stale = false, true
	w.touchAll()
}

// partition separates the arc a..b: within each group it splits, the
// two sides become groups of their own, labelled in order of first
// appearance by node id; messages in flight across the cut are lost.
func (w *walker[S, M]) partition(a, b int) {
	w.label = uint16(slices.Index(faultKinds, Partition))
	w.net.parts++
	var renum [64]int8
	for k := range renum {
		renum[k] = -1
	}
	next := int8(0)
	for i, g := range w.net.groups {
		k := int(g) * 2
		if inArc(i, a, b) {
			k++
		}
		if renum[k] < 0 {
			renum[k] = next
			next++
		}
		w.net.groups[i] = uint8(renum[k])
	}
	w.net.split, w.net.stale = true, true
	for k, c := range w.used {
		from, to := model.NodeID(c/w.n), model.NodeID(c%w.n)
		if rec := w.chanRec[k]; rec.len > 0 && !w.connected(from, to) {
			for rec.len > 0 {
				w.remove(c, 0)
			}
			w.lose(from, to)
		}
	}
	w.touchAll()
}

// lose records that a message between i and j was lost to a cut: the
// timers of each that wait on the other expire (see Stepper.lose).
func (w *walker[S, M]) lose(i, j model.NodeID) {
	w.expireOn(i, j)
	w.expireOn(j, i)
}

// expireOn makes node a's timers that wait on b wait on no node.
func (w *walker[S, M]) expireOn(a, b model.NodeID) {
	nd := &w.nodes[a]
	if w.dead[a] {
		return
	}
	if waitsOn(nd.timers, b) {
		stopWaitingOn(nd.timers, b) // its outcomes, which share them, are forgotten
		nd.forget()
		w.touch(a)
	}
}

// stopWaitingOn makes the timers that wait on b wait on no node, in place.
func stopWaitingOn(timers []liveTimer, b model.NodeID) {
	for k := range timers {
		if slices.Contains(timers[k].wait, b) {
			timers[k].wait = nil
		}
	}
}

// waitsOn reports whether a timer of timers waits on node b.
func waitsOn(timers []liveTimer, b model.NodeID) bool {
	return slices.ContainsFunc(timers, func(t liveTimer) bool { return slices.Contains(t.wait, b) })
}
