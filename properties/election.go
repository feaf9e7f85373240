package properties

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Leaders is the election monitor: for each node, the leader it currently
// believes in (model.None when it believes in none), as last reported by a
// model.Leader observation. A node that crashes believes in nothing; after a
// recovery it believes what its protocol reports. Its state is N node ids.
var Leaders model.Monitor = leadersMonitor{}

type leadersMonitor struct{}

func (leadersMonitor) Name() string { return "leaders" }

func (leadersMonitor) Start(cfg *model.Config) any {
	b := make([]model.NodeID, cfg.N)
	for i := range b {
		b[i] = model.None
	}
	return b
}

func (leadersMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return setAt(st, node, leaderAfter(st.([]model.NodeID)[node], o), false)
}

// ObserveInPlace is Observe on a state of the walk's own (see
// NewInPlaceMonitor).
func (leadersMonitor) ObserveInPlace(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return setAt(st, node, leaderAfter(st.([]model.NodeID)[node], o), true)
}

// leaderAfter is the leader a node believes in after o, where it believed
// in was.
func leaderAfter(was model.NodeID, o model.Obs) model.NodeID {
	switch o.Kind {
	case model.ObsLeader:
		return model.NodeID(o.Arg)
	case model.ObsCrash, model.ObsRecover:
		return model.None
	}
	return was
}

// setAt returns st, a []T indexed by node, with v at node: st itself if it
// holds v there already, or st written in place where the monitor holds it
// alone (neither copied nor boxed again), else a copy.
func setAt[T comparable](st any, node model.NodeID, v T, inPlace bool) any {
	b := st.([]T)
	switch {
	case b[node] == v:
		return st
	case inPlace:
		b[node] = v
		return st
	}
	c := slices.Clone(b)
	c[node] = v
	return c
}

func beliefs(v View) []model.NodeID { return v.Monitor(Leaders).([]model.NodeID) }

// Elected: some run reaches a world where a node is told a leader. It is
// the trigger of the properties about leaders: where no run elects anyone,
// they hold for want of a leader.
var Elected = &Property{
	Name: "elected", Family: "election", When: Possibly, Monitor: Leaders, MonitorOnly: true,
	Doc: "some node is told a leader",
	Check: func(v View) string {
		for i, l := range beliefs(v) {
			if l != model.None {
				return fmt.Sprintf("%v is told %v leads", model.NodeID(i), l)
			}
		}
		return ""
	},
}

// UniqueLeader: in every reachable world, at most one live node believes
// itself the leader.
var UniqueLeader = &Property{
	Name: "unique-leader", Family: "election", When: Always, Monitor: Leaders, MonitorOnly: true, Trigger: Elected,
	Doc: "in every reachable world at most one live node believes itself the leader",
	Check: func(v View) string {
		b := beliefs(v)
		first := model.None
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) && b[i] == i {
				if first != model.None {
					return fmt.Sprintf("%v and %v both believe they are the leader", first, i)
				}
				first = i
			}
		}
		return ""
	},
}

// Agreement: in every reachable world, live nodes that believe in a live
// leader believe in the same one. A belief in a crashed leader is stale
// rather than a disagreement: the failure detector has yet to report it.
var Agreement = &Property{
	Name: "agreement", Family: "election", When: Always, Monitor: Leaders, MonitorOnly: true, Trigger: Elected,
	Doc: "in every reachable world all live nodes whose leader is live believe in the same leader",
	Check: func(v View) string {
		b := beliefs(v)
		first := model.None
		for i := range model.NodeID(v.N()) {
			if !v.Alive(i) || b[i] == model.None || !v.Alive(b[i]) {
				continue
			}
			if first == model.None {
				first = i
			} else if b[i] != b[first] {
				return fmt.Sprintf("%v believes %v leads, %v believes %v", first, b[first], i, b[i])
			}
		}
		return ""
	},
}

// HighestLeader: in every quiescent world, every live node that has decided
// believes in the live node of highest rank.
var HighestLeader = &Property{
	Name: "highest-leader", Family: "election", When: AtQuiescence, Monitor: Leaders, MonitorOnly: true, Trigger: Elected,
	Doc: "in every quiescent world every live node that has decided believes in the live node of highest rank",
	Check: func(v View) string {
		b := beliefs(v)
		best := model.None
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) && (best == model.None || v.Rank(i) > v.Rank(best)) {
				best = i
			}
		}
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) && b[i] != model.None && b[i] != best {
				return fmt.Sprintf("%v believes %v leads, but the live node of highest rank is %v", i, b[i], best)
			}
		}
		return ""
	},
}

// Termination: in every quiescent world every live node has decided, that is
// believes in some leader.
var Termination = &Property{
	Name: "termination", Family: "election", When: AtQuiescence, Monitor: Leaders, MonitorOnly: true,
	Doc: "in every quiescent world every live node believes in some leader",
	Check: func(v View) string {
		b := beliefs(v)
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) && b[i] == model.None {
				return fmt.Sprintf("the run is over but %v has not decided", i)
			}
		}
		return ""
	},
}

// LiveLeader: in every quiescent world every live node believes in a live
// leader: the election has run again after every crash of a leader. Where
// HighestLeader says which node leads, LiveLeader only says that one does,
// for elections whose winner need not be the highest node.
var LiveLeader = &Property{
	Name: "live-leader", Family: "election", When: AtQuiescence, Monitor: Leaders, MonitorOnly: true,
	Doc: "in every quiescent world every live node believes in a live leader",
	Check: func(v View) string {
		b := beliefs(v)
		for i := range model.NodeID(v.N()) {
			switch {
			case !v.Alive(i):
			case b[i] == model.None:
				return fmt.Sprintf("the run is over but %v has not decided", i)
			case !v.Alive(b[i]):
				return fmt.Sprintf("the run is over but %v believes %v leads, which has crashed", i, b[i])
			}
		}
		return ""
	},
}

func init() { register(Elected, UniqueLeader, Agreement, HighestLeader, Termination, LiveLeader) }
