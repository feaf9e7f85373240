package emergent_test

import (
	. "github.com/vigil-check/vigil/protocols/election/emergent"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

type step = checktest.Step[State, Msg]

const none = model.None

func ids(xs ...model.NodeID) []model.NodeID { return xs }

// Anthony's transitions, one handler call each, on five nodes ranked by id
// (n4 the first master), pool-min 1 and pool-max 2.
func TestHandlers(t *testing.T) {
	handlers := checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 5}}
	send := func(to model.NodeID, m Msg) model.Sent[Msg] { return model.Sent[Msg]{To: to, Msg: m} }
	sendAll := checktest.SentTo[Msg]
	cancel, arm := checktest.Cancelled, checktest.Armed
	// promoting: the wait to promote ends, a join timer on each node
	promoting := func(js ...model.NodeID) []checktest.TimerEffect {
		out := []checktest.TimerEffect{cancel(PromoteTimer)}
		for _, j := range js {
			out = append(out, arm(JoinTimer(j), j))
		}
		return out
	}
	hello, bye := Msg{K: Hello}, Msg{K: Bye}
	ack := func(r Role) Msg { return Msg{K: Ack, Role: r} }
	cand := func(lost model.NodeID) Msg { return Msg{K: Candidacy, Lost: lost} }
	announce := func(gone ...model.NodeID) Msg { return Msg{K: Announce, Gone: gone} }
	handlers.Init(t, []step{
		{Name: "the node of highest rank starts as master", Self: 4,
			Want: State{Role: Master, Master: 4, Lost: none}, Observed: []model.Obs{model.Leader(4)}},
		{Name: "promote: the highest idle node knows no slave and has no one to wait for", Self: 3,
			Want: State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 1, 2, 4)}, Sent: sendAll(hello, 0, 1, 2, 4), Timers: promoting(0, 1, 2, 4),
			Observed: []model.Obs{model.Leader(4), model.InPool(true)}},
		{Name: "a lower idle node waits on the idle nodes above it", Self: 1,
			Want: State{Role: Idle, Master: 4, Lost: none}, Timers: []checktest.TimerEffect{arm(PromoteTimer, 2, 3)}, Observed: []model.Obs{model.Leader(4)}},
	})
	handlers.Receive(t, []step{
		{Name: "an idle node hears a slave: the pool is full enough, no promotion", Self: 1, In: State{Role: Idle, Master: 4, Lost: none}, From: 3,
			Msg:  hello,
			Want: State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, Sent: []model.Sent[Msg]{send(3, ack(Idle))},
			Timers: []checktest.TimerEffect{arm(SlaveTimer(3), 3), cancel(PromoteTimer)}},
		{Name: "an acknowledgement from a slave: it joins the pool, the wait shrinks", Self: 2,
			In: State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 3, 4)}, From: 3, Msg: ack(Slave),
			Want:   State{Role: Slave, Master: 4, Lost: none, Pool: ids(3), Joining: ids(0, 4)},
			Timers: []checktest.TimerEffect{arm(SlaveTimer(3), 3), cancel(JoinTimer(3))}},
		{Name: "the last acknowledgement: joined, watch the master", Self: 2, In: State{Role: Slave, Master: 4, Lost: none, Joining: ids(4)}, From: 4,
			Msg:  ack(Master),
			Want: State{Role: Slave, Master: 4, Lost: none}, Timers: []checktest.TimerEffect{cancel(JoinTimer(4)), arm(MasterTimer, 4)}},
		{Name: "demote: a slave that knows pool-max slaves above it", Self: 1, In: State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)}, From: 2,
			Msg:  hello,
			Want: State{Role: Idle, Master: 4, Lost: none, Pool: ids(2, 3)}, Sent: append([]model.Sent[Msg]{send(2, ack(Slave))}, sendAll(bye, 0, 2, 3, 4)...),
			Timers: []checktest.TimerEffect{arm(SlaveTimer(2), 2), cancel(MasterTimer)}, Observed: []model.Obs{model.InPool(false)}},
		{Name: "a slave above another does not demote", Self: 3, In: State{Role: Slave, Master: 4, Lost: none, Pool: ids(2)}, From: 1, Msg: hello,
			Want: State{Role: Slave, Master: 4, Lost: none, Pool: ids(1, 2)}, Sent: []model.Sent[Msg]{send(1, ack(Slave))},
			Timers: []checktest.TimerEffect{arm(SlaveTimer(1), 1)}},
		{Name: "a message from a node taken for failed: it is waited on again", Self: 0, In: State{Role: Idle, Master: 4, Lost: none, Down: ids(3)},
			From: 3, Msg: bye,
			Want: State{Role: Idle, Master: 4, Lost: none}, Timers: []checktest.TimerEffect{arm(PromoteTimer, 1, 2, 3)}},
		{Name: "a slave leaves: an idle node with slaves to spare stays idle", Self: 0, In: State{Role: Idle, Master: 4, Lost: none, Pool: ids(2, 3)},
			From: 2, Msg: bye,
			Want: State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, Timers: []checktest.TimerEffect{cancel(SlaveTimer(2)), cancel(PromoteTimer)}},
		{Name: "election outcome: the highest candidate hears the last vote and wins", Self: 3,
			In: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(1, 2), Votes: []Vote{{1, 4}}}, From: 2, Msg: cand(4),
			Want: State{Role: Master, Master: 3, Lost: none}, Sent: sendAll(announce(4), 0, 1, 2, 4),
			Timers: []checktest.TimerEffect{cancel(SlaveTimer(1)), cancel(SlaveTimer(2))}, Observed: []model.Obs{model.InPool(false), model.Leader(3)}},
		{Name: "a vote for another lost master does not count", Self: 3, In: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(2)}, From: 2,
			Msg:  cand(1),
			Want: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(2), Votes: []Vote{{2, 1}}}},
		{Name: "a lower candidate waits, even having heard everyone", Self: 2, In: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3)}, From: 3,
			Msg:  cand(4),
			Want: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3), Votes: []Vote{{3, 4}}}},
		{Name: "election outcome: the announcement returns a candidate to the slaves", Self: 2,
			In: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3), Votes: []Vote{{3, 4}}}, From: 3, Msg: announce(4),
			Want: State{Role: Slave, Master: 3, Lost: none, Gone: ids(4)}, Timers: []checktest.TimerEffect{cancel(SlaveTimer(3)), arm(MasterTimer, 3)},
			Observed: []model.Obs{model.Leader(3)}},
		{Name: "the new master leaves the pool: an idle node left with too few promotes", Self: 2,
			In: State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, From: 3, Msg: announce(4),
			Want: State{Role: Slave, Master: 3, Lost: none, Joining: ids(0, 1, 3, 4), Gone: ids(4)}, Sent: sendAll(hello, 0, 1, 3, 4),
			Timers: append([]checktest.TimerEffect{cancel(SlaveTimer(3))}, promoting(0, 1, 3, 4)...), Observed: []model.Obs{model.Leader(3), model.InPool(true)}},
		{Name: "a late announcement of a replaced master is ignored", Self: 0, In: State{Role: Idle, Master: 2, Lost: none, Pool: ids(1), Gone: ids(3, 4)},
			From: 3, Msg: announce(4),
			Want: State{Role: Idle, Master: 2, Lost: none, Pool: ids(1), Gone: ids(3, 4)}},
		{Name: "a candidate tells a newly promoted slave of the election", Self: 3, In: State{Role: Candidate, Master: none, Lost: 4}, From: 1, Msg: hello,
			Want: State{Role: Candidate, Master: none, Lost: 4, Pool: ids(1)}, Sent: []model.Sent[Msg]{send(1, ack(Candidate)), send(1, cand(4))},
			Timers: []checktest.TimerEffect{arm(SlaveTimer(1), 1)}},
		{Name: "the master answers hellos and tracks nothing", Self: 4, In: State{Role: Master, Master: 4, Lost: none}, From: 3, Msg: hello,
			Want: State{Role: Master, Master: 4, Lost: none}, Sent: []model.Sent[Msg]{send(3, ack(Master))}},
		{Name: "a hello from the master: it restarted, so a slave stands", Self: 2, In: State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)}, From: 4,
			Msg:    hello,
			Want:   State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3, 4)},
			Sent:   append([]model.Sent[Msg]{send(4, ack(Slave))}, sendAll(cand(4), 3, 4)...),
			Timers: []checktest.TimerEffect{arm(SlaveTimer(4), 4), cancel(MasterTimer)}, Observed: []model.Obs{model.Leader(none)}},
	})
	handlers.Timeout(t, []step{
		{Name: "promote: the idle nodes above have crashed", Self: 1, In: State{Role: Idle, Master: 4, Lost: none}, Timer: PromoteTimer,
			Want: State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 2, 3, 4)}, Sent: sendAll(hello, 0, 2, 3, 4), Timers: promoting(0, 2, 3, 4),
			Observed: []model.Obs{model.InPool(true)}},
		{Name: "no answer from a node: the wait shrinks, the other timers run on", Self: 2,
			In: State{Role: Slave, Master: 4, Lost: none, Joining: ids(0, 4)}, Timer: JoinTimer(0),
			Want: State{Role: Slave, Master: 4, Lost: none, Joining: ids(4)}},
		{Name: "no answer from the last node: joined, watch the master", Self: 2, In: State{Role: Slave, Master: 4, Lost: none, Joining: ids(0)},
			Timer: JoinTimer(0),
			Want:  State{Role: Slave, Master: 4, Lost: none}, Timers: []checktest.TimerEffect{arm(MasterTimer, 4)}},
		{Name: "slave failure seen by an idle node: too few slaves, promote after the idle nodes above, not the failed slave", Self: 0,
			In: State{Role: Idle, Master: 4, Lost: none, Pool: ids(3)}, Timer: SlaveTimer(3),
			Want: State{Role: Idle, Master: 4, Lost: none, Down: ids(3)}, Timers: []checktest.TimerEffect{cancel(SlaveTimer(3)), arm(PromoteTimer, 1, 2)}},
		{Name: "master failure: a slave becomes a candidate and tells the pool", Self: 2, In: State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)},
			Timer: MasterTimer,
			Want:  State{Role: Candidate, Master: none, Lost: 4, Pool: ids(3)}, Sent: []model.Sent[Msg]{send(3, cand(4))},
			Timers: []checktest.TimerEffect{cancel(MasterTimer)}, Observed: []model.Obs{model.Leader(none)}},
		{Name: "master failure, the highest slave already heard the others: it is master", Self: 3,
			In: State{Role: Slave, Master: 4, Lost: none, Pool: ids(2), Votes: []Vote{{2, 4}}}, Timer: MasterTimer,
			Want: State{Role: Master, Master: 3, Lost: none}, Sent: append([]model.Sent[Msg]{send(2, cand(4))}, sendAll(announce(4), 0, 1, 2, 4)...),
			Timers:   []checktest.TimerEffect{cancel(MasterTimer), cancel(SlaveTimer(2))},
			Observed: []model.Obs{model.Leader(none), model.InPool(false), model.Leader(3)}},
	})
	handlers.Recover(t, []step{
		{Name: "a recovered node comes back idle and promotes at once", Self: 1, In: State{Role: Slave, Master: 4, Lost: none, Pool: ids(3)},
			Want: State{Role: Slave, Master: none, Lost: none, Joining: ids(0, 2, 3, 4)}, Sent: sendAll(hello, 0, 2, 3, 4), Timers: promoting(0, 2, 3, 4),
			Observed: []model.Obs{model.InPool(true)}},
	})
}

// pool-max 3 (and pool-min 2) through the run's parameters.
func TestPoolLimitsFromParams(t *testing.T) {
	cfg := model.Config{N: 6, Params: map[string]int{"pool-min": 2, "pool-max": 3}}
	p := Protocol{}
	// one slave known: still too few, and no idle node above: promote
	ctx := model.NewCtx[Msg](cfg, 3)
	s := p.Receive(ctx, State{Role: Idle, Master: 5, Lost: none}, 4, Msg{K: Hello})
	require.Equal(t, Slave, s.Role)
	require.Equal(t, []model.Obs{model.InPool(true)}, checktest.Observed(ctx))
	// two slaves above: within pool-max 3, no demotion
	ctx = model.NewCtx[Msg](cfg, 2)
	s = p.Receive(ctx, State{Role: Slave, Master: 5, Lost: none, Pool: ids(4)}, 3, Msg{K: Hello})
	require.Equal(t, Slave, s.Role)
	// three above: demote
	ctx = model.NewCtx[Msg](cfg, 1)
	s = p.Receive(ctx, State{Role: Slave, Master: 5, Lost: none, Pool: ids(3, 4)}, 2, Msg{K: Hello})
	require.Equal(t, Idle, s.Role)
	require.Equal(t, []model.Obs{model.InPool(false)}, checktest.Observed(ctx))
}
