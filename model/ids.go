package model

import (
	"slices"
	"strconv"
	"sync"
)

// NodeID names a node by its position in the ring, 0..N-1. The id an
// algorithm compares is the node's rank (Env.Rank), not its NodeID.
type NodeID int

// None stands for "no node", e.g. no leader known.
const None NodeID = -1

func (id NodeID) String() string {
	if id == None {
		return "none"
	}
	return "n" + strconv.Itoa(int(id))
}

// Timer names a timer of one node. It is any plain comparable value: a
// small integer type with named constants for a protocol's fixed timers, a
// type over NodeID for a timer per peer. A node has at most one armed timer
// of each value; arming it again replaces the earlier one. Traces print
// timers with %v, so give the type a String method.
type Timer any

// Action names a local action of one node (see Actor). Like a Timer, it is
// any plain comparable value, printed with %v.
type Action any

// ObsKind is the kind of an observation: one of vigil's own, below, or
// one a protocol registers with NewObsKind.
type ObsKind uint8

// obsKinds holds the kinds registered with NewObsKind, from
// firstOwnKind on.
var obsKinds struct {
	sync.Mutex
	names   []string
	formats []func(arg int) string
}

// firstOwnKind is the first ObsKind NewObsKind hands out; vigil's own
// kinds stay below it.
const firstOwnKind ObsKind = 64

// NewObsKind registers an observation kind of a protocol's own, named for
// traces and JSON; call it once, at package level:
//
//	var Decided = model.NewObsKind("decided", func(arg int) string { return [...]string{"abort", "commit"}[arg] })
//
// format renders an observation's argument; with a nil format an
// observation prints as name=arg. Names must be unique and non-empty: a
// second registration of a name panics, as flag.Var does.
func NewObsKind(name string, format func(arg int) string) ObsKind {
	obsKinds.Lock()
	defer obsKinds.Unlock()
	if name == "" {
		panic("model.NewObsKind: empty name")
	}
	for k := ObsLeader; k <= ObsTraitor; k++ {
		if k.String() == name {
			panic("model.NewObsKind: " + name + " is one of vigil's own observation kinds")
		}
	}
	if slices.Contains(obsKinds.names, name) {
		panic("model.NewObsKind: observation kind " + name + " registered twice")
	}
	if int(firstOwnKind)+len(obsKinds.names) > 255 {
		panic("model.NewObsKind: more than 192 observation kinds")
	}
	if format == nil {
		format = strconv.Itoa
	}
	obsKinds.names = append(obsKinds.names, name)
	obsKinds.formats = append(obsKinds.formats, format)
	return firstOwnKind + ObsKind(len(obsKinds.names)-1)
}

// String is the kind's name.
func (k ObsKind) String() string {
	switch k {
	case ObsLeader:
		return "leader"
	case ObsCrash:
		return "crash"
	case ObsRecover:
		return "recover"
	case ObsGroup:
		return "group"
	case ObsPool:
		return "pool"
	case ObsRequest:
		return "request"
	case ObsEnter:
		return "enter"
	case ObsExit:
		return "exit"
	case ObsMulticast:
		return "multicast"
	case ObsDeliver:
		return "deliver"
	case ObsReadCall:
		return "read"
	case ObsReadReturn:
		return "read-return"
	case ObsTraitor:
		return "traitor"
	}
	if name, _ := ownKind(k); name != "" {
		return name
	}
	return "obs" + strconv.Itoa(int(k))
}

// ownKind returns the name and format of a kind registered with
// NewObsKind, or "" when k is not one.
func ownKind(k ObsKind) (string, func(int) string) {
	obsKinds.Lock()
	defer obsKinds.Unlock()
	if i := int(k) - int(firstOwnKind); i >= 0 && i < len(obsKinds.names) {
		return obsKinds.names[i], obsKinds.formats[i]
	}
	return "", nil
}

// Observation kinds. Properties read observations, so one property serves
// every protocol of a family.
const (
	// ObsLeader: the node now believes Arg is the leader (None: no leader).
	ObsLeader ObsKind = iota + 1
	// ObsCrash and ObsRecover are reported by the checker when a node crashes or recovers, never by protocols.
	ObsCrash
	ObsRecover
	// ObsGroup: the node formed a new group and coordinates it; Arg is the
	// group's sequence number, so the group number is (Arg, node).
	ObsGroup
	// ObsPool: the node joined (Arg 1) or left (Arg 0) a standby pool, such
	// as the slaves of the emergent election.
	ObsPool
	// ObsRequest: the node asks for the critical section; Arg is the
	// request's timestamp where the protocol has one (else 0).
	ObsRequest
	// ObsEnter and ObsExit: the node enters or leaves the critical section.
	ObsEnter
	ObsExit
	// ObsMulticast: the node multicasts the message Arg (a packed MsgID);
	// ObsDeliver: the node delivers it to its application.
	ObsMulticast
	ObsDeliver
	// ObsReadCall and ObsReadReturn: a client of a replicated register
	// starts a read, and the read returns the value Arg (a packed MsgID:
	// the write that value comes from; 0, the initial value).
	ObsReadCall
	ObsReadReturn
	// ObsTraitor is reported by the checker when a node turns traitor
	// (Config.Traitors), never by protocols: a monitor that judges the
	// loyal nodes alone learns from it which are not.
	ObsTraitor
)

// Obs is an observation: a protocol-neutral fact a handler reports.
type Obs struct {
	Kind ObsKind
	Arg  int
}

// Leader is the observation "this node now believes l is the leader".
func Leader(l NodeID) Obs { return Obs{Kind: ObsLeader, Arg: int(l)} }

// NewGroup is the observation "this node formed group (seq, self) and
// coordinates it".
func NewGroup(seq int) Obs { return Obs{Kind: ObsGroup, Arg: seq} }

// InPool is the observation "this node is now in (or out of) the pool".
func InPool(in bool) Obs {
	if in {
		return Obs{Kind: ObsPool, Arg: 1}
	}
	return Obs{Kind: ObsPool}
}

// RequestCS is the observation "this node asks for the critical section",
// with the request's timestamp (0 where the protocol has none).
func RequestCS(ts int) Obs { return Obs{Kind: ObsRequest, Arg: ts} }

// EnterCS is the observation "this node enters the critical section".
func EnterCS() Obs { return Obs{Kind: ObsEnter} }

// ExitCS is the observation "this node leaves the critical section".
func ExitCS() Obs { return Obs{Kind: ObsExit} }

// MsgID names a multicast message by its sender and the sender's own
// count, from 1: every message a run multicasts has its own id.
type MsgID struct {
	Sender NodeID
	Seq    int
}

// maxSeq bounds MsgID.Seq, so that an id packs into an Obs argument.
const maxSeq = 1 << 16

// pack encodes m as an observation argument; the zero MsgID packs to 0.
func (m MsgID) pack() int {
	if m.Seq < 0 || m.Seq >= maxSeq {
		panic("message sequence number out of range: " + strconv.Itoa(m.Seq))
	}
	return int(m.Sender)<<16 | m.Seq
}

func unpackMsg(arg int) MsgID { return MsgID{Sender: NodeID(arg >> 16), Seq: arg & (maxSeq - 1)} }

func (m MsgID) String() string {
	if m == (MsgID{}) {
		return "initial"
	}
	return m.Sender.String() + "#" + strconv.Itoa(m.Seq)
}

// Multicast is the observation "this node multicasts message m".
func Multicast(m MsgID) Obs { return Obs{Kind: ObsMulticast, Arg: m.pack()} }

// Delivered is the observation "this node delivers message m" (Deliver is
// the event of a message's arrival, which is not yet its delivery).
func Delivered(m MsgID) Obs { return Obs{Kind: ObsDeliver, Arg: m.pack()} }

// ReadCall is the observation "this node's client starts a read".
func ReadCall() Obs { return Obs{Kind: ObsReadCall} }

// ReadReturn is the observation "this node's read returns the value
// written by m" (the zero MsgID: the initial value).
func ReadReturn(m MsgID) Obs { return Obs{Kind: ObsReadReturn, Arg: m.pack()} }

// Msg is the message of a Multicast, Deliver or ReadReturn observation.
func (o Obs) Msg() MsgID { return unpackMsg(o.Arg) }

func (o Obs) String() string {
	switch o.Kind {
	case ObsLeader:
		return "leader=" + NodeID(o.Arg).String()
	case ObsCrash:
		return "crash"
	case ObsRecover:
		return "recover"
	case ObsGroup:
		return "group=" + strconv.Itoa(o.Arg)
	case ObsPool:
		if o.Arg != 0 {
			return "pool=in"
		}
		return "pool=out"
	case ObsRequest:
		return "request@" + strconv.Itoa(o.Arg)
	case ObsEnter:
		return "enter"
	case ObsExit:
		return "exit"
	case ObsMulticast:
		return "multicast " + o.Msg().String()
	case ObsDeliver:
		return "deliver " + o.Msg().String()
	case ObsReadCall:
		return "read"
	case ObsReadReturn:
		return "read=" + o.Msg().String()
	case ObsTraitor:
		return "traitor"
	}
	if name, format := ownKind(o.Kind); name != "" {
		return name + "=" + format(o.Arg)
	}
	return "obs(" + strconv.Itoa(int(o.Kind)) + "," + strconv.Itoa(o.Arg) + ")"
}
