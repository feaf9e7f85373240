package properties_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/inplace"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// obsStep is one observation of a hand-made run: node reports o (a crash
// or recovery of node is model.ObsCrash or model.ObsRecover).
type obsStep struct {
	node model.NodeID
	o    model.Obs
}

func asks(i model.NodeID, ts int) obsStep { return obsStep{i, model.RequestCS(ts)} }
func enters(i model.NodeID) obsStep       { return obsStep{i, model.EnterCS()} }
func exits(i model.NodeID) obsStep        { return obsStep{i, model.ExitCS()} }
func crashes(i model.NodeID) obsStep      { return obsStep{i, model.Obs{Kind: model.ObsCrash}} }
func recovers(i model.NodeID) obsStep     { return obsStep{i, model.Obs{Kind: model.ObsRecover}} }

// mutexRun is a run of three nodes and what the mutex properties say where
// it ends. The lecture's requirements (Vlassov and Montelius, Coordination:
// "Safety: at most one process may be in a critical section at a time;
// Liveness: starvation-free, deadlock-free; Ordering: enter in request
// happened-before order", here the order of the requests' (timestamp, id))
// name the clause each reject row breaks.
type mutexRun struct {
	name string
	run  []obsStep
	// inside: the nodes mutual-exclusion finds in the critical section at
	// once ("" where it holds); waits: the nodes waiting where the run ends,
	// with the verb ("n0 waits"), as no-deadlock and no-starvation report
	// them; pending: no-starvation's obligations there; order: who entered
	// while whose earlier request waited ("n0 entered while n1").
	inside, waits, order string
	pending              uint64
}

var mutexRuns = []mutexRun{
	{name: "accept: one node in and out at a time, in request order",
		run: []obsStep{asks(0, 1), asks(1, 2), enters(0), exits(0), enters(1), exits(1)}},
	{name: "accept: a run may end with one node inside",
		run: []obsStep{asks(1, 1), enters(1)}},
	{name: "accept: equal timestamps, the smaller id enters first",
		run: []obsStep{asks(2, 1), asks(1, 1), enters(1), exits(1), enters(2), exits(2)}},
	{name: "accept: a request made after an entry is not overtaken by it",
		run: []obsStep{asks(1, 2), enters(1), asks(0, 1), exits(1), enters(0), exits(0)}},
	{name: "accept: an entry reported again while inside is no new entry",
		run: []obsStep{asks(1, 2), enters(1), asks(0, 1), enters(1), exits(1), enters(0), exits(0)}},
	{name: "accept: a crash ends a wait",
		run: []obsStep{asks(0, 2), asks(1, 1), crashes(1), enters(0), exits(0)}},
	{name: "accept: a node that crashes inside and recovers is idle",
		run: []obsStep{asks(0, 1), enters(0), crashes(0), recovers(0), asks(1, 2), enters(1), exits(1)}},
	{name: "accept: a repeated request and other observations change nothing",
		run: []obsStep{asks(0, 1), asks(0, 1), {0, model.Leader(2)}, enters(0), exits(0), exits(0)}},

	{name: "safety (at most one in the critical section at a time): two inside",
		run:    []obsStep{asks(0, 1), asks(1, 2), enters(0), enters(1)},
		inside: "n0, n1"},
	{name: "safety: three inside",
		run:    []obsStep{asks(0, 1), asks(1, 2), asks(2, 3), enters(0), enters(1), enters(2)},
		inside: "n0, n1, n2"},
	{name: "deadlock-free (no run ends while a node waits): n1 waits",
		run:   []obsStep{asks(0, 1), enters(0), exits(0), asks(1, 2)},
		waits: "n1 waits", pending: 0b010},
	{name: "deadlock-free: an exit without an entry ends no wait",
		run:   []obsStep{asks(1, 1), exits(1)},
		waits: "n1 waits", pending: 0b010},
	{name: "deadlock-free: two wait",
		run:   []obsStep{asks(0, 1), asks(2, 2)},
		waits: "n0, n2 wait", pending: 0b101},
	{name: "starvation-free (every request is granted): n0 is passed over while n1 comes and goes",
		run:   []obsStep{asks(0, 2), asks(1, 1), enters(1), exits(1), asks(1, 3), enters(1), exits(1)},
		waits: "n0 waits", pending: 0b001, order: "n1 entered while n0"},
	{name: "ordering (enter in request order): a later timestamp enters first",
		run:   []obsStep{asks(0, 2), asks(1, 1), enters(0), exits(0), enters(1), exits(1)},
		order: "n0 entered while n1"},
	{name: "ordering: the timestamp comes before the id",
		run:   []obsStep{asks(2, 1), asks(0, 2), enters(0), exits(0), enters(2), exits(2)},
		order: "n0 entered while n2"},
	{name: "ordering: equal timestamps, the larger id enters first",
		run:   []obsStep{asks(2, 1), asks(1, 1), enters(2), exits(2), enters(1), exits(1)},
		order: "n2 entered while n1"},
	{name: "ordering: of two earlier requests waiting, the smaller id is named",
		run:   []obsStep{asks(0, 1), asks(1, 1), asks(2, 2), enters(2), exits(2), enters(0), exits(0), enters(1), exits(1)},
		order: "n2 entered while n0"},
	{name: "ordering: the first entry out of order is the one named",
		run:   []obsStep{asks(0, 2), asks(1, 1), enters(0), exits(0), asks(2, 0), enters(1), exits(1), enters(2), exits(2)},
		order: "n0 entered while n1"},
}

// The mutex properties on runs of the CS and entry-order monitors, fed
// both ways the engines feed them, with every node renamed too.
func TestMutexProperties(t *testing.T) {
	cfg := model.Config{N: 3}
	for _, r := range mutexRuns {
		t.Run(r.name, func(t *testing.T) {
			cs := feedCS(t, properties.CS, r.run, func(s properties.CSState) []properties.CSNode { return s.Nodes })
			order := feedCS(t, properties.EntryOrder, r.run, func(s properties.EntryOrderState) []properties.CSNode { return s.Nodes })
			require.Equal(t, cs, order.CSState, "the entry-order monitor's standing is the CS monitor's")
			v := monitorView{cfg: cfg, states: map[model.Monitor]any{properties.CS: cs, properties.EntryOrder: order}}

			inside := ""
			if r.inside != "" {
				inside = r.inside + " are in the critical section at once"
			}
			require.Equal(t, inside, properties.MutualExclusion.Check(v), "mutual-exclusion")
			require.Equal(t, inside, properties.MutualExclusion.Judge(v, false), "mutual-exclusion is judged in every world")

			deadlock, starvation := "", ""
			if r.waits != "" {
				deadlock = "deadlock: nothing can happen, and " + r.waits + " for the critical section"
				starvation = r.waits + " for the critical section"
			}
			require.Equal(t, deadlock, properties.NoDeadlock.Check(v), "no-deadlock")
			require.Empty(t, properties.NoDeadlock.Judge(v, false), "no-deadlock is judged where runs end")
			require.Equal(t, deadlock, properties.NoDeadlock.Judge(v, true), "no-deadlock where the run ends")
			require.Equal(t, starvation, properties.NoStarvation.Check(v), "no-starvation")
			require.Equal(t, properties.NoStarvation.AtEnd(starvation), properties.NoStarvation.Judge(v, true), "no-starvation where the run ends")
			require.Equal(t, r.pending, properties.NoStarvation.Pending(v), "no-starvation's obligations")

			order2 := ""
			if r.order != "" {
				order2 = r.order + ", whose request is earlier in (timestamp, id) order, waited"
			}
			require.Equal(t, order2, properties.RequestOrder.Check(v), "request-order")
			require.Equal(t, order2, properties.RequestOrder.Judge(v, false), "request-order is judged in every world")

			// the CS monitor names no order of nodes: the state of a run
			// with its nodes renamed is the state of the run, renamed
			rot := func(i model.NodeID) model.NodeID { return (i + 1) % 3 }
			renamed := make([]obsStep, len(r.run))
			for k, s := range r.run {
				renamed[k] = obsStep{rot(s.node), s.o}
			}
			want := feedCS(t, properties.CS, renamed, func(s properties.CSState) []properties.CSNode { return s.Nodes })
			require.Equal(t, want, properties.CS.RenameNodes(&cfg, cs, rot), "the CS monitor's state renamed")
		})
	}
}

// feedCS feeds run to mon (the CS or entry-order monitor) on three nodes,
// both by Observe and by ObserveInPlace, as random walks do, and returns
// its state where the run ends. At every step the two must agree, Observe
// must leave the state it was given as it was, and an observation that
// changes nothing must keep the state's slice rather than copy it.
func feedCS[S any](t *testing.T, mon model.Monitor, run []obsStep, nodes func(S) []properties.CSNode) S {
	t.Helper()
	cfg := &model.Config{N: 3}
	inPlace, ok := mon.(inplace.Monitor)
	require.True(t, ok, "%s observes in place", mon.Name())
	st, ip := mon.Start(cfg), mon.Start(cfg)
	for k, s := range run {
		before := slices.Clone(nodes(st.(S)))
		next := mon.Observe(cfg, st, s.node, s.o)
		require.Equal(t, before, nodes(st.(S)), "step %d (%v: %v): Observe changed the state it was given", k, s.node, s.o)
		if reflect.DeepEqual(st, next) {
			require.Same(t, &nodes(st.(S))[0], &nodes(next.(S))[0], "step %d (%v: %v) changes nothing, yet copies the state", k, s.node, s.o)
		}
		ip = inPlace.ObserveInPlace(cfg, ip, s.node, s.o)
		require.Equal(t, next, ip, "step %d (%v: %v): ObserveInPlace and Observe disagree", k, s.node, s.o)
		st = next
	}
	return st.(S)
}

// Each obligation of no-starvation is a waiting node.
func TestNoStarvationObligations(t *testing.T) {
	for b := range 3 {
		require.Equal(t, fmt.Sprintf("n%d waits for the critical section", b), properties.NoStarvation.Obligation(b))
	}
	require.Equal(t, properties.Eventually, properties.NoStarvation.When)
	require.Equal(t, []*properties.Property{properties.Entered, properties.MutualExclusion, properties.NoDeadlock, properties.NoStarvation, properties.RequestOrder},
		properties.Family("mutex"))
}
