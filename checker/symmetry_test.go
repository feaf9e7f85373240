package checker_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// lockServer: node 0 grants a lock to one client at a time, in the order
// their requests reach it; each client asks once, holds the lock for one
// step and gives it back. The clients are interchangeable. With twice, the
// server grants a second request while the lock is out, a bug.
type lockServer struct {
	twice   bool
	declare func(cfg *model.Config) [][]model.NodeID
	keeps   model.NodeID // a client that never gives the lock back (0: none)
	again   bool         // clients ask again, for ever, once they gave the lock back
}

type lockState struct {
	Holder  model.NodeID
	Waiting []model.NodeID
	Held    bool
	Done    bool
}

type lockMsg struct{ Type string }

func (p lockServer) Interchangeable(cfg *model.Config) [][]model.NodeID {
	if p.declare != nil {
		return p.declare(cfg)
	}
	var clients []model.NodeID
	for i := 1; i < cfg.N; i++ {
		clients = append(clients, model.NodeID(i))
	}
	return [][]model.NodeID{clients}
}

func (lockServer) Init(ctx *model.Ctx[lockMsg]) lockState {
	if ctx.Self() != 0 {
		ctx.Send(0, lockMsg{"request"})
	}
	return lockState{Holder: model.None}
}

func (p lockServer) Receive(ctx *model.Ctx[lockMsg], s lockState, from model.NodeID, m lockMsg) lockState {
	switch m.Type {
	case "grant":
		s.Held = true
		ctx.Observe(model.EnterCS())
	case "request":
		if s.Holder == model.None || p.twice && len(s.Waiting) == 0 {
			s.Holder = from
			ctx.Send(from, lockMsg{"grant"})
		} else {
			s.Waiting = append(slices.Clone(s.Waiting), from)
		}
	case "release":
		s.Holder = model.None
		if len(s.Waiting) > 0 {
			s.Holder, s.Waiting = s.Waiting[0], s.Waiting[1:]
			ctx.Send(s.Holder, lockMsg{"grant"})
		}
	}
	return s
}

func (p lockServer) Actions(env *model.Env, s lockState) []model.Action {
	if s.Held && env.Self() != p.keeps {
		return []model.Action{"release"}
	}
	return nil
}

func (p lockServer) Do(ctx *model.Ctx[lockMsg], s lockState, _ model.Action) lockState {
	s.Held, s.Done = false, true
	ctx.Observe(model.ExitCS())
	ctx.Send(0, lockMsg{"release"})
	if p.again {
		ctx.Send(0, lockMsg{"request"})
	}
	return s
}

// entries: how many times each node entered, a table by node.
var entries = properties.NewSymmetricMonitor("entries",
	func(cfg *model.Config) []int { return make([]int, cfg.N) },
	func(_ *model.Config, st []int, node model.NodeID, o model.Obs) []int {
		if o.Kind != model.ObsEnter {
			return st
		}
		st = slices.Clone(st)
		st[node]++
		return st
	},
	func(_ *model.Config, st []int, to func(model.NodeID) model.NodeID) []int {
		out := make([]int, len(st))
		for i, k := range st {
			out[to(model.NodeID(i))] = k
		}
		return out
	})

var (
	oneHolder = properties.Invariant("one-holder", "at most one client holds the lock", func(v properties.View) string {
		var in []model.NodeID
		for i := range model.NodeID(v.N()) {
			if v.Alive(i) && properties.StateOf[lockState](v, i).Held {
				in = append(in, i)
			}
		}
		if len(in) > 1 {
			return fmt.Sprintf("%v hold the lock", in)
		}
		return ""
	})
	enteredOnce = &properties.Property{Name: "entered-once", When: properties.Always, Monitor: entries, MonitorOnly: true,
		Check: func(v properties.View) string {
			for i, k := range properties.MonitorState[[]int](v, entries) {
				if k > 1 {
					return fmt.Sprintf("n%d entered %d times", i, k)
				}
			}
			return ""
		}}
	everyoneServed = properties.Quiescent("everyone-served", "every live client got the lock", func(v properties.View) string {
		for i := model.NodeID(1); int(i) < v.N(); i++ {
			if v.Alive(i) && !properties.StateOf[lockState](v, i).Done {
				return fmt.Sprintf("%v was never served", i)
			}
		}
		return ""
	})
	lockProps = []*properties.Property{oneHolder, enteredOnce, everyoneServed}
)

// A search reduced by symmetry gives the full search's verdicts, a
// counterexample where it has one (a run of worlds, which replays), its
// message figures, and fewer states; for every configuration here, with
// the bug and without.
func TestSymmetryKeepsVerdicts(t *testing.T) {
	configs := []model.Config{
		{N: 4},
		{N: 4, Channels: model.Unordered},
		{N: 4, Crashes: 1},
		{N: 3, Channels: model.Unordered, Losses: 1, Duplicates: 1},
		{N: 4, Channels: model.Unordered, Timing: model.Async, Crashes: 1, Recoveries: 0},
	}
	for _, twice := range []bool{false, true} {
		for _, cfg := range configs {
			name := fmt.Sprintf("twice=%v %+v", twice, cfg)
			m, err := checker.Compile("lock", lockServer{twice: twice}, cfg, lockProps...)
			require.NoError(t, err)
			full := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: checker.ReduceNone, Messages: true})
			reduced := checker.Exhaustive(context.Background(), m, checker.Options{Messages: true})
			require.Nil(t, reduced.Fault, name)
			require.Equal(t, checker.SymmetryUsed, reduced.Reduction.Kind, name)
			require.Contains(t, reduced.Reduction.String(), "symmetry: n1 n2", name)
			require.Equal(t, checker.SymmetryDeclined, full.Reduction.Kind, name)
			require.Less(t, reduced.Stats.States, full.Stats.States, name)
			if !reduced.Stopped {
				states, quiet := testhook.Families(checker.ModelOf(m))
				require.Equal(t, [2]int{states, quiet}, [2]int{int(reduced.Stats.States), int(reduced.Stats.Quiescent)},
					"%s: the families of the worlds and of the quiescent worlds a naive enumeration finds", name)
			}
			require.Equal(t, full.Messages, reduced.Messages, name)
			for p, fp := range full.Properties {
				rp := reduced.Properties[p]
				require.Equal(t, fp.Verdict, rp.Verdict, "%s: %s", name, fp.Name)
				require.Equal(t, fp.Counterexample == nil, rp.Counterexample == nil, "%s: %s", name, fp.Name)
				if rp.Counterexample != nil {
					again, err := checker.Replay(m, rp.Counterexample)
					require.NoError(t, err, "%s: %s", name, fp.Name)
					require.Equal(t, fp.Name, again.Property, "%s: the run replays to its violation", name)
					// shortest both ways: the families of the worlds of
					// a run are a run of families
					require.Len(t, rp.Counterexample.Events, len(fp.Counterexample.Events), "%s: %s", name, fp.Name)
				}
			}
			if twice {
				require.Equal(t, checker.Fail, reduced.Properties[0].Verdict, "%s: the bug is found", name)
			}
		}
	}
}

// A symmetry that does not hold is a fault of the search, not a verdict:
// the server is not one of its clients.
func TestSymmetryThatDoesNotHoldIsAFault(t *testing.T) {
	everyone := func(cfg *model.Config) [][]model.NodeID {
		var all []model.NodeID
		for i := range cfg.N {
			all = append(all, model.NodeID(i))
		}
		return [][]model.NodeID{all}
	}
	m, err := checker.Compile("lock", lockServer{declare: everyone}, model.Config{N: 3}, lockProps...)
	require.NoError(t, err)
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	require.NotNil(t, r.Fault)
	require.Contains(t, r.Fault.Error(), "renaming them changes the initial world")
	// n2 keeps the lock: the clients start alike and part later
	m, err = checker.Compile("lock", lockServer{keeps: 2}, model.Config{N: 3}, lockProps...)
	require.NoError(t, err)
	r = checker.Exhaustive(context.Background(), m, checker.Options{})
	require.NotNil(t, r.Fault)
	require.Contains(t, r.Fault.Error(), "renaming them in this world changes what it can do next")
	require.NotEmpty(t, r.Fault.Trace.Events, "the run to the world where the symmetry breaks")
}

// Runs that never end are judged on cycles, which a search of
// representatives does not keep: it searches again without the
// reduction, and says so.
func TestSymmetryLeavesCyclesToTheFullSearch(t *testing.T) {
	m, err := checker.Compile("lock", lockServer{again: true}, model.Config{N: 3}, oneHolder, testhook.Busy)
	require.NoError(t, err)
	full := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: checker.ReduceNone})
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	require.Equal(t, checker.SymmetryNotUsed, r.Reduction.Kind)
	require.Contains(t, r.Reduction.String(), "none: n1 n2 interchangeable, but runs that never end")
	require.Equal(t, full.Stats.States, r.Stats.States)
	require.Equal(t, checker.Fail, r.Properties[1].Verdict)
	require.Equal(t, full.Properties[1].Counterexample.Cycle, r.Properties[1].Counterexample.Cycle)
}

// BenchmarkSymmetry measures the lock server's search with and without
// the reduction: states (families, or worlds) per second.
//
//	go test ./checker -run '^$' -bench Symmetry
func BenchmarkSymmetry(b *testing.B) {
	for _, r := range []checker.Reduction{checker.ReduceAll, checker.ReduceNone} {
		b.Run(fmt.Sprintf("lock/n=7/reduce=%v", r), func(b *testing.B) {
			m, err := checker.Compile("lock", lockServer{}, model.Config{N: 7, Channels: model.Unordered}, lockProps...)
			require.NoError(b, err)
			var states int64
			for b.Loop() {
				res := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: r, Workers: 1})
				require.Equal(b, checker.Pass, res.Verdict)
				states = res.Stats.States
			}
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(states), "states")
		})
	}
}
