// Package round is the synchronous abstraction the synchronizers simulate:
// an algorithm written as a round function, run in lock-step pulses over
// an asynchronous network by any synchronizer (packages simple, alpha and
// beta beside this one), as the lecture notes Distributed Coordination:
// Leader Election (after H. Yu's CS4231, NUS, V. K. Garg's Elements of
// Distributed Computing and S. Ghosh's Distributed Systems) present it,
// section Synchronizers, after B. Awerbuch, Complexity of Network
// Synchronization (J. ACM 32(4), 1985).
//
// "A message sent in pulse i is received at pulse i+1", and "a process can
// go from pulse i to i+1 only when it has received and acted on all
// messages sent during pulse i-1". An Algorithm says what a node does in
// each pulse: Start is pulse 0, where the notes' initiate sends its first
// messages; Pulse(i) gets, by sender, the messages its neighbours sent it in
// pulse i-1, and sends those of pulse i. A run simulates pulses 1..Pulses;
// what the last pulse sends would be received in a pulse that never comes,
// so the synchronizers do not send it.
//
// Composing an algorithm with a synchronizer gives an ordinary protocol:
//
//	p := alpha.Over(bfs.Round{}) // a model.Protocol
//
// The synchronizers report what they simulate with observations of this
// package's kinds (Simulate does it for them, and a synchronizer of one's
// own should call it too): PulseOrder checks the notes' rule over them in
// every world, and AllPulses that every run ends with every node through
// every pulse.
package round

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
)

// Algorithm is a synchronous algorithm over node states S and messages M.
// Its functions are pure, as a protocol's handlers are: they must not
// mutate their input and report effects through ctx only.
type Algorithm[S, M any] interface {
	// Start is the node's state before pulse 1; it may send the messages
	// of pulse 0.
	Start(ctx *Ctx[M]) S
	// Pulse simulates pulse i ≥ 1: in holds the messages sent to this node
	// in pulse i-1, ordered by sender (a sender's own in the order they
	// arrived); it may send the messages of pulse i.
	Pulse(ctx *Ctx[M], s S, i int, in []In[M]) S
	// Pulses is how many pulses a run simulates.
	Pulses(env *model.Env) int
}

// In is a message received in a pulse, with its sender.
type In[M any] struct {
	From model.NodeID
	Msg  M
}

func (in In[M]) String() string { return fmt.Sprintf("%v:%v", in.From, in.Msg) }

// Ctx is handed to an algorithm's functions: the node's Env, and the
// messages it sends and the observations it reports, in order.
type Ctx[M any] struct {
	model.Env
	effects []effect[M]
}

type effect[M any] struct {
	send bool
	to   model.NodeID
	msg  M
	obs  model.Obs
}

// NewCtx returns a context for calling an algorithm directly, as a unit
// test does: node self of a run configured by cfg. Read its effects with
// Sent and Observed.
func NewCtx[M any](cfg model.Config, self model.NodeID) *Ctx[M] {
	return &Ctx[M]{Env: model.NewCtx[M](cfg, self).Env}
}

// Send sends m to neighbour to, for the next pulse. A synchronous algorithm
// talks to its neighbours only: a send to any other node, itself included,
// panics, a fault of the algorithm that the checker reports with its run.
func (c *Ctx[M]) Send(to model.NodeID, m M) {
	if to == c.Self() || !c.Adjacent(to) {
		// unreachable: a misuse by the round protocol, reported where it happens
		panic(fmt.Sprintf("round: %v sends to %v, which is not its neighbour", c.Self(), to))
	}
	c.effects = append(c.effects, effect[M]{send: true, to: to, msg: m})
}

// SendAll sends m to each node of to, in order.
func (c *Ctx[M]) SendAll(to []model.NodeID, m M) {
	for _, j := range to {
		c.Send(j, m)
	}
}

// Observe reports an observation for the properties to read.
func (c *Ctx[M]) Observe(o model.Obs) { c.effects = append(c.effects, effect[M]{obs: o}) }

// Sent returns the messages sent through c, in order (nil when none).
func (c *Ctx[M]) Sent() []model.Sent[M] {
	var out []model.Sent[M]
	for _, e := range c.effects {
		if e.send {
			out = append(out, model.Sent[M]{To: e.to, Msg: e.msg})
		}
	}
	return out
}

// Observed returns the observations reported through c, in order.
func (c *Ctx[M]) Observed() []model.Obs {
	var out []model.Obs
	for _, e := range c.effects {
		if !e.send {
			out = append(out, e.obs)
		}
	}
	return out
}

// Observation kinds the synchronizers report (through Simulate).
var (
	// ObsPulse: the node begins simulating pulse Arg (≥ 1; pulse 0 is
	// the start).
	ObsPulse = model.NewObsKind("pulse", nil)
	// ObsSend: in its current pulse the algorithm at the node sends a
	// message to node Arg.
	ObsSend = model.NewObsKind("pulse-send", func(arg int) string { return model.NodeID(arg).String() })
	// ObsTake: the synchronizer hands the algorithm at the node a message
	// node Arg sent it, as an input of the pulse it begins next.
	ObsTake = model.NewObsKind("pulse-take", func(arg int) string { return model.NodeID(arg).String() })
)

// PulseObs is the observation ObsPulse: the node begins pulse i.
func PulseObs(i int) model.Obs { return model.Obs{Kind: ObsPulse, Arg: i} }

// SendObs is the observation ObsSend: the algorithm sends a message to
// node to in its current pulse.
func SendObs(to model.NodeID) model.Obs { return model.Obs{Kind: ObsSend, Arg: int(to)} }

// TakeObs is the observation ObsTake: the synchronizer hands the algorithm
// a message that node from sent it.
func TakeObs(from model.NodeID) model.Obs { return model.Obs{Kind: ObsTake, Arg: int(from)} }

// Simulate runs pulse i of alg at the node of ctx, a synchronizer's
// context whatever its message type X: Start for pulse 0, else Pulse with
// in. It reports ObsTake for each message of in, ObsPulse (i ≥ 1), then
// ObsSend for each message the algorithm sends, and the algorithm's own
// observations, in the order it made them. It returns the next state and
// the messages for the synchronizer to carry to the next pulse; none after
// the last pulse, whose messages no pulse would receive.
func Simulate[S, M, X any](ctx *model.Ctx[X], alg Algorithm[S, M], s S, i int, in []In[M]) (S, []model.Sent[M]) {
	rc := &Ctx[M]{Env: ctx.Env}
	if i == 0 {
		s = alg.Start(rc)
	} else {
		for _, m := range in {
			ctx.Observe(TakeObs(m.From))
		}
		ctx.Observe(PulseObs(i))
		s = alg.Pulse(rc, s, i, in)
	}
	last := i >= alg.Pulses(&ctx.Env)
	var out []model.Sent[M]
	for _, e := range rc.effects {
		switch {
		case !e.send:
			ctx.Observe(e.obs)
		case !last:
			ctx.Observe(SendObs(e.to))
			out = append(out, model.Sent[M]{To: e.to, Msg: e.msg})
		}
	}
	return s, out
}
