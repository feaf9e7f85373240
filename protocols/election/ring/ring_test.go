package ring

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

var cfg = model.Config{N: 4, Ranks: []int{10, 40, 20, 30}}

func election(list ...int) Msg { return Msg{K: Election, List: list} }

func coordinator(c model.NodeID, list ...int) Msg { return Msg{K: Coordinator, List: list, Coord: c} }

type sent = []model.Sent[Msg]

type effects struct {
	sent     sent
	timers   []model.TimerEffect
	observed []model.Obs
}

func arm(t model.Timer, on model.NodeID) model.TimerEffect {
	return model.TimerEffect{Timer: t, Armed: true, WaitOn: []model.NodeID{on}}
}

func check(t *testing.T, name string, ctx *model.Ctx[Msg], want effects) {
	t.Helper()
	require.Equal(t, want.sent, ctx.Sent(), name)
	require.Equal(t, want.timers, ctx.Timers(), name)
	require.Equal(t, want.observed, ctx.Observed(), name)
}

// An initiator circulates ELECTION([its rank]) and watches its successor;
// the others only watch theirs.
func TestInit(t *testing.T) {
	init := model.Config{N: 4, Ranks: cfg.Ranks, Initiators: []bool{true, false, false, false}}
	ctx := model.NewCtx[Msg](init, 0)
	require.Equal(t, State{Leader: model.None, Succ: 1, Pending: []Msg{election(10)}}, Protocol{}.Init(ctx))
	check(t, "initiator", ctx, effects{sent: sent{{To: 1, Msg: election(10)}}, timers: []model.TimerEffect{arm(SuccCheck, 1)}})

	ctx = model.NewCtx[Msg](init, 3)
	require.Equal(t, State{Leader: model.None, Succ: 0}, Protocol{}.Init(ctx))
	check(t, "non-initiator", ctx, effects{timers: []model.TimerEffect{arm(SuccCheck, 0)}})
}

// Kesden's rules, one Receive call each. Node 1 (rank 40) is the highest;
// the sender is always the receiver's predecessor.
func TestReceive(t *testing.T) {
	idle := func(succ model.NodeID) State { return State{Leader: model.None, Succ: succ} }
	cases := []struct {
		name string
		self model.NodeID
		in   State
		m    Msg
		want State
		effects
	}{
		{"election without its rank: add it, pass it on, ack", 2, idle(3), election(10, 40),
			State{Leader: model.None, Succ: 3, Pending: []Msg{election(10, 40, 20)}},
			effects{sent: sent{{To: 1, Msg: election(10, 40).Ack()}, {To: 3, Msg: election(10, 40, 20)}}}},
		{"election without its rank behind an unacknowledged message: it waits", 2,
			State{Leader: model.None, Succ: 3, Pending: []Msg{election(20)}}, election(10, 40),
			State{Leader: model.None, Succ: 3, Pending: []Msg{election(20), election(10, 40, 20)}},
			effects{sent: sent{{To: 1, Msg: election(10, 40).Ack()}}}},
		{"election with its rank: the highest in the list coordinates, and this is circulated", 0, idle(1),
			election(10, 40, 20, 30),
			State{Leader: 1, Succ: 1, Pending: []Msg{coordinator(1, 10, 40, 20, 30)}, Passed: []model.NodeID{1}},
			effects{
				sent:     sent{{To: 3, Msg: election(10, 40, 20, 30).Ack()}, {To: 1, Msg: coordinator(1, 10, 40, 20, 30)}},
				timers:   []model.TimerEffect{arm(LeaderCheck, 1)},
				observed: []model.Obs{model.Leader(1)}}},
		{"election with its rank, at the coordinator itself", 1, idle(2), election(40, 20, 30, 10),
			State{Leader: 1, Succ: 2, Pending: []Msg{coordinator(1, 40, 20, 30, 10)}, Passed: []model.NodeID{1}},
			effects{
				sent:     sent{{To: 0, Msg: election(40, 20, 30, 10).Ack()}, {To: 2, Msg: coordinator(1, 40, 20, 30, 10)}},
				timers:   []model.TimerEffect{{Timer: LeaderCheck}},
				observed: []model.Obs{model.Leader(1)}}},
		{"coordinator the first time: adopt it, watch it, pass it on", 3, idle(0), coordinator(1, 10, 40, 20, 30),
			State{Leader: 1, Succ: 0, Pending: []Msg{coordinator(1, 10, 40, 20, 30)}, Passed: []model.NodeID{1}},
			effects{
				sent:     sent{{To: 2, Msg: coordinator(1, 10, 40, 20, 30).Ack()}, {To: 0, Msg: coordinator(1, 10, 40, 20, 30)}},
				timers:   []model.TimerEffect{arm(LeaderCheck, 1)},
				observed: []model.Obs{model.Leader(1)}}},
		{"coordinator already passed on: it has gone round, removed", 0,
			State{Leader: 1, Succ: 1, Passed: []model.NodeID{1}}, coordinator(1, 10, 40, 20, 30),
			State{Leader: 1, Succ: 1, Passed: []model.NodeID{1}},
			effects{sent: sent{{To: 3, Msg: coordinator(1, 10, 40, 20, 30).Ack()}}}},
		{"coordinator already passed on, at a node that lost its coordinator: adopt, remove", 0,
			State{Leader: model.None, Succ: 1, Pending: []Msg{election(10)}, Passed: []model.NodeID{1}}, coordinator(1, 40, 20, 30),
			State{Leader: 1, Succ: 1, Pending: []Msg{election(10)}, Passed: []model.NodeID{1}},
			effects{
				sent:     sent{{To: 3, Msg: coordinator(1, 40, 20, 30).Ack()}},
				timers:   []model.TimerEffect{arm(LeaderCheck, 1)},
				observed: []model.Obs{model.Leader(1)}}},
		{"ack of the last message: nothing left in custody", 0,
			State{Leader: model.None, Succ: 1, Pending: []Msg{election(10)}}, election(10).Ack(),
			idle(1), effects{}},
		{"ack: the next message goes", 0,
			State{Leader: 1, Succ: 1, Pending: []Msg{election(10), coordinator(1, 40, 20, 30, 10)}}, election(10).Ack(),
			State{Leader: 1, Succ: 1, Pending: []Msg{coordinator(1, 40, 20, 30, 10)}},
			effects{sent: sent{{To: 1, Msg: coordinator(1, 40, 20, 30, 10)}}}},
		{"a stray ack changes nothing", 0,
			State{Leader: model.None, Succ: 2, Pending: []Msg{election(10)}}, election(30, 10).Ack(),
			State{Leader: model.None, Succ: 2, Pending: []Msg{election(10)}}, effects{}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		from := model.NodeID((int(c.self) + cfg.N - 1) % cfg.N)
		if c.m.K == Ack {
			from = c.in.Succ
		}
		require.Equal(t, c.want, Protocol{}.Receive(ctx, c.in, from, c.m), c.name)
		check(t, c.name, ctx, c.effects)
	}
}

func TestTimeout(t *testing.T) {
	cases := []struct {
		name  string
		self  model.NodeID
		in    State
		timer model.Timer
		want  State
		effects
	}{
		{"successor failed: skip it, re-send what it did not ack, watch the next, elect again", 0,
			State{Leader: 1, Succ: 1, Pending: []Msg{coordinator(1, 40, 20, 30, 10)}, Passed: []model.NodeID{1}}, SuccCheck,
			State{Leader: 1, Succ: 2, Pending: []Msg{coordinator(1, 40, 20, 30, 10), election(10)}, Passed: []model.NodeID{1}},
			effects{
				sent:   sent{{To: 2, Msg: coordinator(1, 40, 20, 30, 10)}},
				timers: []model.TimerEffect{arm(SuccCheck, 2)}}},
		{"successor failed with nothing in custody: skip it and elect", 2,
			State{Leader: 1, Succ: 3, Passed: []model.NodeID{1}}, SuccCheck,
			State{Leader: 1, Succ: 0, Pending: []Msg{election(20)}, Passed: []model.NodeID{1}},
			effects{sent: sent{{To: 0, Msg: election(20)}}, timers: []model.TimerEffect{arm(SuccCheck, 0)}}},
		{"the last other node failed: its own successor, watching nobody", 3,
			State{Leader: 2, Succ: 2, Passed: []model.NodeID{2}}, SuccCheck,
			State{Leader: 2, Succ: 3, Pending: []Msg{election(30)}, Passed: []model.NodeID{2}},
			effects{sent: sent{{To: 3, Msg: election(30)}}}},
		{"the coordinator failed: forget it and elect", 2,
			State{Leader: 1, Succ: 3, Passed: []model.NodeID{1}}, LeaderCheck,
			State{Leader: model.None, Succ: 3, Pending: []Msg{election(20)}, Passed: []model.NodeID{1}},
			effects{sent: sent{{To: 3, Msg: election(20)}}, observed: []model.Obs{model.Leader(model.None)}}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, Protocol{}.Timeout(ctx, c.in, c.timer), c.name)
		check(t, c.name, ctx, c.effects)
	}
}

// A recovered node remembers nothing and starts no election.
func TestRecover(t *testing.T) {
	ctx := model.NewCtx[Msg](cfg, 3)
	in := State{Leader: 1, Succ: 1, Pending: []Msg{election(30)}, Passed: []model.NodeID{1}}
	require.Equal(t, State{Leader: model.None, Succ: 0}, Protocol{}.Recover(ctx, in))
	check(t, "recover", ctx, effects{timers: []model.TimerEffect{arm(SuccCheck, 0)}})
}
