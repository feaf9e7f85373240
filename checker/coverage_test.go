package checker_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// declaredFlood is Flood declaring a vocabulary: the rank it sends, a
// message kind and a timer it never uses, and no actions.
type declaredFlood struct{ Flood }

func (declaredFlood) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"msg", "nack"}, Timers: []string{"late"}}
}

// undeclaredFlood declares a vocabulary that leaves out what it sends.
type undeclaredFlood struct{ Flood }

func (undeclaredFlood) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"rank"}}
}

// Every transition (every step of a walk) takes one kind of event; what a
// protocol declares and no run takes is listed, and so are the faults its
// configuration allows and no run takes.
func TestCoverage(t *testing.T) {
	cfg := model.Config{N: 3, Channels: model.Unordered, Crashes: 1}
	props := []*properties.Property{properties.Agreement}
	compile := func(p model.Protocol[FloodState, FloodMsg]) *checker.Machine {
		m, err := checker.Compile("flood", p, cfg, props...)
		require.NoError(t, err)
		return m
	}
	ex := checker.Exhaustive(context.Background(), compile(declaredFlood{}), checker.Options{})
	c := ex.Coverage
	require.Equal(t, "transitions", c.Unit)
	require.Equal(t, []string{"receive nack", "timeout late"}, c.Never)
	require.Empty(t, c.Undeclared)
	require.Equal(t, ex.Stats.Transitions, eventsTaken(c))
	require.Equal(t, []string{"receive msg", "crash"}, eventNames(c))

	r := checker.Random(context.Background(), compile(declaredFlood{}), checker.RandomOptions{Walks: 50, Seed: 1})
	require.Equal(t, "steps", r.Coverage.Unit)
	require.Equal(t, eventNames(c), eventNames(r.Coverage), "random walks take the same kinds")
	require.Equal(t, r.Stats.Transitions, eventsTaken(r.Coverage))

	un := checker.Exhaustive(context.Background(), compile(undeclaredFlood{}), checker.Options{})
	require.Equal(t, []string{"receive msg"}, un.Coverage.Undeclared)
	require.Equal(t, []string{"receive rank"}, un.Coverage.Never)

	plain := checker.Exhaustive(context.Background(), compile(Flood{}), checker.Options{})
	require.Empty(t, plain.Coverage.Never, "a protocol that declares nothing: only faults can be missed")
	require.Empty(t, plain.Coverage.Undeclared)
	require.Contains(t, plain.Coverage.String(), "events taken (transitions): receive msg ")
}

// With a crash allowed and none taken (runs that end before any), the
// coverage says so.
func TestCoverageNamesFaultsNeverTaken(t *testing.T) {
	m, err := checker.Compile("flood", Flood{}, model.Config{N: 2, Crashes: 1, Partitions: 1}, properties.Agreement)
	require.NoError(t, err)
	r := checker.Exhaustive(context.Background(), m, checker.Options{MaxDepth: 1})
	require.Contains(t, r.Coverage.Never, "heal", "a heal needs a partition first, two steps deep")
	require.NotContains(t, r.Coverage.Never, "crash")
}

func eventNames(c *checker.Coverage) []string {
	var names []string
	for _, e := range c.Events {
		names = append(names, e.Event)
	}
	return names
}

// eventsTaken is how many events the coverage counts in all, of every kind.
func eventsTaken(c *checker.Coverage) int64 {
	total := int64(0)
	for _, e := range c.Events {
		total += e.N
	}
	return total
}

// A search that ends at a fault covers only the steps it took: the
// faulting step changed nothing, and under a configuration without faults
// no fault is ever taken (a handler that panicked was once counted as a
// crash). An exhaustive search's coverage counts the transitions its stats
// count; the uniform and the swarm scheduler walk on different engines.
func TestCoverageOfAFaultingSearch(t *testing.T) {
	engines := []engine{
		exhaustiveEngine("exhaustive/workers=1", checker.Options{Workers: 1}),
		exhaustiveEngine("exhaustive/workers=2", checker.Options{Workers: 2}),
		randomEngine("random/uniform", checker.RandomOptions{Walks: 20, Seed: 1}),
		randomEngine("random/swarm", checker.RandomOptions{Walks: 20, Seed: 1, Scheduler: checker.Scheduler{Kind: "swarm"}}),
	}
	for _, fault := range []string{"receive-panic", "state-mutation", "timeout-panic", "monitor-panic"} {
		for _, e := range engines {
			t.Run(fault+"/"+e.name, func(t *testing.T) {
				m, err := checker.Compile("pingpong", pingPong{fault}, model.Config{N: 2, Timing: model.Async},
					quiet, watching(receipts{fault}))
				require.NoError(t, err)
				r := e.run(m)
				require.NotNil(t, r.Fault)
				require.Equal(t, []string{"receive msg"}, eventNames(r.Coverage), r.Coverage.String())
				if r.Mode == checker.ModeExhaustive {
					require.Equal(t, r.Stats.Transitions, eventsTaken(r.Coverage))
				}
			})
		}
	}
}
