package sim

// chunks hands out short slices carved from larger blocks, so that the many
// small slices a walk makes (the nodes a timer waits on, the messages and
// timer operations of an outcome kept for later) cost one allocation per
// block rather than one each. A slice handed out has its capacity set to
// its length: appending to it copies, and never writes into the next
// one. A block is freed once no slice carved from it is reachable.
type chunks[T any] struct{ free []T }

// chunkLen is the length of a block; a slice of more than a quarter of it
// is allocated on its own.
const chunkLen = 256

// take returns an empty slice with room for n elements (nil for n = 0).
func (c *chunks[T]) take(n int) []T {
	switch {
	case n == 0:
		return nil
	case n > chunkLen/4:
		return make([]T, 0, n)
	case n > len(c.free):
		c.free = make([]T, chunkLen)
	}
	s := c.free[:0:n]
	c.free = c.free[n:]
	return s
}
