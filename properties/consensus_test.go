package properties_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

func proposes(i model.NodeID, v int) obsStep { return obsStep{i, properties.Propose(v)} }
func learns(i model.NodeID, v int) obsStep   { return obsStep{i, properties.Learn(v)} }

// The Decisions monitor and the consensus properties on runs of three
// nodes. Lamport's safety requirements for consensus (Paxos Made Simple:
// "only a value that has been proposed may be chosen, only a single value
// is chosen, and a process never learns that a value has been chosen
// unless it actually has been") and the goal "some proposed value is
// eventually chosen" and learned name the clause each reject row breaks.
func TestConsensusRuns(t *testing.T) {
	const no = properties.NoValue
	cases := []struct {
		name    string
		run     []obsStep
		alive   []bool // where the run ends; nil: all
		learned []int
		// agreement, validity: what each reports ("" where it holds);
		// pending: termination's obligations where the run ends, and
		// undecided what it reports there
		agreement, validity, undecided string
		pending                        uint64
	}{
		{name: "accept: two proposals, every node learns the same one",
			run:     []obsStep{proposes(0, 1), proposes(1, 2), learns(2, 2), learns(0, 2), learns(1, 2)},
			learned: []int{2, 2, 2}},
		{name: "accept: a node that learned and crashed keeps its value, and a live one is not waited for when crashed",
			run:     []obsStep{proposes(0, 1), learns(0, 1), crashes(0), learns(1, 1), crashes(2), recovers(0)},
			alive:   []bool{true, true, false},
			learned: []int{1, 1, no}},
		{name: "accept: a value proposed twice, and other observations, change nothing",
			run:     []obsStep{proposes(0, 0), proposes(1, 0), {0, model.Leader(2)}, learns(0, 0), learns(1, 0), learns(2, 0), learns(2, 0)},
			learned: []int{0, 0, 0}},
		{name: "agreement (only a single value is chosen): two learners, two values",
			run:       []obsStep{proposes(0, 1), proposes(1, 2), learns(2, 1), learns(1, 2), learns(0, 1)},
			learned:   []int{1, 2, 1},
			agreement: "values 1, 2 were learned (n0 learned 1, n1 learned 2)"},
		{name: "agreement: a learner that crashed still counts",
			run:       []obsStep{proposes(0, 1), proposes(1, 2), learns(0, 1), crashes(0), learns(1, 2), learns(2, 2)},
			alive:     []bool{false, true, true},
			learned:   []int{1, 2, 2},
			agreement: "values 1, 2 were learned (n0 learned 1, n1 learned 2)"},
		{name: "agreement: one node learning a second value",
			run:       []obsStep{proposes(0, 1), proposes(1, 3), learns(1, 1), learns(1, 3), learns(0, 3), learns(2, 3)},
			learned:   []int{3, 1, 3},
			agreement: "values 1, 3 were learned (n1 learned 1, n0 learned 3)"},
		{name: "agreement: the only node to learn a second value",
			run:       []obsStep{proposes(0, 1), proposes(1, 2), learns(1, 2), learns(0, 1), learns(1, 1), learns(2, 2)},
			learned:   []int{1, 2, 2},
			agreement: "values 1, 2 were learned (n0 learned 1, n1 learned 2)"},
		{name: "agreement: a value learned only as a node's second",
			run:       []obsStep{proposes(0, 1), proposes(1, 2), learns(0, 1), learns(0, 2)},
			learned:   []int{1, no, no},
			agreement: "values 1, 2 were learned (n0 learned 1, a node learned 2 after another value)",
			undecided: "n1, n2, alive, have", pending: 0b110},
		{name: "validity (only a proposed value may be chosen): a value nobody proposed",
			run:      []obsStep{proposes(0, 1), learns(0, 2), learns(1, 2), learns(2, 2)},
			learned:  []int{2, 2, 2},
			validity: "value 2 was learned before any proposer proposed it"},
		{name: "validity: a value learned before it is proposed",
			run:      []obsStep{learns(1, 1), proposes(0, 1), learns(0, 1), learns(2, 1)},
			learned:  []int{1, 1, 1},
			validity: "value 1 was learned before any proposer proposed it"},
		{name: "termination (the value is eventually learned): two live nodes learned nothing",
			run:     []obsStep{proposes(0, 1), proposes(1, 2), learns(1, 2)},
			learned: []int{no, 2, no}, undecided: "n0, n2, alive, have", pending: 0b101},
		{name: "termination: a recovered node that never learned is waited for",
			run:     []obsStep{proposes(0, 1), learns(0, 1), learns(1, 1), crashes(2), recovers(2)},
			learned: []int{1, 1, no}, undecided: "n2, alive, has", pending: 0b100},
	}
	cfg := model.Config{N: 3}
	mon := properties.Decisions
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := mon.Start(&cfg)
			require.Equal(t, properties.ConsensusState{Learned: []int{no, no, no}}, st)
			for k, o := range c.run {
				before := st.(properties.ConsensusState)
				snapshot := append([]int(nil), before.Learned...)
				next := mon.Observe(&cfg, st, o.node, o.o)
				require.Equal(t, snapshot, before.Learned, "step %d: Observe changed the state it was given", k)
				if reflect.DeepEqual(st, next) {
					require.Same(t, &before.Learned[0], &next.(properties.ConsensusState).Learned[0], "step %d changes nothing, yet copies the state", k)
				}
				st = next
			}
			require.Equal(t, c.learned, st.(properties.ConsensusState).Learned)
			v := monitorView{cfg: cfg, alive: c.alive, states: map[model.Monitor]any{mon: st}}

			require.Equal(t, c.agreement, properties.ConsensusAgreement.Check(v), "agreement")
			require.Equal(t, c.agreement, properties.ConsensusAgreement.Judge(v, false), "agreement is judged in every world")
			require.Equal(t, c.validity, properties.ConsensusValidity.Check(v), "validity")
			require.Equal(t, c.validity, properties.ConsensusValidity.Judge(v, false), "validity is judged in every world")

			undecided := ""
			if c.undecided != "" {
				undecided = c.undecided + " learned no value"
			}
			require.Equal(t, undecided, properties.ConsensusTermination.Check(v), "termination")
			require.Empty(t, properties.ConsensusTermination.Judge(v, false), "termination is judged where runs end")
			require.Equal(t, properties.ConsensusTermination.AtEnd(undecided), properties.ConsensusTermination.Judge(v, true), "termination where the run ends")
			require.Equal(t, c.pending, properties.ConsensusTermination.Pending(v), "termination's obligations")

			// the monitor names no order of nodes: the state of a run with
			// its nodes renamed is the state of the run, renamed
			rot := func(i model.NodeID) model.NodeID { return (i + 1) % 3 }
			renamed := mon.Start(&cfg)
			for _, o := range c.run {
				renamed = mon.Observe(&cfg, renamed, rot(o.node), o.o)
			}
			require.Equal(t, renamed, mon.RenameNodes(&cfg, st, rot), "the monitor's state renamed")
		})
	}
}

// The consensus family: its properties, when each is judged, the
// obligations of termination, and how its observations print.
func TestConsensusFamily(t *testing.T) {
	require.Equal(t, []*properties.Property{properties.ConsensusAgreement, properties.ConsensusLearned, properties.ConsensusTermination, properties.ConsensusValidity},
		properties.Family("consensus"))
	require.Equal(t, properties.Always, properties.ConsensusAgreement.When)
	require.Equal(t, properties.Always, properties.ConsensusValidity.When)
	require.Equal(t, properties.Eventually, properties.ConsensusTermination.When)
	for b := range 3 {
		require.Equal(t, fmt.Sprintf("n%d has learned no value", b), properties.ConsensusTermination.Obligation(b))
	}
	require.Equal(t, "propose=2", properties.Propose(2).String())
	require.Equal(t, "learn=1", properties.Learn(1).String())
	require.NoError(t, properties.CheckNames(properties.Family("consensus")))
}

// A value the monitor cannot hold is a fault of the protocol that reports
// it, with a message that says which; the values at the ends of the range
// it holds.
func TestConsensusValueOutOfRange(t *testing.T) {
	cfg := model.Config{N: 1}
	st := properties.Decisions.Start(&cfg)
	for _, v := range []int{0, properties.MaxValue} {
		got := properties.Decisions.Observe(&cfg, properties.Decisions.Observe(&cfg, st, 0, properties.Propose(v)), 0, properties.Learn(v)).(properties.ConsensusState)
		require.Equal(t, uint64(1)<<v, got.Proposed, "value %d", v)
		require.Equal(t, uint64(1)<<v, got.Chosen, "value %d", v)
		require.Equal(t, []int{v}, got.Learned, "value %d", v)
	}
	require.PanicsWithValue(t, "consensus value 64 out of range: the consensus properties follow values 0..63",
		func() { properties.Decisions.Observe(&cfg, st, 0, properties.Learn(64)) })
	require.PanicsWithValue(t, "consensus value -1 out of range: the consensus properties follow values 0..63",
		func() { properties.Decisions.Observe(&cfg, st, 0, properties.Propose(-1)) })
}
