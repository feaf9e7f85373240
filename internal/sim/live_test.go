package sim_test

import (
	"fmt"
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
// and on a Walker, which must enable the same events after each step.
func enablesAsAStepper(t *testing.T, m *sim.Machine, depth int) {
	t.Helper()
	var runs int
	var visit func(run []int)
	visit = func(run []int) {
		st, lw := m.NewStepper(), m.NewWalker()
		w, _ := st.Init()
		lw.Start()
		var evs []sim.Event
		for _, k := range run {
			evs, _ = st.Enabled(w, evs[:0])
			lw.Enabled()
			w, _ = st.Apply(w, evs[k], nil)
			lw.Take(k)
		}
		evs, nproto := st.Enabled(w, evs[:0])
		total, nproto2 := lw.Enabled()
		require.Equal(t, [2]int{len(evs), nproto}, [2]int{total, nproto2}, "events enabled after %v: %v", run, evs)
		runs++
		if len(run) < depth {
			for k := range evs {
				visit(append(run[:len(run):len(run)], k))
			}
		}
	}
	visit(nil)
	require.Greater(t, runs, 10)
}
