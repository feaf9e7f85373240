package paxos_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	. "github.com/vigil-check/vigil/protocols/consensus/paxos"
)

type step = checktest.Step[State, Msg]

// Three nodes, n0 and n1 proposers (values 1 and 2), one ballot each.
var handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 3}}

// run is a run of n nodes with the parameters given as name, value pairs.
func run(n int, params ...any) model.Config {
	cfg := model.Config{N: n, Params: map[string]int{}}
	for k := 0; k < len(params); k += 2 {
		cfg.Params[params[k].(string)] = params[k+1].(int)
	}
	return cfg
}

func prepare(n int) Msg                              { return Msg{K: Prepare, N: n} }
func promise(n int, acc Proposal) Msg                { return Msg{K: Promise, N: n, Acc: acc} }
func accept(n, v int) Msg                            { return Msg{K: Accept, N: n, V: v} }
func accepted(n, v int) Msg                          { return Msg{K: Accepted, N: n, V: v} }
func to(m Msg, js ...model.NodeID) []model.Sent[Msg] { return checktest.SentTo(m, js...) }
func tally(n, v int, from uint64) Tally              { return Tally{Proposal{n, v}, from} }

var (
	none       = Proposal{}
	cancel     = checktest.Cancelled(Retry)
	armedOn    = func(js ...model.NodeID) checktest.TimerEffect { return checktest.Armed(Retry, js...) }
	learnt     = func(v int) []model.Obs { return []model.Obs{properties.Learn(v)} }
	twoBallots = run(3, BallotsParam, 2)
)

// Phase 1a at start-up: a proposer proposes its value and sends prepare to
// every other acceptor, its own promising at once; the retry timer waits on
// the proposers above, the highest's on itself.
func TestInit(t *testing.T) {
	handlers.Init(t, []step{
		{Name: "a node that does not propose waits", Self: 2, Want: State{}},
		{Name: "phase 1a: prepare(1) to every acceptor, its own promising at once; one ballot, no retry", Self: 0,
			Want: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b001},
			Sent: to(prepare(1), 1, 2), Observed: []model.Obs{properties.Propose(1)}},
		{Name: "proposer n1's ballot is 2 (round·P + id + 1)", Self: 1,
			Want: State{Promised: 2, Round: 1, Ballot: 2, Promises: 0b010},
			Sent: to(prepare(2), 0, 2), Observed: []model.Obs{properties.Propose(2)}},
		{Name: "ballots left: the retry timer waits on the proposer above", Config: twoBallots, Self: 0,
			Want: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b001},
			Sent: to(prepare(1), 1, 2), Timers: []checktest.TimerEffect{armedOn(1)}, Observed: []model.Obs{properties.Propose(1)}},
		{Name: "the highest proposer's retry timer waits on itself", Config: twoBallots, Self: 1,
			Want: State{Promised: 2, Round: 1, Ballot: 2, Promises: 0b010},
			Sent: to(prepare(2), 0, 2), Timers: []checktest.TimerEffect{armedOn(1)}, Observed: []model.Obs{properties.Propose(2)}},
		{Name: "no bound on ballots (0): the timer is armed", Config: run(3, BallotsParam, 0, ProposersParam, 3), Self: 0,
			Want: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b001},
			Sent: to(prepare(1), 1, 2), Timers: []checktest.TimerEffect{armedOn(1, 2)}, Observed: []model.Obs{properties.Propose(1)}},
		{Name: "one node alone is a majority: it learns its own value at once", Config: run(1, ProposersParam, 1), Self: 0,
			Want:     State{Promised: 1, Accepted: Proposal{1, 1}, Round: 1, Ballot: 1, Asked: true, Learned: 1},
			Timers:   []checktest.TimerEffect{cancel},
			Observed: []model.Obs{properties.Propose(1), properties.Learn(1)}},
	})
}

// Phases 1b, 2a and 2b and the learner, one message each.
func TestReceive(t *testing.T) {
	waiting := State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b001}
	handlers.Receive(t, []step{
		// phase 1b
		{Name: "phase 1b: a prepare above every one answered is promised, reporting nothing accepted", Self: 2, In: State{}, From: 0, Msg: prepare(1),
			Want: State{Promised: 1}, Sent: to(promise(1, none), 0)},
		{Name: "phase 1b: the promise reports the highest-numbered proposal accepted", Self: 2, In: State{Promised: 1, Accepted: Proposal{1, 1}}, From: 1, Msg: prepare(2),
			Want: State{Promised: 2, Accepted: Proposal{1, 1}}, Sent: to(promise(2, Proposal{1, 1}), 1)},
		{Name: "report=promised (a bug): the number just promised is reported as the accepted one's", Config: run(3, ReportParam, ReportPromised),
			Self: 2, In: State{Promised: 1, Accepted: Proposal{1, 1}}, From: 1, Msg: prepare(2),
			Want: State{Promised: 2, Accepted: Proposal{1, 1}}, Sent: to(promise(2, Proposal{2, 1}), 1)},
		{Name: "phase 1b: a prepare below the promise is ignored", Self: 2, In: State{Promised: 2}, From: 0, Msg: prepare(1),
			Want: State{Promised: 2}},
		{Name: "phase 1b: a prepare equal to the promise is ignored", Self: 2, In: State{Promised: 2}, From: 1, Msg: prepare(2),
			Want: State{Promised: 2}},

		// phase 2a
		{Name: "phase 2a: a majority promised, none accepted anything: the proposer's own value", Self: 0, In: waiting, From: 2, Msg: promise(1, none),
			Want: State{Promised: 1, Accepted: Proposal{1, 1}, Round: 1, Ballot: 1, Asked: true, Tallies: []Tally{tally(1, 1, 0b001)}},
			Sent: append(to(accept(1, 1), 1, 2), to(accepted(1, 1), 1, 2)...)},
		{Name: "phase 2a: the value of the highest-numbered proposal promised", Self: 1,
			In:   State{Promised: 4, Accepted: Proposal{2, 2}, Round: 2, Ballot: 4, Promises: 0b010, Highest: Proposal{2, 2}},
			From: 0, Msg: promise(4, Proposal{3, 1}),
			Want: State{Promised: 4, Accepted: Proposal{4, 1}, Round: 2, Ballot: 4, Asked: true, Tallies: []Tally{tally(4, 1, 0b010)}},
			Sent: append(to(accept(4, 1), 0, 2), to(accepted(4, 1), 0, 2)...)},
		{Name: "phase 2a: a lower-numbered proposal promised does not replace a higher one", Self: 1,
			In:   State{Promised: 4, Round: 2, Ballot: 4, Promises: 0b010, Highest: Proposal{3, 1}},
			From: 0, Msg: promise(4, Proposal{2, 2}),
			Want: State{Promised: 4, Accepted: Proposal{4, 1}, Round: 2, Ballot: 4, Asked: true, Tallies: []Tally{tally(4, 1, 0b010)}},
			Sent: append(to(accept(4, 1), 0, 2), to(accepted(4, 1), 0, 2)...)},
		{Name: "value=own (a bug): the proposer's own value whatever was promised", Config: run(3, ValueParam, Own), Self: 1,
			In:   State{Promised: 2, Round: 1, Ballot: 2, Promises: 0b010},
			From: 2, Msg: promise(2, Proposal{1, 1}),
			Want: State{Promised: 2, Accepted: Proposal{2, 2}, Round: 1, Ballot: 2, Asked: true, Tallies: []Tally{tally(2, 2, 0b010)}},
			Sent: append(to(accept(2, 2), 0, 2), to(accepted(2, 2), 0, 2)...)},
		{Name: "phase 2a waits for a majority: 2 of 5 promised", Config: run(5), Self: 0, In: State{Promised: 3, Round: 2, Ballot: 3, Promises: 0b001},
			From: 3, Msg: promise(3, Proposal{2, 2}),
			Want: State{Promised: 3, Round: 2, Ballot: 3, Promises: 0b1001, Highest: Proposal{2, 2}}},
		{Name: "phase 2a: half of 4 is no majority (two halves could choose two values)", Config: run(4), Self: 0, In: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b0001},
			From: 2, Msg: promise(1, none),
			Want: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b0101}},
		{Name: "a promise for an earlier ballot is ignored", Self: 0, In: State{Promised: 3, Round: 2, Ballot: 3, Promises: 0b001}, From: 2, Msg: promise(1, none),
			Want: State{Promised: 3, Round: 2, Ballot: 3, Promises: 0b001}},
		{Name: "a promise after accept was sent is ignored", Self: 0, In: State{Promised: 1, Round: 1, Ballot: 1, Asked: true}, From: 1, Msg: promise(1, none),
			Want: State{Promised: 1, Round: 1, Ballot: 1, Asked: true}},
		{Name: "a promise counted already is ignored", Config: run(5), Self: 0, In: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b101}, From: 2, Msg: promise(1, none),
			Want: State{Promised: 1, Round: 1, Ballot: 1, Promises: 0b101}},

		// phase 2b
		{Name: "phase 2b: accept at the promise is accepted and every learner told", Self: 2, In: State{Promised: 2}, From: 1, Msg: accept(2, 2),
			Want: State{Promised: 2, Accepted: Proposal{2, 2}, Tallies: []Tally{tally(2, 2, 0b100)}}, Sent: to(accepted(2, 2), 0, 1)},
		{Name: "phase 2b: accept above the promise is accepted too", Self: 2, In: State{Promised: 1, Accepted: Proposal{1, 1}}, From: 1, Msg: accept(2, 1),
			Want: State{Promised: 1, Accepted: Proposal{2, 1}, Tallies: []Tally{tally(2, 1, 0b100)}}, Sent: to(accepted(2, 1), 0, 1)},
		{Name: "phase 2b: accept below a proposal accepted: accepted, told, the higher one kept", Self: 2, In: State{Promised: 1, Accepted: Proposal{3, 1}}, From: 1, Msg: accept(2, 2),
			Want: State{Promised: 1, Accepted: Proposal{3, 1}, Tallies: []Tally{tally(2, 2, 0b100)}}, Sent: to(accepted(2, 2), 0, 1)},
		{Name: "phase 2b: the same proposal accepted again is told again", Self: 2, In: State{Promised: 2, Accepted: Proposal{2, 2}}, From: 1, Msg: accept(2, 2),
			Want: State{Promised: 2, Accepted: Proposal{2, 2}, Tallies: []Tally{tally(2, 2, 0b100)}}, Sent: to(accepted(2, 2), 0, 1)},
		{Name: "phase 2b: accept below the promise is refused", Self: 2, In: State{Promised: 2}, From: 0, Msg: accept(1, 1),
			Want: State{Promised: 2}},

		// learner
		{Name: "learner: a first acceptance is tallied, in proposal order", Self: 2, In: State{Tallies: []Tally{tally(1, 1, 0b001), tally(3, 1, 0b001)}}, From: 1, Msg: accepted(2, 2),
			Want: State{Tallies: []Tally{tally(1, 1, 0b001), tally(2, 2, 0b010), tally(3, 1, 0b001)}}},
		{Name: "learner: the same ballot with another value is another proposal", Self: 2, In: State{Tallies: []Tally{tally(2, 1, 0b001)}}, From: 1, Msg: accepted(2, 2),
			Want: State{Tallies: []Tally{tally(2, 1, 0b001), tally(2, 2, 0b010)}}},
		{Name: "learner: a majority for the same proposal: learn its value, stop retrying", Self: 0, In: State{Tallies: []Tally{tally(1, 1, 0b001), tally(2, 2, 0b010)}}, From: 2, Msg: accepted(2, 2),
			Want: State{Learned: 2}, Timers: []checktest.TimerEffect{cancel}, Observed: learnt(2)},
		{Name: "learner: acceptances of different proposals make no majority", Config: run(5), Self: 4, In: State{Tallies: []Tally{tally(1, 1, 0b011)}}, From: 2, Msg: accepted(2, 1),
			Want: State{Tallies: []Tally{tally(1, 1, 0b011), tally(2, 1, 0b100)}}},
		{Name: "learner: a second acceptance of 5 is no majority", Config: run(5), Self: 4, In: State{Tallies: []Tally{tally(1, 1, 0b001)}}, From: 2, Msg: accepted(1, 1),
			Want: State{Tallies: []Tally{tally(1, 1, 0b101)}}},
		{Name: "learner: an acceptance tallied already is ignored", Self: 2, In: State{Tallies: []Tally{tally(1, 1, 0b001)}}, From: 0, Msg: accepted(1, 1),
			Want: State{Tallies: []Tally{tally(1, 1, 0b001)}}},
		{Name: "learner: once learned, nothing more is tallied", Self: 2, In: State{Learned: 1}, From: 1, Msg: accepted(2, 2),
			Want: State{Learned: 1}},
	})
}

// The retry timer: the proposer's next ballot.
func TestTimeout(t *testing.T) {
	handlers.Timeout(t, []step{
		{Name: "retry: the next ballot, round·P + id + 1, sent to every acceptor; the last, no timer", Config: twoBallots, Self: 0,
			In:    State{Promised: 2, Accepted: Proposal{2, 2}, Round: 1, Ballot: 1, Promises: 0b001, Highest: Proposal{1, 1}},
			Timer: Retry,
			Want:  State{Promised: 3, Accepted: Proposal{2, 2}, Round: 2, Ballot: 3, Promises: 0b001, Highest: Proposal{2, 2}},
			Sent:  to(prepare(3), 1, 2)},
		{Name: "retry with ballots left: the timer is armed again", Config: run(3, BallotsParam, 3), Self: 1,
			In:    State{Promised: 3, Round: 1, Ballot: 2, Asked: true},
			Timer: Retry,
			Want:  State{Promised: 4, Round: 2, Ballot: 4, Promises: 0b010},
			Sent:  to(prepare(4), 0, 2), Timers: []checktest.TimerEffect{armedOn(1)}},
	})
}

// Recovery from stable storage, and the forgetful acceptor.
func TestRecover(t *testing.T) {
	was := State{Promised: 2, Accepted: Proposal{1, 1}, Round: 1, Ballot: 1, Asked: true, Tallies: []Tally{tally(1, 1, 0b001)}}
	handlers.Recover(t, []step{
		{Name: "stable: the acceptor keeps its promise and accepted proposal; one ballot, no timer", Self: 0, In: was, Want: was},
		{Name: "stable, ballots left: the proposer's retry timer is armed again", Config: twoBallots, Self: 0, In: was, Want: was,
			Timers: []checktest.TimerEffect{armedOn(1)}},
		{Name: "a proposer that learned arms nothing", Config: twoBallots, Self: 0, In: State{Round: 1, Ballot: 1, Learned: 1},
			Want: State{Round: 1, Ballot: 1, Learned: 1}},
		{Name: "a node that does not propose arms nothing", Config: twoBallots, Self: 2, In: State{Promised: 2}, Want: State{Promised: 2}},
		{Name: "forgetful (a bug): promise and accepted proposal lost, the rest kept", Config: run(3, AcceptorParam, Forgetful), Self: 0, In: was,
			Want: State{Round: 1, Ballot: 1, Asked: true, Tallies: []Tally{tally(1, 1, 0b001)}}},
	})
}

// A configuration Paxos cannot run is refused, naming the parameter.
func TestValidate(t *testing.T) {
	cases := []struct {
		cfg  model.Config
		want string
	}{
		{run(3), ""},
		{run(3, ProposersParam, 3, BallotsParam, 0), ""},
		{run(3, ProposersParam, 0), "consensus/paxos: proposers must be between 1 and N (3), not 0"},
		{run(3, ProposersParam, 4), "consensus/paxos: proposers must be between 1 and N (3), not 4"},
		{run(3, BallotsParam, -1), "consensus/paxos: ballots must be at least 0 (0: no bound), not -1"},
		{run(65, ProposersParam, 1), "consensus/paxos: at most 64 nodes, not 65"},
	}
	for _, c := range cases {
		err := Validate(c.cfg)
		if c.want == "" {
			require.NoError(t, err)
		} else {
			require.EqualError(t, err, c.want)
		}
	}
}

// States and messages print as the paper writes them.
func TestStrings(t *testing.T) {
	require.Equal(t, "prepare(3)", prepare(3).String())
	require.Equal(t, "promise(3, none)", promise(3, none).String())
	require.Equal(t, "promise(3, (2,1))", promise(3, Proposal{2, 1}).String())
	require.Equal(t, "accept(3, 1)", accept(3, 1).String())
	require.Equal(t, "accepted", accepted(3, 1).Kind())
	require.Equal(t, "idle", State{}.String())
	require.Equal(t, "promised 3 accepted (2,1); ballot 3 (round 2) promises {n0 n2} highest (2,1); accepted (2,1) by {n1}",
		State{Promised: 3, Accepted: Proposal{2, 1}, Round: 2, Ballot: 3, Promises: 0b101, Highest: Proposal{2, 1},
			Tallies: []Tally{tally(2, 1, 0b010)}}.String())
	require.Equal(t, "ballot 1 (round 1) asked; learned 1", State{Round: 1, Ballot: 1, Asked: true, Learned: 1}.String())
	require.Equal(t, "retry", Retry.String())
}
