package properties_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// fed is mon's state on three nodes (one message each to multicast) after
// the observations of run.
func fed(mon model.Monitor, run ...obsStep) any {
	cfg := &model.Config{N: 3, Params: map[string]int{properties.MsgsParam: 1}}
	st := mon.Start(cfg)
	for _, s := range run {
		st = mon.Observe(cfg, st, s.node, s.o)
	}
	return st
}

// The built-in sometimes-properties reach their goal in the first world
// where what they wait for has happened, and say what; each is the
// trigger of the properties that speak of it.
func TestBuiltInSometimes(t *testing.T) {
	m0 := model.MsgID{Sender: 0, Seq: 1}
	cases := []struct {
		name string
		p    *properties.Property
		run  []obsStep
		want string // "" where the goal is not reached
	}{
		{"nobody told a leader", properties.Elected, []obsStep{{1, model.Obs{Kind: model.ObsCrash}}}, ""},
		{"a node told a leader", properties.Elected, []obsStep{{1, model.Leader(2)}}, "n1 is told n2 leads"},
		{"a node waits", properties.Entered, []obsStep{asks(0, 1)}, ""},
		{"a node entered and left", properties.Entered, []obsStep{asks(0, 1), enters(0), exits(0)}, ""},
		{"a node in the critical section", properties.Entered, []obsStep{asks(2, 1), enters(2)}, "n2 is in the critical section"},
		{"multicast, not delivered", properties.Delivered, []obsStep{{0, model.Multicast(m0)}}, ""},
		{"delivered", properties.Delivered, []obsStep{{0, model.Multicast(m0)}, {1, model.Delivered(m0)}}, "n1 delivered " + m0.String()},
		{"delivered by a node that recovered since", properties.Delivered, []obsStep{{0, model.Multicast(m0)}, {1, model.Delivered(m0)}, crashes(1), recovers(1)},
			"a process that crashed since delivered " + m0.String()},
		{"no result", properties.Result, nil, ""},
		{"a result counted", properties.Result, []obsStep{counts(1, 0)}, "n1 holds t0"},
		{"proposed, not learned", properties.ConsensusLearned, []obsStep{{0, properties.Propose(1)}}, ""},
		{"a value learned", properties.ConsensusLearned, []obsStep{{0, properties.Propose(1)}, {2, properties.Learn(1)}}, "n2 learned 1"},
	}
	for _, c := range cases {
		v := monitorView{cfg: model.Config{N: 3}, states: map[model.Monitor]any{c.p.Monitor: fed(c.p.Monitor, c.run...)}}
		require.Equal(t, properties.Possibly, c.p.When, c.name)
		require.Equal(t, c.want, c.p.Check(v), c.name)
		require.Equal(t, c.want, c.p.Judge(v, false), "%s: judged in every world", c.name)
	}
	triggers := map[*properties.Property][]*properties.Property{
		properties.Elected:          {properties.UniqueLeader, properties.Agreement, properties.HighestLeader},
		properties.Entered:          {properties.MutualExclusion, properties.RequestOrder},
		properties.Delivered:        {properties.DeliveryAgreement, properties.UniformAgreement, properties.FIFOOrder, properties.CausalOrder, properties.TotalOrder},
		properties.Result:           {properties.ResultsOnce},
		properties.ConsensusLearned: {properties.ConsensusAgreement, properties.ConsensusValidity},
	}
	for trigger, ps := range triggers {
		for _, p := range ps {
			require.Same(t, trigger, p.Trigger, p.Name)
		}
	}
}

// properties.Sometimes makes a sometimes-property of a predicate; a
// property whose trigger is no sometimes-property is refused.
func TestSometimesConstructor(t *testing.T) {
	p := properties.Sometimes("anyone", "test", "some node is alive", func(v properties.View) bool { return v.Alive(1) })
	require.Equal(t, "sometimes", p.When.String())
	require.True(t, p.EveryWorld())
	require.Equal(t, "reached: some node is alive", p.Check(monitorView{cfg: model.Config{N: 2}}))
	require.Empty(t, p.Check(monitorView{cfg: model.Config{N: 2}, alive: []bool{true, false}}))
	require.NoError(t, properties.CheckNames([]*properties.Property{{Name: "x", Check: p.Check, Trigger: p}}))
	err := properties.CheckNames([]*properties.Property{{Name: "x", Check: p.Check, Trigger: properties.UniqueLeader}})
	require.EqualError(t, err, "property x has trigger unique-leader, which is not a sometimes-property")
}
