// Package invitation is the invitation algorithm of H. Garcia-Molina,
// Elections in a Distributed Computing System (IEEE Transactions on
// Computers C-31(1), 1982), after G. Kesden, Coordinator Selection, 14-736
// Distributed Systems, lecture 8, Carnegie Mellon University, 2019 (Kesden
// below), "a self-healing, partitionable Bully Algorithm": groups of the
// nodes that can reach one another organise under a coordinator, and
// coordinators that find one another merge their groups, the higher
// priority (rank) taking over.
//
// Groups are named by group numbers (sequence number, coordinator id), "the
// sequence number component incremented each time the processor becomes
// the coordinator of a new group": a node keeps its sequence number in
// stable storage, so a number is never reused, even across a crash
// (properties' group-numbers-unique checks it).
//
// The run starts as Kesden's first picture: one group, coordinated by the
// node of highest rank. A coordinator "yells out" to the nodes outside its
// group: AreYouCoordinator to each, asked again (timer "poll-<id>") until
// it answers. Coordinators answer, and so does a participant asked by its
// own coordinator, which lost track of it. Under Sync timing the timer
// fires only when the node asked is unreachable, or once a message between
// the two was lost to a cut; a coordinator that asks nodes cut off from it
// asks in vain and changes nothing, so the run settles (a stutter).
//
// Priority goes to higher ranks: "higher numbered processors ignore
// queries from lower-level processors", but the query prompts them to
// merge sooner; a coordinator only tries to merge lower-level coordinators
// (Kesden's alternative), so members always rank below their
// coordinator and each connected group ends up under its highest node.
// Merging waits a while (timer "merge", Kesden's delay "to allow time
// for a higher-priority coordinator to search for other coordinators and
// ask them to merge into its group"; the node of highest rank has "no
// reason to delay"); invited meanwhile, the coordinator "stops and
// accepts its new role as a participant". To merge, a coordinator forms a
// new group and sends Invite to its members and to the coordinators it
// found; coordinators found while invitations are out are invited into
// the same group. An invited coordinator of lower rank forwards the
// invitation to its members and joins; a participant follows its own
// coordinator's invitations. Each sends Accept to the new coordinator,
// which counts it as a member. Nodes that follow an old group of a
// coordinator (an answer or an accept says so) are invited into its
// current group, or, if it has joined another, passed on to that one.
//
// Failures: a participant watches its coordinator (timer "coordinator")
// and, when it crashes or is cut off, forms a group of its own ("Processor
// 1 notices the partitioning, and declares itself a coordinator"); a
// coordinator watches each member and invitee (timer "member-<id>") and
// drops those it loses, who become outsiders to ask. A node that recovers
// from a crash keeps its sequence number and forms a new group; with the
// run parameter stable-seq 0 the number is not on stable storage and
// restarts from nothing, which reuses group numbers (scenario
// volatile-seq).
//
// Channels must be FIFO: the rules that tell a node's current group from
// an old one assume its messages arrive in order. With unordered links
// vigil finds a stale answer overtaking an invitation and a run that
// settles with n0 following n1, which follows n2 (N = 3, one partition,
// 24 steps, 18 M states: vigil check invitation -channels unordered
// -props group-leader).
//
// Properties: under a partition there is a coordinator per connected group,
// not one overall (Kesden's assumption: "partitioned participants can
// still organize and make progress"); once the network has healed the
// groups merge into one under the node of highest rank. The checker judges
// group-leader and healed-leader where the run has settled.
package invitation

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Role is a node's role in its group.
type Role uint8

const (
	Coordinator Role = iota
	Participant
)

func (r Role) String() string { return [...]string{"coordinator", "participant"}[r] }

// Group is a group number: (sequence number, coordinator).
type Group struct {
	Seq   int
	Coord model.NodeID
}

func (g Group) String() string { return fmt.Sprintf("(%d,%v)", g.Seq, g.Coord) }

// State is one node's state.
type State struct {
	Role  Role
	Seq   int   // the last sequence number this node used; survives crashes
	Group Group // the group it belongs to
	// Coordinator only:
	Members []model.NodeID // the other members, sorted
	Invited []model.NodeID // coordinators invited into the group, yet to accept, sorted
	Polled  []model.NodeID // lower outsiders polled, yet to answer, sorted
	Found   []model.NodeID // lower coordinators found, to merge, sorted
}

func (s State) String() string {
	out := fmt.Sprintf("%v %v", s.Role, s.Group)
	if s.Role == Coordinator {
		out += fmt.Sprintf(" members=%v", s.Members)
		if len(s.Invited) > 0 {
			out += fmt.Sprintf(" invited=%v", s.Invited)
		}
		if len(s.Polled) > 0 {
			out += fmt.Sprintf(" polled=%v", s.Polled)
		}
		if len(s.Found) > 0 {
			out += fmt.Sprintf(" found=%v", s.Found)
		}
	}
	return out
}

// Kind is a message kind.
type Kind uint8

const (
	AreYouCoordinator Kind = iota
	Answer
	Invite
	Accept
)

// Msg is a message; Group is the sender's group (Answer), the new group
// (Invite, Accept).
type Msg struct {
	K           Kind
	Group       Group
	Coordinator bool // Answer: the sender coordinates Group
}

func (m Msg) Kind() string {
	return [...]string{"are-you-coordinator", "answer", "invite", "accept"}[m.K]
}

func (m Msg) String() string {
	switch m.K {
	case Answer:
		if m.Coordinator {
			return fmt.Sprintf("answer{coordinator of %v}", m.Group)
		}
		return fmt.Sprintf("answer{in %v}", m.Group)
	case Invite, Accept:
		return fmt.Sprintf("%s{%v}", m.Kind(), m.Group)
	}
	return m.Kind()
}

// Timer names a node's own timers.
type Timer uint8

const (
	MergeTimer       Timer = iota + 1 // the delay before merging
	CoordinatorTimer                  // the coordinator's failure
)

func (t Timer) String() string { return [...]string{"", "merge", "coordinator"}[t] }

// pollTimer waits for node j's answer; memberTimer watches member j.
type (
	pollTimer   model.NodeID
	memberTimer model.NodeID
)

func (t pollTimer) String() string   { return fmt.Sprintf("poll-%d", t) }
func (t memberTimer) String() string { return fmt.Sprintf("member-%d", t) }

// Kind: the timers on every peer polled, or every member, are one kind.
func (pollTimer) Kind() string   { return "poll" }
func (memberTimer) Kind() string { return "member" }

// Protocol implements model.Protocol.
type Protocol struct{}

// Init is Kesden's first picture, "one partition, one group": the node of
// highest rank coordinates group (1, itself) of every node.
func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	top := ctx.Self()
	for j := range model.NodeID(ctx.N()) {
		if ctx.Rank(j) > ctx.Rank(top) {
			top = j
		}
	}
	g := Group{1, top}
	if top != ctx.Self() {
		ctx.SetTimer(CoordinatorTimer, top)
		ctx.Observe(model.Leader(top))
		return State{Role: Participant, Group: g}
	}
	ctx.Observe(model.NewGroup(1))
	ctx.Observe(model.Leader(top))
	s := State{Role: Coordinator, Seq: 1, Group: g}
	for _, j := range ctx.Nodes(func(model.NodeID) bool { return true }) {
		s = addMember(ctx, s, j)
	}
	return s
}

// formGroup makes the node the coordinator of a new group of its own.
func formGroup(ctx *model.Ctx[Msg], s State) State {
	seq := s.Seq + 1
	ctx.CancelTimer(CoordinatorTimer)
	ctx.Observe(model.NewGroup(seq))
	ctx.Observe(model.Leader(ctx.Self()))
	n := State{Role: Coordinator, Seq: seq, Group: Group{seq, ctx.Self()}}
	return poll(ctx, n)
}

// outsiders are the nodes outside a coordinator's group: neither members
// nor invited.
func outsiders(ctx *model.Ctx[Msg], s State) []model.NodeID {
	return ctx.Nodes(func(j model.NodeID) bool { return !slices.Contains(s.Members, j) && !slices.Contains(s.Invited, j) })
}

// poll sends AreYouCoordinator to every outsider: coordinators answer, and
// a higher one is prompted to merge this group.
func poll(ctx *model.Ctx[Msg], s State) State {
	asked := outsiders(ctx, s)
	for _, j := range asked {
		ask(ctx, j)
	}
	s.Polled = union(s.Polled, asked)
	return s
}

// pollOne asks j, until it answers: the timer fires, and the node asks
// again, when j is unreachable (in vain, changing nothing, while j stays
// cut off) or once a message between them was lost (the timer expired).
// A participant of another group never answers: it is asked no more
// unless its group changes, and then it asks in turn.
func pollOne(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	ask(ctx, j)
	if !slices.Contains(s.Polled, j) {
		s.Polled = insert(s.Polled, j)
	}
	return s
}

// ask asks j whether it is a coordinator, and waits for its answer.
func ask(ctx *model.Ctx[Msg], j model.NodeID) {
	ctx.Send(j, Msg{K: AreYouCoordinator})
	ctx.SetTimer(pollTimer(j), j)
}

// topRank reports whether the node has the highest rank of all, and so no
// reason to delay a merge.
func topRank(ctx *model.Ctx[Msg]) bool {
	for j := range model.NodeID(ctx.N()) {
		if ctx.Rank(j) > ctx.MyRank() {
			return false
		}
	}
	return true
}

// found notes lower coordinator j, to merge after the delay. Found
// twice before the merge (its query and its answer), it is noted once. It
// is never among the coordinators invited: coordinatorSeen invites those
// again instead.
func found(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	if !slices.Contains(s.Found, j) {
		s.Found = insert(s.Found, j)
	}
	if topRank(ctx) {
		return merge(ctx, s)
	}
	ctx.SetTimer(MergeTimer)
	return s
}

// merge forms a new group and invites the coordinators found and the
// node's own members into it.
func merge(ctx *model.Ctx[Msg], s State) State {
	ctx.CancelTimer(MergeTimer)
	if len(s.Invited) == 0 {
		// a new group, for the members and the coordinators found
		s.Seq++
		s.Group = Group{s.Seq, ctx.Self()}
		ctx.Observe(model.NewGroup(s.Seq))
		ctx.SendAll(s.Members, Msg{K: Invite, Group: s.Group})
	}
	// while invitations are out the group is still forming: the
	// coordinators found meanwhile are invited into it as well. Until they
	// accept, they are not polled and their queries prompt no new merge;
	// the member timers notice those that fail.
	ctx.SendAll(s.Found, Msg{K: Invite, Group: s.Group})
	for _, j := range s.Found {
		s.Invited = insert(s.Invited, j)
		ctx.SetTimer(memberTimer(j), j)
		if slices.Contains(s.Polled, j) {
			s = answered(ctx, s, j)
		}
	}
	s.Found = nil
	return s
}

// join accepts the invitation to group g: the node follows g's coordinator.
func join(ctx *model.Ctx[Msg], s State, g Group) State {
	for _, j := range append(slices.Clone(s.Members), s.Invited...) {
		ctx.CancelTimer(memberTimer(j))
	}
	for _, j := range s.Polled {
		ctx.CancelTimer(pollTimer(j))
	}
	ctx.CancelTimer(MergeTimer)
	ctx.Send(g.Coord, Msg{K: Accept, Group: g})
	ctx.SetTimer(CoordinatorTimer, g.Coord)
	ctx.Observe(model.Leader(g.Coord))
	return State{Role: Participant, Seq: s.Seq, Group: g}
}

// addMember counts j in the coordinator's group and watches it.
func addMember(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	if !slices.Contains(s.Members, j) {
		s.Members = insert(s.Members, j)
	}
	s.Invited = remove(s.Invited, j)
	ctx.SetTimer(memberTimer(j), j)
	if slices.Contains(s.Polled, j) {
		s = answered(ctx, s, j)
	}
	return s
}

// answered stops polling j.
func answered(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	s.Polled = remove(s.Polled, j)
	ctx.CancelTimer(pollTimer(j))
	return s
}

// reinvite invites j, which follows an older group of this coordinator,
// into the current one, and watches it until it accepts.
func reinvite(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	ctx.Send(j, Msg{K: Invite, Group: s.Group})
	if !slices.Contains(s.Invited, j) {
		s.Members = remove(s.Members, j)
		s.Invited = insert(s.Invited, j)
		ctx.SetTimer(memberTimer(j), j)
	}
	return s
}

// coordinatorSeen handles news that j, a lower node, coordinates a group
// of its own: no member any more, it is to be merged. A coordinator already
// invited is invited again, into the same group: it may have passed the
// invitation by while it followed another coordinator.
func coordinatorSeen(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	if slices.Contains(s.Invited, j) {
		ctx.Send(j, Msg{K: Invite, Group: s.Group})
		return s
	}
	return found(ctx, dropMember(ctx, s, j), j)
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.K {
	case AreYouCoordinator:
		// Coordinators answer; so does a participant polled by its own
		// coordinator, which lost track of it.
		if s.Role == Coordinator || from == s.Group.Coord {
			ctx.Send(from, Msg{K: Answer, Group: s.Group, Coordinator: s.Role == Coordinator})
		}
		if s.Role == Coordinator && ctx.Rank(from) < ctx.MyRank() {
			// "higher-numbered processors ignore queries from lower-level
			// processors", but the query prompts them to merge sooner
			return coordinatorSeen(ctx, s, from)
		}
	case Answer:
		if s.Role != Coordinator {
			if m.Group.Coord == ctx.Self() {
				// it follows a group this node has left: pass it on
				ctx.Send(from, Msg{K: Invite, Group: s.Group})
			}
			return s
		}
		if slices.Contains(s.Polled, from) {
			s = answered(ctx, s, from)
		}
		switch {
		case m.Group == s.Group:
			s = addMember(ctx, s, from) // it follows us: it was dropped, or merged
		case m.Group.Coord == ctx.Self():
			s = reinvite(ctx, s, from) // it follows an old group of ours
		case m.Coordinator && ctx.Rank(from) < ctx.MyRank():
			s = coordinatorSeen(ctx, s, from)
		}
	case Invite:
		switch {
		case m.Group == s.Group:
		case s.Role == Participant && from == s.Group.Coord:
			return join(ctx, s, m.Group)
		case s.Role == Coordinator && ctx.Rank(m.Group.Coord) > ctx.MyRank():
			ctx.SendAll(s.Members, m) // forward to the group
			return join(ctx, s, m.Group)
		}
	case Accept:
		switch {
		case s.Role == Coordinator && m.Group == s.Group:
			return addMember(ctx, s, from)
		case s.Role == Coordinator:
			return reinvite(ctx, s, from) // it joined a group since re-formed
		case s.Group.Coord != from:
			// it joined a group this node has left: pass it on
			ctx.Send(from, Msg{K: Invite, Group: s.Group})
		}
	}
	return s
}

func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	switch t := t.(type) {
	case pollTimer:
		return pollOne(ctx, s, model.NodeID(t)) // no answer yet: ask again
	case memberTimer:
		if j := model.NodeID(t); !slices.Contains(s.Members, j) && !slices.Contains(s.Invited, j) {
			// unreachable: a node cancels its timer on a member once it is
			// none (dropMember), and on all of them when it joins another
			// group (join)
			panic(fmt.Sprintf("timer %v fired, but %v is neither a member nor invited", t, j))
		}
		return dropMember(ctx, s, model.NodeID(t)) // a member is lost
	}
	switch t {
	case MergeTimer:
		if len(s.Found) == 0 {
			// unreachable: the merge that empties the coordinators found
			// cancels the timer (merge), and so does joining another
			// group (join)
			panic("the merge timer fired with no coordinator found to merge")
		}
		return merge(ctx, s)
	case CoordinatorTimer:
		return formGroup(ctx, s)
	}
	return s // unreachable: the cases name every timer the protocol arms
}

// dropMember removes j from the coordinator's group: it becomes an outsider
// to poll.
func dropMember(ctx *model.Ctx[Msg], s State, j model.NodeID) State {
	if !slices.Contains(s.Members, j) && !slices.Contains(s.Invited, j) {
		return s
	}
	ctx.CancelTimer(memberTimer(j))
	s.Members, s.Invited = remove(s.Members, j), remove(s.Invited, j)
	return pollOne(ctx, s, j) // to find it again
}

// StableSeqParam is the run parameter that says whether a node's sequence
// number is on stable storage and survives a crash (1, the default) or is
// lost with the rest of its state (0).
const StableSeqParam = "stable-seq"

// Recover keeps the sequence number (stable storage) and forms a new group.
func (Protocol) Recover(ctx *model.Ctx[Msg], s State) State {
	if ctx.Param(StableSeqParam, 1) == 0 {
		return formGroup(ctx, State{})
	}
	return formGroup(ctx, State{Seq: s.Seq})
}

func remove(xs []model.NodeID, x model.NodeID) []model.NodeID {
	i := slices.Index(xs, x)
	if i < 0 {
		return xs
	}
	return append(xs[:i:i], xs[i+1:]...) // clipped: a copy
}

func insert(xs []model.NodeID, x model.NodeID) []model.NodeID {
	i, _ := slices.BinarySearch(xs, x)
	return slices.Insert(slices.Clip(xs), i, x) // clipped full: Insert copies
}

// union is the sorted set of the nodes of xs and ys, a new slice (nil if
// both are empty).
func union(xs, ys []model.NodeID) []model.NodeID {
	all := slices.Concat(xs, ys)
	slices.Sort(all)
	return slices.Clip(slices.Compact(all))
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"are-you-coordinator", "answer", "invite", "accept"}, Timers: []string{"merge", "coordinator", "poll", "member"}}
}
