package effects_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/effects"
)

type buffer = effects.Buffer[string, int, rune]

// A Buffer records each kind of effect in order, each armed timer's
// waits in memory of its own, and Reset empties it.
func TestBufferRecordsEffectsInOrder(t *testing.T) {
	cases := []struct {
		name   string
		do     func(b *buffer)
		sends  []string
		timers []effects.Timer[int]
		obs    []rune
	}{
		{"nothing", func(*buffer) {}, nil, nil, nil},
		{"sends and observations", func(b *buffer) {
			b.Send("a")
			b.Observe('x')
			b.Send("b")
		}, []string{"a", "b"}, nil, []rune{'x'}},
		{"timers", func(b *buffer) {
			b.Arm("t", []int{2, 1})
			b.Cancel("u")
			b.ArmAfter("v", 3)
			b.Arm("w", nil)
		}, nil, []effects.Timer[int]{
			{Timer: "t", Armed: true, WaitOn: []int{2, 1}},
			{Timer: "u"},
			{Timer: "v", Armed: true, Ticks: 3},
			{Timer: "w", Armed: true},
		}, nil},
		{"reset forgets what came before", func(b *buffer) {
			b.Send("gone")
			b.Arm("gone", []int{5})
			b.Observe('g')
			b.Reset()
			b.Arm("t", []int{0})
		}, nil, []effects.Timer[int]{{Timer: "t", Armed: true, WaitOn: []int{0}}}, nil},
	}
	for _, c := range cases {
		var b buffer
		c.do(&b)
		require.Equal(t, c.sends, nonEmpty(b.Sends), c.name)
		require.Equal(t, c.timers, nonEmpty(b.Timers), c.name)
		require.Equal(t, c.obs, nonEmpty(b.Obs), c.name)
	}
}

// nonEmpty is s, or nil when s has no element: Reset keeps memory, so an
// empty list may be a non-nil slice.
func nonEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// Arm copies the nodes a timer waits on: the caller may change or reuse
// its slice, and one timer's waits never grow into the next one's.
func TestArmCopiesWaits(t *testing.T) {
	var b buffer
	on := []int{1, 2}
	b.Arm("t", on)
	on[0] = 9
	b.Arm("u", []int{3})
	require.Equal(t, []int{1, 2}, b.Timers[0].WaitOn)
	require.Equal(t, []int{3}, b.Timers[1].WaitOn)
	require.Equal(t, 2, cap(b.Timers[0].WaitOn), "a timer's waits end where the next timer's begin")
}
