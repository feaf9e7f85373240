package sim

import (
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/vigil-check/vigil/model"
)

// timerID is a timer's identity in a Walker: its content key (see
// contentKey), by which a node's timers are ordered as a Stepper orders
// them, and a rank among the keys the Walker has met that orders them the
// same way. Ordering two timers then costs an integer comparison, not a
// comparison of their keys, and telling them apart a pointer comparison;
// a coordinator that arms a timer per member sorts N of them at a time.
type timerID struct {
	key string
	ord uint64
	// label: the label of its timeout, once labeled
	label   uint16
	labeled bool
}

// timerIDs interns the timers a Walker meets, one timerID per content key.
type timerIDs struct {
	byTimer map[model.Timer]*timerID
	byKey   []*timerID // sorted by key, so by ord
	// recent caches byTimer by the timer's interface words: a handler
	// that re-arms a timer per peer at every step boxes the same values
	// (small integers, constants) to the same words, found without
	// hashing the value
	recent [256]recentTimer
}

type recentTimer struct {
	words [2]unsafe.Pointer
	id    *timerID
}

// slot is the entry of recent where a timer of these words is kept.
func (ids *timerIDs) slot(words [2]unsafe.Pointer) *recentTimer {
	return &ids.recent[(uintptr(words[0])>>3^uintptr(words[1])>>3)%uintptr(len(ids.recent))]
}

// of returns the timerID of timer t, whose content key is keyOf(t).
func (ids *timerIDs) of(t model.Timer, keyOf func(model.Timer) string) *timerID {
	words := interfaceWords(t)
	slot := ids.slot(words)
	if slot.words == words && slot.id != nil {
		return slot.id // equal words make equal values
	}
	if id, ok := ids.byTimer[t]; ok {
		slot.words, slot.id = words, id
		return id
	}
	if ids.byTimer == nil {
		ids.byTimer = map[model.Timer]*timerID{}
	}
	key := keyOf(t)
	at, found := slices.BinarySearchFunc(ids.byKey, key, func(id *timerID, key string) int { return strings.Compare(id.key, key) })
	if !found {
		ids.byKey = slices.Insert(ids.byKey, at, &timerID{key: key})
		ids.rank(at)
	}
	ids.byTimer[t] = ids.byKey[at]
	return ids.byKey[at]
}

// rank gives byKey[at], just inserted, a rank between its neighbours', and
// spreads every rank evenly again where they leave no room.
func (ids *timerIDs) rank(at int) {
	lo, hi := uint64(0), uint64(math.MaxUint64)
	if at > 0 {
		lo = ids.byKey[at-1].ord
	}
	if at+1 < len(ids.byKey) {
		hi = ids.byKey[at+1].ord
	}
	if hi-lo >= 2 {
		ids.byKey[at].ord = lo + (hi-lo)/2
		return
	}
	step := math.MaxUint64 / uint64(len(ids.byKey)+1)
	for k, id := range ids.byKey {
		id.ord = uint64(k+1) * step
	}
}
