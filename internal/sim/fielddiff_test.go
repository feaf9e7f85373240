package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type diffVote struct {
	At    int64
	Votes []int
}

type diffState struct {
	Name     string
	Promised diffVote
	Seen     map[string]bool
	Peers    map[int]diffVote
	Last     *diffVote
	Any      any
	hidden   [2]uint8
}

func TestFirstDifference(t *testing.T) {
	base := func() diffState {
		return diffState{Name: "n1", Promised: diffVote{At: 1, Votes: []int{0, 0, 1}},
			Seen: map[string]bool{"a": true, "b": false}, Peers: map[int]diffVote{2: {At: 5}},
			Last: &diffVote{At: 7}, Any: 3, hidden: [2]uint8{4, 5}}
	}
	cases := []struct {
		name    string
		change  func(s *diffState)
		path    string
		a, b    string
		differs bool
	}{
		{"equal values", func(*diffState) {}, "", "", "", false},
		{"an empty slice equals a nil one", func(s *diffState) { s.Last.Votes = []int{} }, "", "", "", false},
		{"nested struct field", func(s *diffState) { s.Promised.At = 2 }, ".Promised.At", "1", "2", true},
		{"slice element", func(s *diffState) { s.Promised.Votes[2] = 0 }, ".Promised.Votes[2]", "1", "0", true},
		{"longer slice", func(s *diffState) { s.Promised.Votes = append(s.Promised.Votes, 9) }, ".Promised.Votes[3]", "(none)", "9", true},
		{"map value", func(s *diffState) { s.Seen["b"] = true }, `.Seen["b"]`, "false", "true", true},
		{"missing map key", func(s *diffState) { delete(s.Seen, "a") }, `.Seen["a"]`, "true", "(none)", true},
		{"struct in a map", func(s *diffState) { s.Peers[2] = diffVote{At: 6} }, ".Peers[2].At", "5", "6", true},
		{"through a pointer", func(s *diffState) { s.Last = &diffVote{At: 8} }, ".Last.At", "7", "8", true},
		{"nil pointer", func(s *diffState) { s.Last = nil }, ".Last", "&{7 []}", "<nil>", true},
		{"interface of another type", func(s *diffState) { s.Any = "3" }, ".Any", "3 (int)", "3 (string)", true},
		{"unexported array element", func(s *diffState) { s.hidden[1] = 6 }, ".hidden[1]", "5", "6", true},
		{"first of two differences", func(s *diffState) { s.Name, s.Promised.At = "n2", 9 }, ".Name", "n1", "n2", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := base(), base()
			c.change(&b)
			d, differs := firstDifference(a, b)
			require.Equal(t, c.differs, differs)
			require.Equal(t, difference{Path: c.path, A: c.a, B: c.b}, d)
		})
	}
}

func TestFirstDifferenceLeaves(t *testing.T) {
	cases := []struct {
		name    string
		a, b    any
		path    string
		differs bool
	}{
		{"plain numbers", 1, 2, "", true},
		{"equal NaNs", math.NaN(), math.NaN(), "", false},
		{"signed zeros", 0.0, math.Copysign(0, -1), "", true},
		{"nil and empty map", map[int]int(nil), map[int]int{}, "", false},
		{"a cycle ends", selfLoop(1), selfLoop(1), "", false},
		{"a cycle's field", selfLoop(1), selfLoop(2), ".V", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, differs := firstDifference(c.a, c.b)
			require.Equal(t, c.differs, differs)
			require.Equal(t, c.path, d.Path)
		})
	}
}

type loop struct {
	V    int
	Next *loop
}

func selfLoop(v int) *loop {
	l := &loop{V: v}
	l.Next = l
	return l
}

func TestFirstDifferenceTruncates(t *testing.T) {
	long := strings.Repeat("x", 200)
	d, differs := firstDifference(long, long+"y")
	require.True(t, differs)
	require.Equal(t, maxRendered, len([]rune(d.A)))
	require.True(t, strings.HasSuffix(d.A, "…"))
}
