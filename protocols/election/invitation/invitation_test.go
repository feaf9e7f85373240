package invitation

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

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

// The rules of the package doc, one handler call each, on four nodes ranked
// by id (n3 is the node of highest rank) unless a row says otherwise.
func TestInvitationHandlers(t *testing.T) {
	cfg4 := model.Config{N: 4}
	ids := func(js ...model.NodeID) []model.NodeID { return js }
	send := func(to model.NodeID, m Msg) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: m} }
	ayc := Msg{K: AreYouCoordinator}
	answer := func(g Group, coord bool) Msg { return Msg{K: Answer, Group: g, Coordinator: coord} }
	invite := func(g Group) Msg { return Msg{K: Invite, Group: g} }
	accept := func(g Group) Msg { return Msg{K: Accept, Group: g} }
	cancel := func(t model.Timer) model.TimerEffect { return model.TimerEffect{Timer: t} }
	arm := func(t model.Timer, waitOn ...model.NodeID) model.TimerEffect {
		return model.TimerEffect{Timer: t, Armed: true, WaitOn: waitOn}
	}
	start := func(ctx *model.Ctx[Msg]) State { return Protocol{}.Init(ctx) }
	receive := func(s State, from model.NodeID, m Msg) func(ctx *model.Ctx[Msg]) State {
		return func(ctx *model.Ctx[Msg]) State { return Protocol{}.Receive(ctx, s, from, m) }
	}
	timeout := func(s State, tm model.Timer) func(ctx *model.Ctx[Msg]) State {
		return func(ctx *model.Ctx[Msg]) State { return Protocol{}.Timeout(ctx, s, tm) }
	}
	recoverFrom := func(s State) func(ctx *model.Ctx[Msg]) State {
		return func(ctx *model.Ctx[Msg]) State { return Protocol{}.Recover(ctx, s) }
	}
	g := func(seq int, coord model.NodeID) Group { return Group{seq, coord} }

	cases := []struct {
		name     string
		cfg      *model.Config // nil: cfg4
		self     model.NodeID
		call     func(ctx *model.Ctx[Msg]) State
		want     State
		sent     []model.Sent[Msg]
		timers   []model.TimerEffect
		observed []model.Obs
	}{
		// Init: Kesden's first picture, one group under the top node
		{"init: the top node coordinates group (1, itself) of every node and watches each member", nil, 3, start,
			State{Role: Coordinator, Seq: 1, Group: g(1, 3), Members: ids(0, 1, 2)},
			nil,
			[]model.TimerEffect{arm(memberTimer(0), 0), arm(memberTimer(1), 1), arm(memberTimer(2), 2)},
			[]model.Obs{model.NewGroup(1), model.Leader(3)}},
		{"init: another node participates in (1, top) and watches the coordinator", nil, 1, start,
			State{Role: Participant, Group: g(1, 3)},
			nil,
			[]model.TimerEffect{arm(CoordinatorTimer, 3)},
			[]model.Obs{model.Leader(3)}},
		{"init: the top is the node of highest rank, not of highest id", &model.Config{N: 3, Ranks: []int{2, 1, 0}}, 2, start,
			State{Role: Participant, Group: g(1, 0)},
			nil,
			[]model.TimerEffect{arm(CoordinatorTimer, 0)},
			[]model.Obs{model.Leader(0)}},

		// the coordinator is lost: a singleton group, and yell out
		{"coordinator timer: a new group of its own with Seq+1, AreYouCoordinator to every outsider", nil, 1,
			timeout(State{Role: Participant, Seq: 4, Group: g(2, 3)}, CoordinatorTimer),
			State{Role: Coordinator, Seq: 5, Group: g(5, 1), Polled: ids(0, 2, 3)},
			[]model.Sent[Msg]{send(0, ayc), send(2, ayc), send(3, ayc)},
			[]model.TimerEffect{cancel(CoordinatorTimer), arm(pollTimer(0), 0), arm(pollTimer(2), 2), arm(pollTimer(3), 3)},
			[]model.Obs{model.NewGroup(5), model.Leader(1)}},

		// AreYouCoordinator
		{"are-you-coordinator from a lower node: a coordinator answers, notes it found and waits to merge", nil, 2,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1)}, 0, ayc),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Found: ids(0)},
			[]model.Sent[Msg]{send(0, answer(g(2, 2), true))},
			[]model.TimerEffect{arm(MergeTimer)},
			nil},
		{"are-you-coordinator from a lower node: the top node has no reason to delay and merges at once", nil, 3,
			receive(State{Role: Coordinator, Seq: 3, Group: g(3, 3), Members: ids(2)}, 1, ayc),
			State{Role: Coordinator, Seq: 4, Group: g(4, 3), Members: ids(2), Invited: ids(1)},
			[]model.Sent[Msg]{send(1, answer(g(3, 3), true)), send(2, invite(g(4, 3))), send(1, invite(g(4, 3)))},
			[]model.TimerEffect{cancel(MergeTimer), arm(memberTimer(1), 1)},
			[]model.Obs{model.NewGroup(4)}},
		{"are-you-coordinator from a member: it lost track of us; it is dropped and found", nil, 2,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0, 1)}, 1, ayc),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0), Polled: ids(1), Found: ids(1)},
			[]model.Sent[Msg]{send(1, answer(g(2, 2), true)), send(1, ayc)},
			[]model.TimerEffect{cancel(memberTimer(1)), arm(pollTimer(1), 1), arm(MergeTimer)},
			nil},
		{"are-you-coordinator from a coordinator already invited: invited again into the same group", nil, 2,
			receive(State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(1)}, 1, ayc),
			State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(1)},
			[]model.Sent[Msg]{send(1, answer(g(3, 2), true)), send(1, invite(g(3, 2)))},
			nil, nil},
		{"are-you-coordinator from a higher node: a coordinator answers and waits to be invited", nil, 1,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 1), Members: ids(0)}, 2, ayc),
			State{Role: Coordinator, Seq: 2, Group: g(2, 1), Members: ids(0)},
			[]model.Sent[Msg]{send(2, answer(g(2, 1), true))},
			nil, nil},
		{"are-you-coordinator to a participant from its own coordinator: it answers", nil, 1,
			receive(State{Role: Participant, Seq: 0, Group: g(1, 3)}, 3, ayc),
			State{Role: Participant, Seq: 0, Group: g(1, 3)},
			[]model.Sent[Msg]{send(3, answer(g(1, 3), false))},
			nil, nil},
		{"are-you-coordinator to a participant from another node: silence", nil, 1,
			receive(State{Role: Participant, Seq: 0, Group: g(1, 3)}, 2, ayc),
			State{Role: Participant, Seq: 0, Group: g(1, 3)},
			nil, nil, nil},

		// Answer
		{"answer from a node of our group: it is a member again, no longer polled", nil, 2,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Polled: ids(0, 3)}, 0, answer(g(2, 2), false)),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0, 1), Polled: ids(3)},
			nil,
			[]model.TimerEffect{cancel(pollTimer(0)), arm(memberTimer(0), 0)},
			nil},
		{"answer from a node of an old group of ours: reinvited into the current one and watched", nil, 2,
			receive(State{Role: Coordinator, Seq: 3, Group: g(3, 2), Polled: ids(0)}, 0, answer(g(2, 2), false)),
			State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(0)},
			[]model.Sent[Msg]{send(0, invite(g(3, 2)))},
			[]model.TimerEffect{cancel(pollTimer(0)), arm(memberTimer(0), 0)},
			nil},
		{"answer from a lower coordinator: found, to merge after the delay", nil, 2,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Polled: ids(1, 3)}, 1, answer(g(1, 1), true)),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Polled: ids(3), Found: ids(1)},
			nil,
			[]model.TimerEffect{cancel(pollTimer(1)), arm(MergeTimer)},
			nil},
		{"answer from a higher coordinator: no longer polled, nothing else", nil, 1,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 1), Polled: ids(0, 3)}, 3, answer(g(4, 3), true)),
			State{Role: Coordinator, Seq: 2, Group: g(2, 1), Polled: ids(0)},
			nil,
			[]model.TimerEffect{cancel(pollTimer(3))},
			nil},
		{"answer at a participant about an old group of its own: the invitation to its group is passed on", nil, 1,
			receive(State{Role: Participant, Seq: 2, Group: g(3, 3)}, 0, answer(g(2, 1), false)),
			State{Role: Participant, Seq: 2, Group: g(3, 3)},
			[]model.Sent[Msg]{send(0, invite(g(3, 3)))},
			nil, nil},
		{"answer at a participant about another group: ignored", nil, 1,
			receive(State{Role: Participant, Seq: 2, Group: g(3, 3)}, 0, answer(g(2, 2), false)),
			State{Role: Participant, Seq: 2, Group: g(3, 3)},
			nil, nil, nil},

		// merge
		{"merge with no invitations out: a new group number, members and coordinators found invited", nil, 2,
			timeout(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Polled: ids(0, 3), Found: ids(0)}, MergeTimer),
			State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(1), Invited: ids(0), Polled: ids(3)},
			[]model.Sent[Msg]{send(1, invite(g(3, 2))), send(0, invite(g(3, 2)))},
			[]model.TimerEffect{cancel(MergeTimer), arm(memberTimer(0), 0), cancel(pollTimer(0))},
			[]model.Obs{model.NewGroup(3)}},
		{"merge with invitations out: the same group, only the newly found invited", nil, 2,
			timeout(State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(0), Found: ids(1)}, MergeTimer),
			State{Role: Coordinator, Seq: 3, Group: g(3, 2), Invited: ids(0, 1)},
			[]model.Sent[Msg]{send(1, invite(g(3, 2)))},
			[]model.TimerEffect{cancel(MergeTimer), arm(memberTimer(1), 1)},
			nil},

		// Invite
		{"invite to a participant from its coordinator: it joins, accepts and watches the new coordinator", nil, 0,
			receive(State{Role: Participant, Seq: 1, Group: g(2, 1)}, 1, invite(g(3, 2))),
			State{Role: Participant, Seq: 1, Group: g(3, 2)},
			[]model.Sent[Msg]{send(2, accept(g(3, 2)))},
			[]model.TimerEffect{cancel(MergeTimer), arm(CoordinatorTimer, 2)},
			[]model.Obs{model.Leader(2)}},
		{"invite to a coordinator from a higher group: forwarded to the members, then it joins", nil, 1,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 1), Members: ids(0), Polled: ids(2, 3)}, 3, invite(g(4, 3))),
			State{Role: Participant, Seq: 2, Group: g(4, 3)},
			[]model.Sent[Msg]{send(0, invite(g(4, 3))), send(3, accept(g(4, 3)))},
			[]model.TimerEffect{cancel(memberTimer(0)), cancel(pollTimer(2)), cancel(pollTimer(3)), cancel(MergeTimer), arm(CoordinatorTimer, 3)},
			[]model.Obs{model.Leader(3)}},
		{"invite to a coordinator from a lower group: ignored", nil, 2,
			receive(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0)}, 1, invite(g(5, 1))),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0)},
			nil, nil, nil},
		{"invite to a participant from a node other than its coordinator: ignored", nil, 1,
			receive(State{Role: Participant, Seq: 0, Group: g(1, 3)}, 2, invite(g(2, 2))),
			State{Role: Participant, Seq: 0, Group: g(1, 3)},
			nil, nil, nil},
		{"invite into the group it is in already: ignored", nil, 1,
			receive(State{Role: Participant, Seq: 0, Group: g(4, 3)}, 3, invite(g(4, 3))),
			State{Role: Participant, Seq: 0, Group: g(4, 3)},
			nil, nil, nil},

		// Accept
		{"accept into the current group: a member, watched", nil, 2,
			receive(State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(1), Invited: ids(0)}, 0, accept(g(3, 2))),
			State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(0, 1)},
			nil,
			[]model.TimerEffect{arm(memberTimer(0), 0)},
			nil},
		{"accept into a group since re-formed: reinvited into the current one", nil, 2,
			receive(State{Role: Coordinator, Seq: 4, Group: g(4, 2), Members: ids(1)}, 0, accept(g(3, 2))),
			State{Role: Coordinator, Seq: 4, Group: g(4, 2), Members: ids(1), Invited: ids(0)},
			[]model.Sent[Msg]{send(0, invite(g(4, 2)))},
			[]model.TimerEffect{arm(memberTimer(0), 0)},
			nil},
		{"accept at a participant, into a group it has left: the invitation to its group is passed on", nil, 1,
			receive(State{Role: Participant, Seq: 2, Group: g(3, 3)}, 0, accept(g(2, 1))),
			State{Role: Participant, Seq: 2, Group: g(3, 3)},
			[]model.Sent[Msg]{send(0, invite(g(3, 3)))},
			nil, nil},

		// failures
		{"member timer: the member is dropped and asked again", nil, 2,
			timeout(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0, 1)}, memberTimer(0)),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(1), Polled: ids(0)},
			[]model.Sent[Msg]{send(0, ayc)},
			[]model.TimerEffect{cancel(memberTimer(0)), arm(pollTimer(0), 0)},
			nil},
		{"member timer of an invitee: dropped from the invited and asked again", nil, 2,
			timeout(State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(0), Invited: ids(1)}, memberTimer(1)),
			State{Role: Coordinator, Seq: 3, Group: g(3, 2), Members: ids(0), Polled: ids(1)},
			[]model.Sent[Msg]{send(1, ayc)},
			[]model.TimerEffect{cancel(memberTimer(1)), arm(pollTimer(1), 1)},
			nil},
		{"poll timer: no answer yet, ask again", nil, 2,
			timeout(State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0), Polled: ids(1, 3)}, pollTimer(3)),
			State{Role: Coordinator, Seq: 2, Group: g(2, 2), Members: ids(0), Polled: ids(1, 3)},
			[]model.Sent[Msg]{send(3, ayc)},
			[]model.TimerEffect{arm(pollTimer(3), 3)},
			nil},
		{"recover: the sequence number survives, the node forms a new group of its own", nil, 1,
			recoverFrom(State{Role: Coordinator, Seq: 4, Group: g(4, 1), Members: ids(0), Found: ids(0)}),
			State{Role: Coordinator, Seq: 5, Group: g(5, 1), Polled: ids(0, 2, 3)},
			[]model.Sent[Msg]{send(0, ayc), send(2, ayc), send(3, ayc)},
			[]model.TimerEffect{cancel(CoordinatorTimer), arm(pollTimer(0), 0), arm(pollTimer(2), 2), arm(pollTimer(3), 3)},
			[]model.Obs{model.NewGroup(5), model.Leader(1)}},
		{"recover of the first coordinator: group (2, n3), never (1, n3) again; its members are outsiders now", nil, 3,
			recoverFrom(State{Role: Coordinator, Seq: 1, Group: g(1, 3), Members: ids(0, 1, 2)}),
			State{Role: Coordinator, Seq: 2, Group: g(2, 3), Polled: ids(0, 1, 2)},
			[]model.Sent[Msg]{send(0, ayc), send(1, ayc), send(2, ayc)},
			[]model.TimerEffect{cancel(CoordinatorTimer), arm(pollTimer(0), 0), arm(pollTimer(1), 1), arm(pollTimer(2), 2)},
			[]model.Obs{model.NewGroup(2), model.Leader(3)}},
	}
	for _, c := range cases {
		cfg := cfg4
		if c.cfg != nil {
			cfg = *c.cfg
		}
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, norm(c.want), norm(c.call(ctx)), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.timers, ctx.Timers(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
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
