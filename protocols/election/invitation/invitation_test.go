package invitation

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

// normed is Protocol with every empty list of the states it returns nil
// (see norm).
type normed struct{ Protocol }

func (p normed) Init(ctx *model.Ctx[Msg]) State { return norm(p.Protocol.Init(ctx)) }
func (p normed) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	return norm(p.Protocol.Receive(ctx, s, from, m))
}
func (p normed) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	return norm(p.Protocol.Timeout(ctx, s, t))
}
func (p normed) Recover(ctx *model.Ctx[Msg], s State) State { return norm(p.Protocol.Recover(ctx, s)) }

// norm makes every empty list of s nil: the checker encodes both alike, and
// the handlers leave empty (non-nil) lists behind when they remove the last
// element.
func norm(s State) State {
	for _, l := range []*[]model.NodeID{&s.Members, &s.Invited, &s.Polled, &s.Found} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return s
}

// rowKit returns the shorthands of the handler tables: a list of ids, a
// send, the are-you-coordinator message, an answer, an invitation, an
// acceptance and a group.
func rowKit() (ids func(...model.NodeID) []model.NodeID, send func(model.NodeID, Msg) model.Sent[Msg], ayc Msg,
	answer func(Group, bool) Msg, invite, accept func(Group) Msg, g func(int, model.NodeID) Group) {
	return func(js ...model.NodeID) []model.NodeID { return js },
		func(to model.NodeID, m Msg) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: m} },
		Msg{K: AreYouCoordinator},
		func(g Group, coord bool) Msg { return Msg{K: Answer, Group: g, Coordinator: coord} },
		func(g Group) Msg { return Msg{K: Invite, Group: g} },
		func(g Group) Msg { return Msg{K: Accept, Group: g} },
		func(seq int, coord model.NodeID) Group { return Group{seq, coord} }
}

// handlers runs the handler tables on four nodes ranked by id (n3 is the
// node of highest rank) unless a row says otherwise; an empty list is nil
// (see normed).
var handlers = checktest.Handlers[State, Msg]{Protocol: normed{}, Config: model.Config{N: 4}}

// cancel and arm are the timer effects of the tables' rows.
var cancel, arm = checktest.Cancelled, checktest.Armed

// The rules of the package doc, one handler call each.
func TestInvitationHandlers(t *testing.T) {
	ids, send, ayc, answer, invite, accept, g := rowKit()

	handlers.Init(t, []step{
		// Init: Kesden's first picture, one group under the top node
		{Name: "init: the top node coordinates group (1, itself) of every node and watches each member", Self: 3,
			Want:     State{Role: Coordinator, Seq: 1, Group: g(1, 3), Members: ids(0, 1, 2)},
			Timers:   []checktest.TimerEffect{arm(memberTimer(0), 0), arm(memberTimer(1), 1), arm(memberTimer(2), 2)},
			Observed: []model.Obs{model.NewGroup(1), model.Leader(3)}},
		{Name: "init: another node participates in (1, top) and watches the coordinator", Self: 1,
			Want: State{Role: Participant, Group: g(1, 3)}, Timers: []checktest.TimerEffect{arm(CoordinatorTimer, 3)}, Observed: []model.Obs{model.Leader(3)}},
		{Name: "init: the top is the node of highest rank, not of highest id", Config: model.Config{N: 3, Ranks: []int{2, 1, 0}}, Self: 2,
			Want: State{Role: Participant, Group: g(1, 0)}, Timers: []checktest.TimerEffect{arm(CoordinatorTimer, 0)}, Observed: []model.Obs{model.Leader(0)}},
	})
	handlers.Receive(t, []step{
		// AreYouCoordinator
		{Name: "are-you-coordinator from a lower node: a coordinator answers, notes it found and waits to merge", Self: 2,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1)}, From: 0, Msg: ayc,
			Want: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Found: ids(0)}, Sent: []model.Sent[Msg]{send(0, answer(g(2, 2), true))},
			Timers: []checktest.TimerEffect{arm(MergeTimer)}},
		{Name: "are-you-coordinator from a lower node: the top node has no reason to delay and merges at once", Self: 3,
			In: State{Role: Coordinator, Seq: 3, Group: g(3, 3), Members: ids(2)}, From: 1, Msg: ayc,
			Want:   State{Role: Coordinator, Seq: 4, Group: g(4, 3), Members: ids(2), Invited: ids(1)},
			Sent:   []model.Sent[Msg]{send(1, answer(g(3, 3), true)), send(2, invite(g(4, 3))), send(1, invite(g(4, 3)))},
			Timers: []checktest.TimerEffect{cancel(MergeTimer), arm(memberTimer(1), 1)}, Observed: []model.Obs{model.NewGroup(4)}},
		{Name: "are-you-coordinator from a member: it lost track of us; it is dropped and found", Self: 2,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0, 1)}, From: 1, Msg: ayc,
			Want:   State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0), Polled: ids(1), Found: ids(1)},
			Sent:   []model.Sent[Msg]{send(1, answer(g(2, 2), true)), send(1, ayc)},
			Timers: []checktest.TimerEffect{cancel(memberTimer(1)), arm(pollTimer(1), 1), arm(MergeTimer)}},
		{Name: "are-you-coordinator from a coordinator already invited: invited again into the same group", Self: 2,
			In: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(1)}, From: 1, Msg: ayc,
			Want: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(1)},
			Sent: []model.Sent[Msg]{send(1, answer(g(3, 2), true)), send(1, invite(g(3, 2)))}},
		{Name: "are-you-coordinator from a higher node: a coordinator answers and waits to be invited", Self: 1,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 1), Members: ids(0)}, From: 2, Msg: ayc,
			Want: State{Role: Coordinator, Seq: 2, Group: g(2, 1), Members: ids(0)}, Sent: []model.Sent[Msg]{send(2, answer(g(2, 1), true))}},
		{Name: "are-you-coordinator to a participant from its own coordinator: it answers", Self: 1, In: State{Role: Participant, Seq: 0, Group: g(1, 3)},
			From: 3, Msg: ayc,
			Want: State{Role: Participant, Seq: 0, Group: g(1, 3)}, Sent: []model.Sent[Msg]{send(3, answer(g(1, 3), false))}},
		{Name: "are-you-coordinator to a participant from another node: silence", Self: 1, In: State{Role: Participant, Seq: 0, Group: g(1, 3)}, From: 2,
			Msg:  ayc,
			Want: State{Role: Participant, Seq: 0, Group: g(1, 3)}},
		// Answer
		{Name: "answer from a node of our group: it is a member again, no longer polled", Self: 2,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Polled: ids(0, 3)}, From: 0, Msg: answer(g(2, 2), false),
			Want:   State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0, 1), Polled: ids(3)},
			Timers: []checktest.TimerEffect{cancel(pollTimer(0)), arm(memberTimer(0), 0)}},
		{Name: "answer from a node of an old group of ours: reinvited into the current one and watched", Self: 2,
			In: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Polled: ids(0)}, From: 0, Msg: answer(g(2, 2), false),
			Want: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(0)}, Sent: []model.Sent[Msg]{send(0, invite(g(3, 2)))},
			Timers: []checktest.TimerEffect{cancel(pollTimer(0)), arm(memberTimer(0), 0)}},
		{Name: "answer from a lower coordinator: found, to merge after the delay", Self: 2,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Polled: ids(1, 3)}, From: 1, Msg: answer(g(1, 1), true),
			Want:   State{Role: Coordinator, Seq: 2, Group: g(2, 2), Polled: ids(3), Found: ids(1)},
			Timers: []checktest.TimerEffect{cancel(pollTimer(1)), arm(MergeTimer)}},
		{Name: "answer from a higher coordinator: no longer polled, nothing else", Self: 1,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 1), Polled: ids(0, 3)}, From: 3, Msg: answer(g(4, 3), true),
			Want: State{Role: Coordinator, Seq: 2, Group: g(2, 1), Polled: ids(0)}, Timers: []checktest.TimerEffect{cancel(pollTimer(3))}},
		{Name: "answer at a participant about an old group of its own: the invitation to its group is passed on", Self: 1,
			In: State{Role: Participant, Seq: 2, Group: g(3, 3)}, From: 0, Msg: answer(g(2, 1), false),
			Want: State{Role: Participant, Seq: 2, Group: g(3, 3)}, Sent: []model.Sent[Msg]{send(0, invite(g(3, 3)))}},
		{Name: "answer at a participant about another group: ignored", Self: 1, In: State{Role: Participant, Seq: 2, Group: g(3, 3)}, From: 0,
			Msg:  answer(g(2, 2), false),
			Want: State{Role: Participant, Seq: 2, Group: g(3, 3)}},
		// Invite
		{Name: "invite to a participant from its coordinator: it joins, accepts and watches the new coordinator", Self: 0,
			In: State{Role: Participant, Seq: 1, Group: g(2, 1)}, From: 1, Msg: invite(g(3, 2)),
			Want: State{Role: Participant, Seq: 1, Group: g(3, 2)}, Sent: []model.Sent[Msg]{send(2, accept(g(3, 2)))},
			Timers: []checktest.TimerEffect{cancel(MergeTimer), arm(CoordinatorTimer, 2)}, Observed: []model.Obs{model.Leader(2)}},
		{Name: "invite to a coordinator from a higher group: forwarded to the members, then it joins", Self: 1,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 1), Members: ids(0), Polled: ids(2, 3)}, From: 3, Msg: invite(g(4, 3)),
			Want: State{Role: Participant, Seq: 2, Group: g(4, 3)}, Sent: []model.Sent[Msg]{send(0, invite(g(4, 3))), send(3, accept(g(4, 3)))},
			Timers:   []checktest.TimerEffect{cancel(memberTimer(0)), cancel(pollTimer(2)), cancel(pollTimer(3)), cancel(MergeTimer), arm(CoordinatorTimer, 3)},
			Observed: []model.Obs{model.Leader(3)}},
		{Name: "invite to a coordinator from a lower group: ignored", Self: 2, In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0)},
			From: 1, Msg: invite(g(5, 1)),
			Want: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0)}},
		{Name: "invite to a participant from a node other than its coordinator: ignored", Self: 1, In: State{Role: Participant, Seq: 0, Group: g(1, 3)},
			From: 2, Msg: invite(g(2, 2)),
			Want: State{Role: Participant, Seq: 0, Group: g(1, 3)}},
		{Name: "invite into the group it is in already: ignored", Self: 1, In: State{Role: Participant, Seq: 0, Group: g(4, 3)}, From: 3,
			Msg:  invite(g(4, 3)),
			Want: State{Role: Participant, Seq: 0, Group: g(4, 3)}},
		// Accept
		{Name: "accept into the current group: a member, watched", Self: 2,
			In: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(1), Invited: ids(0)}, From: 0, Msg: accept(g(3, 2)),
			Want: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(0, 1)}, Timers: []checktest.TimerEffect{arm(memberTimer(0), 0)}},
		{Name: "accept into a group since re-formed: reinvited into the current one", Self: 2,
			In: State{Role: Coordinator, Seq: 4, Group: g(4, 2), Members: ids(1)}, From: 0, Msg: accept(g(3, 2)),
			Want: State{Role: Coordinator, Seq: 4, Group: g(4, 2), Members: ids(1), Invited: ids(0)}, Sent: []model.Sent[Msg]{send(0, invite(g(4, 2)))},
			Timers: []checktest.TimerEffect{arm(memberTimer(0), 0)}},
		{Name: "accept at a participant, into a group it has left: the invitation to its group is passed on", Self: 1,
			In: State{Role: Participant, Seq: 2, Group: g(3, 3)}, From: 0, Msg: accept(g(2, 1)),
			Want: State{Role: Participant, Seq: 2, Group: g(3, 3)}, Sent: []model.Sent[Msg]{send(0, invite(g(3, 3)))}},
	})
}

// The timeouts and the recovery, as TestInvitationHandlers.
func TestInvitationTimeoutsAndRecovery(t *testing.T) {
	ids, send, ayc, _, invite, _, g := rowKit()

	handlers.Timeout(t, []step{
		// the coordinator is lost: a singleton group, and yell out
		{Name: "coordinator timer: a new group of its own with Seq+1, AreYouCoordinator to every outsider", Self: 1,
			In: State{Role: Participant, Seq: 4, Group: g(2, 3)}, Timer: CoordinatorTimer,
			Want: State{Role: Coordinator, Seq: 5, Group: g(5, 1), Polled: ids(0, 2, 3)}, Sent: []model.Sent[Msg]{send(0, ayc), send(2, ayc), send(3, ayc)},
			Timers:   []checktest.TimerEffect{cancel(CoordinatorTimer), arm(pollTimer(0), 0), arm(pollTimer(2), 2), arm(pollTimer(3), 3)},
			Observed: []model.Obs{model.NewGroup(5), model.Leader(1)}},
		// merge
		{Name: "merge with no invitations out: a new group number, members and coordinators found invited", Self: 2,
			In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Polled: ids(0, 3), Found: ids(0)}, Timer: MergeTimer,
			Want:   State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(1), Invited: ids(0), Polled: ids(3)},
			Sent:   []model.Sent[Msg]{send(1, invite(g(3, 2))), send(0, invite(g(3, 2)))},
			Timers: []checktest.TimerEffect{cancel(MergeTimer), arm(memberTimer(0), 0), cancel(pollTimer(0))}, Observed: []model.Obs{model.NewGroup(3)}},
		{Name: "merge with invitations out: the same group, only the newly found invited", Self: 2,
			In: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(0), Found: ids(1)}, Timer: MergeTimer,
			Want: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(0, 1)}, Sent: []model.Sent[Msg]{send(1, invite(g(3, 2)))},
			Timers: []checktest.TimerEffect{cancel(MergeTimer), arm(memberTimer(1), 1)}},
		// failures
		{Name: "member timer: the member is dropped and asked again", Self: 2, In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0, 1)},
			Timer: memberTimer(0),
			Want:  State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Polled: ids(0)}, Sent: []model.Sent[Msg]{send(0, ayc)},
			Timers: []checktest.TimerEffect{cancel(memberTimer(0)), arm(pollTimer(0), 0)}},
		{Name: "member timer of an invitee: dropped from the invited and asked again", Self: 2,
			In: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(0), Invited: ids(1)}, Timer: memberTimer(1),
			Want: State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(0), Polled: ids(1)}, Sent: []model.Sent[Msg]{send(1, ayc)},
			Timers: []checktest.TimerEffect{cancel(memberTimer(1)), arm(pollTimer(1), 1)}},
		{Name: "poll timer: no answer yet, ask again", Self: 2, In: State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0), Polled: ids(1, 3)},
			Timer: pollTimer(3),
			Want:  State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0), Polled: ids(1, 3)}, Sent: []model.Sent[Msg]{send(3, ayc)},
			Timers: []checktest.TimerEffect{arm(pollTimer(3), 3)}},
	})
	handlers.Recover(t, []step{
		{Name: "recover: the sequence number survives, the node forms a new group of its own", Self: 1,
			In:   State{Role: Coordinator, Seq: 4, Group: g(4, 1), Members: ids(0), Found: ids(0)},
			Want: State{Role: Coordinator, Seq: 5, Group: g(5, 1), Polled: ids(0, 2, 3)}, Sent: []model.Sent[Msg]{send(0, ayc), send(2, ayc), send(3, ayc)},
			Timers:   []checktest.TimerEffect{cancel(CoordinatorTimer), arm(pollTimer(0), 0), arm(pollTimer(2), 2), arm(pollTimer(3), 3)},
			Observed: []model.Obs{model.NewGroup(5), model.Leader(1)}},
		{Name: "recover of the first coordinator: group (2, n3), never (1, n3) again; its members are outsiders now", Self: 3,
			In:   State{Role: Coordinator, Seq: 1, Group: g(1, 3), Members: ids(0, 1, 2)},
			Want: State{Role: Coordinator, Seq: 2, Group: g(2, 3), Polled: ids(0, 1, 2)}, Sent: []model.Sent[Msg]{send(0, ayc), send(1, ayc), send(2, ayc)},
			Timers:   []checktest.TimerEffect{cancel(CoordinatorTimer), arm(pollTimer(0), 0), arm(pollTimer(1), 1), arm(pollTimer(2), 2)},
			Observed: []model.Obs{model.NewGroup(2), model.Leader(3)}},
	})
}

// The handlers do not mutate the state they are given (the Machine checks
// this too, by re-encoding): the lists are copied before they change.
func TestInvitationHandlersLeaveInputAlone(t *testing.T) {
	in := State{Role: Coordinator, Seq: 2, Group: Group{2, 2}, Members: []model.NodeID{0, 1}, Invited: []model.NodeID{1}, Polled: []model.NodeID{0, 3}, Found: []model.NodeID{0}}
	keep := State{Role: in.Role, Seq: in.Seq, Group: in.Group,
		Members: append([]model.NodeID(nil), in.Members...), Invited: append([]model.NodeID(nil), in.Invited...),
		Polled: append([]model.NodeID(nil), in.Polled...), Found: append([]model.NodeID(nil), in.Found...)}
	cfg := model.Config{N: 4}
	calls := []func(ctx *model.Ctx[Msg]) State{
		func(ctx *model.Ctx[Msg]) State { return Protocol{}.Timeout(ctx, in, MergeTimer) },
		func(ctx *model.Ctx[Msg]) State { return Protocol{}.Timeout(ctx, in, memberTimer(0)) },
		func(ctx *model.Ctx[Msg]) State { return Protocol{}.Timeout(ctx, in, pollTimer(3)) },
		func(ctx *model.Ctx[Msg]) State {
			return Protocol{}.Receive(ctx, in, 0, Msg{K: Answer, Group: Group{2, 2}})
		},
		func(ctx *model.Ctx[Msg]) State {
			return Protocol{}.Receive(ctx, in, 1, Msg{K: Accept, Group: Group{2, 2}})
		},
		func(ctx *model.Ctx[Msg]) State {
			return Protocol{}.Receive(ctx, in, 3, Msg{K: Invite, Group: Group{5, 3}})
		},
	}
	for i, call := range calls {
		call(model.NewCtx[Msg](cfg, 2))
		require.True(t, reflect.DeepEqual(keep, in), "call %d mutated its input: %v", i, in)
	}
}

// A timer that fires where the protocol cancels it is a bug of the
// protocol's, not a case to handle: the timeout says so.
func TestInvitationStaleTimersPanic(t *testing.T) {
	ctx := model.NewCtx[Msg](model.Config{N: 3}, 2)
	s := State{Role: Coordinator, Seq: 3, Group: Group{3, 2}, Members: []model.NodeID{1}}
	require.PanicsWithValue(t, "the merge timer fired with no coordinator found to merge", func() { Protocol{}.Timeout(ctx, s, MergeTimer) })
	require.PanicsWithValue(t, "timer member-0 fired, but n0 is neither a member nor invited", func() { Protocol{}.Timeout(ctx, s, memberTimer(0)) })
	require.NotPanics(t, func() { Protocol{}.Timeout(ctx, s, memberTimer(1)) })
}
