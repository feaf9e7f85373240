// Package dynamic is dynamic work sharing, as the lecture notes Elections
// present it (section "Work schedule", "Dynamic sharing"; the notes below),
// with the coordinator elected by the bully algorithm of H. Garcia-Molina,
// Elections in a Distributed Computing System (IEEE Transactions on
// Computers C-31(1), 1982), as the notes present it after it (package
// protocols/election/bully, embedded through bully.Elector).
//
// The job is K tasks (run parameter "tasks", default N-1). The notes' steps,
// and the weaknesses of static sharing each one solves:
//
//   - "A co-ordinator reads a task and sends it to an 'empty' machine" and
//     "only hands out the next task when a machine is empty – solving 2":
//     the coordinator hands a pending task to a worker with no task of its
//     out, lowest id first. Every node but the coordinator works, the
//     analyser too; only when no other node is left does the coordinator
//     hand tasks to itself. A worker computes a task as a local action and
//     sends the result to the analyser the task names and "done" (naming
//     that analyser) back to the coordinator, which frees the worker.
//   - "The co-ordinator checks the status of machines and determines if one
//     has crashed – solving 3": the coordinator watches every worker it gave
//     a task (timer "worker-n<id>", waiting on that worker; under Sync
//     timing it fires only once the worker has crashed and its done messages
//     have arrived). When it fires, the worker's tasks are pending again and
//     go to the next empty machine.
//   - "The co-ordinator checks the status of the analysis machine and
//     appoints a new one if it crashes – solving 4": the coordinator
//     delegates the analysis ("the co-ordinator may act as the analyser or
//     delegate the job to another processor") to the live node of lowest
//     rank it knows of, and watches it (timer "analyser"). A crashed
//     analyser's results are lost with it ("all results are lost"), so they
//     are recomputed: the coordinator appoints the next node of lowest rank
//     ("appoint"), which answers with the results it holds ("holding", none
//     for a fresh analyser), and every task not among them whose done has
//     come or does come naming an analyser other than the current one is
//     handed out again.
//   - "To solve 1 the machines must be able to identify a new
//     co-ordinator": the bully algorithm, unchanged. At start-up every node
//     knows the first coordinator, the node of highest rank (as after an
//     election ended before the run), and watches it (bully's leader-check);
//     when it fails the bully election elects the live node of highest rank.
//     The new coordinator knows nothing of the tasks: it appoints the
//     analyser as above (the lowest-ranked other node, unless it finds it
//     crashed) and asks what it holds, so results survive a coordinator
//     crash in the analyser, and hands out every task the analyser lacks.
//     Tasks handed out by the old coordinator and still being computed are
//     computed twice; their done goes to the old coordinator and is lost.
//
// # Duplicates
//
// A task can thus be computed twice: after a coordinator change, and, under
// Async timing, whenever a worker's timer fires while the worker is merely
// slow and its task goes to another machine. The notes are silent on what
// the analyser then does. By default (run parameter "dedup", 1) the analyser
// counts a task's result once and drops any later copy, which
// properties.ResultsOnce checks; with dedup 0 it counts every result it
// gets, and the slow worker's result is counted twice.
//
// Initiators are ignored: every node takes part. A node that recovers
// remembers nothing (its jobs and results are lost) and starts a bully
// election, as bully's recovered nodes do.
//
// Messages: without faults, K tasks, K results and K done; bully's
// messages, and an appoint and a holding, after each coordinator or
// analyser crash.
package dynamic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/protocols/work"
)

// DedupParam is the run parameter that says whether the analyser drops a
// result it counted already (1, the default) or counts every copy (0).
const DedupParam = "dedup"

// Job is a task handed to a worker: where its result goes and who waits
// for the worker to be done with it.
type Job struct {
	Task     int
	Analyser model.NodeID // the analyser its result goes to
	From     model.NodeID // the coordinator that handed it out
}

func (j Job) String() string {
	return fmt.Sprintf("%s→%v", properties.TaskName(j.Task), j.Analyser)
}

// State is one node's state: its bully election, the worker's jobs, the
// analyser's results and, while the node leads, the coordinator's view of
// the job.
type State struct {
	Election bully.State
	Jobs     []Job    // worker: the tasks handed to it, computed in order
	Results  work.Set // analyser: the tasks whose results it counted

	// The coordinator, while Election.Leader is the node itself.
	Coordinating bool
	Out          []model.NodeID // per task: the worker computing it, or None
	Done         work.Set       // the tasks whose results the analyser holds
	Analyser     model.NodeID
	Appointing   bool           // waiting for the analyser to say what it holds
	Dead         []model.NodeID // nodes it found crashed, in id order
}

func (s State) String() string {
	var b strings.Builder
	b.WriteString(s.Election.String())
	if len(s.Jobs) > 0 {
		fmt.Fprintf(&b, " jobs=%v", s.Jobs)
	}
	if s.Results != 0 {
		fmt.Fprintf(&b, " results=%v", s.Results)
	}
	if s.Coordinating {
		out := make([]string, len(s.Out))
		for t, w := range s.Out {
			out[t] = "-"
			if w != model.None {
				out[t] = w.String()
			}
		}
		fmt.Fprintf(&b, " | analyser=%v", s.Analyser)
		if s.Appointing {
			b.WriteString(" (appointing)")
		}
		fmt.Fprintf(&b, " out=[%s] done=%v", strings.Join(out, " "), s.Done)
		if len(s.Dead) > 0 {
			fmt.Fprintf(&b, " dead=%v", s.Dead)
		}
	}
	return b.String()
}

// Kind is a message kind.
type Kind uint8

const (
	Bully   Kind = iota // the election's message B
	Task                // coordinator to worker: compute Task, send the result to Analyser
	Result              // worker to analyser: the result of Task
	Done                // worker to coordinator: Task is computed, its result sent to Analyser
	Appoint             // coordinator to node: analyse, and say what you hold
	Holding             // analyser to coordinator: the Results it holds
)

// Msg is a message of the protocol.
type Msg struct {
	K        Kind
	B        bully.Msg
	Task     int
	Analyser model.NodeID
	Results  work.Set
}

func (m Msg) Kind() string {
	if m.K == Bully {
		return m.B.Kind()
	}
	return [...]string{"", "task", "result", "done", "appoint", "holding"}[m.K]
}

func (m Msg) String() string {
	t := properties.TaskName(m.Task)
	switch m.K {
	case Task:
		return fmt.Sprintf("task %s for %v", t, m.Analyser)
	case Result:
		return "result " + t
	case Done:
		return fmt.Sprintf("done %s for %v", t, m.Analyser)
	case Holding:
		return fmt.Sprintf("holding %v", m.Results)
	}
	return m.Kind()
}

// Timer is the coordinator's timer on its analyser; WorkerTimer is its
// timer on one worker. The election's timers are bully.Timer values.
type Timer uint8

// AnalyserTimer: the analyser's failure.
const AnalyserTimer Timer = 1

func (Timer) String() string { return "analyser" }

// WorkerTimer is the coordinator's timer on the worker computing tasks of
// its.
type WorkerTimer model.NodeID

func (t WorkerTimer) String() string { return "worker-" + model.NodeID(t).String() }

// Kind: the timers on every worker are one kind.
func (WorkerTimer) Kind() string { return "worker" }

// Protocol implements model.Protocol and model.Actor.
type Protocol struct{}

// elect runs the bully election over this protocol's messages.
var elect = bully.Elector[Msg](func(m bully.Msg) Msg { return Msg{K: Bully, B: m} })

// first is the first coordinator, the node of highest rank.
func first(env *model.Env) model.NodeID {
	best := env.Self()
	for _, j := range env.Nodes(func(model.NodeID) bool { return true }) {
		if env.Rank(j) > env.Rank(best) {
			best = j
		}
	}
	return best
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	s := State{Election: elect.Follow(ctx, first(&ctx.Env))}
	if s.Election.Leader == ctx.Self() {
		// the first coordinator delegates the analysis to the lowest node,
		// which holds nothing yet: no need to ask
		s = coordinate(ctx, s)
		s.Analyser = nextAnalyser(ctx, s)
		ctx.SetTimer(AnalyserTimer, s.Analyser)
		return dispatch(ctx, s)
	}
	return s
}

// coordinate starts the coordinator's view of the job: every task pending,
// no node known to have crashed.
func coordinate(ctx *model.Ctx[Msg], s State) State {
	s.Coordinating = true
	s.Out = slices.Repeat([]model.NodeID{model.None}, work.Tasks(&ctx.Env))
	s.Done, s.Dead, s.Analyser, s.Appointing = 0, nil, model.None, false
	return s
}

// nextAnalyser is the live node of lowest rank the coordinator knows of,
// itself only when it knows of no other.
func nextAnalyser(ctx *model.Ctx[Msg], s State) model.NodeID {
	best := model.None
	for _, j := range ctx.Nodes(func(j model.NodeID) bool { return !slices.Contains(s.Dead, j) }) {
		if best == model.None || ctx.Rank(j) < ctx.Rank(best) {
			best = j
		}
	}
	if best == model.None {
		return ctx.Self()
	}
	return best
}

// appoint delegates the analysis to the next analyser and asks it what it
// holds; until it answers, the coordinator counts no result as held and
// hands out nothing.
func appoint(ctx *model.Ctx[Msg], s State) State {
	s.Analyser = nextAnalyser(ctx, s)
	s.Appointing, s.Done = true, 0
	ctx.Send(s.Analyser, Msg{K: Appoint})
	ctx.SetTimer(AnalyserTimer, s.Analyser)
	return s
}

// busy reports whether worker w computes a task of the coordinator's.
func busy(out []model.NodeID, w model.NodeID) bool { return slices.Contains(out, w) }

// emptyMachine is a machine with no task out, lowest id first; the
// coordinator itself only when no other node is left.
func emptyMachine(ctx *model.Ctx[Msg], s State) model.NodeID {
	others := ctx.Nodes(func(j model.NodeID) bool { return !slices.Contains(s.Dead, j) })
	for _, j := range others {
		if !busy(s.Out, j) {
			return j
		}
	}
	if len(others) == 0 && !busy(s.Out, ctx.Self()) {
		return ctx.Self()
	}
	return model.None
}

// dispatch: "a co-ordinator reads a task and sends it to an 'empty'
// machine", for each pending task while there is one, and watches it.
func dispatch(ctx *model.Ctx[Msg], s State) State {
	if s.Appointing {
		return s
	}
	for t, w := range s.Out {
		if w != model.None || s.Done.Has(t) {
			continue
		}
		w = emptyMachine(ctx, s)
		if w == model.None {
			break
		}
		s.Out = slices.Clone(s.Out)
		s.Out[t] = w
		ctx.Send(w, Msg{K: Task, Task: t, Analyser: s.Analyser})
		ctx.SetTimer(WorkerTimer(w), w)
	}
	return s
}

// elected takes the election's next state e: a node that has just become
// the coordinator takes over the job, one that no longer leads lets it go.
func elected(ctx *model.Ctx[Msg], s State, e bully.State) State {
	was, is := s.Coordinating, e.Leader == ctx.Self()
	s.Election = e
	switch {
	case is && !was:
		// the new coordinator knows nothing of the job: it asks the
		// analyser what it holds, then hands out the rest
		return appoint(ctx, coordinate(ctx, s))
	case was && !is:
		for _, w := range s.Out {
			if w != model.None {
				ctx.CancelTimer(WorkerTimer(w))
			}
		}
		ctx.CancelTimer(AnalyserTimer)
		s.Coordinating, s.Out, s.Done, s.Analyser, s.Appointing, s.Dead = false, nil, 0, model.None, false, nil
	}
	return s
}

func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	switch m.K {
	case Bully:
		return elected(ctx, s, elect.Receive(ctx, s.Election, from, m.B))
	case Task:
		// a worker is given a task
		s.Jobs = append(slices.Clone(s.Jobs), Job{Task: m.Task, Analyser: m.Analyser, From: from})
	case Result:
		// the analyser counts a result, once unless dedup is off
		if s.Results.Has(m.Task) && ctx.Param(DedupParam, 1) != 0 {
			return s
		}
		s.Results |= work.Of(m.Task)
		ctx.Observe(properties.CountedResult(m.Task))
	case Done:
		// the worker is empty again; the task is done if its result went
		// to the current analyser, else it is handed out again
		if !s.Coordinating || m.Task >= len(s.Out) || s.Out[m.Task] != from {
			return s
		}
		s.Out = slices.Clone(s.Out)
		s.Out[m.Task] = model.None
		if m.Analyser == s.Analyser {
			s.Done |= work.Of(m.Task)
		}
		if !busy(s.Out, from) {
			ctx.CancelTimer(WorkerTimer(from))
		}
		return dispatch(ctx, s)
	case Appoint:
		// a node appointed analyser says what it holds
		ctx.Send(from, Msg{K: Holding, Results: s.Results})
	case Holding:
		// the analyser's results are done; the rest are handed out (only
		// a coordinator appoints, and it stops appointing as it stops
		// coordinating)
		if s.Appointing && from == s.Analyser {
			s.Appointing = false
			s.Done |= m.Results & work.All(len(s.Out))
			return dispatch(ctx, s)
		}
	}
	return s
}

func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	switch t := t.(type) {
	case bully.Timer:
		return elected(ctx, s, elect.Timeout(ctx, s.Election, t))
	case WorkerTimer:
		// the worker has crashed: its tasks are pending again
		w := model.NodeID(t)
		if !s.Coordinating || !busy(s.Out, w) {
			// unreachable: a node that stops coordinating cancels its
			// timers (elected), and a coordinator its timer on a worker
			// once it has no task of its out (Done)
			panic(fmt.Sprintf("timer %v fired, but %v computes no task of this node's", t, w))
		}
		s.Dead = insert(s.Dead, w)
		s.Out = slices.Clone(s.Out)
		for i, x := range s.Out {
			if x == w {
				s.Out[i] = model.None
			}
		}
		return dispatch(ctx, s)
	case Timer:
		// the analyser has crashed, and its results with it: appoint
		// another
		if !s.Coordinating {
			// unreachable: a node that stops coordinating cancels its timers (elected)
			panic("the analyser timer fired at a node that does not coordinate")
		}
		s.Dead = insert(s.Dead, s.Analyser)
		return appoint(ctx, s)
	}
	return s // unreachable: the cases name every timer the protocol arms
}

func insert(ns []model.NodeID, n model.NodeID) []model.NodeID {
	if slices.Contains(ns, n) {
		return ns
	}
	out := append(slices.Clone(ns), n)
	slices.Sort(out)
	return out
}

// Actions: a worker with a job computes it.
func (Protocol) Actions(_ *model.Env, s State) []model.Action {
	if len(s.Jobs) > 0 {
		return []model.Action{work.Compute}
	}
	return nil
}

// Do computes the worker's first job: the result to the job's analyser,
// done to the coordinator that handed it out.
func (Protocol) Do(ctx *model.Ctx[Msg], s State, _ model.Action) State {
	j := s.Jobs[0]
	s.Jobs = slices.Clone(s.Jobs[1:])
	if len(s.Jobs) == 0 {
		s.Jobs = nil
	}
	ctx.Send(j.Analyser, Msg{K: Result, Task: j.Task})
	ctx.Send(j.From, Msg{K: Done, Task: j.Task, Analyser: j.Analyser})
	return s
}

// Recover: a restarted node remembers nothing and starts a bully election.
func (Protocol) Recover(ctx *model.Ctx[Msg], _ State) State {
	fresh := State{Election: bully.State{Leader: model.None}}
	return elected(ctx, fresh, elect.Recover(ctx, fresh.Election))
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"task", "result", "done", "appoint", "holding", "election", "answer", "coordinator"}, Timers: []string{"analyser", "worker", "answer", "coordinator", "leader-check"}, Actions: []string{"compute"}}
}
