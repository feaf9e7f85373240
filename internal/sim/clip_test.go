package sim

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

type clipInner struct {
	V    []int
	Tags [2][]byte
}

type clipOuter struct {
	N     int
	Items []clipInner
	Plain []int
}

type clipSelf struct {
	Kids []clipSelf
}

type clipMap struct {
	M map[int][]int
}

func TestClipFillsEverySliceAtEveryDepth(t *testing.T) {
	v := clipOuter{
		Items: append(make([]clipInner, 0, 8), clipInner{V: make([]int, 1, 4), Tags: [2][]byte{make([]byte, 0, 3), nil}}),
		Plain: make([]int, 2, 9),
	}
	backing := v.Items[0].V[:4] // the inner slice's room past its length
	c := newClipper(reflect.TypeFor[clipOuter]())
	require.True(t, c.ok)
	before := AppendKey(nil, v)
	clip(&c, &v)
	require.Equal(t, before, AppendKey(nil, v), "clipping changed the content")
	require.Equal(t, len(v.Items), cap(v.Items))
	require.Equal(t, len(v.Plain), cap(v.Plain))
	require.Equal(t, len(v.Items[0].V), cap(v.Items[0].V))
	require.Equal(t, 0, cap(v.Items[0].Tags[0]))

	// an append to the clipped value no longer writes into that room
	_ = append(v.Items[0].V, 7)
	require.Equal(t, []int{0, 0, 0, 0}, backing)
}

func TestClipClonesWhatItCannotReach(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[clipSelf](), reflect.TypeFor[clipMap]()} {
		require.False(t, newClipper(typ).ok, "%v", typ)
	}
	v := clipSelf{Kids: []clipSelf{{Kids: make([]clipSelf, 0, 2)}}}
	kids := v.Kids
	c := newClipper(reflect.TypeFor[clipSelf]())
	clip(&c, &v)
	require.Equal(t, AppendKey(nil, clipSelf{Kids: []clipSelf{{}}}), AppendKey(nil, v))
	require.NotSame(t, &kids[0], &v.Kids[0], "a value clipping cannot reach is cloned")
}
