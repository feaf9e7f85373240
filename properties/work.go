package properties

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// TasksParam is the run parameter the work-sharing properties read, and the
// work-sharing protocols honour: how many tasks the job is divided into
// (0 or unset: N-1, one for each node but one; see Tasks). At most
// MaxTasks.
const TasksParam = "tasks"

// MaxTasks bounds the tasks parameter: a set of tasks is a 64-bit mask.
const MaxTasks = 64

// Tasks is the number of tasks of a run: the parameter "tasks", or N-1 (with
// the analyser on a node of its own, one task per other node) when it is
// unset or 0.
func Tasks(cfg *model.Config) int {
	if k := cfg.Param(TasksParam, 0); k != 0 {
		return k
	}
	return cfg.N - 1
}

// Counted is the observation kind "this node, analysing, counts the result
// of task Arg" (tasks are numbered from 0), reported by the work-sharing
// protocols each time their analyser takes a result into its analysis.
var Counted = model.NewObsKind("counted", func(t int) string { return TaskName(t) })

// TaskName names task t in traces: t0, t1, ...
func TaskName(t int) string { return fmt.Sprintf("t%d", t) }

// CountedResult is the observation "this node counts the result of task t".
func CountedResult(t int) model.Obs { return model.Obs{Kind: Counted, Arg: t} }

// ResultsState is the Results monitor's state.
type ResultsState struct {
	// Counted[i] is the set of tasks whose results node i counted in its
	// current incarnation (bit t: task t).
	Counted []uint64
	// The first result counted a second time by the same incarnation of a
	// node: TwiceNode counted task TwiceTask again (model.None while none).
	TwiceNode model.NodeID
	TwiceTask int
}

// Results is the monitor of work sharing, fed by Counted observations: which
// results each node holds, and the first result counted twice. A node that
// crashes loses what it counted (an analyser's results are in its memory);
// after a recovery it starts afresh.
var Results model.Monitor = resultsMonitor{}

type resultsMonitor struct{}

func (resultsMonitor) Name() string { return "results" }

func (resultsMonitor) Start(cfg *model.Config) any {
	return ResultsState{Counted: make([]uint64, cfg.N), TwiceNode: model.None}
}

func (resultsMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	s := st.(ResultsState)
	var next uint64 // what node holds after o
	switch o.Kind {
	case Counted:
		bit := uint64(1) << o.Arg
		if s.Counted[node]&bit != 0 {
			if s.TwiceNode != model.None {
				return st
			}
			return ResultsState{Counted: s.Counted, TwiceNode: node, TwiceTask: o.Arg}
		}
		next = s.Counted[node] | bit
	case model.ObsCrash, model.ObsRecover:
		// the node loses what it counted: next stays empty
	default:
		return st
	}
	if next == s.Counted[node] {
		return st
	}
	out := ResultsState{Counted: slices.Clone(s.Counted), TwiceNode: s.TwiceNode, TwiceTask: s.TwiceTask}
	out.Counted[node] = next
	return out
}

// taskList names the tasks of a set: "t0, t2".
func taskList(set uint64) string {
	var ns []string
	for set != 0 {
		t := bits.TrailingZeros64(set)
		ns = append(ns, TaskName(t))
		set &^= 1 << t
	}
	return strings.Join(ns, ", ")
}

// Result: some run reaches a world where a node holds the result of a
// task. It is the trigger of ResultsOnce: where no result is ever counted,
// none is counted twice.
var Result = &Property{
	Name: "result", Family: "work", When: Possibly, Monitor: Results, MonitorOnly: true,
	Doc: "some node counts the result of a task",
	Check: func(v View) string {
		for i, c := range v.Monitor(Results).(ResultsState).Counted {
			if c != 0 {
				return fmt.Sprintf("%v holds %s", model.NodeID(i), taskList(c))
			}
		}
		return ""
	},
}

// AllResults: where a run ends, a live node holds the result of every task.
var AllResults = &Property{
	Name: "all-results", Family: "work", When: AtQuiescence, Monitor: Results, MonitorOnly: true,
	Doc: "where a run ends, a live node (the analyser) holds the result of every task",
	Check: func(v View) string {
		s := v.Monitor(Results).(ResultsState)
		k := Tasks(v.Config())
		all := uint64(1)<<k - 1
		best, live := model.None, false
		for i := range model.NodeID(v.N()) {
			if !v.Alive(i) {
				continue
			}
			live = true
			if s.Counted[i]&all == all {
				return ""
			}
			if best == model.None || bits.OnesCount64(s.Counted[i]) > bits.OnesCount64(s.Counted[best]) {
				best = i
			}
		}
		switch {
		case !live:
			return fmt.Sprintf("the run is over and no live node remains to analyse the %d results", k)
		case s.Counted[best] == 0:
			return fmt.Sprintf("the run is over and no live node holds any of the %d results", k)
		}
		return fmt.Sprintf("the run is over and no live node holds all %d results: the most, %v, holds %s, without %s",
			k, best, taskList(s.Counted[best]), taskList(all&^s.Counted[best]))
	},
}

// ResultsOnce: no node counts the result of a task twice.
var ResultsOnce = &Property{
	Name: "results-once", Family: "work", When: Always, Monitor: Results, MonitorOnly: true, Trigger: Result,
	Doc: "in every reachable world no node has counted the result of a task twice",
	Check: func(v View) string {
		s := v.Monitor(Results).(ResultsState)
		if s.TwiceNode == model.None {
			return ""
		}
		return fmt.Sprintf("%v counted the result of %s twice", s.TwiceNode, TaskName(s.TwiceTask))
	},
}

func init() { register(Result, AllResults, ResultsOnce) }
