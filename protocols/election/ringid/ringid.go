// Package ringid holds what the ring elections share: the identities they
// pass round (the rank compared, and the node it belongs to), the
// rank-sorted sets of them that LeLann's and the active-list algorithms
// collect, and the states of a node that the Leader Election notes give
// both LeLann's and Chang and Roberts's algorithms.
package ringid

import (
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Status is a node's state in the Leader Election notes' ring elections:
// sleeping (not yet involved), candidate (red), lost (black) or leader.
type Status uint8

const (
	Sleep Status = iota
	Cand
	Lost
	Leader
)

func (s Status) String() string { return [...]string{"sleep", "cand", "lost", "leader"}[s] }

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
