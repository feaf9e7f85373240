package regress

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// Random walks find the unreliable-detector counterexample of bully at
// N = 20, and the walk replays from its seed alone, event for event.
func TestRandomFindsBullyAsyncAndReplaysFromSeed(t *testing.T) {
	t.Parallel()
	cfg := model.Config{N: 20, Crashes: 1, Timing: model.Async}
	props := []string{"unique-leader"}
	r := randomRun(t, "bully", cfg, props, checker.RandomOptions{Walks: 200, Seed: 42})
	pr := r.Property("unique-leader")
	require.Equal(t, checker.Fail, pr.Verdict)
	require.NotNil(t, pr.Counterexample.Seed)
	// shrunk to the essence: one answer timer firing while a higher node
	// that leads is alive
	require.Len(t, pr.Counterexample.Events, 1)
	require.Equal(t, "timeout", pr.Counterexample.Events[0].Kind)

	again := randomRun(t, "bully", cfg, props, checker.RandomOptions{Walks: 1, Seed: *pr.Counterexample.Seed, Workers: 1})
	pr2 := again.Property("unique-leader")
	require.Equal(t, checker.Fail, pr2.Verdict)
	require.Equal(t, pr.Counterexample.Events, pr2.Counterexample.Events)
	require.Equal(t, pr.Detail, pr2.Detail)
}

// At N = 50 the correct protocols raise no false alarm, and the messages
// of every walk match the figures of the Leader Election notes.
func TestRandomLargeRings(t *testing.T) {
	t.Parallel()
	const n = 50
	cases := []struct {
		protocol string
		ranks    string
		kind     string
		want     int
	}{
		{"changroberts", "sorted", "election", 2*n - 1},
		{"changroberts", "reverse", "election", n * (n + 1) / 2},
		{"lelann", "random:3", "token", n * n},
	}
	for _, c := range cases {
		ranks, err := model.ParseRanks(c.ranks, n)
		require.NoError(t, err)
		r := randomRun(t, c.protocol, model.Config{N: n, Ranks: ranks}, nil, checker.RandomOptions{Walks: 200, Seed: 1})
		require.Equal(t, checker.Pass, r.Verdict, "%s %s", c.protocol, c.ranks)
		require.Equal(t, 200, r.Stats.Walks)
		m := checktest.Messages(t, r, c.kind)
		require.Equal(t, c.want, m.Min, "%s %s", c.protocol, c.ranks)
		require.Equal(t, c.want, m.Max, "%s %s", c.protocol, c.ranks)
	}
	// bully with a perfect detector survives a crash at N = 50
	r := randomRun(t, "bully", model.Config{N: n, Crashes: 1}, nil, checker.RandomOptions{Walks: 30, Seed: 1})
	require.Equal(t, checker.Pass, r.Verdict)
	require.Positive(t, r.Stats.Quiescent)
}

// The random engine's outcome depends on the options only, not on how many
// workers ran the walks.
func TestRandomDeterministicAcrossWorkers(t *testing.T) {
	t.Parallel()
	cfg := model.Config{N: 6, Crashes: 1, Timing: model.Async}
	a := randomRun(t, "bully", cfg, []string{"unique-leader", "agreement"}, checker.RandomOptions{Walks: 300, Seed: 9, Workers: 1})
	b := randomRun(t, "bully", cfg, []string{"unique-leader", "agreement"}, checker.RandomOptions{Walks: 300, Seed: 9, Workers: 2})
	require.Equal(t, a.Properties, b.Properties)
	require.Equal(t, a.Stats.Transitions, b.Stats.Transitions)
}

// The ring algorithms of Vlassov and Montelius and of Silberschatz et al. at
// N = 30: a thousand walks raise no false alarm, with their message counts
// in every walk; with a crash, which they do not tolerate, they stay safe
// (their termination is lost, as the crash scenarios record).
func TestRandomRingAlgorithmsAtN30(t *testing.T) {
	t.Parallel()
	const n = 30
	cases := []struct {
		protocol, kind string
		want           int
	}{
		{"ringbased", "total", 3*n - 1}, // one initiator, its predecessor highest
		{"activelist", "elect", n * n},
	}
	for _, c := range cases {
		p, err := protocols.Lookup(c.protocol)
		require.NoError(t, err)
		init := make([]bool, n)
		init[0] = true
		r := randomRun(t, c.protocol, model.Config{N: n, Initiators: init}, nil, checker.RandomOptions{Walks: 1000, Seed: 1})
		require.Equal(t, checker.Pass, r.Verdict, c.protocol)
		require.Len(t, r.Properties, len(p.Claims), c.protocol)
		m := checktest.Messages(t, r, c.kind)
		require.Equal(t, [2]int{c.want, c.want}, [2]int{m.Min, m.Max}, c.protocol)

		r = randomRun(t, c.protocol, model.Config{N: n, Initiators: init, Crashes: 1}, []string{"unique-leader", "agreement"}, checker.RandomOptions{Walks: 1000, Seed: 1})
		require.Equal(t, checker.Pass, r.Verdict, "%s with a crash", c.protocol)
		require.Equal(t, 1000, r.Stats.Walks)
	}
}
