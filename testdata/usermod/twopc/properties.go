package twopc

import (
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// outcomes is a monitor of the decisions observed in a run: bit d set once
// some node decided d. A node's crash does not undo its decision. Its
// state names no node, so renaming nodes leaves it as it is.
var outcomes = properties.NewSymmetricMonitor("outcomes",
	func(*model.Config) uint8 { return 0 },
	func(_ *model.Config, seen uint8, _ model.NodeID, o model.Obs) uint8 {
		if o.Kind == Decided {
			return seen | 1<<o.Arg
		}
		return seen
	},
	func(_ *model.Config, seen uint8, _ func(model.NodeID) model.NodeID) uint8 { return seen })

// Atomicity: no node commits while another aborts, crashed nodes
// included (their decisions stand).
var Atomicity = &properties.Property{
	Name: "atomicity", When: properties.Always, Monitor: outcomes, MonitorOnly: true,
	Doc: "no two nodes decide differently, whether or not they crashed since",
	Check: func(v properties.View) string {
		seen := properties.MonitorState[uint8](v, outcomes)
		if seen&(1<<Commit) != 0 && seen&(1<<Abort) != 0 {
			return "one node committed and another aborted"
		}
		return ""
	},
}

// Committed: some run commits. It is the trigger of CommitValidity, which
// a run without a commit passes whatever it does: vigil warns where no run
// reaches it.
var Committed = func() *properties.Property {
	p := properties.Sometimes("committed", "commit", "some node commits", func(v properties.View) bool {
		return properties.MonitorState[uint8](v, outcomes)&(1<<Commit) != 0
	})
	p.Monitor, p.MonitorOnly = outcomes, true
	return p
}()

// CommitValidity: a commit needs every participant's Yes vote; read from
// the nodes' states.
var CommitValidity = properties.Invariant("commit-validity",
	"a node commits only if every participant voted yes",
	func(v properties.View) string {
		committed := false
		for i := range model.NodeID(v.N()) {
			committed = committed || properties.StateOf[State](v, i).Decision == Commit
		}
		if !committed {
			return ""
		}
		for i := Coordinator + 1; int(i) < v.N(); i++ {
			if vote := properties.StateOf[State](v, i).Vote; vote != Commit {
				return fmt.Sprintf("a node committed, but %v voted %s", i, map[Decision]string{Undecided: "nothing", Abort: "no"}[vote])
			}
		}
		return ""
	})

func init() { CommitValidity.Trigger = Committed }

// Termination: where a run ends, every live node has decided.
var Termination = properties.Quiescent("termination",
	"in every quiescent world every live node has decided",
	func(v properties.View) string {
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) && properties.StateOf[State](v, i).Decision == Undecided {
				return fmt.Sprintf("the run is over and %v, alive, is still %v", i, properties.StateOf[State](v, i).Phase)
			}
		}
		return ""
	})

// Description is two-phase commit for vigil's tools: the command line of
// this module's own vigil binary (cmd/commit-vigil) and the test kit.
var Description = &suite.Protocol{
	Name: "twopc", Family: "commit",
	Summary:    "two-phase commit: canCommit?, votes, then doCommit or doAbort; blocks when the coordinator crashes",
	Source:     "G. Coulouris et al., Distributed Systems: Concepts and Design, 5th ed., ch. 17.3, after J. Gray (1978)",
	Properties: []*properties.Property{Atomicity, CommitValidity, Termination, Committed},
	Claims:     []string{"atomicity", "commit-validity", "termination"},
	Params: []suite.Param{
		{Name: "no-votes", Default: 1, Doc: "whether a participant may vote no (0: every vote is yes)"},
		{Name: "yes-votes", Default: 1, Doc: "whether a participant may vote yes (0: every vote is no)"},
	},
	// The type arguments are spelled out: Go cannot infer them from the
	// methods of a type declared in a later file of the same package.
	Compile: suite.Compiler[State, Msg]("commit/twopc", Protocol{}, nil),
	// The kit names this binary where it says how to replay a trace file.
	Binary: "go run example.com/commit/cmd/commit-vigil",
	Scenarios: []suite.Scenario{
		{Name: "no-crash", N: 4, Expect: checker.Pass,
			Why:      "every participant votes either way: all commit when all vote yes, else all abort; N-1 canCommit?, up to N-1 votes and N-1 decisions",
			Messages: "total 7..9, canCommit? 3"},
		{Name: "unordered", N: 3, Channels: model.Unordered, Expect: checker.Pass,
			Why: "votes and decisions overtake each other: nothing changes"},
		{Name: "coordinator-crash", N: 3, Crashes: 1, Expect: checker.Fail, Shows: "termination",
			Why: "the coordinator crashes while a participant is prepared: it may not decide alone and blocks (ch. 17.3.1)"},
	},
}
