package sim

import "math/bits"

// stepCache is a Stepper's private memo of handler outcomes: open
// addressing keyed by (node, record, input), faster on the hot path than a
// Go map because the key hashes with two multiplies.
type stepCache struct {
	keys  []stepKey
	steps []*Step
	n     int
}

func newStepCache() stepCache {
	return stepCache{keys: make([]stepKey, 1024), steps: make([]*Step, 1024)}
}

func (c *stepCache) slot(k stepKey) int {
	hi, lo := bits.Mul64(k.rec^0x9e3779b97f4a7c15, k.in^uint64(k.node)<<40^0xbf58476d1ce4e5b9)
	return int((hi ^ lo) & uint64(len(c.keys)-1))
}

func (c *stepCache) get(k stepKey) *Step {
	for i := c.slot(k); ; i = (i + 1) & (len(c.keys) - 1) {
		if c.steps[i] == nil {
			return nil
		}
		if c.keys[i] == k {
			return c.steps[i]
		}
	}
}

func (c *stepCache) put(k stepKey, st *Step) {
	if 2*(c.n+1) > len(c.keys) {
		old, oldSteps := c.keys, c.steps
		c.keys, c.steps, c.n = make([]stepKey, 2*len(old)), make([]*Step, 2*len(old)), 0
		for i, s := range oldSteps {
			if s != nil {
				c.put(old[i], s)
			}
		}
	}
	i := c.slot(k)
	for c.steps[i] != nil {
		i = (i + 1) & (len(c.keys) - 1)
	}
	c.keys[i], c.steps[i] = k, st
	c.n++
}
