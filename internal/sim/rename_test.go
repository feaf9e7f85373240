package sim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// tree holds itself and node ids; chain holds itself and none.
type tree struct {
	Who  model.NodeID
	Kids []tree
}

type chain struct {
	V    int
	Next []chain
}

type byNodeArray struct {
	Votes [3]int `vigil:"bynode"`
	Seen  map[model.NodeID][]model.NodeID
}

func TestRenameValues(t *testing.T) {
	swap := []model.NodeID{0, 2, 1}
	in := tree{Who: 1, Kids: []tree{{Who: 2}, {Who: model.None, Kids: []tree{{Who: 0}}}}}
	out, err := renameValue(in, swap)
	require.NoError(t, err)
	require.Equal(t, tree{Who: 2, Kids: []tree{{Who: 1}, {Who: model.None, Kids: []tree{{Who: 0}}}}}, out)
	require.Equal(t, model.NodeID(1), in.Who, "the value renamed is a copy")

	c := chain{V: 1, Next: []chain{{V: 2}}}
	same, err := renameValue(c, swap)
	require.NoError(t, err)
	require.Equal(t, c, same)

	a, err := renameValue(byNodeArray{Votes: [3]int{7, 8, 9}, Seen: map[model.NodeID][]model.NodeID{1: {2, 0}}}, swap)
	require.NoError(t, err)
	require.Equal(t, byNodeArray{Votes: [3]int{7, 9, 8}, Seen: map[model.NodeID][]model.NodeID{2: {1, 0}}}, a)

	var timer model.Timer = model.NodeID(2)
	renamed, err := renameValue(timer, swap)
	require.NoError(t, err)
	require.Equal(t, model.Timer(model.NodeID(1)), renamed, "a timer, behind an interface")
}
