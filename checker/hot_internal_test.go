package checker

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The repeating tail of a hot stretch: the shortest sequence that covers
// the most of its end, back to back, twice or more and over half of it.
func TestRepeating(t *testing.T) {
	cases := []struct {
		labels string // one letter a label
		want   string
		times  int
	}{
		{"abab", "ab", 2},
		{"xyzabcabcabc", "abc", 3},
		{"xaaa", "a", 3},
		{"abcab", "", 0},     // no whole second repetition
		{"xyzwvuab", "", 0},  // none
		{"xyzwvabab", "", 0}, // two repetitions, under half of it
		{"aaaa", "a", 4},
		{"abababa", "ba", 3}, // the sequence ends where the stretch does
	}
	for _, c := range cases {
		t.Run(c.labels, func(t *testing.T) {
			got, times := repeating(strings.Split(c.labels, ""))
			require.Equal(t, c.want, strings.Join(got, ""))
			require.Equal(t, c.times, times)
		})
	}
}
