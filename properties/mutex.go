package properties

import (
	"fmt"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// Phase is where a node stands with the critical section.
type Phase uint8

const (
	Idle    Phase = iota // not asking
	Waiting              // asked (model.RequestCS), not yet in
	InCS                 // in the critical section (model.EnterCS)
)

func (p Phase) String() string { return [...]string{"idle", "waiting", "in-cs"}[p] }

// CSNode is one node's standing in the CS monitor.
type CSNode struct {
	Phase Phase
	TS    int // the timestamp of its current request
}

// CSState is the CS monitor's state: each node's standing.
type CSState struct {
	Nodes []CSNode `vigil:"bynode"`
}

// CS is the mutual-exclusion monitor, fed by model.RequestCS, EnterCS and
// ExitCS: each node's phase and request timestamp. A node that crashes or
// recovers is idle. Its state is N phases and timestamps, and it names no
// order of nodes, so interchangeable nodes are renamed in it
// (model.SymmetricMonitor).
var CS model.SymmetricMonitor = csMonitor{}

type csMonitor struct{}

func (csMonitor) Name() string { return "cs" }

func (csMonitor) Start(cfg *model.Config) any {
	return CSState{Nodes: make([]CSNode, cfg.N)}
}

func (csMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	in := st.(CSState)
	return observed(st, in, observeCS(in, node, o, false))
}

func (csMonitor) ObserveInPlace(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	in := st.(CSState)
	return observed(st, in, observeCS(in, node, o, true))
}

func (csMonitor) RenameNodes(_ *model.Config, st any, to func(model.NodeID) model.NodeID) any {
	in := st.(CSState)
	out := CSState{Nodes: make([]CSNode, len(in.Nodes))}
	for i, n := range in.Nodes {
		out.Nodes[to(model.NodeID(i))] = n
	}
	return out
}

func (s CSState) sameAs(t CSState) bool { return sameSlice(s.Nodes, t.Nodes) }

// EntryOrderState is the entry-order monitor's state: the CS monitor's,
// and once an entry jumped the queue, the first such entry.
type EntryOrderState struct {
	CSState
	// Overtook: Entered entered while Overtaken, whose request has a
	// smaller (timestamp, id), was waiting. Entered is model.None while
	// entries kept the order.
	Entered, Overtaken model.NodeID
}

// EntryOrder is the monitor of request order: the CS monitor's standing of
// every node, and the first entry out of (timestamp, id) order. Its state
// is N phases and timestamps plus two node ids. Apart from the CS monitor,
// so that a search that does not judge the order keeps no track of it
// (and may rename nodes in the CS monitor: the order of ids is written
// into this one).
var EntryOrder model.Monitor = entryOrderMonitor{}

type entryOrderMonitor struct{}

func (entryOrderMonitor) Name() string { return "entry-order" }

func (entryOrderMonitor) Start(cfg *model.Config) any {
	return EntryOrderState{CSState: CSState{Nodes: make([]CSNode, cfg.N)}, Entered: model.None, Overtaken: model.None}
}

func (entryOrderMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	in := st.(EntryOrderState)
	return observed(st, in, observeEntryOrder(in, node, o, false))
}

func (entryOrderMonitor) ObserveInPlace(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	in := st.(EntryOrderState)
	return observed(st, in, observeEntryOrder(in, node, o, true))
}

// sameAs compares Entered alone of the overtaking: Entered and Overtaken
// are set together, once.
func (s EntryOrderState) sameAs(t EntryOrderState) bool {
	return s.CSState.sameAs(t.CSState) && s.Entered == t.Entered
}

// observeEntryOrder is observeCS, and notes the first entry while a
// request smaller in (timestamp, id) waits: of those, the one of the
// smallest id. The entering node's own request is not smaller than itself.
func observeEntryOrder(s EntryOrderState, node model.NodeID, o model.Obs, inPlace bool) EntryOrderState {
	if o.Kind == model.ObsEnter && s.Entered == model.None && s.Nodes[node].Phase != InCS {
		mine := s.Nodes[node]
		for j, n := range s.Nodes {
			if n.Phase == Waiting && (n.TS < mine.TS || n.TS == mine.TS && j < int(node)) {
				s.Entered, s.Overtaken = node, model.NodeID(j)
				break
			}
		}
	}
	s.CSState = observeCS(s.CSState, node, o, inPlace)
	return s
}

func observeCS(s CSState, node model.NodeID, o model.Obs, inPlace bool) CSState {
	next := s.Nodes[node]
	switch o.Kind {
	case model.ObsRequest:
		next = CSNode{Phase: Waiting, TS: o.Arg}
	case model.ObsEnter:
		next.Phase = InCS
	case model.ObsExit:
		// an exit ends only a stay in the critical section: a node that
		// exits without having entered still waits
		if next.Phase == InCS {
			next = CSNode{}
		}
	case model.ObsCrash, model.ObsRecover:
		next = CSNode{}
	default:
		return s
	}
	if next == s.Nodes[node] {
		return s
	}
	s.Nodes = cow(s.Nodes, inPlace)
	s.Nodes[node] = next
	return s
}

func csNodes(v View) []CSNode { return v.Monitor(CS).(CSState).Nodes }

func nodesIn(ns []CSNode, ph Phase) []model.NodeID {
	var out []model.NodeID
	for i, n := range ns {
		if n.Phase == ph {
			out = append(out, model.NodeID(i))
		}
	}
	return out
}

func joinNodes(ids []model.NodeID) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ", ")
}

// Entered: some run reaches a world where a node is in the critical
// section. It is the trigger of mutual exclusion and of the order of
// entries: where nobody ever enters, they hold for want of an entry.
var Entered = &Property{
	Name: "entered", Family: "mutex", When: Possibly, Monitor: CS, MonitorOnly: true,
	Doc: "some node enters the critical section",
	Check: func(v View) string {
		if in := nodesIn(csNodes(v), InCS); len(in) > 0 {
			return fmt.Sprintf("%v is in the critical section", in[0])
		}
		return ""
	},
}

// MutualExclusion: in every reachable world at most one node is in the
// critical section.
var MutualExclusion = &Property{
	Name: "mutual-exclusion", Family: "mutex", When: Always, Monitor: CS, MonitorOnly: true, Trigger: Entered,
	Doc: "in every reachable world at most one node is in the critical section",
	Check: func(v View) string {
		if in := nodesIn(csNodes(v), InCS); len(in) > 1 {
			return fmt.Sprintf("%s are in the critical section at once", joinNodes(in))
		}
		return ""
	},
}

// NoDeadlock: no run ends with a node still waiting for the critical
// section.
var NoDeadlock = &Property{
	Name: "no-deadlock", Family: "mutex", When: AtQuiescence, Monitor: CS, MonitorOnly: true,
	Doc: "no run ends (nothing but faults can happen) while a node waits for the critical section",
	Check: func(v View) string {
		if w := nodesIn(csNodes(v), Waiting); len(w) > 0 {
			return fmt.Sprintf("deadlock: nothing can happen, and %s wait%s for the critical section", joinNodes(w), plural(len(w)))
		}
		return ""
	},
}

// NoStarvation: every request is eventually granted, on every fair run.
var NoStarvation = &Property{
	Name: "no-starvation", Family: "mutex", When: Eventually, Monitor: CS, MonitorOnly: true,
	Doc: "on every fair run every node that asks for the critical section eventually enters it",
	Pending: func(v View) uint64 {
		var m uint64
		for i, n := range csNodes(v) {
			if n.Phase == Waiting {
				m |= 1 << i
			}
		}
		return m
	},
	Check: func(v View) string {
		if w := nodesIn(csNodes(v), Waiting); len(w) > 0 {
			return fmt.Sprintf("%s wait%s for the critical section", joinNodes(w), plural(len(w)))
		}
		return ""
	},
	Obligation: func(b int) string { return fmt.Sprintf("%v waits for the critical section", model.NodeID(b)) },
}

// RequestOrder: nodes enter in the order of their requests' (timestamp,
// id): no node enters while a request smaller than its own waits.
var RequestOrder = &Property{
	Name: "request-order", Family: "mutex", When: Always, Monitor: EntryOrder, MonitorOnly: true, Trigger: Entered,
	Doc: "no node enters the critical section while a request with a smaller (timestamp, id) than its own waits",
	Check: func(v View) string {
		s := v.Monitor(EntryOrder).(EntryOrderState)
		if s.Entered == model.None {
			return ""
		}
		return fmt.Sprintf("%v entered while %v, whose request is earlier in (timestamp, id) order, waited", s.Entered, s.Overtaken)
	},
}

// plural is the verb ending for n subjects: "s" for one ("n1 waits").
func plural(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func init() { register(Entered, MutualExclusion, NoDeadlock, NoStarvation, RequestOrder) }
