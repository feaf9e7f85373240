package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// cutProtocol: node 0 may always ping node 1, changing nothing of its
// own; the watcher may, once, arm a timer waiting on the other node.
type cutProtocol struct {
	script
	watcher model.NodeID
}

func (p cutProtocol) Actions(env *model.Env, s tstate) []model.Action {
	var acts []model.Action
	if env.Self() == 0 {
		acts = append(acts, "ping")
	}
	if env.Self() == p.watcher && s.Count == 0 {
		acts = append(acts, "watch")
	}
	return acts
}

func (cutProtocol) Do(ctx *model.Ctx[tmsg], s tstate, a model.Action) tstate {
	if a == "ping" {
		ctx.Send(1, tmsg{1})
		return s
	}
	other := 1 - ctx.Self()
	ctx.SetTimer(fmt.Sprintf("on%d", other), other)
	s.Count++
	return s
}

// A ping lost to a cut stutters until node 1 watches node 0: then it
// would expire node 1's timer, and it is enabled.
func TestWalkerFollowsTimersAcrossACut(t *testing.T) {
	m, err := sim.Compile("cut", cutProtocol{watcher: 1}, model.Config{N: 2, Partitions: 1})
	require.NoError(t, err)
	enablesAsAStepper(t, m, 6)
}

// A ping lost to a cut stutters until node 0 watches node 1: then it
// would expire node 0's own timer, which the ping leaves alone, and it
// is enabled.
func TestWalkerExpiresTheSendersTimerAcrossACut(t *testing.T) {
	m, err := sim.Compile("sender-cut", cutProtocol{watcher: 0}, model.Config{N: 2, Partitions: 1})
	require.NoError(t, err)
	enablesAsAStepper(t, m, 6)
}

// A timeout that only disarms its timer (and cancels one never armed)
// changes the world; one that also arms its timer again as it was does
// not.
func TestWalkerTellsStuttersFromSteps(t *testing.T) {
	p := script{
		init: func(ctx *model.Ctx[tmsg]) tstate {
			ctx.SetTimer("once")
			ctx.SetTimer("poll", 1)
			return tstate{}
		},
		timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
			ctx.CancelTimer("never")
			if tm == "poll" {
				ctx.SetTimer("poll", 1)
			}
			return s
		},
	}
	m, err := sim.Compile("stutter", p, model.Config{N: 2, Crashes: 1})
	require.NoError(t, err)
	enablesAsAStepper(t, m, 4)
}

// enablesAsAStepper takes every run of up to depth events on a Stepper
// and on a Walker, which must enable the same events after each step
// (EnabledAll), agree on which stutter, and count as many that move.
func enablesAsAStepper(t *testing.T, m *sim.Machine, depth int) {
	t.Helper()
	var runs int
	var visit func(run []int)
	visit = func(run []int) {
		st, lw := m.NewStepper(), m.NewWalker()
		w, _ := st.Init()
		lw.Start(nil)
		var evs []sim.Event
		for _, k := range run {
			evs, _, _ = st.EnabledAll(w, evs[:0], nil)
			lw.Enabled()
			w, _ = st.Apply(w, evs[k], nil)
			require.True(t, lw.Take(k), "%v taken after %v", evs[k], run)
		}
		evs, nproto, stut := st.EnabledAll(w, evs[:0], nil)
		total, nproto2 := lw.Enabled()
		require.Equal(t, [2]int{len(evs), nproto}, [2]int{total, nproto2}, "events enabled after %v: %v", run, evs)
		moving := 0
		for _, s := range stut[:nproto] {
			if !s {
				moving++
			}
		}
		require.Equal(t, moving, lw.Moving(len(evs)+1), "events that move after %v: %v %v", run, evs, stut)
		// each that stutters is turned down, until the next step
		for k := nproto - 1; k >= 0; k-- {
			if stut[k] {
				require.False(t, lw.Take(k), "%v taken after %v", evs[k], run)
				total--
				now, _ := lw.Enabled()
				require.Equal(t, total, now, "events enabled after %v and %v turned down", run, evs[k])
			}
		}
		runs++
		if len(run) < depth {
			for k := range evs {
				if k < nproto && stut[k] || k >= nproto && moving == 0 && nproto > 0 {
					continue // not taken: see Walker.Take
				}
				visit(append(run[:len(run):len(run)], k))
			}
		}
	}
	visit(nil)
	require.Greater(t, runs, 10)
}

// inPlaceLog is logMonitor updated in place by a walk; its Start hands
// out one shared slice with room to grow, which a walk must not write
// into. skip makes ObserveInPlace drop what Observe keeps.
type inPlaceLog struct {
	logMonitor
	skip bool
}

var sharedLog = make([]string, 0, 8)

func (inPlaceLog) Start(*model.Config) any { return sharedLog }

func (m inPlaceLog) ObserveInPlace(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	if m.skip {
		return st
	}
	return append(st.([]string), fmt.Sprintf("%v %v", node, o))
}

// perNode counts each node's observations, in place where it may: its
// Start builds its state afresh at every call, so a walk may start from
// it as it is, but not from an earlier walk's.
type perNode struct{}

func (perNode) Name() string              { return "per-node" }
func (perNode) Start(c *model.Config) any { return make([]int, c.N) }
func (perNode) Observe(_ *model.Config, st any, node model.NodeID, _ model.Obs) any {
	out := slices.Clone(st.([]int))
	out[node]++
	return out
}
func (perNode) ObserveInPlace(_ *model.Config, st any, node model.NodeID, _ model.Obs) any {
	st.([]int)[node]++
	return st
}

// A Walker updates an InPlaceMonitor's state in place, on a copy of what
// Start returned (or on what a Start that shares nothing returned), and
// each walk starts afresh.
func TestWalkerObservesInPlace(t *testing.T) {
	for _, c := range []struct {
		mon  model.Monitor
		want any
	}{
		{inPlaceLog{}, []string{"n0 leader=n0", "n1 leader=n0"}},
		{perNode{}, []int{1, 1}},
	} {
		m, err := sim.Compile("in-place", observingProtocol(), model.Config{N: 2}, c.mon)
		require.NoError(t, err)
		lw := m.NewWalker()
		for range 3 {
			lw.Start(nil)
			total, _ := lw.Enabled()
			require.Equal(t, 1, total)
			lw.Take(0)
			require.Nil(t, lw.Fault())
			require.Equal(t, c.want, lw.Monitor(c.mon), "%T", c.mon)
		}
	}
	require.Empty(t, sharedLog[:cap(sharedLog)][0], "the walk wrote into the state Start returned")
}

// An ObserveInPlace that parts from Observe is a fault of the monitor.
func TestWalkerReportsAnInPlaceMonitorThatDiffers(t *testing.T) {
	m, err := sim.Compile("in-place", observingProtocol(), model.Config{N: 2}, inPlaceLog{skip: true})
	require.NoError(t, err)
	lw := m.NewWalker()
	lw.Start(nil)
	f := lw.Fault()
	require.NotNil(t, f)
	require.Equal(t, "log", f.Monitor)
	require.Contains(t, f.Error(), "from ObserveInPlace where Observe returns [n0 leader=n0]")
}

// Under Bounded timing, node 0 sends one message, and the same again a
// tick later: two copies of one content, of different ages, are two
// deliveries, youngest first, and a tick waits while the older is as old
// as the delay bound. Timers armed with SetTimerAfter count ticks down.
func TestWalkerAgesMessagesAndCountsTicks(t *testing.T) {
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.Send(1, tmsg{1})
			ctx.SetTimerAfter("again", 1)
		}),
		timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
			ctx.Send(1, tmsg{1})
			if s.Count++; s.Count < 2 {
				ctx.SetTimerAfter("again", 2)
			}
			return s
		},
	}
	for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
		for _, delay := range []int{1, 2} {
			m, err := sim.Compile("ages", p, model.Config{N: 2, Channels: ch, Timing: model.Bounded, Delay: delay})
			require.NoError(t, err)
			enablesAsAStepper(t, m, 7)
		}
	}
}
