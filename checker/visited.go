package checker

import "math/bits"

// fingerprint hashes a world's words to 64 bits (a wyhash-style mix: one
// 64×64→128-bit multiply per pair of words). Equal worlds have equal
// fingerprints; distinct worlds collide with probability about 2^-64.
func fingerprint(w []uint64) uint64 {
	const s0, s1, s2 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db, 0x8ebc6af09c88c6e3
	h := uint64(len(w)) * s2
	i := 0
	for ; i+1 < len(w); i += 2 {
		h = mix(w[i]^s0^h, w[i+1]^s1)
	}
	if i < len(w) {
		h = mix(w[i]^s0^h, s1)
	}
	return mix(h^s2, s0)
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// visited is the set of fingerprints seen, each numbered by discovery order.
// fps[i] is state i's fingerprint; the open-addressing table maps a
// fingerprint to its number (stored +1, 0 = empty). The table grows by half
// once three quarters full, so it costs 4/load ∈ [5.3, 8] bytes a state on
// top of the 8-byte fingerprint: at most 16 bytes a state in all.
type visited struct {
	fps   []uint64
	table []uint32
}

func newVisited(hint int) *visited {
	v := &visited{}
	v.table = make([]uint32, max(1024, hint*4/3+1))
	v.fps = make([]uint64, 0, max(1024, hint))
	return v
}

func (v *visited) len() int { return len(v.fps) }

func (v *visited) slot(fp uint64) int {
	hi, _ := bits.Mul64(fp, uint64(len(v.table)))
	return int(hi)
}

// lookup returns the number of fp, or -1.
func (v *visited) lookup(fp uint64) int {
	for s := v.slot(fp); ; {
		e := v.table[s]
		if e == 0 {
			return -1
		}
		if v.fps[e-1] == fp {
			return int(e - 1)
		}
		if s++; s == len(v.table) {
			s = 0
		}
	}
}

// insert returns the number of fp and whether it is new.
func (v *visited) insert(fp uint64) (int, bool) {
	s := v.slot(fp)
	for {
		e := v.table[s]
		if e == 0 {
			break
		}
		if v.fps[e-1] == fp {
			return int(e - 1), false
		}
		if s++; s == len(v.table) {
			s = 0
		}
	}
	n := len(v.fps)
	if n >= 1<<32-2 {
		panic("more than 2^32 states")
	}
	v.fps = append(v.fps, fp)
	v.table[s] = uint32(n + 1)
	if 4*len(v.fps) > 3*len(v.table) {
		v.grow()
	}
	return n, true
}

func (v *visited) grow() {
	v.table = make([]uint32, len(v.table)*3/2)
	for i, fp := range v.fps {
		s := v.slot(fp)
		for v.table[s] != 0 {
			if s++; s == len(v.table) {
				s = 0
			}
		}
		v.table[s] = uint32(i + 1)
	}
}

// bytes is the memory the set holds.
func (v *visited) bytes() int64 { return int64(cap(v.fps))*8 + int64(len(v.table))*4 }
