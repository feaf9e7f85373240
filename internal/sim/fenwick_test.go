package sim

import (
	"testing"

	"pgregory.net/rapid"
)

// TestFenwickFindsTheKthEvent checks find against a scan of the counts,
// for slot counts on and off powers of two, through adds and removals.
func TestFenwickFindsTheKthEvent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 70).Draw(t, "slots")
		f := newFenwick(n)
		counts := make([]int, n)
		for range rapid.IntRange(1, 60).Draw(t, "ops") {
			slot := rapid.IntRange(0, n-1).Draw(t, "slot")
			d := rapid.IntRange(-counts[slot], 5).Draw(t, "d")
			f.add(slot, d)
			counts[slot] += d
			total := 0
			for s, c := range counts {
				if int(f.count[s]) != c {
					t.Fatalf("count[%d] = %d, want %d", s, f.count[s], c)
				}
				for j := range c {
					if gs, gj := f.find(total + j); gs != s || gj != j {
						t.Fatalf("find(%d) = (%d, %d), want (%d, %d); counts %v", total+j, gs, gj, s, j, counts)
					}
				}
				total += c
			}
			if f.total != total {
				t.Fatalf("total %d, want %d", f.total, total)
			}
			if rapid.Bool().Draw(t, "reset") {
				f.reset()
				clear(counts)
			}
		}
	})
}
