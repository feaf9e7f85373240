package checker

import "slices"

// What a search keeps of the states it has met, by strategy:
//
//   - full: one visited set of every state, and each state's parent and
//     event, for counterexamples;
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
	e.lean = opt.lean
	e.sweep = opt.Sweep || e.lean
	e.windowSize = opt.Window
	e.parents = !e.sweep || opt.traced
	switch {
	case e.sweep && opt.Messages:
		e.paths = newPathMessages()
	case needsGraph && !e.lean:
		e.g = &graph{pending: make([][]uint64, len(e.live))}
	}
	e.vis = newVisited(e.keepsEdges())
	return opt
}

// startLevel readies the visited sets for the expansion of cur: in a
// sweep or a lean search, cur's own set goes into the window, or is emptied
// for the next level.
func (e *search) startLevel(xs []*expander, cur *level) {
	if !e.sweep {
		return
	}
	spare := e.vis
	if e.lean {
		if e.window == nil {
			e.window = []*visited{newVisited(false)}
		}
		e.window[0].insertAll(xs, cur.fps)
	} else if e.windowSize > 1 {
		e.window = append(e.window, e.vis)
		spare = nil
		if len(e.window) > e.windowSize-1 {
			spare = e.window[0]
			e.window = slices.Delete(e.window, 0, 1)
		}
	}
	if spare != nil {
		e.vis = spare.empty()
	} else {
		e.vis = newVisited(e.paths != nil)
	}
}

// windowBytes is the memory of a sweep's visited sets.
func (e *search) windowBytes() int64 {
	b := e.vis.bytes() + e.vis.numberBytes()
	for _, v := range e.window {
		b += v.bytes() + v.numberBytes()
	}
	return b
}

// inWindow reports whether fp is a state of one of the earlier levels a
// sweep keeps.
func (e *search) inWindow(fp uint64) bool {
	for _, v := range e.window {
		if _, ok := v.lookup(fp); ok {
			return true
		}
	}
	return false
}
