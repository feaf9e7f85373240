package emergent

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

const none = model.None

func ids(xs ...model.NodeID) []model.NodeID { return xs }

// Anthony's transitions, one handler call each, on five nodes ranked by id
// (n4 the first master), pool-min 1 and pool-max 2.
func TestHandlers(t *testing.T) {
	cfg := model.Config{N: 5}
	send := func(to model.NodeID, m Msg) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: m} }
	sendAll := func(m Msg, to ...model.NodeID) []model.Sent[Msg] {
		var out []model.Sent[Msg]
		for _, j := range to {
			out = append(out, send(j, m))
		}
		return out
	}
	cancel := func(t model.Timer) model.TimerEffect { return model.TimerEffect{Timer: t} }
	arm := func(t model.Timer, waitOn ...model.NodeID) model.TimerEffect {
		return model.TimerEffect{Timer: t, Armed: true, WaitOn: waitOn}
	}
	// promoting: the wait to promote ends, a join timer on each node
	promoting := func(js ...model.NodeID) []model.TimerEffect {
		out := []model.TimerEffect{cancel(PromoteTimer)}
		for _, j := range js {
			out = append(out, arm(JoinTimer(j), j))
		}
		return out
	}
	hello, bye := Msg{K: Hello}, Msg{K: Bye}
	ack := func(r Role) Msg { return Msg{K: Ack, Role: r} }
	cand := func(lost model.NodeID) Msg { return Msg{K: Candidacy, Lost: lost} }
	announce := func(gone ...model.NodeID) Msg { return Msg{K: Announce, Gone: gone} }
	p := Protocol{}
	cases := []struct {
		name     string
		self     model.NodeID
		call     func(ctx *model.Ctx[Msg]) State
		want     State
		sent     []model.Sent[Msg]
		timers   []model.TimerEffect
		observed []model.Obs
	}{
		{"the node of highest rank starts as master", 4,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) },
			State{Role: Master, Master: 4, Lost: none}, nil, nil,
			[]model.Obs{model.Leader(4)}},
		{"promote: the highest idle node knows no slave and has no one to wait for", 3,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) },
			State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 1, 2, 4)},
			sendAll(hello, 0, 1, 2, 4),
			promoting(0, 1, 2, 4),
			[]model.Obs{model.Leader(4), model.InPool(true)}},
		{"a lower idle node waits on the idle nodes above it", 1,
			func(ctx *model.Ctx[Msg]) State { return p.Init(ctx) },
			State{Role: Idle, Master: 4, Lost: none}, nil,
			[]model.TimerEffect{arm(PromoteTimer, 2, 3)},
			[]model.Obs{model.Leader(4)}},
		{"an idle node hears a slave: the pool is full enough, no promotion", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Idle, Master: 4, Lost: none}, 3, hello)
			},
			State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)},
			[]model.Sent[Msg]{send(3, ack(Idle))},
			[]model.TimerEffect{arm(SlaveTimer(3), 3), cancel(PromoteTimer)}, nil},
		{"promote: the idle nodes above have crashed", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Role: Idle, Master: 4, Lost: none}, PromoteTimer)
			},
			State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 2, 3, 4)},
			sendAll(hello, 0, 2, 3, 4),
			promoting(0, 2, 3, 4),
			[]model.Obs{model.InPool(true)}},
		{"an acknowledgement from a slave: it joins the pool, the wait shrinks", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 3, 4)}, 3, ack(Slave))
			},
			State{Role: Slave, Master: 4, Lost: none, Pool: ids(3), Joining: ids(0, 4)}, nil,
			[]model.TimerEffect{arm(SlaveTimer(3), 3), cancel(JoinTimer(3))}, nil},
		{"the last acknowledgement: joined, watch the master", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Slave, Master: 4, Lost: none, Joining: ids(4)}, 4, ack(Master))
			},
			State{Role: Slave, Master: 4, Lost: none}, nil,
			[]model.TimerEffect{cancel(JoinTimer(4)), arm(MasterTimer, 4)}, nil},
		{"no answer from a node: the wait shrinks, the other timers run on", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 4)}, JoinTimer(0))
			},
			State{Role: Slave, Master: 4, Lost: none, Joining: ids(4)}, nil, nil, nil},
		{"no answer from the last node: joined, watch the master", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Role: Slave, Master: 4, Lost: none, Joining: ids(0)}, JoinTimer(0))
			},
			State{Role: Slave, Master: 4, Lost: none}, nil,
			[]model.TimerEffect{arm(MasterTimer, 4)}, nil},
		{"demote: a slave that knows pool-max slaves above it", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)}, 2, hello)
			},
			State{Role: Idle, Master: 4, Lost: none, Pool: ids(2, 3)},
			append([]model.Sent[Msg]{send(2, ack(Slave))}, sendAll(bye, 0, 2, 3, 4)...),
			[]model.TimerEffect{arm(SlaveTimer(2), 2), cancel(MasterTimer)},
			[]model.Obs{model.InPool(false)}},
		{"a slave above another does not demote", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Slave, Master: 4, Lost: none, Pool: ids(2)}, 1, hello)
			},
			State{Role: Slave, Master: 4, Lost: none, Pool: ids(1, 2)},
			[]model.Sent[Msg]{send(1, ack(Slave))},
			[]model.TimerEffect{arm(SlaveTimer(1), 1)}, nil},
		{"slave failure seen by an idle node: too few slaves, promote after the idle nodes above, not the failed slave", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, SlaveTimer(3))
			},
			State{Role: Idle, Master: 4, Lost: none, Down: ids(3)}, nil,
			[]model.TimerEffect{cancel(SlaveTimer(3)), arm(PromoteTimer, 1, 2)}, nil},
		{"a message from a node taken for failed: it is waited on again", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Idle, Master: 4, Lost: none, Down: ids(3)}, 3, bye)
			},
			State{Role: Idle, Master: 4, Lost: none}, nil,
			[]model.TimerEffect{arm(PromoteTimer, 1, 2, 3)}, nil},
		{"a slave leaves: an idle node with slaves to spare stays idle", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Idle, Master: 4, Lost: none, Pool: ids(2, 3)}, 2, bye)
			},
			State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, nil,
			[]model.TimerEffect{cancel(SlaveTimer(2)), cancel(PromoteTimer)}, nil},
		{"master failure: a slave becomes a candidate and tells the pool", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)}, MasterTimer)
			},
			State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3)},
			[]model.Sent[Msg]{send(3, cand(4))},
			[]model.TimerEffect{cancel(MasterTimer)},
			[]model.Obs{model.Leader(none)}},
		{"master failure, the highest slave already heard the others: it is master", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Timeout(ctx, State{Role: Slave, Master: 4, Lost: none, Pool: ids(2), Votes: []Vote{{2, 4}}}, MasterTimer)
			},
			State{Role: Master, Master: 3, Lost: none},
			append([]model.Sent[Msg]{send(2, cand(4))}, sendAll(announce(4), 0, 1, 2, 4)...),
			[]model.TimerEffect{cancel(MasterTimer), cancel(SlaveTimer(2))},
			[]model.Obs{model.Leader(none), model.InPool(false), model.Leader(3)}},
		{"election outcome: the highest candidate hears the last vote and wins", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Candidate, Master: none, Lost: 4, Pool: ids(1, 2), Votes: []Vote{{1, 4}}}, 2, cand(4))
			},
			State{Role: Master, Master: 3, Lost: none},
			sendAll(announce(4), 0, 1, 2, 4),
			[]model.TimerEffect{cancel(SlaveTimer(1)), cancel(SlaveTimer(2))},
			[]model.Obs{model.InPool(false), model.Leader(3)}},
		{"a vote for another lost master does not count", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Candidate, Master: none, Lost: 4, Pool: ids(2)}, 2, cand(1))
			},
			State{Role: Candidate, Master: none, Lost: 4, Pool: ids(2), Votes: []Vote{{2, 1}}}, nil, nil, nil},
		{"a lower candidate waits, even having heard everyone", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3)}, 3, cand(4))
			},
			State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3), Votes: []Vote{{3, 4}}}, nil, nil, nil},
		{"election outcome: the announcement returns a candidate to the slaves", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3), Votes: []Vote{{3, 4}}}, 3, announce(4))
			},
			State{Role: Slave, Master: 3, Lost: none, Gone: ids(4)}, nil,
			[]model.TimerEffect{cancel(SlaveTimer(3)), arm(MasterTimer, 3)},
			[]model.Obs{model.Leader(3)}},
		{"the new master leaves the pool: an idle node left with too few promotes", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, 3, announce(4))
			},
			State{Role: Slave, Master: 3, Lost: none, Joining: ids(0, 1, 3, 4), Gone: ids(4)},
			sendAll(hello, 0, 1, 3, 4),
			append([]model.TimerEffect{cancel(SlaveTimer(3))}, promoting(0, 1, 3, 4)...),
			[]model.Obs{model.Leader(3), model.InPool(true)}},
		{"a late announcement of a replaced master is ignored", 0,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Idle, Master: 2, Lost: none, Pool: ids(1), Gone: ids(3, 4)}, 3, announce(4))
			},
			State{Role: Idle, Master: 2, Lost: none, Pool: ids(1), Gone: ids(3, 4)}, nil, nil, nil},
		{"a candidate tells a newly promoted slave of the election", 3,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Candidate, Master: none, Lost: 4}, 1, hello)
			},
			State{Role: Candidate, Master: none, Lost: 4, Pool: ids(1)},
			[]model.Sent[Msg]{send(1, ack(Candidate)), send(1, cand(4))},
			[]model.TimerEffect{arm(SlaveTimer(1), 1)}, nil},
		{"the master answers hellos and tracks nothing", 4,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Master, Master: 4, Lost: none}, 3, hello)
			},
			State{Role: Master, Master: 4, Lost: none}, []model.Sent[Msg]{send(3, ack(Master))}, nil, nil},
		{"a recovered node comes back idle and promotes at once", 1,
			func(ctx *model.Ctx[Msg]) State {
				return p.Recover(ctx, State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)})
			},
			State{Role: Slave, Master: none, Lost: none, Joining: ids(0, 2, 3, 4)},
			sendAll(hello, 0, 2, 3, 4),
			promoting(0, 2, 3, 4),
			[]model.Obs{model.InPool(true)}},
		{"a hello from the master: it restarted, so a slave stands", 2,
			func(ctx *model.Ctx[Msg]) State {
				return p.Receive(ctx, State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)}, 4, hello)
			},
			State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3, 4)},
			append([]model.Sent[Msg]{send(4, ack(Slave))}, sendAll(cand(4), 3, 4)...),
			[]model.TimerEffect{arm(SlaveTimer(4), 4), cancel(MasterTimer)},
			[]model.Obs{model.Leader(none)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[Msg](cfg, c.self)
		require.Equal(t, c.want, c.call(ctx), c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.timers, ctx.Timers(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

// pool-max 3 (and pool-min 2) through the run's parameters.
func TestPoolLimitsFromParams(t *testing.T) {
	cfg := model.Config{N: 6, Params: map[string]int{"pool-min": 2, "pool-max": 3}}
	p := Protocol{}
	// one slave known: still too few, and no idle node above: promote
	ctx := model.NewCtx[Msg](cfg, 3)
	s := p.Receive(ctx, State{Role: Idle, Master: 5, Lost: none}, 4, Msg{K: Hello})
	require.Equal(t, Slave, s.Role)
	require.Equal(t, []model.Obs{model.InPool(true)}, ctx.Observed())
	// two slaves above: within pool-max 3, no demotion
	ctx = model.NewCtx[Msg](cfg, 2)
	s = p.Receive(ctx, State{Role: Slave, Master: 5, Lost: none, Pool: ids(4)}, 3, Msg{K: Hello})
	require.Equal(t, Slave, s.Role)
	// three above: demote
	ctx = model.NewCtx[Msg](cfg, 1)
	s = p.Receive(ctx, State{Role: Slave, Master: 5, Lost: none, Pool: ids(3, 4)}, 2, Msg{K: Hello})
	require.Equal(t, Idle, s.Role)
	require.Equal(t, []model.Obs{model.InPool(false)}, ctx.Observed())
}
