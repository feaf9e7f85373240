package sim

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// names numbers each string once, in the order met, and refuses the one
// past what its index type holds rather than wrap round to a number in use.
func TestNamesNumberInOrderUpToTheirBound(t *testing.T) {
	kinds, labels := messageKinds(), eventLabels()
	for i := range 255 {
		require.Equal(t, uint8(i), kinds.id("k"+strconv.Itoa(i)))
	}
	for i := range 65535 {
		require.Equal(t, uint16(i), labels.id("l"+strconv.Itoa(i)))
	}
	require.Equal(t, uint8(7), kinds.id("k7"), "a kind met again keeps its number")
	require.Equal(t, uint16(7), labels.id("l7"), "a label met again keeps its number")
	require.Equal(t, "k254", kinds.list[254])
	require.PanicsWithValue(t, "more than 255 message kinds", func() { kinds.id("one more") })
	require.PanicsWithValue(t, "more than 65 535 kinds of events", func() { labels.id("one more") })
}
