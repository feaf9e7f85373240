package sim

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// A Walker's network: each node's group label, as a Stepper keeps it in a
// World (see network.go), the cuts that may come next, and the
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
