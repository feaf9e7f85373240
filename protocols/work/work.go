// Package work holds what the work-sharing protocols share, which follow the
// lecture notes Elections (section "Work schedule"; the notes below): a job
// divided into K tasks "which do not need to communicate – except at the end
// of the process", computed by worker machines, whose results go to "a single
// place to analyse". The number of tasks is the run parameter "tasks"
// (properties.TasksParam; default N-1).
//
// A worker computes one task per local action, so that a crash can fall
// between two tasks; computing a task sends its result to the analyser.
package work

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Set is a set of tasks: bit t stands for task t.
type Set uint64

// Of is the set of the tasks ts: Of(t) is task t alone.
func Of(ts ...int) Set {
	var s Set
	for _, t := range ts {
		s |= 1 << t
	}
	return s
}

// All is the set of the k tasks of a run.
func All(k int) Set { return Set(uint64(1)<<k - 1) }

// Has reports whether t is in s.
func (s Set) Has(t int) bool { return s&Of(t) != 0 }

// First is the lowest task of s, which must not be empty.
func (s Set) First() int { return bits.TrailingZeros64(uint64(s)) }

func (s Set) String() string {
	var ns []string
	for r := s; r != 0; r &^= Of(r.First()) {
		ns = append(ns, properties.TaskName(r.First()))
	}
	return "{" + strings.Join(ns, " ") + "}"
}

// Action is a worker's local action.
type Action uint8

// Compute computes the worker's next task and sends its result on.
const Compute Action = 1

func (Action) String() string { return "compute" }

// Validate checks a run's configuration: at least two nodes (an analyser
// and a worker) and between 1 and properties.MaxTasks tasks.
func Validate(name string) func(cfg model.Config) error {
	return func(cfg model.Config) error {
		if cfg.N < 2 {
			return fmt.Errorf("%s: needs at least 2 nodes, not %d", name, cfg.N)
		}
		if k := properties.Tasks(&cfg); k < 1 || k > properties.MaxTasks {
			return fmt.Errorf("%s: tasks must be between 1 and %d, not %d", name, properties.MaxTasks, k)
		}
		return nil
	}
}

// Tasks is the number of tasks of the node's run, as properties.Tasks
// reads it: N-1 unless the parameter says otherwise.
func Tasks(env *model.Env) int {
	if k := env.Param(properties.TasksParam, 0); k != 0 {
		return k
	}
	return env.N() - 1
}
