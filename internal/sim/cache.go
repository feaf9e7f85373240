package sim

import (
	"math/bits"

	"github.com/vigil-check/vigil/model"
)

// memo is a Stepper's private memo (of handler outcomes, enabled actions,
// monitor steps): open addressing, faster on the hot path than a Go map
// because the caller hashes its key with two multiplies, inlined, where a
// map hashes a struct key with a call per field. The table never calls
// hash but to grow.
type memo[K comparable, V any] struct {
	keys []K
	vals []V
	full []bool
	n    int
	hash func(K) uint64
}

func newMemo[K comparable, V any](hash func(K) uint64) memo[K, V] {
	return memo[K, V]{keys: make([]K, 1024), vals: make([]V, 1024), full: make([]bool, 1024), hash: hash}
}

// get returns the value of k, whose hash is h.
func (c *memo[K, V]) get(k K, h uint64) (V, bool) {
	for i := int(h & uint64(len(c.keys)-1)); ; i = (i + 1) & (len(c.keys) - 1) {
		if !c.full[i] {
			var zero V
			return zero, false
		}
		if c.keys[i] == k {
			return c.vals[i], true
		}
	}
}

// put records v as the value of k, whose hash is h and which has none.
func (c *memo[K, V]) put(k K, h uint64, v V) {
	if 2*(c.n+1) > len(c.keys) {
		old, oldVals, oldFull := c.keys, c.vals, c.full
		c.keys, c.vals, c.full, c.n = make([]K, 2*len(old)), make([]V, 2*len(old)), make([]bool, 2*len(old)), 0
		for i, full := range oldFull {
			if full {
				c.put(old[i], c.hash(old[i]), oldVals[i])
			}
		}
	}
	i := int(h & uint64(len(c.keys)-1))
	for c.full[i] {
		i = (i + 1) & (len(c.keys) - 1)
	}
	c.keys[i], c.vals[i], c.full[i] = k, v, true
	c.n++
}

// mix hashes two words.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a^0x9e3779b97f4a7c15, b^0xbf58476d1ce4e5b9)
	return hi ^ lo
}

func (k stepKey) hash() uint64 { return mix(k.rec, k.in^uint64(k.node)<<40) }
func (k actKey) hash() uint64  { return mix(uint64(k.state), uint64(k.node)) }

func (k monKey) hash() uint64 {
	return mix(uint64(k.mon)<<32|uint64(k.state), uint64(k.obs.Arg)^uint64(k.node)<<40^uint64(k.obs.Kind)<<56)
}

type (
	stepMemo   = memo[stepKey, *Step]
	actionMemo = memo[actKey, []model.Action]
	monMemo    = memo[monKey, uint32]
)
