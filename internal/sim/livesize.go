package sim

import (
	"unsafe"

	"github.com/vigil-check/vigil/model"
)

// WalkerTables estimates the memory of the tables a Walker of this
// protocol makes for n nodes before its first walk, so that a search can
// refuse a Walker that cannot fit rather than die making one. Per channel
// (n² of them, made whatever the walks do): the index of its record (see
// walker.chanAt) and its count and share of the delivery tree (fenwick).
// Per node: its state and context, its counts and its Init's outcome.
// What walks add (the messages in flight, the records of the channels
// they use, the handlers' outcomes) depends on the protocol and is not
// counted: a search watches it as it grows.
func (m *Machine) WalkerTables(n int) (channels, nodes uint64) {
	return ChannelTableBytes(n), uint64(n) * m.impl.walkerNodeBytes()
}

// ChannelTableBytes is what a Walker holds per pair of nodes for n nodes:
// chanAt's int32 and the delivery tree over n² slots, whose count is an
// int32 and whose tree is twice the largest power of two not above n²,
// in int32s (see newFenwick).
func ChannelTableBytes(n int) uint64 {
	slots := uint64(n) * uint64(n)
	step := uint64(1)
	for step*2 <= slots {
		step *= 2
	}
	return slots*4 + slots*4 + 2*step*4
}

func (t *typed[S, M]) walkerNodeBytes() uint64 {
	var nd liveNode[S, M]
	var ctx model.Ctx[M]
	var init liveResult[S, M]
	// the node, its context and its pointer, its Init's outcome, dead,
	// its group, its clock, and its slot of the local tree (count and
	// tree)
	return uint64(unsafe.Sizeof(nd)+unsafe.Sizeof(ctx)+unsafe.Sizeof(&ctx)+unsafe.Sizeof(init)) + 1 + 1 + 8 + 4 + 8
}
