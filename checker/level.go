package checker

import "github.com/vigil-check/vigil/internal/sim"

// level is a BFS frontier: state i's world is at loc[i] in the level's
// blocks of words, and its fingerprint is fps[i]. Worlds are written into
// fixed-size blocks, never across two, and the blocks of a level that has
// been expanded go back to a pool for the next one: a wide level neither
// copies what it holds as it grows nor leaves garbage behind.
type level struct {
	blocks [][]uint64
	loc    []uint64 // start<<locBits | length; start counts words over the blocks
	fps    []uint64
	end    uint64 // the first word not yet given to a world
	pool   *blockPool
}

const (
	blockBits = 18 // words a block: 2 MiB
	locBits   = 24 // a world's length, in words, fits in these bits of loc
)

// blockPool holds the blocks of expanded levels, for reuse.
type blockPool struct{ free [][]uint64 }

func (p *blockPool) get() []uint64 {
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b
	}
	return make([]uint64, 1<<blockBits)
}

func newLevel(pool *blockPool) level { return level{pool: pool} }

// reset empties the level, its blocks back in the pool.
func (l *level) reset() {
	for _, b := range l.blocks {
		if len(b) == 1<<blockBits {
			l.pool.free = append(l.pool.free, b)
		}
	}
	*l = level{blocks: l.blocks[:0], loc: l.loc[:0], fps: l.fps[:0], pool: l.pool}
}

// add appends a state whose world is n words long, to be written at
// l.slot(i) for the index i it returns.
func (l *level) add(fp uint64, n int) int {
	if n >= 1<<locBits {
		panic("a world of more than 2^24 words")
	}
	start := l.end
	if start>>blockBits == uint64(len(l.blocks)) || (start+uint64(n)-1)>>blockBits != start>>blockBits {
		// the world does not fit in what is left of the last block
		start = uint64(len(l.blocks)) << blockBits
		if n <= 1<<blockBits {
			l.blocks = append(l.blocks, l.pool.get())
		} else { // a world larger than a block has blocks of its own
			for range (n + 1<<blockBits - 1) >> blockBits {
				l.blocks = append(l.blocks, nil)
			}
			l.blocks[start>>blockBits] = make([]uint64, n)
		}
	}
	l.end = start + uint64(n)
	if n > 1<<blockBits {
		l.end = uint64(len(l.blocks)) << blockBits
	}
	l.loc = append(l.loc, start<<locBits|uint64(n))
	l.fps = append(l.fps, fp)
	return len(l.loc) - 1
}

// world is state i's world; it may be written to, once, before the level
// is expanded.
func (l *level) world(i int) sim.World {
	start, n := l.loc[i]>>locBits, l.loc[i]&(1<<locBits-1)
	b := l.blocks[start>>blockBits]
	o := start & (1<<blockBits - 1)
	return b[o : o+n : o+n]
}

func (l *level) len() int { return len(l.loc) }
