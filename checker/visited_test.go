package checker

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInsertAllIsInsert: the parallel insert of many fingerprints, some
// already in the set, some twice, one 0 (which the set keys apart), makes
// the set that inserting them one by one makes.
func TestInsertAllIsInsert(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 1000, 100000} {
		fps := make([]uint64, size)
		for i := range fps {
			fps[i] = rng.Uint64()
			if i > 0 && rng.IntN(4) == 0 {
				fps[i] = fps[rng.IntN(i)]
			}
		}
		if size > 0 {
			fps[0] = 0
		}
		seq, par := newVisited(false), newVisited(false)
		for _, fp := range fps[:size/3] { // already there
			seq.insert(fp)
			par.insert(fp)
		}
		for _, fp := range fps {
			seq.insert(fp)
		}
		xs := []*expander{{}, {}, {}}
		par.insertAll(xs, fps)
		par.insertAll(xs, fps[size/2:]) // again
		require.Equal(t, seq.len(), par.len(), "size %d", size)
		for _, fp := range fps {
			_, ok := par.lookup(fp)
			require.True(t, ok)
		}
		for range 1000 {
			fp := rng.Uint64()
			_, in := seq.lookup(fp)
			_, got := par.lookup(fp)
			require.Equal(t, in, got)
		}
		require.LessOrEqual(t, 4*par.len(), 3*len(par.table))
	}
}
