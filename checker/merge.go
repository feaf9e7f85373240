package checker

// The merge: a wave's chunks taken in, in a fixed order, whatever the
// number of workers.

// merge takes in a wave's chunks, sequentially and in order: it numbers
// their new states, appends them to the next level (fingerprints, and
// offsets of the worlds that rebuild writes), and records their
// violations. Their edges are recorded apart (waveEdges), while their
// worlds are rebuilt.
func (e *search) merge(chunks []*chunk, next *level, res *Result) {
	for _, c := range chunks {
		res.Stats.Transitions += c.trans
		e.cover.addAll(c.cover)
		e.quiet += int64(c.quiet)
		e.reduced += int64(c.reduced)
		e.rounds.merge(c.rounds)
		e.revisits += c.revisits
		for k := range c.cand {
			if k%16 == 0 {
				e.sink ^= e.seen.next.touchCands(c.cand[k:min(k+16, len(c.cand))])
			}
			cd := &c.cand[k]
			num, fresh := e.seen.next.insert(cd.fp)
			cd.dst = -1
			if fresh {
				cd.dst = int32(next.add(cd.fp, int(cd.wlen)))
				e.count++
				if e.parents {
					e.parent = append(e.parent, uint32(c.lo)+uint32(cd.src))
					e.via = append(e.via, uint32(cd.pos))
				}
				if e.paths != nil {
					e.paths.add()
				}
			}
			if e.seen.numbered {
				cd.fp = uint64(num)
			}
		}
		for _, v := range c.viol {
			e.record(v)
		}
	}
}

// waveEdges records the edges of a wave's chunks, once merge has numbered
// their states, on a goroutine of its own: it writes only the state graph
// or the figures, which nothing else touches until the returned channel is
// closed, so the search rebuilds the wave's worlds meanwhile.
func (e *search) waveEdges(chunks []*chunk) <-chan struct{} {
	done := make(chan struct{})
	if !e.keepsEdges() {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		for _, c := range chunks {
			e.edges(c)
		}
	}()
	return done
}

// keepsEdges: the edges of each level are wanted, by the state graph or by
// a sweep's message figures, and the visited set numbers states for them.
func (e *search) keepsEdges() bool { return e.g != nil || e.paths != nil }

// edges records the edges out of c's states: into the state graph, or
// into the message figures of the paths that reach the next level.
func (e *search) edges(c *chunk) {
	k := 0
	for i, ns := range c.nsucc {
		if e.g != nil {
			e.g.startNode(c.qs[i])
		} else if c.qs[i] {
			e.paths.end(c.lo - e.levelLo + i)
		}
		for range ns {
			t := c.succ[k]
			if t == revisit {
				k++
				continue
			}
			if t < 0 {
				t = int64(c.cand[-1-t].fp)
			}
			if e.g != nil {
				e.g.addEdge(uint32(t), c.steps[k])
				if len(e.live) > 0 {
					e.g.addLabel(c.ids[k])
				}
			} else {
				e.paths.edge(c.lo-e.levelLo+i, int(t), c.steps[k])
			}
			k++
		}
	}
	if e.g != nil {
		for j, x := range c.pend {
			e.g.pending[j%len(e.live)] = append(e.g.pending[j%len(e.live)], x)
		}
	}
}
