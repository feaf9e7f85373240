package properties

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Properties of elections on a network that partitions and heals (the
// invitation algorithm of H. Garcia-Molina, Elections in a Distributed
// Computing System, 1982, as G. Kesden's Coordinator Selection, 14-736
// Distributed Systems, lecture 8, CMU, presents it: "partitioned
// participants can still organize and make progress"). Coordinators are read from the Leaders
// monitor: a node that believes it leads coordinates its group.
//
// Uniqueness per connected group cannot hold in every world: right after a
// heal two coordinators share one group until one of them finds the other
// ("the network partition is repaired, but none of the processors
// notice"). So it is judged where the protocol has settled, in quiescent
// worlds: there, each group of connected live nodes must have organised.

// GroupLeader: in every quiescent world, each group of connected live nodes
// has exactly one coordinator, and every live node of the group follows it.
var GroupLeader = &Property{
	Name: "group-leader", Family: "election", When: AtQuiescence, Monitor: Leaders,
	Doc: "in every quiescent world each connected group of live nodes has one coordinator, followed by all of the group",
	Check: func(v View) string {
		b := beliefs(v)
		for i := range model.NodeID(v.N()) {
			switch {
			case !v.Alive(i):
			case b[i] == model.None:
				return fmt.Sprintf("the run has settled but %v follows no coordinator", i)
			case !v.Alive(b[i]) || !v.Connected(i, b[i]):
				return fmt.Sprintf("the run has settled but %v follows %v, which it cannot reach", i, b[i])
			case b[b[i]] != b[i]:
				return fmt.Sprintf("%v follows %v, which follows %v", i, b[i], b[b[i]])
			}
		}
		// every pair, each way round: the first found has i < j, as the
		// test is symmetric
		for i := range model.NodeID(v.N()) {
			for j := range model.NodeID(v.N()) {
				if v.Alive(i) && v.Alive(j) && v.Connected(i, j) && b[j] != b[i] {
					return fmt.Sprintf("%v and %v are connected but follow %v and %v", i, j, b[i], b[j])
				}
			}
		}
		return ""
	},
}

// HealedLeader: once the network is whole and the run has settled, there is
// one coordinator for everyone.
var HealedLeader = &Property{
	Name: "healed-leader", Family: "election", When: AtQuiescence, Monitor: Leaders,
	Doc: "in every quiescent world of a whole network all live nodes follow one live coordinator",
	Check: func(v View) string {
		if v.Split() {
			return ""
		}
		b := beliefs(v)
		first := model.None
		for i := range model.NodeID(v.N()) {
			if !v.Alive(i) {
				continue
			}
			if b[i] == model.None || !v.Alive(b[i]) {
				return fmt.Sprintf("the network is whole and the run has settled, but %v follows no live coordinator", i)
			}
			if first == model.None {
				first = i
			} else if b[i] != b[first] {
				return fmt.Sprintf("the network is whole and the run has settled, but %v follows %v and %v follows %v", first, b[first], i, b[i])
			}
		}
		return ""
	},
}

// GroupNumbers is the monitor of group formation: for each node, the
// sequence number of the last group it formed (model.NewGroup), and the
// first reuse seen.
var GroupNumbers model.Monitor = groupsMonitor{}

// groupNumbers is GroupNumbers' state.
type groupNumbers struct {
	Last []int // per node; 0: none formed yet
	// ReusedBy formed group (ReusedSeq, ReusedBy) a second time; None: no reuse.
	ReusedBy  model.NodeID
	ReusedSeq int
}

type groupsMonitor struct{}

func (groupsMonitor) Name() string { return "group-numbers" }

func (groupsMonitor) Start(cfg *model.Config) any {
	return groupNumbers{Last: make([]int, cfg.N), ReusedBy: model.None}
}

func (m groupsMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.observe(st, node, o, false)
}

// ObserveInPlace is Observe on a state of the walk's own (see
// NewInPlaceMonitor).
func (m groupsMonitor) ObserveInPlace(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return m.observe(st, node, o, true)
}

func (groupsMonitor) observe(st any, node model.NodeID, o model.Obs, inPlace bool) any {
	if o.Kind != model.ObsGroup {
		return st
	}
	g := st.(groupNumbers)
	// group numbers are (sequence, node): a node's sequence must grow
	if o.Arg > g.Last[node] {
		if inPlace {
			g.Last[node] = o.Arg
			return st // Last written where st holds it: not boxed again
		}
		g.Last = slices.Clone(g.Last)
		g.Last[node] = o.Arg
		return g
	}
	if g.ReusedBy != model.None {
		return st // only the first reuse is kept
	}
	g.ReusedBy, g.ReusedSeq = node, o.Arg
	return g
}

// GroupNumbersUnique: no group number is ever used twice. The monitor keeps
// each node's last sequence number, not every one it used, so it asks for
// what Kesden's lecture prescribes, a sequence that grows with each group
// formed: one that steps back counts as a reuse.
var GroupNumbersUnique = &Property{
	Name: "group-numbers-unique", Family: "election", When: Always, Monitor: GroupNumbers, MonitorOnly: true,
	Doc: "each node forms its groups under growing sequence numbers, so that a group number (sequence number, coordinator) names at most one group ever formed",
	Check: func(v View) string {
		g := v.Monitor(GroupNumbers).(groupNumbers)
		if g.ReusedBy != model.None {
			return fmt.Sprintf("%v formed group (%d, %v) again", g.ReusedBy, g.ReusedSeq, g.ReusedBy)
		}
		return ""
	},
}

func init() { register(GroupLeader, HealedLeader, GroupNumbersUnique) }
