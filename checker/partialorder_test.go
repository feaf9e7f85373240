package checker_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// raceKind is a message of raceToHub and of pingsForever: its kind is its text.
type raceKind string

func (m raceKind) Kind() string { return string(m) }

// raceToHub runs on a star of three nodes: n1 sends a and n2 sends b to the
// hub n0. A hub that hears a before b sends x to n1, which answers y, which
// changes nothing. So the runs where b comes first end a level or two
// earlier, in the same world: the search meets edges back, and message
// figures are taken on the state graph.
type raceToHub struct{}

type hubState struct{ GotA, GotB bool }

func (raceToHub) Init(ctx *model.Ctx[raceKind]) hubState {
	switch ctx.Self() {
	case 1:
		ctx.Send(0, "a")
	case 2:
		ctx.Send(0, "b")
	}
	return hubState{}
}

func (raceToHub) Receive(ctx *model.Ctx[raceKind], s hubState, _ model.NodeID, m raceKind) hubState {
	switch m {
	case "a":
		s.GotA = true
		ctx.Observe(model.Leader(1))
		if !s.GotB {
			ctx.Send(1, "x")
		}
	case "b":
		s.GotB = true
		ctx.Observe(model.Leader(2))
	case "x":
		ctx.Send(0, "y")
	}
	return s
}

func (raceToHub) Timeout(_ *model.Ctx[raceKind], s hubState, _ model.Timer) hubState { return s }
func (raceToHub) Recover(_ *model.Ctx[raceKind], s hubState) hubState                { return s }

var hubDone = properties.Quiescent("hub-done", "the hub heard a and b", func(v properties.View) string {
	if s := properties.StateOf[hubState](v, 0); !s.GotA || !s.GotB {
		return "the hub missed a message"
	}
	return ""
})

// figures are a search's message figures by kind, in the order of kinds.
func figures(r *checker.Result) []string {
	var out []string
	for _, m := range r.Messages {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// The message figures taken on a graph that partial order reduced are
// those of the full graph, counted by hand. The worlds, by what the hub
// heard and what is in flight: the start (a, b in flight); A (a heard, b
// and x in flight), where n1's step is taken alone, its sender n0 having
// x in flight to it; B (b heard, a in flight); Ax (a heard, b and y in
// flight); the end (both heard, nothing in flight); Axb and Axy (y, or b,
// still in flight). The full search also meets Ab (b taken before x): 8
// worlds and 10 steps, against 7 and 8. The runs that hear a first send
// a, b, x and y; those that hear b first, a and b.
func TestPartialOrderKeepsFiguresOnTheGraph(t *testing.T) {
	m, err := checker.Compile("race", raceToHub{}, model.Config{N: 3, Topology: "star"}, hubDone)
	require.NoError(t, err)
	want := []string{"a 1", "b 1", "total 2..4", "x 0..1", "y 0..1"}
	for _, tc := range []struct {
		name                string
		opt                 checker.Options
		states, transitions int64
		reduced             string
		graph               bool // the search kept the state graph
	}{
		{"the default: lean, then the graph", checker.Options{Messages: true}, 7, 8, "from 1 of 7 states", true},
		{"the graph from the start", checker.KeepGraph(checker.Options{Messages: true}), 7, 8, "from 1 of 7 states", true},
		{"no figures", checker.Options{}, 7, 8, "from 1 of 7 states", false},
		{"every step", checker.Options{Messages: true, Reduce: checker.ReduceNone}, 8, 10, "none: as asked", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := checker.Exhaustive(context.Background(), m, tc.opt)
			require.Equal(t, checker.Pass, r.Verdict)
			require.Equal(t, tc.states, r.Stats.States)
			require.Equal(t, tc.transitions, r.Stats.Transitions)
			require.Equal(t, int64(1), r.Stats.Quiescent)
			require.Equal(t, tc.graph, r.Stats.GraphBytes > 0)
			require.True(t, strings.HasSuffix(r.PartialOrder, tc.reduced), r.PartialOrder)
			if tc.opt.Messages {
				require.Equal(t, want, figures(r))
			} else {
				require.Nil(t, r.Messages)
			}
		})
	}
}

// The hub observes each of a and b; heardBoth counts what it observed.
var (
	hubHeard = properties.NewMonitor("hub-heard", func(*model.Config) int { return 0 },
		func(_ *model.Config, n int, _ model.NodeID, _ model.Obs) int { return n + 1 })
	heardBoth = properties.Sometimes("heard-both", "race", "the hub heard a and b", func(v properties.View) bool {
		return properties.MonitorState[int](v, hubHeard) == 2
	})
)

func init() { heardBoth.Monitor, heardBoth.MonitorOnly = hubHeard, true }

// A reduced search cut by a bound, whose run to a witness the full search
// for traces cannot reach within that bound, shows the run it found
// itself. The reduced search counts 1, 3, 5 and 7 worlds by level and
// meets the hub hearing both at depth 2 (through B), while the full one,
// 1, 3 and 6, is cut before its depth 2: at 6 worlds, the bound.
func TestPartialOrderCutSearchShowsItsOwnRun(t *testing.T) {
	m, err := checker.Compile("race", raceToHub{}, model.Config{N: 3, Topology: "star"}, heardBoth, hubDone)
	require.NoError(t, err)
	for _, opt := range []checker.Options{{Messages: true, MaxStates: 6}, checker.KeepGraph(checker.Options{Messages: true, MaxStates: 6})} {
		r := checker.Exhaustive(context.Background(), m, opt)
		require.Equal(t, checker.CutStates, r.Cut, "%+v", opt)
		require.Contains(t, r.PartialOrder, "partial order: ", "%+v", opt)
		w := r.Properties[0].Witness
		require.NotNil(t, w, "%+v", opt)
		require.Len(t, w.Events, 2, "%+v", opt)
	}
}

// pingsForever runs on the line n0 - n1 - n2: n0 and n1 pass a ping and a pong
// back and forth for ever, n0 counting pongs modulo 2, while n1's hello
// waits for n2, who observes its arrival. Until then n2 has heard nothing:
// an obligation that a fair run discharges, since hello stays deliverable.
// Where n0 has a pong in flight, its step may be taken alone; so the
// reduced graph's cycle of pings passes by a world where hello is put off,
// and on the reduced graph that cycle would look fair.
type pingsForever struct{}

type foreverState struct {
	Pongs int
	Heard bool
}

func (pingsForever) Init(ctx *model.Ctx[raceKind]) foreverState {
	switch ctx.Self() {
	case 0:
		ctx.Send(1, "ping")
	case 1:
		ctx.Send(2, "hello")
	}
	return foreverState{}
}

func (pingsForever) Receive(ctx *model.Ctx[raceKind], s foreverState, _ model.NodeID, m raceKind) foreverState {
	switch m {
	case "ping":
		ctx.Send(0, "pong")
	case "pong":
		s.Pongs = (s.Pongs + 1) % 2
		ctx.Send(1, "ping")
	case "hello":
		s.Heard = true
		ctx.Observe(model.Leader(1))
	}
	return s
}

func (pingsForever) Timeout(_ *model.Ctx[raceKind], s foreverState, _ model.Timer) foreverState {
	return s
}
func (pingsForever) Recover(_ *model.Ctx[raceKind], s foreverState) foreverState { return s }

var (
	helloHeard = properties.NewMonitor("hello", func(*model.Config) bool { return false },
		func(_ *model.Config, heard bool, node model.NodeID, _ model.Obs) bool { return heard || node == 2 })
	n2Hears = &properties.Property{Name: "n2-hears", When: properties.Eventually, Monitor: helloHeard, MonitorOnly: true,
		Doc: "n2 eventually hears hello",
		Pending: func(v properties.View) uint64 {
			if properties.MonitorState[bool](v, helloHeard) {
				return 0
			}
			return 1
		},
		Check: func(v properties.View) string {
			if properties.MonitorState[bool](v, helloHeard) {
				return ""
			}
			return "n2 has not heard hello"
		}}
)

// Eventually-properties are judged on cycles under fairness, which the
// reduced graph does not keep: a search whose reduced graph has a cycle
// searches again taking every step, says so, and passes n2-hears as the
// full search does (on the reduced graph, the cycle of pings would be a
// fair run on which n2 never hears).
func TestPartialOrderLeavesFairCyclesToTheFullSearch(t *testing.T) {
	m, err := checker.Compile("ping", pingsForever{}, model.Config{N: 3, Topology: "line"}, n2Hears)
	require.NoError(t, err)
	full := checker.Exhaustive(context.Background(), m, checker.Options{Messages: true, Reduce: checker.ReduceNone})
	require.Equal(t, checker.Pass, full.Verdict)
	for _, opt := range []checker.Options{{Messages: true}, {}, checker.KeepGraph(checker.Options{})} {
		r := checker.Exhaustive(context.Background(), m, opt)
		require.Equal(t, checker.Pass, r.Verdict, "%+v: %s", opt, r.Properties[0].Detail)
		require.Contains(t, r.PartialOrder, "none: eventually-properties are judged on cycles", "%+v", opt)
		require.Equal(t, full.Stats.States, r.Stats.States, "%+v", opt)
		require.Equal(t, full.Stats.Transitions, r.Stats.Transitions, "%+v", opt)
	}
}
