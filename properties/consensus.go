package properties

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// The consensus family's observation kinds. They are registered here, as
// the work family's Counted is, rather than among model's own kinds: model
// is the author's contract and names no family's facts beyond those it
// always had, and a property package that defines a family's properties
// is where a protocol of that family looks for the facts to report.
var (
	// Proposed is the observation kind "this node proposes value Arg", a
	// proposer's input, reported once as it starts proposing.
	Proposed = model.NewObsKind("propose", nil)
	// Learned is the observation kind "this node learns that value Arg is
	// chosen", reported once by a learner.
	Learned = model.NewObsKind("learn", nil)
)

// MaxValue bounds the values the consensus properties follow: a set of
// values is a 64-bit mask, so values are 0..MaxValue.
const MaxValue = 63

// NoValue stands for "no value learned" in ConsensusState.Learned.
const NoValue = -1

// Propose is the observation "this node proposes v" (0 ≤ v ≤ MaxValue).
func Propose(v int) model.Obs { return model.Obs{Kind: Proposed, Arg: v} }

// Learn is the observation "this node learns that v is chosen" (0 ≤ v ≤
// MaxValue).
func Learn(v int) model.Obs { return model.Obs{Kind: Learned, Arg: v} }

// ConsensusState is the Decisions monitor's state.
type ConsensusState struct {
	// Proposed is the set of values proposed so far (bit v: value v), and
	// Chosen the set of values learned so far by any node, crashed since or
	// not: a value learned stays learned.
	Proposed, Chosen uint64
	// Unproposed is the set of values learned while no proposer had
	// proposed them: validity's violations, kept though the value may be
	// proposed later.
	Unproposed uint64
	// Learned[i] is the first value node i learned, or NoValue.
	Learned []int `vigil:"bynode"`
}

// Decisions is the consensus monitor, fed by Proposed and Learned
// observations: the values proposed, the values learned by anyone, and
// what each node learned. A crash does not undo a learned value (in
// "Paxos Made Simple" a chosen value stays chosen, and a learner keeps
// what it learned on stable storage). Its state names no order of nodes,
// so interchangeable nodes are renamed in it.
var Decisions model.SymmetricMonitor = decisionsMonitor{}

type decisionsMonitor struct{}

func (decisionsMonitor) Name() string { return "decisions" }

func (decisionsMonitor) Start(cfg *model.Config) any {
	l := make([]int, cfg.N)
	for i := range l {
		l[i] = NoValue
	}
	return ConsensusState{Learned: l}
}

func (decisionsMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	s := st.(ConsensusState)
	switch o.Kind {
	case Proposed:
		s.Proposed |= valueBit(o.Arg)
		return s
	case Learned:
		bit := valueBit(o.Arg)
		if s.Learned[node] == NoValue {
			s.Learned = slices.Clone(s.Learned)
			s.Learned[node] = o.Arg
		} else if s.Chosen&bit != 0 {
			return st // a node learning again keeps its first value
		}
		s.Chosen |= bit
		s.Unproposed |= bit &^ s.Proposed
		return s
	}
	return st
}

func (decisionsMonitor) RenameNodes(_ *model.Config, st any, to func(model.NodeID) model.NodeID) any {
	s := st.(ConsensusState)
	out := s
	out.Learned = make([]int, len(s.Learned))
	for i, v := range s.Learned {
		out.Learned[to(model.NodeID(i))] = v
	}
	return out
}

// valueBit is v's bit in a set of values. A value out of range is a fault
// of the protocol that reported it, which the checker reports with the
// run to it.
func valueBit(v int) uint64 {
	if v < 0 || v > MaxValue {
		panic(fmt.Sprintf("consensus value %d out of range: the consensus properties follow values 0..%d", v, MaxValue))
	}
	return 1 << v
}

func decisions(v View) ConsensusState { return v.Monitor(Decisions).(ConsensusState) }

// valueList names the values of a set: "1, 2".
func valueList(set uint64) string {
	var vs []string
	for set != 0 {
		b := bits.TrailingZeros64(set)
		vs = append(vs, fmt.Sprint(b))
		set &^= 1 << b
	}
	return strings.Join(vs, ", ")
}

// learnerOf names the first node that learned v first: "n2 learned 1";
// where none did, a node learned v after another value.
func learnerOf(s ConsensusState, v int) string {
	if i := slices.Index(s.Learned, v); i >= 0 {
		return fmt.Sprintf("%v learned %d", model.NodeID(i), v)
	}
	return fmt.Sprintf("a node learned %d after another value", v)
}

// ConsensusLearned: some run has a node learn a value, the situation
// agreement and validity speak of (their trigger).
var ConsensusLearned = &Property{
	Name: "learned", Family: "consensus", When: Possibly, Monitor: Decisions, MonitorOnly: true,
	Doc: "some node learns a value",
	Check: func(v View) string {
		s := decisions(v)
		if s.Chosen == 0 {
			return ""
		}
		return learnerOf(s, bits.TrailingZeros64(s.Chosen))
	},
}

// ConsensusAgreement: no two learners learn different values, "only a
// single value is chosen" (Lamport, Paxos Made Simple).
var ConsensusAgreement = &Property{
	Name: "agreement", Family: "consensus", When: Always, Monitor: Decisions, MonitorOnly: true, Trigger: ConsensusLearned,
	Doc: "in every reachable world at most one value has been learned, by any node, crashed since or not",
	Check: func(v View) string {
		s := decisions(v)
		if bits.OnesCount64(s.Chosen) <= 1 {
			return ""
		}
		first := bits.TrailingZeros64(s.Chosen)
		second := bits.TrailingZeros64(s.Chosen &^ (1 << first))
		return fmt.Sprintf("values %s were learned (%s, %s)", valueList(s.Chosen), learnerOf(s, first), learnerOf(s, second))
	},
}

// ConsensusValidity: a learned value is one that some proposer proposed.
var ConsensusValidity = &Property{
	Name: "validity", Family: "consensus", When: Always, Monitor: Decisions, MonitorOnly: true, Trigger: ConsensusLearned,
	Doc: "in every reachable world every value learned had been proposed when it was learned",
	Check: func(v View) string {
		s := decisions(v)
		if bad := s.Unproposed; bad != 0 {
			return fmt.Sprintf("value %d was learned before any proposer proposed it", bits.TrailingZeros64(bad))
		}
		return ""
	},
}

// undecided returns the live nodes that have learned nothing, one bit
// each.
func undecided(v View) uint64 {
	s := decisions(v)
	var m uint64
	for i, l := range s.Learned {
		if l == NoValue && v.Alive(model.NodeID(i)) {
			m |= 1 << i
		}
	}
	return m
}

// ConsensusTermination: every live node (every node is a learner)
// eventually learns a value, on every fair run.
var ConsensusTermination = &Property{
	Name: "termination", Family: "consensus", When: Eventually, Monitor: Decisions, MonitorOnly: true,
	Doc:     "on every fair run every live node eventually learns a value",
	Pending: undecided,
	Check: func(v View) string {
		ids := nodesOf(undecided(v))
		if len(ids) == 0 {
			return ""
		}
		return fmt.Sprintf("%s, alive, ha%s learned no value", joinNodes(ids), hasHave(len(ids)))
	},
	Obligation: func(b int) string { return fmt.Sprintf("%v has learned no value", model.NodeID(b)) },
}

// hasHave is the ending of "has" or "have" for n subjects.
func hasHave(n int) string {
	if n == 1 {
		return "s"
	}
	return "ve"
}

func init() { register(ConsensusLearned, ConsensusAgreement, ConsensusValidity, ConsensusTermination) }

// nodesOf lists the nodes of mask, one bit each, in id order.
func nodesOf(mask uint64) []model.NodeID {
	var ids []model.NodeID
	for m := mask; m != 0; m &= m - 1 {
		ids = append(ids, model.NodeID(bits.TrailingZeros64(m)))
	}
	return ids
}
