package checker

import (
	"math"

	"github.com/vigil-check/vigil/internal/sim"
)

// pathMessages gives the message figures of a sweep (Options.Sweep), which
// keeps no state graph. Every edge of a sweep goes from one level to the
// next, so the least and most messages sent on the way to a state of the
// next level follow from those of the current level and the edges between
// the two: two levels of figures are all it holds.
type pathMessages struct {
	dims      int       // the total, then each kind
	cur, next []int32   // per state: dims least, then dims most
	weights   [][]int32 // by sim.Step.Sent, once met
	sent      func(uint16) []int
	lo, hi    []int // over the runs ended so far
	ended     bool
}

func newPathMessages(sent func(uint16) []int) *pathMessages {
	p := &pathMessages{dims: 1, sent: sent}
	p.cur = make([]int32, 2) // the initial world: nothing sent yet
	p.lo, p.hi = []int{math.MaxInt}, []int{math.MinInt}
	return p
}

// grow makes room for kinds of message, a step having sent one of a kind
// first met: every path so far sent none of it.
func (p *pathMessages) grow(kinds int) {
	old := p.dims
	p.dims = 1 + kinds
	relayout := func(xs []int32) []int32 {
		out := make([]int32, 0, len(xs)/old*p.dims*2)
		for i := 0; i < len(xs); i += 2 * old {
			for _, part := range [][]int32{xs[i : i+old], xs[i+old : i+2*old]} {
				fill := int32(0)
				if part[0] == math.MaxInt32 || part[0] == math.MinInt32 {
					fill = part[0] // a state no edge reached yet
				}
				out = append(out, part...)
				for range p.dims - old {
					out = append(out, fill)
				}
			}
		}
		return out
	}
	p.cur, p.next = relayout(p.cur), relayout(p.next)
	for range p.dims - old {
		if p.ended {
			p.lo, p.hi = append(p.lo, 0), append(p.hi, 0)
		} else {
			p.lo, p.hi = append(p.lo, math.MaxInt), append(p.hi, math.MinInt)
		}
	}
	clear(p.weights)
}

func (p *pathMessages) startLevel() { p.next = p.next[:0] }

func (p *pathMessages) endLevel() { p.cur, p.next = p.next, p.cur }

// add appends a state to the next level, reached by no edge yet.
func (p *pathMessages) add() {
	for range p.dims {
		p.next = append(p.next, math.MaxInt32)
	}
	for range p.dims {
		p.next = append(p.next, math.MinInt32)
	}
}

// edge takes in the step from state s of the current level to state t of
// the next.
func (p *pathMessages) edge(s, t int, step *sim.Step) {
	var id uint16 // a fault's edge (no step) sends nothing
	if step != nil {
		id = step.Sent
	}
	if int(id) >= len(p.weights) {
		p.weights = append(p.weights, make([][]int32, int(id)+1-len(p.weights))...)
	}
	w := p.weights[id]
	if w == nil {
		sent := p.sent(id)
		if len(sent) >= p.dims {
			p.grow(len(sent))
		}
		w = make([]int32, p.dims)
		for k, x := range sent {
			w[0] += int32(x)
			w[1+k] += int32(x)
		}
		p.weights[id] = w
	}
	src := p.cur[2*p.dims*s:][:2*p.dims]
	dst := p.next[2*p.dims*t:][:2*p.dims]
	for d := range p.dims {
		dst[d] = min(dst[d], src[d]+w[d])
		dst[p.dims+d] = max(dst[p.dims+d], src[p.dims+d]+w[d])
	}
}

// end takes in state s of the current level as the end of runs.
func (p *pathMessages) end(s int) {
	src := p.cur[2*p.dims*s:][:2*p.dims]
	for d := range p.dims {
		p.lo[d] = min(p.lo[d], int(src[d]))
		p.hi[d] = max(p.hi[d], int(src[p.dims+d]))
	}
	p.ended = true
}

// ranges returns the figures over every run that ended, as
// graph.messageRanges does, counting the messages the Init steps sent.
func (p *pathMessages) ranges(kinds []string, initSteps []*sim.Step) []MessageRange {
	if !p.ended {
		return nil
	}
	initial := sim.SentByKind(initSteps...)
	out := make([]MessageRange, 1+len(kinds))
	for d := range out {
		out[d] = MessageRange{Kind: "total"}
		if d > 0 {
			out[d].Kind = kinds[d-1]
		}
		if d < p.dims {
			out[d].Min, out[d].Max = p.lo[d], p.hi[d]
		}
		for k, x := range initial {
			if d == 0 || k == d-1 {
				out[d].Min += x
				out[d].Max += x
			}
		}
	}
	return out
}
