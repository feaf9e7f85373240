// Package abd is the asynchronous bounded delay (ABD) synchronizer of the
// lecture notes Distributed Coordination: Leader Election (after H. Yu's
// CS4231, NUS, V. K. Garg's Elements of Distributed Computing and S.
// Ghosh's Distributed Systems), section Synchronizers: "each process will
// start the simulation of a new clock tick after 2d time units, where d is
// the maximum propagation delay of each channel". It sends no control
// messages at all: it trusts the clock.
//
// It needs a run with bounded-delay timing (model.Bounded, -timing
// bounded:D, D the network's true bound) and the delay d it assumes, the
// run parameter "abd-delay" (default 1). Pulse 0 is the algorithm's start,
// at Init; every node then arms a timer for 2d ticks, and when it fires
// simulates the next pulse on the messages of the pulse before that it has
// received, sends the new pulse's messages and arms the timer again. Every
// node starts at tick 0 and every timer is exact, so the nodes' pulses stay
// in step: a message sent at the start of pulse i arrives within D ticks,
// and pulse i+1 starts 2d ticks after pulse i. A message D ticks old and
// the clock that starts the next pulse are due at the same tick, in either
// order, so the simulation is right exactly while D < 2d: with the d the
// notes assume, D = d, it is; on a network whose bound exceeds d = 1 it is
// not, and a message arrives after the pulse that should have taken it,
// which pulse-order (package round) reports. (The notes' 2d leaves room for
// clocks d apart; this model's clocks agree, so D up to 2d-1 is absorbed.)
package abd

import (
	"fmt"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// DelayParam is the run parameter for the delay d the synchronizer
// assumes, in ticks.
const DelayParam = "abd-delay"

// Msg is an algorithm's message, with the pulse it was sent in.
type Msg[M any] struct {
	Pulse   int
	Payload M
}

func (m Msg[M]) Kind() string { return "message" }

func (m Msg[M]) String() string { return fmt.Sprintf("(%d)%+v", m.Pulse, m.Payload) }

// State is a node's synchronizer state around the algorithm's.
type State[S, M any] struct {
	Pulse int // the last pulse simulated: 0 after the start
	Alg   S
	Buf   []round.Received[M] // received, not yet simulated, by pulse and sender
}

func (s State[S, M]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pulse %d", s.Pulse)
	for _, r := range s.Buf {
		fmt.Fprintf(&b, " %v:%v", r.From, Msg[M]{Pulse: r.Pulse, Payload: r.Msg})
	}
	fmt.Fprintf(&b, " | %+v", s.Alg)
	return b.String()
}

// Clock is the timer that starts the next pulse.
type Clock struct{}

func (Clock) String() string { return "clock" }

// Protocol is alg run over the ABD synchronizer: a model.Protocol.
type Protocol[S, M any] struct{ Alg round.Algorithm[S, M] }

// Over returns the protocol that runs alg over the ABD synchronizer.
func Over[S, M any](alg round.Algorithm[S, M]) Protocol[S, M] { return Protocol[S, M]{alg} }

// Validate rejects a run the synchronizer cannot keep time in.
func Validate(cfg model.Config) error {
	if cfg.Timing != model.Bounded {
		return fmt.Errorf("the ABD synchronizer counts time: it needs bounded timing (-timing bounded:D), not %v", cfg.Timing)
	}
	if d := cfg.Param(DelayParam, 1); d < 1 {
		return fmt.Errorf("%s must be at least 1 tick, not %d", DelayParam, d)
	}
	return nil
}

func wait(env *model.Env) int { return 2 * env.Param(DelayParam, 1) }

// Init simulates pulse 0 (the algorithm's start), sends its messages and
// starts the clock.
func (p Protocol[S, M]) Init(ctx *model.Ctx[Msg[M]]) State[S, M] {
	return p.simulate(ctx, State[S, M]{}, nil)
}

// Receive keeps a message for the pulse that takes it.
func (Protocol[S, M]) Receive(_ *model.Ctx[Msg[M]], s State[S, M], from model.NodeID, m Msg[M]) State[S, M] {
	s.Buf = round.Keep(s.Buf, round.Received[M]{Pulse: m.Pulse, From: from, Msg: m.Payload})
	return s
}

// Timeout: 2d ticks have passed since the last pulse began: simulate the
// next on the messages of the last that are in, send its messages, and
// start the clock again unless it was the last pulse.
func (p Protocol[S, M]) Timeout(ctx *model.Ctx[Msg[M]], s State[S, M], _ model.Timer) State[S, M] {
	var in []round.In[M]
	in, s.Buf = round.Take(s.Buf, s.Pulse) // a late message of an earlier pulse stays, unread
	s.Pulse++
	return p.simulate(ctx, s, in)
}

// simulate runs pulse s.Pulse on in and, unless it is the last, sends its
// messages and starts the clock for the next.
func (p Protocol[S, M]) simulate(ctx *model.Ctx[Msg[M]], s State[S, M], in []round.In[M]) State[S, M] {
	var out []model.Sent[M]
	s.Alg, out = round.Simulate(ctx, p.Alg, s.Alg, s.Pulse, in)
	if s.Pulse < p.Alg.Pulses(&ctx.Env) {
		send(ctx, s.Pulse, out)
		ctx.SetTimerAfter(Clock{}, wait(&ctx.Env))
	}
	return s
}

func send[M any](ctx *model.Ctx[Msg[M]], i int, out []model.Sent[M]) {
	for _, o := range out {
		ctx.Send(o.To, Msg[M]{Pulse: i, Payload: o.Msg})
	}
}

// Vocabulary declares the kinds of messages, timers and actions the
// protocol's nodes take, for event coverage.
func (Protocol[S, M]) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"message"}, Timers: []string{"clock"}}
}
