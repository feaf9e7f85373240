// Package static is static work sharing, as the lecture notes Elections
// present it (section "Work schedule", "Static sharing"; the notes below):
// "We could take the number of tasks divide it by the number of processors
// and submit that number to each processor. Then wait for them all to
// finish and return the job to a single place to analyse."
//
// Node 0 is that single place: the analyser, which also hands out the
// shares. At start-up it divides the K tasks (run parameter "tasks",
// default N-1) among the workers, nodes 1..N-1, round robin (task t to node
// 1 + t mod (N-1)), and sends each worker its share in one message. A
// worker computes its share one task at a time (a local action each, so a
// crash may fall between two tasks) and sends each result to node 0, which
// counts it (properties.Counted).
//
// Nothing is recovered, which is the notes' list of weaknesses: "A crashed
// machine will mean missing results" (a worker's remaining tasks are never
// computed) and "A crashed analysis machine means all results are lost"
// (node 0 held them all in its memory); nodes are crash-stop. Both show as properties.AllResults failing where a run ends. No
// task is handed out twice, so no result is counted twice.
//
// Messages: N-1 shares (fewer when K < N-1) and K results.
package static

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/work"
)

// Analyser is node 0: it hands out the shares and analyses the results.
const Analyser model.NodeID = 0

// State is one node's state: a worker's tasks yet to compute, and the
// analyser's results so far.
type State struct {
	Analysing bool     // node 0
	Todo      work.Set // worker: its share, less what it computed
	Results   work.Set // analyser: the tasks whose results it counted
}

func (s State) String() string {
	if s.Analysing {
		return fmt.Sprintf("results=%v", s.Results)
	}
	return fmt.Sprintf("todo=%v", s.Todo)
}

// Kind is a message kind.
type Kind uint8

const (
	Share  Kind = iota // analyser to worker: the worker's tasks
	Result             // worker to analyser: the result of one task
)

// Msg is a share (Tasks) or a result (Task).
type Msg struct {
	K     Kind
	Tasks work.Set
	Task  int
}

func (m Msg) Kind() string { return [...]string{"share", "result"}[m.K] }

func (m Msg) String() string {
	if m.K == Share {
		return fmt.Sprintf("share %v", m.Tasks)
	}
	return "result " + properties.TaskName(m.Task)
}

// Protocol implements model.Protocol and model.Actor.
type Protocol struct{}

// NetworkNeeds declares what the protocol's source assumes of its channels:
// set channels, which give neither order nor exactly-once delivery, are
// refused.
func (Protocol) NetworkNeeds() model.Needs {
	return model.Needs{ExactlyOnce: true, Why: `the analyser counts a duplicated result twice (Vlassov and Montelius: retransmission must "avoid duplication of messages")`}
}

// shares divides the k tasks among the n-1 workers, round robin: the
// notes' "divide it by the number of processors".
func shares(k, n int) []work.Set {
	out := make([]work.Set, n)
	for t := range k {
		out[1+t%(n-1)] |= work.Of(t)
	}
	return out
}

// Init: the analyser submits each worker its share.
func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if ctx.Self() == Analyser {
		for w, share := range shares(work.Tasks(&ctx.Env), ctx.N()) {
			if share != 0 {
				ctx.Send(model.NodeID(w), Msg{K: Share, Tasks: share})
			}
		}
		return State{Analysing: true}
	}
	return State{}
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, _ model.NodeID, m Msg) State {
	switch m.K {
	case Share: // a worker is given its share
		s.Todo |= m.Tasks
	case Result: // the analyser counts a result
		s.Results |= work.Of(m.Task)
		ctx.Observe(properties.CountedResult(m.Task))
	}
	return s
}

// Actions: a worker with tasks left computes the next.
func (Protocol) Actions(_ *model.Env, s State) []model.Action {
	if s.Todo != 0 {
		return []model.Action{work.Compute}
	}
	return nil
}

// Do computes the worker's lowest task and returns the result "to a single
// place to analyse".
func (Protocol) Do(ctx *model.Ctx[Msg], s State, _ model.Action) State {
	t := s.Todo.First()
	s.Todo &^= work.Of(t)
	ctx.Send(Analyser, Msg{K: Result, Task: t})
	return s
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"share", "result"}, Actions: []string{"compute"}}
}
