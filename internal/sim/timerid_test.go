package sim

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/vigil-check/vigil/model"
)

// Timers met in any order, again and again at one end (which exhausts the
// room between ranks and spreads them again), are ranked as their keys
// are ordered, one identity per key.
func TestTimerIDsRankAsKeysOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var ids timerIDs
		names := rapid.SliceOf(rapid.StringMatching(`[a-c]{0,4}`)).Draw(t, "names")
		if rapid.Bool().Draw(t, "descending") {
			// inserted at the front every time: 64 halvings use up the room
			names = nil
			for k := 200; k > 0; k-- {
				names = append(names, strings.Repeat("a", k))
			}
		}
		keyOf := func(tm model.Timer) string { return tm.(string) }
		got := map[string]*timerID{}
		for _, n := range names {
			id := ids.of(n, keyOf)
			require.Equal(t, n, id.key)
			if seen, ok := got[n]; ok {
				require.Same(t, seen, id)
			}
			got[n] = id
		}
		keys := slices.Sorted(maps.Keys(got))
		for k := 1; k < len(keys); k++ {
			require.Less(t, got[keys[k-1]].ord, got[keys[k]].ord, "%q before %q", keys[k-1], keys[k])
		}
	})
}

type timerA int
type timerB int

// Timers of two types with equal values, boxed to one value word (small
// integers share theirs), or to new words at every boxing, keep one
// identity per type and value.
func TestTimerIDsTellTypesApart(t *testing.T) {
	var ids timerIDs
	keyOf := func(tm model.Timer) string { return fmt.Sprintf("%T %v", tm, tm) }
	first := map[string]*timerID{}
	for range 3 {
		for v := range 600 {
			for _, tm := range []model.Timer{timerA(v), timerB(v)} {
				id := ids.of(tm, keyOf)
				require.Equal(t, keyOf(tm), id.key)
				if seen, ok := first[id.key]; ok {
					require.Same(t, seen, id)
				}
				first[id.key] = id
			}
		}
	}
	require.Len(t, first, 1200)

	// a timer whose slot holds another type's value of one value word
	// (small integers share theirs) is not taken for it
	for v := range 200 {
		a, b := model.Timer(timerA(v)), model.Timer(timerB(v))
		*ids.slot(interfaceWords(b)) = recentTimer{interfaceWords(a), ids.of(a, keyOf)}
		require.Equal(t, keyOf(b), ids.of(b, keyOf).key)
	}
}
