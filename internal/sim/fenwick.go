package sim

// fenwick counts enabled events per slot (channel or node) and finds the
// slot of the k-th, in slot order, in O(log slots). Its tree is a power of
// two long, so a search never leaves it, and of 32-bit counts, so that the
// 2 500 channels of 50 nodes fit in a tenth of a megabyte of cache: the
// search runs once a step, on a random k, and its branches cannot be
// predicted, only its loads kept near.
type fenwick struct {
	tree  []int32 // 1-based; entries past the last slot count nothing of their own
	count []int32
	total int
	step  int // half the tree's length: the largest power of two not above len(count)
}

func newFenwick(n int) fenwick {
	f := fenwick{count: make([]int32, n), step: 1}
	for f.step*2 <= n {
		f.step *= 2
	}
	f.tree = make([]int32, 2*f.step)
	return f
}

func (f *fenwick) reset() {
	clear(f.tree)
	clear(f.count)
	f.total = 0
}

func (f *fenwick) add(slot, d int) {
	if d == 0 {
		return
	}
	f.count[slot] += int32(d)
	f.total += d
	for i := slot + 1; i < len(f.tree); i += i & -i {
		f.tree[i] += int32(d)
	}
}

// find returns the slot holding the k-th event (from 0, below total) and
// its index within the slot.
func (f *fenwick) find(k int) (slot, j int) {
	pos, tree := 0, f.tree
	for s := f.step; s > 0; s >>= 1 {
		// pos+s < 2·step = len(tree); past the last slot a prefix is the
		// total, above k, so the search never settles there. Branch-free:
		// take is all ones when t ≤ k, else zero.
		t := int(tree[pos+s])
		take := (t - k - 1) >> 63
		pos += s & take
		k -= t & take
	}
	return pos, k
}

// prefix counts the events of the slots before slot.
func (f *fenwick) prefix(slot int) int {
	n := 0
	for i := slot; i > 0; i -= i & -i {
		n += int(f.tree[i])
	}
	return n
}
