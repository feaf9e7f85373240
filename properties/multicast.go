package properties

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// MsgsParam is the run parameter the multicast properties read, and the
// multicast protocols honour: how many operations each initiator issues
// (default 1).
const MsgsParam = "msgs"

// The group-communication properties of V. Vlassov and J. Montelius,
// Coordination (lecture notes, ID2201 Distributed Systems, KTH), after
// G. Coulouris et al., Distributed Systems: Concepts and Design, ch. 15,
// read from model.Multicast and model.Delivered observations and from
// crashes. Vlassov and Montelius quantify them over *correct* processes, those that
// never fail; here a process is correct unless it has crashed so far.
// That is exact for the invariants (validity aside, all but agreement are
// about order): a bad delivery by a process that has not crashed is a
// violation on the run that goes on without its crash. Agreement and
// validity are judged where a run ends, when it is known who crashed.
//
// Messages are named by model.MsgID: each node multicasts at most "msgs"
// messages (run parameter, default 1), numbered 1..msgs, so a run has at
// most M = N·msgs messages and a set of them is M bits. A delivery of any
// other id is a forgery.
//
// Each property reads the smallest monitor that decides it, and its state
// is part of the World, so that merging equal worlds never hides a
// violation (and a check of one property does not pay for the others):
//
//   - Deliveries (validity, integrity, agreement, uniform-agreement): the
//     messages multicast, those delivered anywhere, and per node whether it
//     crashed and what it delivered: (N + 2)·M bits and N flags.
//   - FIFOLog (fifo-order): per node what it delivered: N·M bits.
//   - CausalLog (causal-order): per message its causal past, per node its
//     causal past and what it delivered: (M + 2N)·M bits.
//   - DeliveryOrder (total-order): per node the sequence of its
//     deliveries: at most N·M message numbers, and the distinct orders
//     multiply the state space by as many as (M!)^N where the protocol
//     does not itself keep its delivery order.
//
// Once a monitor has seen a violation it keeps the first one (a few ids),
// so the check stays true in every later world.

// msgSet is a set of messages, bit i for the message of number i (see
// msgNumber). Sets only grow, and a word is added only for a bit set in
// it, so equal sets are equal slices.
type msgSet []uint64

func (s msgSet) has(i int) bool { return i>>6 < len(s) && s[i>>6]>>(i&63)&1 != 0 }

func (s msgSet) with(i int) msgSet {
	out := make(msgSet, max(len(s), i>>6+1))
	copy(out, s)
	out[i>>6] |= 1 << (i & 63)
	return out
}

func (s msgSet) union(t msgSet) msgSet {
	out := make(msgSet, max(len(s), len(t)))
	copy(out, s)
	for i, w := range t {
		out[i] |= w
	}
	return out
}

// add is with(i), written into s where the monitor holds its state
// alone (inPlace) and s has room.
func (s msgSet) add(i int, inPlace bool) msgSet {
	if inPlace && i>>6 < len(s) {
		s[i>>6] |= 1 << (i & 63)
		return s
	}
	return s.with(i)
}

// merge is union(t), written into s where the monitor holds its state
// alone (inPlace) and s has room.
func (s msgSet) merge(t msgSet, inPlace bool) msgSet {
	if !inPlace || len(t) > len(s) {
		return s.union(t)
	}
	for i, w := range t {
		s[i] |= w
	}
	return s
}

// cow returns slice s to write into: s itself where the monitor holds its
// state alone (inPlace, see NewInPlaceMonitor), else a copy, since
// the state it was given is shared with the worlds a search keeps.
func cow[T any](s []T, inPlace bool) []T {
	if inPlace {
		return s
	}
	return slices.Clone(s)
}

// sameSlice reports whether a and b are one slice: of one length, on one
// array (so with one content).
func sameSlice[T any](a, b []T) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// observed is a monitor's state after an observation: out, or st itself
// where out holds in's fields and slices (it changed, if at all, only
// what those slices hold in place), so that it is not boxed again.
func observed[T interface{ sameAs(T) bool }](st any, in, out T) any {
	if out.sameAs(in) {
		return st
	}
	return out
}

// firstNotIn returns the smallest message number of s that t lacks.
func (s msgSet) firstNotIn(t msgSet) (int, bool) {
	for k, w := range s {
		if k < len(t) {
			w &^= t[k]
		}
		if w != 0 {
			return k<<6 + bits.TrailingZeros64(w), true
		}
	}
	return 0, false
}

// members lists the set's message numbers, in order. It reads the words
// directly, not through has, which also answers past the last word.
func (s msgSet) members() []int {
	var out []int
	for i := range len(s) * 64 {
		if s[i>>6]>>(i&63)&1 != 0 {
			out = append(out, i)
		}
	}
	return out
}

// numbering numbers the messages of a run of N nodes that multicast Msgs
// messages each (parameter MsgsParam). The monitors keep it in their
// state, read once from the configuration at Start rather than at every
// observation.
type numbering struct{ N, Msgs int }

func numberingOf(cfg *model.Config) numbering {
	return numbering{N: cfg.N, Msgs: cfg.Param(MsgsParam, 1)}
}

// msgNumber numbers message m: sender·msgs + seq - 1, or false when no
// node of the run multicasts such a message.
func (nb numbering) msgNumber(m model.MsgID) (i int, ok bool) {
	k := nb.Msgs
	if m.Sender < 0 || int(m.Sender) >= nb.N || m.Seq < 1 || m.Seq > k {
		return // no such message: i is 0
	}
	return int(m.Sender)*k + m.Seq - 1, true
}

func (nb numbering) msgOf(i int) model.MsgID {
	return model.MsgID{Sender: model.NodeID(i / nb.Msgs), Seq: i%nb.Msgs + 1}
}

// badDelivery is the first violation a monitor saw: Node delivered Msg,
// and Other is the message it concerns; for total order, Peer is the node
// it disagrees with, and Mine says Node delivered Other before Msg (else
// Peer did).
type badDelivery struct {
	Node  model.NodeID // model.None: no violation yet
	Msg   model.MsgID
	Other model.MsgID
	Peer  model.NodeID
	Mine  bool
}

var noViolation = badDelivery{Node: model.None, Peer: model.None}

func (b badDelivery) seen() bool { return b.Node != model.None }

// DeliveryState is the Deliveries monitor's state.
type DeliveryState struct {
	numbering
	Multicast msgSet   // messages multicast so far
	Anywhere  msgSet   // messages delivered by some process, crashed or not
	Delivered []msgSet // per node, in its current incarnation
	Crashed   []bool   // per node: it crashed at some point (it is not correct)
	// The first violation of integrity, one of the two: Twice, a message
	// delivered twice by one incarnation of a node; or Forged, a message
	// delivered that was never multicast.
	Twice, Forged badDelivery
}

// Deliveries is the monitor of validity, integrity and (uniform)
// agreement: which messages were multicast and which each node delivered.
// A node that recovers starts a new incarnation, which delivers afresh.
var Deliveries model.Monitor = deliveriesMonitor{}

type deliveriesMonitor struct{}

func (deliveriesMonitor) Name() string { return "deliveries" }

func (deliveriesMonitor) Start(cfg *model.Config) any {
	return DeliveryState{numbering: numberingOf(cfg), Delivered: make([]msgSet, cfg.N), Crashed: make([]bool, cfg.N), Twice: noViolation, Forged: noViolation}
}

func (deliveriesMonitor) Observe(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return observeDeliveriesOf(st, node, o, false)
}

func (deliveriesMonitor) ObserveInPlace(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return observeDeliveriesOf(st, node, o, true)
}

// observeDeliveriesOf is the monitor's state st after observation o at
// node: st itself where no field moved (see sameAs), so that it is not
// boxed again.
func observeDeliveriesOf(st any, node model.NodeID, o model.Obs, inPlace bool) any {
	in := st.(DeliveryState)
	out := in
	observeDeliveries(&out, node, o, inPlace)
	if out.sameAs(&in) {
		return st
	}
	return out
}

// sameAs reports whether s holds t's fields: the same slices, and the
// same violations (each set once, from none, so told apart by its node).
func (s *DeliveryState) sameAs(t *DeliveryState) bool {
	return sameSlice(s.Multicast, t.Multicast) && sameSlice(s.Anywhere, t.Anywhere) && sameSlice(s.Delivered, t.Delivered) &&
		sameSlice(s.Crashed, t.Crashed) && s.Twice.Node == t.Twice.Node && s.Forged.Node == t.Forged.Node
}

func observeDeliveries(s *DeliveryState, node model.NodeID, o model.Obs, inPlace bool) {
	switch o.Kind {
	case model.ObsMulticast:
		if i, ok := s.msgNumber(o.Msg()); ok && !s.Multicast.has(i) {
			s.Multicast = s.Multicast.add(i, inPlace)
		}
	case model.ObsDeliver:
		i, ok := s.msgNumber(o.Msg())
		switch {
		case !ok || !s.Multicast.has(i):
			if !s.Forged.seen() && !s.Twice.seen() {
				s.Forged = badDelivery{Node: node, Msg: o.Msg(), Peer: model.None}
			}
			return
		case s.Delivered[node].has(i):
			if !s.Forged.seen() && !s.Twice.seen() {
				s.Twice = badDelivery{Node: node, Msg: o.Msg(), Peer: model.None}
			}
			return
		}
		s.Delivered = cow(s.Delivered, inPlace)
		s.Delivered[node] = s.Delivered[node].add(i, inPlace)
		s.Anywhere = s.Anywhere.add(i, inPlace)
	case model.ObsCrash:
		if !s.Crashed[node] {
			s.Crashed = cow(s.Crashed, inPlace)
			s.Crashed[node] = true
		}
	case model.ObsRecover:
		s.Delivered = cow(s.Delivered, inPlace)
		s.Delivered[node] = nil
	}
}

func deliveries(v View) DeliveryState { return v.Monitor(Deliveries).(DeliveryState) }

// Delivered: some run reaches a world where a process has delivered a
// message. It is the trigger of agreement and of the orders of delivery:
// where nothing is ever delivered, they hold for want of a delivery.
var Delivered = &Property{
	Name: "delivered", Family: "multicast", When: Possibly, Monitor: Deliveries, MonitorOnly: true,
	Doc: "some process delivers a message",
	Check: func(v View) string {
		s := deliveries(v)
		for q, d := range s.Delivered {
			if ms := d.members(); len(ms) > 0 {
				return fmt.Sprintf("%v delivered %v", model.NodeID(q), s.msgOf(ms[0]))
			}
		}
		if ms := s.Anywhere.members(); len(ms) > 0 {
			return fmt.Sprintf("a process that crashed since delivered %v", s.msgOf(ms[0]))
		}
		return ""
	},
}

// Validity: a correct process delivers every message it multicasts.
var Validity = &Property{
	Name: "validity", Family: "multicast", When: AtQuiescence, Monitor: Deliveries, MonitorOnly: true,
	Doc: "where a run ends, every correct process has delivered each message it multicast",
	Check: func(v View) string {
		s := deliveries(v)
		for _, i := range s.Multicast.members() {
			m := s.msgOf(i)
			if !s.Crashed[m.Sender] && !s.Delivered[m.Sender].has(i) {
				return fmt.Sprintf("the run is over and %v, correct, never delivered its own %v", m.Sender, m)
			}
		}
		return ""
	},
}

// Integrity: a message is delivered at most once by each incarnation of a
// process, and only if it was multicast.
var Integrity = &Property{
	Name: "integrity", Family: "multicast", When: Always, Monitor: Deliveries, MonitorOnly: true,
	Doc: "no process delivers a message twice, nor one that no process multicast",
	Check: func(v View) string {
		s := deliveries(v)
		if b := s.Forged; b.seen() {
			return fmt.Sprintf("%v delivered %v, which no process multicast", b.Node, b.Msg)
		}
		if b := s.Twice; b.seen() {
			return fmt.Sprintf("%v delivered %v twice", b.Node, b.Msg)
		}
		return ""
	},
}

// agreementOn checks that every correct process delivered the messages
// of set, which the processes of whom delivered.
func agreementOn(v View, set msgSet, whom string) string {
	s := deliveries(v)
	for _, i := range set.members() {
		for q := range model.NodeID(v.N()) {
			if !s.Crashed[q] && !s.Delivered[q].has(i) {
				return fmt.Sprintf("the run is over, %s delivered %v and %v, correct, never did", whom, s.msgOf(i), q)
			}
		}
	}
	return ""
}

// DeliveryAgreement (agreement): if a correct process delivers m, every
// correct process does.
var DeliveryAgreement = &Property{
	Name: "agreement", Family: "multicast", When: AtQuiescence, Monitor: Deliveries, MonitorOnly: true, Trigger: Delivered,
	Doc: "where a run ends, a message delivered by a correct process has been delivered by every correct process",
	Check: func(v View) string {
		s := deliveries(v)
		var correct msgSet
		for q, d := range s.Delivered {
			if !s.Crashed[q] {
				correct = correct.union(d)
			}
		}
		return agreementOn(v, correct, "a correct process")
	},
}

// UniformAgreement: if any process, correct or not, delivers m, every
// correct process does.
var UniformAgreement = &Property{
	Name: "uniform-agreement", Family: "multicast", When: AtQuiescence, Monitor: Deliveries, MonitorOnly: true, Trigger: Delivered,
	Doc: "where a run ends, a message delivered by any process, even one that crashed, has been delivered by every correct process",
	Check: func(v View) string {
		return agreementOn(v, deliveries(v).Anywhere, "some process")
	},
}

// OrderLog is the state of the FIFO and causal monitors: per node what it
// delivered and whether it crashed, the first violation, and for causal
// order the causal pasts.
type OrderLog struct {
	numbering
	Multicast msgSet
	Delivered []msgSet
	Crashed   []bool
	Bad       badDelivery
	// Causal order only: Past[i], the messages that happened before
	// message i was multicast; Knows[q], those that happened before node
	// q's next event (its multicasts, its deliveries and their pasts).
	Past  []msgSet
	Knows []msgSet
}

type orderMonitor struct {
	name   string
	causal bool
}

// FIFOLog is the monitor of FIFO order; CausalLog that of causal order.
var (
	FIFOLog   model.Monitor = orderMonitor{name: "fifo"}
	CausalLog model.Monitor = orderMonitor{name: "causal", causal: true}
)

func (m orderMonitor) Name() string { return m.name }

func (m orderMonitor) Start(cfg *model.Config) any {
	s := OrderLog{numbering: numberingOf(cfg), Delivered: make([]msgSet, cfg.N), Crashed: make([]bool, cfg.N), Bad: noViolation}
	if m.causal {
		s.Past = make([]msgSet, s.N*s.Msgs)
		s.Knows = make([]msgSet, cfg.N)
	}
	return s
}

func (m orderMonitor) Observe(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.observeOf(st, node, o, false)
}

func (m orderMonitor) ObserveInPlace(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.observeOf(st, node, o, true)
}

// observeOf is observeDeliveriesOf for this monitor.
func (m orderMonitor) observeOf(st any, node model.NodeID, o model.Obs, inPlace bool) any {
	in := st.(OrderLog)
	out := in
	m.observe(&out, node, o, inPlace)
	if out.sameAs(&in) {
		return st
	}
	return out
}

// sameAs: see DeliveryState.sameAs.
func (s *OrderLog) sameAs(t *OrderLog) bool {
	return sameSlice(s.Multicast, t.Multicast) && sameSlice(s.Delivered, t.Delivered) && sameSlice(s.Crashed, t.Crashed) &&
		s.Bad.Node == t.Bad.Node && sameSlice(s.Past, t.Past) && sameSlice(s.Knows, t.Knows)
}

func (m orderMonitor) observe(s *OrderLog, node model.NodeID, o model.Obs, inPlace bool) {
	switch o.Kind {
	case model.ObsMulticast:
		i, ok := s.msgNumber(o.Msg())
		if !ok || s.Multicast.has(i) {
			return
		}
		s.Multicast = s.Multicast.add(i, inPlace)
		if m.causal {
			// multicast(m) happens after everything node knows of (a
			// copy: node's knowledge grows in place)
			s.Past = cow(s.Past, inPlace)
			s.Past[i] = slices.Clone(s.Knows[node])
			s.Knows = cow(s.Knows, inPlace)
			s.Knows[node] = s.Knows[node].add(i, inPlace)
		}
	case model.ObsDeliver:
		i, ok := s.msgNumber(o.Msg())
		if !ok || !s.Multicast.has(i) {
			return // integrity's business
		}
		if !s.Bad.seen() && !s.Crashed[node] {
			if missing, ok := m.missing(s, node, i); ok {
				s.Bad = badDelivery{Node: node, Msg: o.Msg(), Other: missing, Peer: model.None}
			}
		}
		s.Delivered = cow(s.Delivered, inPlace)
		s.Delivered[node] = s.Delivered[node].add(i, inPlace)
		if m.causal {
			s.Knows = cow(s.Knows, inPlace)
			s.Knows[node] = s.Knows[node].merge(s.Past[i], inPlace).add(i, inPlace)
		}
	case model.ObsCrash:
		if !s.Crashed[node] {
			s.Crashed = cow(s.Crashed, inPlace)
			s.Crashed[node] = true
		}
	}
}

// missing returns a message that node should have delivered before
// message i and has not.
func (m orderMonitor) missing(s *OrderLog, node model.NodeID, i int) (model.MsgID, bool) {
	if m.causal {
		if j, ok := s.Past[i].firstNotIn(s.Delivered[node]); ok {
			return s.msgOf(j), true
		}
		return model.MsgID{}, false
	}
	mi := s.msgOf(i)
	if s.Crashed[mi.Sender] {
		return model.MsgID{}, false // FIFO order binds correct senders only
	}
	// the sender's earlier messages are numbered just before i (see msgNumber)
	for j := i - (mi.Seq - 1); j < i; j++ {
		if s.Multicast.has(j) && !s.Delivered[node].has(j) {
			return s.msgOf(j), true
		}
	}
	return model.MsgID{}, false
}

// FIFOOrder: if a correct process multicasts m and then m', every correct
// process that delivers m' has delivered m before.
var FIFOOrder = &Property{
	Name: "fifo-order", Family: "multicast", When: Always, Monitor: FIFOLog, MonitorOnly: true, Trigger: Delivered,
	Doc: "a correct process that delivers a message of a correct sender has delivered every message that sender multicast before it",
	Check: func(v View) string {
		if b := v.Monitor(FIFOLog).(OrderLog).Bad; b.seen() {
			return fmt.Sprintf("%v delivered %v before %v, which %v multicast first", b.Node, b.Msg, b.Other, b.Msg.Sender)
		}
		return ""
	},
}

// CausalOrder: if multicast(m) happened before multicast(m'), every
// correct process that delivers m' has delivered m before.
var CausalOrder = &Property{
	Name: "causal-order", Family: "multicast", When: Always, Monitor: CausalLog, MonitorOnly: true, Trigger: Delivered,
	Doc: "a correct process that delivers a message has delivered every message whose multicast happened before its multicast",
	Check: func(v View) string {
		if b := v.Monitor(CausalLog).(OrderLog).Bad; b.seen() {
			return fmt.Sprintf("%v delivered %v before %v, whose multicast happened before", b.Node, b.Msg, b.Other)
		}
		return ""
	},
}

// SequenceLog is the total-order monitor's state: each node's deliveries
// in order (message numbers), which nodes crashed, the first violation.
type SequenceLog struct {
	numbering
	Seq     [][]uint16
	Crashed []bool
	Bad     badDelivery
}

// DeliveryOrder is the monitor of total order.
var DeliveryOrder model.Monitor = sequenceMonitor{}

type sequenceMonitor struct{}

func (sequenceMonitor) Name() string { return "delivery-order" }

func (sequenceMonitor) Start(cfg *model.Config) any {
	return SequenceLog{numbering: numberingOf(cfg), Seq: make([][]uint16, cfg.N), Crashed: make([]bool, cfg.N), Bad: noViolation}
}

func (sequenceMonitor) Observe(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return observeSequenceOf(st, node, o, false)
}

func (sequenceMonitor) ObserveInPlace(cfg *model.Config, st any, node model.NodeID, o model.Obs) any {
	return observeSequenceOf(st, node, o, true)
}

// observeSequenceOf is observeDeliveriesOf for this monitor.
func observeSequenceOf(st any, node model.NodeID, o model.Obs, inPlace bool) any {
	in := st.(SequenceLog)
	out := in
	observeSequence(&out, node, o, inPlace)
	if out.sameAs(&in) {
		return st
	}
	return out
}

// sameAs: see DeliveryState.sameAs.
func (s *SequenceLog) sameAs(t *SequenceLog) bool {
	return sameSlice(s.Seq, t.Seq) && sameSlice(s.Crashed, t.Crashed) && s.Bad.Node == t.Bad.Node
}

func observeSequence(s *SequenceLog, node model.NodeID, o model.Obs, inPlace bool) {
	switch o.Kind {
	case model.ObsDeliver:
		i, ok := s.msgNumber(o.Msg())
		if !ok || s.Crashed[node] {
			return // a process that crashed is no longer bound
		}
		x := uint16(i)
		if !s.Bad.seen() {
			s.Bad = s.conflict(node, x)
		}
		s.Seq = cow(s.Seq, inPlace)
		seq := s.Seq[node]
		if !inPlace {
			seq = slices.Clip(seq)
		}
		s.Seq[node] = append(seq, x)
	case model.ObsCrash:
		if !s.Crashed[node] {
			s.Crashed = cow(s.Crashed, inPlace)
			s.Crashed[node] = true
		}
	}
}

// conflict looks for the first violation that node's delivery of x makes:
// a correct process j delivered some m before x while node has not
// delivered m; or node delivered some m before x while j delivered x
// without m before it. Either way the two disagree on m and x for good.
func (s *SequenceLog) conflict(node model.NodeID, x uint16) badDelivery {
	mine := s.Seq[node]
	for j, seq := range s.Seq {
		peer := model.NodeID(j)
		if peer == node || s.Crashed[j] {
			continue
		}
		at := slices.Index(seq, x)
		if at < 0 {
			continue
		}
		for _, m := range seq[:at] {
			if !slices.Contains(mine, m) {
				return badDelivery{Node: node, Msg: s.msgOf(int(x)), Other: s.msgOf(int(m)), Peer: peer}
			}
		}
		for _, m := range mine {
			if !slices.Contains(seq[:at], m) {
				return badDelivery{Node: node, Msg: s.msgOf(int(x)), Other: s.msgOf(int(m)), Peer: peer, Mine: true}
			}
		}
	}
	return noViolation
}

// TotalOrder: if a correct process delivers m before m', any other correct
// process that delivers m' has delivered m before.
var TotalOrder = &Property{
	Name: "total-order", Family: "multicast", When: Always, Monitor: DeliveryOrder, MonitorOnly: true, Trigger: Delivered,
	Doc: "two correct processes deliver the messages they both deliver in the same order, and neither skips one the other delivered earlier",
	Check: func(v View) string {
		b := v.Monitor(DeliveryOrder).(SequenceLog).Bad
		switch {
		case !b.seen():
			return ""
		case b.Mine:
			return fmt.Sprintf("%v delivered %v before %v, %v delivered %v without %v before it", b.Node, b.Other, b.Msg, b.Peer, b.Msg, b.Other)
		}
		return fmt.Sprintf("%v delivered %v without %v, which %v delivered before it", b.Node, b.Msg, b.Other, b.Peer)
	},
}

func init() {
	register(Delivered, Validity, Integrity, DeliveryAgreement, UniformAgreement, FIFOOrder, CausalOrder, TotalOrder)
}
