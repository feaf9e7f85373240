package checker

import (
	"context"
	"slices"
	"unsafe"

	"github.com/klauspost/compress/s2"

	"github.com/vigil-check/vigil/internal/sim"
)

// level is a BFS frontier: state i has fingerprint fps[i], and its world is
// in unit i/chunkSize, the worlds of one chunk compressed together.
//
// The worlds of a level are most of an exhaustive search's memory at its
// widest levels, and they compress well: states found from one state are
// neighbours in the level and differ in a few words, which a fast LZ77
// coder finds (ten to one on Chang-Roberts' worlds, at GB/s). A level is
// built a wave at a time: the merge adds the wave's new states, the rebuild
// writes their worlds uncompressed (raw), and pack compresses every unit
// whose states are all there. An expander reads a chunk's unit back whole
// (unitReader).
type level struct {
	fps   []uint64
	units [][]byte // units[k]: the worlds of states k*chunkSize to (k+1)*chunkSize-1
	// raw: the worlds of the states not yet packed, from len(units)*chunkSize
	// on: the j-th of them is raw[at[j]:at[j+1]]
	raw []uint64
	at  []int32
}

// reset empties the level, for a new one.
func (l *level) reset() {
	clear(l.units)
	*l = level{fps: l.fps[:0], units: l.units[:0], raw: l.raw[:0], at: append(l.at[:0], 0)}
}

func (l *level) len() int { return len(l.fps) }

// first makes l the first level: the initial world w, of fingerprint fp.
func (l *level) first(xs []*expander, fp uint64, w sim.World) {
	l.reset()
	l.add(fp, len(w))
	l.grow()
	copy(l.world(0), w)
	l.pack(xs, true)
}

// add appends a state whose world, n words long, is to be written at
// l.world(i) for the index i it returns, once the merge is over (see grow).
func (l *level) add(fp uint64, n int) int {
	l.fps = append(l.fps, fp)
	l.at = append(l.at, l.at[len(l.at)-1]+int32(n))
	return len(l.fps) - 1
}

// grow makes room for the worlds of the states added.
func (l *level) grow() {
	n := int(l.at[len(l.at)-1])
	l.raw = slices.Grow(l.raw, n-len(l.raw))[:n]
}

// world is the memory of state i's world, not yet packed.
func (l *level) world(i int) sim.World {
	j := i - len(l.units)*chunkSize
	return l.raw[l.at[j]:l.at[j+1]:l.at[j+1]]
}

// pack compresses, in parallel, every unit whose states are all written
// (every unit, when the level is complete), and keeps the rest raw.
func (l *level) pack(xs []*expander, complete bool) {
	first, ready := len(l.units), l.len()/chunkSize
	if complete {
		ready = (l.len() + chunkSize - 1) / chunkSize
	}
	if ready <= first {
		return
	}
	l.units = append(l.units, make([][]byte, ready-first)...)
	eachChunk(context.Background(), xs, ready-first, func(x *expander, k int) {
		lo, hi := k*chunkSize, min(l.len()-first*chunkSize, (k+1)*chunkSize)
		x.out.reset()
		for j := lo; j < hi; j++ {
			x.out.add(l.raw[l.at[j]:l.at[j+1]])
		}
		l.units[first+k] = x.out.close()
	})
	// the states left raw go to the front
	done := min(len(l.at)-1, (ready-first)*chunkSize)
	base := l.at[done]
	l.raw = l.raw[:copy(l.raw, l.raw[base:])]
	l.at = l.at[:copy(l.at, l.at[done:])]
	for j := range l.at {
		l.at[j] -= base
	}
}

// unitWriter gathers the worlds of a unit and compresses them.
type unitWriter struct {
	words []uint64
	enc   []byte
}

func (u *unitWriter) reset() { u.words = u.words[:0] }

// add appends a world, as its length then its words.
func (u *unitWriter) add(w sim.World) {
	u.words = append(u.words, uint64(len(w)))
	u.words = append(u.words, w...)
}

// close returns the unit, compressed, in memory of its own.
func (u *unitWriter) close() []byte {
	raw := asBytes(u.words)
	if n := s2.MaxEncodedLen(len(raw)); cap(u.enc) < n {
		u.enc = make([]byte, n)
	}
	return append([]byte(nil), s2.Encode(u.enc[:cap(u.enc)], raw)...)
}

// unitReader holds one unit of a level, decompressed.
type unitReader struct {
	words []uint64
	at    []int32 // at[i]: where the unit's i-th world starts in words
}

// load decompresses unit k of lv.
func (r *unitReader) load(lv *level, k int) {
	unit := lv.units[k]
	n, err := s2.DecodedLen(unit)
	if err != nil {
		panic("checker: a frontier unit does not decode: " + err.Error())
	}
	if cap(r.words)*8 < n {
		r.words = make([]uint64, (n+7)/8)
	}
	r.words = r.words[:n/8]
	if _, err := s2.Decode(asBytes(r.words), unit); err != nil {
		panic("checker: a frontier unit does not decode: " + err.Error())
	}
	r.at = r.at[:0]
	for j := 0; j < len(r.words); j += 1 + int(r.words[j]) {
		r.at = append(r.at, int32(j))
	}
}

// world is the unit's i-th world.
func (r *unitReader) world(i int) sim.World {
	j := r.at[i]
	n := int32(r.words[j])
	return r.words[j+1 : j+1+n : j+1+n]
}

// asBytes is ws's memory as bytes, in the machine's byte order: units
// never leave the process.
func asBytes(ws []uint64) []byte {
	if len(ws) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&ws[0])), len(ws)*8)
}
