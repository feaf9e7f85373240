package abd_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/abd"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

type (
	st   = abd.State[bfs.State, bfs.Msg]
	msg  = abd.Msg[bfs.Msg]
	step = checktest.Step[st, msg]
)

// The ABD synchronizer's steps, as the notes give them: start the clock
// for 2d ticks after pulse 0, keep what arrives, and when the clock fires
// simulate the next pulse on the last pulse's messages, send, and start the
// clock again until the last pulse.
func TestABD(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line", Timing: model.Bounded, Delay: 1, Params: map[string]int{abd.DelayParam: 2}}
	require.NoError(t, cfg.Validate())
	handlers := checktest.Handlers[st, msg]{Protocol: abd.Over(bfs.Round{}), Config: cfg}
	clock := []checktest.TimerEffect{{Timer: abd.Clock{}, Armed: true, Ticks: 4}} // 2d ticks
	invite := func(pulse, level int) msg { return msg{Pulse: pulse, Payload: bfs.Msg{Level: level}} }
	orphan := bfs.State{Parent: model.None}
	kept := st{Alg: orphan, Buf: []round.Received[bfs.Msg]{{Pulse: 0, From: 0, Msg: bfs.Msg{Level: 1}}}}

	handlers.Init(t, []step{
		{Name: "the root invites its neighbour in pulse 0", Self: 0, Want: st{Alg: bfs.State{Parent: 0}},
			Sent: checktest.SentTo(invite(0, 1), 1), Timers: clock, Observed: []model.Obs{bfs.Parent(0, 0), round.SendObs(1)}},
		{Name: "another node sends nothing in pulse 0", Self: 1, Want: st{Alg: orphan}, Timers: clock},
	})
	handlers.Receive(t, []step{
		{Name: "kept until the clock fires", Self: 1, In: st{Alg: orphan}, From: 0, Msg: invite(0, 1), Want: kept},
	})
	handlers.Timeout(t, []step{
		{Name: "pulse 1 takes the invite and passes it on", Self: 1, In: kept, Timer: abd.Clock{},
			Want: st{Pulse: 1, Alg: bfs.State{Parent: 0, Level: 1}}, Sent: checktest.SentTo(invite(1, 2), 2), Timers: clock,
			Observed: []model.Obs{round.TakeObs(0), round.PulseObs(1), bfs.Parent(0, 1), round.SendObs(2)}},
		{Name: "the last pulse (N = 3) sends nothing and leaves the clock stopped", Self: 2,
			In: st{Pulse: 2, Alg: bfs.State{Parent: 1, Level: 2}}, Timer: abd.Clock{},
			Want: st{Pulse: 3, Alg: bfs.State{Parent: 1, Level: 2}}, Observed: []model.Obs{round.PulseObs(3)}},
	})

	require.ErrorContains(t, abd.Validate(model.Config{N: 2}), "needs bounded timing")
}
