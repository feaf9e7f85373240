// Package ringid holds the identities that ring elections pass round (the
// rank compared, and the node it belongs to) and the rank-sorted sets of
// them that LeLann's and the active-list algorithms collect.
package ringid

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// ID is an identity as ring messages carry it.
type ID struct {
	Rank int
	Node model.NodeID
}

// Add returns list ∪ {j}, sorted by rank, without touching list (a node
// state's slice is shared by every state derived from it).
func Add(list []ID, j ID) []ID {
	i, found := slices.BinarySearchFunc(list, j.Rank, func(id ID, r int) int { return id.Rank - r })
	if found {
		return list
	}
	return slices.Insert(slices.Clip(list), i, j) // clipped full: Insert copies
}

// Ranks lists the ranks of list, for printing.
func Ranks(list []ID) []int {
	ranks := make([]int, len(list))
	for i, id := range list {
		ranks[i] = id.Rank
	}
	return ranks
}
