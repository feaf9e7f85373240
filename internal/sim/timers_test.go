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
