package properties_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

func commands(i model.NodeID, v int) obsStep { return obsStep{i, properties.Command(v)} }
func obeys(i model.NodeID, v int) obsStep    { return obsStep{i, properties.Obey(v)} }
func turns(i model.NodeID) obsStep           { return obsStep{i, model.Obs{Kind: model.ObsTraitor}} }

// The Generals monitor and the agreement properties on runs of four
// generals, n0 commanding. Lamport, Shostak and Pease's interactive
// consistency conditions (IC1: all loyal lieutenants obey the same order;
// IC2: if the commanding general is loyal, every loyal lieutenant obeys
// the order he sends) name the clause each reject row breaks; traitors'
// decisions, and the commander's own, are no loyal lieutenant's.
func TestAgreementRuns(t *testing.T) {
	const (
		no = properties.NoOrder
		A  = properties.Attack
		R  = properties.Retreat
	)
	cases := []struct {
		name    string
		run     []obsStep
		alive   []bool // where the run ends; nil: all
		obeyed  []int
		traitor []bool // nil: none
		// what each property reports ("" where it holds, or where
		// decided is not reached)
		decided, ic1, ic2, undecided string
		pending                      uint64
	}{
		{name: "accept: a loyal commander's attack, obeyed by all",
			run:    []obsStep{commands(0, A), obeys(1, A), obeys(2, A), obeys(3, A)},
			obeyed: []int{no, A, A, A}, decided: "n1 obeys attack"},
		{name: "accept: a second command and a second decision change nothing",
			run:    []obsStep{commands(0, R), commands(0, A), obeys(2, R), obeys(2, A), obeys(1, R), obeys(3, R)},
			obeyed: []int{no, R, R, R}, decided: "n1 obeys retreat"},
		{name: "accept: one loyal lieutenant decided, the commander's own decision not counted",
			run:    []obsStep{commands(0, A), obeys(0, R), obeys(3, A)},
			obeyed: []int{R, no, no, A}, decided: "n3 obeys attack",
			undecided: "n1, n2, alive and loyal, have decided nothing", pending: 0b0110},
		{name: "accept: a traitor lieutenant may obey anything, and is not waited for",
			run:    []obsStep{commands(0, A), turns(2), obeys(2, R), obeys(1, A), obeys(3, A)},
			obeyed: []int{no, A, R, A}, traitor: []bool{false, false, true, false}, decided: "n1 obeys attack"},
		{name: "accept: a lieutenant that turns traitor after deciding no longer counts",
			run:    []obsStep{commands(0, A), obeys(1, R), turns(1), obeys(2, A), obeys(3, A)},
			obeyed: []int{no, R, A, A}, traitor: []bool{false, true, false, false}, decided: "n2 obeys attack"},
		{name: "accept: nobody commanded yet: every live loyal general is waited for, the commander-to-be too",
			obeyed:    []int{no, no, no, no},
			undecided: "n0, n1, n2, n3, alive and loyal, have decided nothing", pending: 0b1111},
		{name: "accept: nobody decided yet",
			run:       []obsStep{commands(0, R)},
			obeyed:    []int{no, no, no, no},
			undecided: "n1, n2, n3, alive and loyal, have decided nothing", pending: 0b1110},
		{name: "accept: a crashed lieutenant is not waited for",
			run:    []obsStep{commands(0, A), obeys(1, A), crashes(2)},
			alive:  []bool{true, true, false, true},
			obeyed: []int{no, A, no, no}, decided: "n1 obeys attack",
			undecided: "n3, alive and loyal, has decided nothing", pending: 0b1000},
		{name: "IC1 and IC2: two loyal lieutenants disagree under a loyal commander",
			run:    []obsStep{commands(0, A), obeys(1, R), obeys(2, A)},
			obeyed: []int{no, R, A, no}, decided: "n1 obeys retreat",
			ic1:       "loyal lieutenants disagree: n1 obeys retreat, n2 obeys attack",
			ic2:       "the loyal commander n0 ordered attack, and loyal n1 obeys retreat",
			undecided: "n3, alive and loyal, has decided nothing", pending: 0b1000},
		{name: "IC2: every loyal lieutenant agrees, on another order than the loyal commander's",
			run:    []obsStep{commands(0, A), obeys(3, R), obeys(1, R), obeys(2, R)},
			obeyed: []int{no, R, R, R}, decided: "n1 obeys retreat",
			ic2: "the loyal commander n0 ordered attack, and loyal n1 obeys retreat"},
		{name: "IC1 alone: a traitor commander, two loyal lieutenants disagreeing",
			run:    []obsStep{turns(0), commands(0, A), obeys(2, A), obeys(3, R), obeys(1, A)},
			obeyed: []int{no, A, A, R}, traitor: []bool{true, false, false, false}, decided: "n1 obeys attack",
			ic1: "loyal lieutenants disagree: n1 obeys attack, n3 obeys retreat"},
	}
	cfg := model.Config{N: 4}
	mon := properties.Generals
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := mon.Start(&cfg)
			require.Equal(t, properties.GeneralsState{Commander: model.None, Order: no, Obeyed: []int{no, no, no, no}, Traitor: make([]bool, 4)}, st)
			for k, o := range c.run {
				before := st.(properties.GeneralsState)
				obeyed, traitor := append([]int(nil), before.Obeyed...), append([]bool(nil), before.Traitor...)
				next := mon.Observe(&cfg, st, o.node, o.o)
				require.Equal(t, obeyed, before.Obeyed, "step %d: Observe changed the state it was given", k)
				require.Equal(t, traitor, before.Traitor, "step %d: Observe changed the state it was given", k)
				if reflect.DeepEqual(st, next) {
					require.Same(t, &before.Obeyed[0], &next.(properties.GeneralsState).Obeyed[0], "step %d changes nothing, yet copies the state", k)
				}
				st = next
			}
			got := st.(properties.GeneralsState)
			require.Equal(t, c.obeyed, got.Obeyed)
			traitor := c.traitor
			if traitor == nil {
				traitor = make([]bool, 4)
			}
			require.Equal(t, traitor, got.Traitor)
			v := monitorView{cfg: cfg, alive: c.alive, states: map[model.Monitor]any{mon: st}}

			require.Equal(t, c.decided, properties.GeneralsDecided.Check(v), "decided")
			require.Equal(t, c.ic1, properties.GeneralsIC1.Check(v), "ic1")
			require.Equal(t, c.ic1, properties.GeneralsIC1.Judge(v, false), "ic1 is judged in every world")
			require.Equal(t, c.ic2, properties.GeneralsIC2.Check(v), "ic2")
			require.Equal(t, c.ic2, properties.GeneralsIC2.Judge(v, false), "ic2 is judged in every world")
			require.Equal(t, c.undecided, properties.GeneralsTermination.Check(v), "termination")
			require.Empty(t, properties.GeneralsTermination.Judge(v, false), "termination is judged where runs end")
			require.Equal(t, c.pending, properties.GeneralsTermination.Pending(v), "termination's obligations")
		})
	}
}

// The agreement family: its properties, when each is judged, their
// triggers, and how orders and observations print.
func TestAgreementFamily(t *testing.T) {
	require.Equal(t, []*properties.Property{properties.GeneralsDecided, properties.GeneralsIC1, properties.GeneralsIC2, properties.GeneralsTermination},
		properties.Family("agreement"))
	require.Equal(t, properties.Possibly, properties.GeneralsDecided.When)
	require.Equal(t, properties.Always, properties.GeneralsIC1.When)
	require.Equal(t, properties.Always, properties.GeneralsIC2.When)
	require.Equal(t, properties.Eventually, properties.GeneralsTermination.When)
	require.Same(t, properties.GeneralsDecided, properties.GeneralsIC1.Trigger)
	require.Same(t, properties.GeneralsDecided, properties.GeneralsIC2.Trigger)
	require.Equal(t, "n2 has decided nothing", properties.GeneralsTermination.Obligation(2))
	for v, name := range map[int]string{properties.Retreat: "retreat", properties.Attack: "attack", 2: "order 2", -1: "order -1"} {
		require.Equal(t, name, properties.OrderName(v))
	}
	require.Equal(t, "command=attack", properties.Command(properties.Attack).String())
	require.Equal(t, "obey=retreat", properties.Obey(properties.Retreat).String())
	require.NoError(t, properties.CheckNames(properties.Family("agreement")))
}
