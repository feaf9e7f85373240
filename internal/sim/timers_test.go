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

// The merge that builds the timers after a call with many operations
// gives what applying them one by one gives: the fired timer gone, then
// each operation in order, the last on a key deciding; its buffers,
// reused from case to case, hold nothing over.
func TestMergedTimersAreThoseAppliedInOrder(t *testing.T) {
	var mb mergeBuf
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f", "g", "h"})
		var ids timerIDs
		timer := func(k string, wait int) liveTimer {
			tm := liveTimer{t: model.Timer(k), id: ids.of(k, func(model.Timer) string { return k })}
			if wait > 0 {
				tm.wait = []model.NodeID{model.NodeID(wait)}
			}
			return tm
		}
		var r liveResult[int, int]
		for _, k := range rapid.SliceOfDistinct(key, func(k string) string { return k }).Draw(t, "base") {
			r.base = append(r.base, timer(k, rapid.IntRange(0, 2).Draw(t, "wait")))
		}
		slices.SortFunc(r.base, func(a, b liveTimer) int { return strings.Compare(a.id.key, b.id.key) })
		r.fired = rapid.IntRange(-1, len(r.base)-1).Draw(t, "fired")
		for range rapid.IntRange(0, 20).Draw(t, "ops") {
			r.ops = append(r.ops, liveOp{timer(key.Draw(t, "key"), rapid.IntRange(0, 2).Draw(t, "wait")), rapid.Bool().Draw(t, "armed")})
		}

		// one by one, by name
		want := map[string]liveTimer{}
		for k, tm := range r.base {
			if k != r.fired {
				want[tm.id.key] = tm
			}
		}
		for _, op := range r.ops {
			if op.armed {
				want[op.id.key] = op.liveTimer
			} else {
				delete(want, op.id.key)
			}
		}
		var wantList []string
		for _, k := range slices.Sorted(maps.Keys(want)) {
			wantList = append(wantList, fmt.Sprintf("%s%v", k, want[k].wait))
		}
		var got []string
		for _, tm := range r.mergedTimers(&mb) {
			got = append(got, fmt.Sprintf("%s%v", tm.id.key, tm.wait))
		}
		require.Equal(t, wantList, got)
	})
}

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
