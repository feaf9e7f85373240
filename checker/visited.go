package checker

import (
	"context"
	"math/bits"
	"sync/atomic"
)

// key maps a world's fingerprint (sim.Stepper.Fingerprint) to the
// visited set's key space, where 0 marks an empty slot.
func key(fp uint64) uint64 {
	if fp == 0 {
		return 1
	}
	return fp
}

// visited is the set of fingerprints seen: open addressing with linear
// probing, the fingerprint itself in the slot, so a lookup costs one cache
// miss. The table grows by half once three quarters full: its load stays in
// [1/2, 3/4], so it costs 8/load ∈ [10.7, 16] bytes a state. When numbered,
// a parallel array gives each state its number in discovery order (4/load
// more bytes a state), for the state graph.
type visited struct {
	table    []uint64
	nums     []uint32
	numbered bool
	n        int
}

func newVisited(numbered bool) *visited {
	v := &visited{numbered: numbered}
	v.alloc(1 << 12)
	return v
}

func (v *visited) alloc(size int) {
	v.table = make([]uint64, size)
	if v.numbered {
		v.nums = make([]uint32, size)
	}
}

func (v *visited) len() int { return v.n }

func (v *visited) slot(fp uint64) int {
	hi, _ := bits.Mul64(fp, uint64(len(v.table)))
	return int(hi)
}

// lookup reports whether fp was seen, with its number when numbered.
func (v *visited) lookup(fp uint64) (int, bool) {
	fp = key(fp)
	for s := v.slot(fp); ; {
		switch v.table[s] {
		case 0:
			return -1, false
		case fp:
			if v.numbered {
				return int(v.nums[s]), true
			}
			return -1, true
		}
		if s++; s == len(v.table) {
			s = 0
		}
	}
}

// insert adds fp if new; it returns fp's number (if numbered) and whether
// fp is new. New fingerprints are numbered 0, 1, 2, ... in insertion order.
func (v *visited) insert(fp uint64) (int, bool) {
	fp = key(fp)
	s := v.slot(fp)
	for {
		switch v.table[s] {
		case 0:
			num := v.n
			v.table[s] = fp
			if v.numbered {
				v.nums[s] = uint32(num)
			}
			v.n++
			if 4*v.n > 3*len(v.table) {
				v.grow()
			}
			return num, true
		case fp:
			if v.numbered {
				return int(v.nums[s]), false
			}
			return -1, false
		}
		if s++; s == len(v.table) {
			s = 0
		}
	}
}

// empty removes every fingerprint, keeping the memory for new ones.
func (v *visited) empty() *visited {
	clear(v.table)
	clear(v.nums)
	v.n = 0
	return v
}

// insertAll adds every fingerprint of fps, fps split among the expanders
// (the set is not numbered): the table grows first, to hold them all, and
// each slot is claimed by compare-and-swap, so that the inserts need no
// lock. Fingerprints are only ever added, so a slot once claimed keeps its
// fingerprint, and the probe sequences stay those of a sequential insert.
func (v *visited) insertAll(xs []*expander, fps []uint64) {
	if v.numbered {
		panic("insertAll: a numbered set")
	}
	size := len(v.table)
	for 4*(v.n+len(fps)) > 3*size {
		size = size * 3 / 2
	}
	if size > len(v.table) {
		v.rehash(size)
	}
	const part = 1 << 14
	var added atomic.Int64
	eachChunk(context.Background(), xs, (len(fps)+part-1)/part, func(_ *expander, i int) {
		n := 0
		for _, fp := range fps[i*part : min(len(fps), (i+1)*part)] {
			fp = key(fp)
			for s := v.slot(fp); ; {
				old := atomic.LoadUint64(&v.table[s])
				if old == 0 {
					if !atomic.CompareAndSwapUint64(&v.table[s], 0, fp) {
						continue // another took the slot: look at it again
					}
					n++
					break
				}
				if old == fp {
					break
				}
				if s++; s == len(v.table) {
					s = 0
				}
			}
		}
		added.Add(int64(n))
	})
	v.n += int(added.Load())
}

func (v *visited) grow() { v.rehash(len(v.table) * 3 / 2) }

// rehash moves the set into a table of size slots.
func (v *visited) rehash(size int) {
	old, oldNums := v.table, v.nums
	v.alloc(size)
	for i, fp := range old {
		if fp == 0 {
			continue
		}
		s := v.slot(fp)
		for v.table[s] != 0 {
			if s++; s == len(v.table) {
				s = 0
			}
		}
		v.table[s] = fp
		if v.numbered {
			v.nums[s] = oldNums[i]
		}
	}
}

// bytes is the memory the set of fingerprints holds; numberBytes that of
// the numbering, which only the state graph needs.
func (v *visited) bytes() int64       { return int64(len(v.table)) * 8 }
func (v *visited) numberBytes() int64 { return int64(len(v.nums)) * 4 }

// touch reads the home slots of fps so that their cache misses overlap
// rather than queue behind one another in the lookups that follow. The
// result only keeps the compiler from dropping the loads.
func (v *visited) touch(fps []uint64) uint64 {
	var x uint64
	for _, fp := range fps {
		x ^= v.table[v.slot(fp)]
	}
	return x
}

func (v *visited) touchCands(cs []candidate) uint64 {
	var x uint64
	for i := range cs {
		x ^= v.table[v.slot(cs[i].fp)]
	}
	return x
}
