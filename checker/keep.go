package checker

import "slices"

// What a search keeps of the states it has met, by strategy:
//
//   - full: one visited set of every state; the parents of states, for
//     counterexamples, only in the search run again to find them;
//   - graph: the same, numbered, with the edges between states, where
//     message figures or liveness need the state graph (graph.go);
//   - lean: where they would need it, first a visited set per level, the
//     next one's, and the earlier levels merged into one set (the window);
//     no parents and no graph, figures carried level to level (paths.go);
//     it gives way to the graph at the first edge that goes back a level;
//   - sweep: the next level's visited set alone, or with the sets of a few
//     levels before (Options.Sweep and Window), for runs that all end.

// choose sets up the search's strategy for opt, and returns opt with it
// recorded, for the searches run again (again.go).
func (e *search) choose(opt Options) Options {
	// (rounds need to know whether some runs never end)
	needsGraph := !opt.Sweep && (opt.Messages || len(e.live) > 0 || opt.Rounds && !opt.clocked)
	opt.lean = opt.lean || needsGraph && !opt.graph
	// Parents serve counterexamples alone, and most searches find none:
	// only the graph, which judges cycles on them, keeps them from the
	// start; the others search again for their traces (searchForTraces).
	e.parents = opt.traced || needsGraph && !opt.lean
	switch {
	case (opt.Sweep || opt.lean) && opt.Messages:
		e.paths = newPathMessages(e.m.SentCounts)
	case needsGraph && !opt.lean:
		e.g = &graph{pending: make([][]uint64, len(e.live))}
	}
	// a search reduced by partial order keeps its levels apart as a lean
	// one does, for the cycle proviso, unless it keeps the graph, whose
	// numbers tell the levels apart (see reachedBefore); a sweep keeps
	// none (see partialOrder)
	leveled := opt.lean || e.por && !opt.Sweep && e.g == nil
	e.fallsBack = opt.lean
	e.seen = &seen{perLevel: opt.Sweep || leveled, lean: leveled, size: opt.Window, numbered: e.keepsEdges()}
	e.seen.next = newVisited(e.seen.numbered)
	return opt
}

// fellBack reports whether a lean search met an edge that does not go from
// one level to the next: Exhaustive then searches again with the graph.
func (e *search) fellBack() bool { return e.fallsBack && e.revisits > 0 }

// seen is the visited sets of a search.
type seen struct {
	// next: every state met, or, with sets per level (a sweep or a lean
	// search), the next level's
	next     *visited
	perLevel bool
	// lean: a search whose figures and liveness would need the state
	// graph goes with a visited set per level and one of every earlier
	// level, and keeps no parents (see Exhaustive). As long as every edge
	// goes from one level to the next the graph has no cycle, runs end
	// where quiescence is judged, and figures carry from level to level.
	lean     bool
	numbered bool // next numbers its states, for the edges of the graph or figures
	// window: the sets of the earlier levels kept: a sweep's last size-1
	// (Options.Window), oldest first, or a lean search's every one, in one
	window []*visited
	size   int
	// peak: the most memory the sets held at once; pairs: the pairs of
	// states of a sweep that shared a set, the only ones whose
	// fingerprints could be confused
	peak  int64
	pairs float64
}

// startLevel readies the sets for the expansion of cur: with sets per
// level, cur's own goes into the window, or is emptied for the next level.
func (v *seen) startLevel(xs []*expander, cur *level) {
	if !v.perLevel {
		return
	}
	spare := v.next
	if v.lean {
		if v.window == nil {
			v.window = []*visited{newVisited(false)}
		}
		v.window[0].insertAll(xs, cur.fps)
	} else if v.size > 1 {
		v.window = append(v.window, v.next)
		spare = nil
		if len(v.window) > v.size-1 {
			spare = v.window[0]
			v.window = slices.Delete(v.window, 0, 1)
		}
	}
	if spare != nil {
		v.next = spare.empty()
	} else {
		v.next = newVisited(v.numbered)
	}
}

// endWave notes the memory the sets hold.
func (v *seen) endWave() { v.peak = max(v.peak, v.bytes()) }

// endLevel takes in the next level's size, n states, for the collision
// bound of a sweep.
func (v *seen) endLevel(n int) {
	if !v.perLevel || v.lean {
		return
	}
	l, w := float64(n), 0.0
	for _, s := range v.window {
		w += float64(s.len())
	}
	v.pairs += l*l/2 + l*w
}

// find looks fp up: in next (with its number, when numbered), or in the
// window (earlier: an edge back to a level already expanded).
func (v *seen) find(fp uint64) (num int, found, earlier bool) {
	if num, found = v.next.lookup(fp); found {
		return num, true, false
	}
	for _, s := range v.window {
		if _, ok := s.lookup(fp); ok {
			return -1, false, true
		}
	}
	return -1, false, false
}

// touch reads the home slots of fps in every set (see visited.touch).
func (v *seen) touch(fps []uint64) uint64 {
	x := v.next.touch(fps)
	for _, s := range v.window {
		x ^= s.touch(fps)
	}
	return x
}

// bytes is the memory of the sets' fingerprints and numbers.
func (v *seen) bytes() int64 {
	b := v.next.bytes() + v.next.numberBytes()
	for _, s := range v.window {
		b += s.bytes() + s.numberBytes()
	}
	return b
}

// visitedBytes is the memory of the fingerprints a state, among states:
// with sets per level, the most they held; else the one set's (its
// numbering counts as the graph's).
func (v *seen) visitedBytes(states int64) float64 {
	if v.perLevel {
		return float64(v.peak) / float64(max(1, states))
	}
	return float64(v.next.bytes()) / float64(max(1, states))
}

// collision bounds the probability that two of the states shared a
// fingerprint: any two of them, or a sweep's pairs that shared a set.
func (v *seen) collision(states int64) float64 {
	if v.perLevel && !v.lean {
		return min(1, v.pairs/(1<<64))
	}
	s := float64(states)
	return min(1, s*s/(1<<65))
}
