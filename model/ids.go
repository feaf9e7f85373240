package model

import "strconv"

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

// Timer names a timer of one node. A node has at most one armed timer of each
// name; arming it again replaces the earlier one.
type Timer string

// Action names a local action of one node (see Actor).
type Action string

// ObsKind is the kind of an observation.
type ObsKind uint8

// Observation kinds. Properties read observations, so one property serves
// every protocol of a family.
const (
	// ObsLeader: the node now believes Arg is the leader (None: no leader).
	ObsLeader ObsKind = iota + 1
	// ObsCrash and ObsRecover are reported by the World, never by protocols.
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
	}
	return "obs(" + strconv.Itoa(int(o.Kind)) + "," + strconv.Itoa(o.Arg) + ")"
}
