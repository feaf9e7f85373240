package sim_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

// tmsg and tstate are the test protocols' plain message and state types.
type tmsg struct{ V int }

type tstate struct {
	Got       []int    // values received, in order
	Fired     []string // timers that fired, in order
	Count     int      // local actions done
	Recovered int      // recoveries
	Before    []int    // Got as it was when the node crashed (set by Recover)
	M         map[string]int
}

// script is a protocol whose handlers are given per test; a nil handler
// takes the default: Init does nothing, Receive records the value, Timeout
// records the timer, Recover counts and remembers what was received before
// the crash.
type script struct {
	init    func(ctx *model.Ctx[tmsg]) tstate
	receive func(ctx *model.Ctx[tmsg], s tstate, from model.NodeID, m tmsg) tstate
	timeout func(ctx *model.Ctx[tmsg], s tstate, t model.Timer) tstate
	recover func(ctx *model.Ctx[tmsg], s tstate) tstate
}

// n0Starts is an Init under which n0 does what start says and every other
// node starts with nothing to do: most scripts are set going by n0.
func n0Starts(start func(ctx *model.Ctx[tmsg])) func(*model.Ctx[tmsg]) tstate {
	return func(ctx *model.Ctx[tmsg]) tstate {
		if ctx.Self() == 0 {
			start(ctx)
		}
		return tstate{}
	}
}

func (p script) Init(ctx *model.Ctx[tmsg]) tstate {
	if p.init != nil {
		return p.init(ctx)
	}
	return tstate{}
}

func (p script) Receive(ctx *model.Ctx[tmsg], s tstate, from model.NodeID, m tmsg) tstate {
	if p.receive != nil {
		return p.receive(ctx, s, from, m)
	}
	// Interned states have cap == len, so this append copies.
	s.Got = append(s.Got, m.V)
	return s
}

func (p script) Timeout(ctx *model.Ctx[tmsg], s tstate, t model.Timer) tstate {
	if p.timeout != nil {
		return p.timeout(ctx, s, t)
	}
	s.Fired = append(s.Fired, t.(string))
	return s
}

func (p script) Recover(ctx *model.Ctx[tmsg], s tstate) tstate {
	if p.recover != nil {
		return p.recover(ctx, s)
	}
	return tstate{Recovered: s.Recovered + 1, Before: slices.Clone(s.Got)}
}

// harness drives one Machine by event descriptions such as
// "deliver n0→n1 {V:1}", "timeout n0 t", "action n0 inc", "crash n1",
// "recover n1".
type harness struct {
	m  *sim.Machine
	st *sim.Stepper
}

func compile(t *testing.T, p model.Protocol[tstate, tmsg], cfg model.Config, mons ...model.Monitor) (harness, sim.World) {
	t.Helper()
	m, err := sim.Compile("test", p, cfg, mons...)
	require.NoError(t, err)
	h := harness{m: m, st: m.NewStepper()}
	w, steps := h.st.Init()
	require.Len(t, steps, cfg.N)
	return h, w
}

func (h harness) describe(w sim.World, ev sim.Event) string {
	switch ev.Kind {
	case sim.Deliver:
		return fmt.Sprintf("deliver %v→%v %s", ev.From, ev.Node, h.m.FormatMsg(ev.Arg))
	case sim.Timeout:
		return fmt.Sprintf("timeout %v %v", ev.Node, h.m.TimerName(ev.Arg))
	case sim.Act:
		return fmt.Sprintf("action %v %v", ev.Node, h.m.ActionName(ev.Node, h.st.NodeState(w, ev.Node), ev.Arg))
	case sim.Partition:
		return fmt.Sprintf("partition %v..%v", ev.Node, ev.From)
	case sim.Heal:
		return "heal"
	case sim.Lose:
		return fmt.Sprintf("lose %v→%v %s", ev.From, ev.Node, h.m.FormatMsg(h.st.LostMessage(w, ev)))
	case sim.Duplicate:
		return fmt.Sprintf("duplicate %v→%v %s", ev.From, ev.Node, h.m.FormatMsg(ev.Arg))
	}
	return fmt.Sprintf("%v %v", ev.Kind, ev.Node)
}

// events describes the protocol events and the faults enabled in w.
func (h harness) events(w sim.World) (proto, faults []string) {
	evs, n := h.st.Enabled(w, nil)
	for i, ev := range evs {
		d := h.describe(w, ev)
		if i < n {
			proto = append(proto, d)
		} else {
			faults = append(faults, d)
		}
	}
	return proto, faults
}

// timeouts lists the timeouts enabled in w.
func (h harness) timeouts(w sim.World) []string {
	var out []string
	evs, _ := h.st.Enabled(w, nil)
	for _, ev := range evs {
		if ev.Kind == sim.Timeout {
			out = append(out, h.describe(w, ev))
		}
	}
	return out
}

// do applies the enabled event described by desc; it must be enabled once.
func (h harness) do(t *testing.T, w sim.World, desc string) sim.World {
	t.Helper()
	evs, _ := h.st.Enabled(w, nil)
	var found []sim.Event
	for _, ev := range evs {
		if h.describe(w, ev) == desc {
			found = append(found, ev)
		}
	}
	proto, faults := h.events(w)
	require.Len(t, found, 1, "%q among the enabled events %v %v", desc, proto, faults)
	next, _ := h.st.Apply(w, found[0], nil)
	return next
}

func (h harness) state(w sim.World, i model.NodeID) tstate {
	return h.m.StateValue(h.st.NodeState(w, i)).(tstate)
}

// inFlight describes the messages in flight, in the World's order.
func (h harness) inFlight(w sim.World) []string {
	var out []string
	for _, mw := range h.st.Msgs(w) {
		out = append(out, fmt.Sprintf("n%d→n%d %s", mw>>48, mw>>32&0xffff, h.m.FormatMsg(uint32(mw))))
	}
	return out
}

func TestDeliveryOrder(t *testing.T) {
	// n0 sends {7} to n2 first, so that {7} is interned before {8}; n2 then
	// sends {8} and {7} to n1, against the order of their ids; n0 sends {1}
	// and {2} to n1.
	p := script{init: func(ctx *model.Ctx[tmsg]) tstate {
		switch ctx.Self() {
		case 0:
			ctx.Send(2, tmsg{7})
			ctx.Send(1, tmsg{1})
			ctx.Send(1, tmsg{2})
		case 2:
			ctx.Send(1, tmsg{8})
			ctx.Send(1, tmsg{7})
		}
		return tstate{}
	}}
	cases := []struct {
		channels model.Channels
		enabled  []string
	}{
		{model.FIFO, []string{"deliver n0→n1 {V:1}", "deliver n0→n2 {V:7}", "deliver n2→n1 {V:8}"}},
		{model.Unordered, []string{"deliver n0→n1 {V:1}", "deliver n0→n1 {V:2}", "deliver n0→n2 {V:7}",
			"deliver n2→n1 {V:8}", "deliver n2→n1 {V:7}"}},
	}
	for _, c := range cases {
		t.Run(c.channels.String(), func(t *testing.T) {
			h, w := compile(t, p, model.Config{N: 3, Channels: c.channels})
			proto, faults := h.events(w)
			require.ElementsMatch(t, c.enabled, proto)
			require.Empty(t, faults)
			require.Len(t, h.st.Msgs(w), 5)

			// Drain n2→n1 in send order: always possible.
			w2 := h.do(t, w, "deliver n2→n1 {V:8}")
			w2 = h.do(t, w2, "deliver n2→n1 {V:7}")
			require.Equal(t, []int{8, 7}, h.state(w2, 1).Got)

			if c.channels == model.FIFO {
				// the second message of a channel waits for the first
				w1 := h.do(t, w, "deliver n0→n1 {V:1}")
				proto, _ := h.events(w1)
				require.Contains(t, proto, "deliver n0→n1 {V:2}")
				return
			}
			// unordered: the later message may overtake
			w3 := h.do(t, w, "deliver n2→n1 {V:7}")
			w3 = h.do(t, w3, "deliver n0→n1 {V:2}")
			w3 = h.do(t, w3, "deliver n0→n1 {V:1}")
			require.Equal(t, []int{7, 2, 1}, h.state(w3, 1).Got)
			require.Equal(t, []string{"n2→n1 {V:8}"}, h.inFlight(w3)[1:])
		})
	}
}

// Identical messages in flight on one channel are one delivery event, and
// each delivery takes one copy.
func TestIdenticalMessagesOfferedOnce(t *testing.T) {
	p := script{init: n0Starts(func(ctx *model.Ctx[tmsg]) {
		ctx.SendAll([]model.NodeID{1, 1}, tmsg{5})
		ctx.Send(1, tmsg{6})
		ctx.Send(1, tmsg{5})
	})}
	for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
		t.Run(ch.String(), func(t *testing.T) {
			h, w := compile(t, p, model.Config{N: 2, Channels: ch})
			require.Len(t, h.st.Msgs(w), 4)
			proto, _ := h.events(w)
			if ch == model.FIFO {
				require.Equal(t, []string{"deliver n0→n1 {V:5}"}, proto)
			} else {
				require.ElementsMatch(t, []string{"deliver n0→n1 {V:5}", "deliver n0→n1 {V:6}"}, proto)
			}
			w = h.do(t, w, "deliver n0→n1 {V:5}")
			require.Len(t, h.st.Msgs(w), 3)
			w = h.do(t, w, "deliver n0→n1 {V:5}")
			require.Len(t, h.st.Msgs(w), 2)
			proto, _ = h.events(w)
			if ch == model.FIFO {
				require.Equal(t, []string{"deliver n0→n1 {V:6}"}, proto, "the third 5 was sent after the 6")
			} else {
				require.ElementsMatch(t, []string{"deliver n0→n1 {V:5}", "deliver n0→n1 {V:6}"}, proto, "one 5 left")
			}
			w = h.do(t, w, "deliver n0→n1 {V:6}")
			w = h.do(t, w, "deliver n0→n1 {V:5}")
			require.Equal(t, []int{5, 5, 6, 5}, h.state(w, 1).Got)
			proto, faults := h.events(w)
			require.Empty(t, proto)
			require.Empty(t, faults)
		})
	}
}

// Under Sync timing a timer waits until every node it waits on has crashed
// and nothing from them to its node is in flight; under Async any armed
// timer may fire.
func TestTimers(t *testing.T) {
	// n0 arms on1 (waits on n1), on12 (on n1 and n2) and free (on no one).
	// n1 sends to n0 and n3; n2 and n3 send to n0.
	p := script{init: func(ctx *model.Ctx[tmsg]) tstate {
		switch ctx.Self() {
		case 0:
			ctx.SetTimer("on1", 1)
			ctx.SetTimer("on12", 2, 1)
			ctx.SetTimer("free")
		case 1:
			ctx.Send(0, tmsg{1})
			ctx.Send(3, tmsg{1})
		default:
			ctx.Send(0, tmsg{int(ctx.Self())})
		}
		return tstate{}
	}}
	t.Run("sync", func(t *testing.T) {
		h, w := compile(t, p, model.Config{N: 4, Timing: model.Sync, Crashes: 2})
		// every waited-on node alive: only the timer without waitOn, in
		// spite of the messages in flight to n0
		require.Equal(t, []string{"timeout n0 free"}, h.timeouts(w))

		w = h.do(t, w, "crash n1")
		require.False(t, h.st.Alive(w, 1))
		// n1 crashed, but its message to n0 is in flight: not yet
		require.Contains(t, h.inFlight(w), "n1→n0 {V:1}")
		require.Equal(t, []string{"timeout n0 free"}, h.timeouts(w))

		w = h.do(t, w, "deliver n1→n0 {V:1}")
		// nothing from n1 to n0 any more (n1→n3 and n3→n0 do not matter);
		// on12 still waits on the live n2
		require.Contains(t, h.inFlight(w), "n1→n3 {V:1}")
		require.Contains(t, h.inFlight(w), "n3→n0 {V:3}")
		require.ElementsMatch(t, []string{"timeout n0 free", "timeout n0 on1"}, h.timeouts(w))

		w = h.do(t, w, "crash n2")
		require.ElementsMatch(t, []string{"timeout n0 free", "timeout n0 on1"}, h.timeouts(w), "n2's message holds on12")
		w = h.do(t, w, "deliver n2→n0 {V:2}")
		require.ElementsMatch(t, []string{"timeout n0 free", "timeout n0 on1", "timeout n0 on12"}, h.timeouts(w))

		// a timer that fires is disarmed
		w = h.do(t, w, "timeout n0 on1")
		require.ElementsMatch(t, []string{"timeout n0 free", "timeout n0 on12"}, h.timeouts(w))
		require.Equal(t, []string{"on1"}, h.state(w, 0).Fired)
	})
	t.Run("async", func(t *testing.T) {
		h, w := compile(t, p, model.Config{N: 4, Timing: model.Async, Crashes: 2})
		require.ElementsMatch(t, []string{"timeout n0 free", "timeout n0 on1", "timeout n0 on12"}, h.timeouts(w))
		w = h.do(t, w, "timeout n0 on12")
		require.ElementsMatch(t, []string{"timeout n0 free", "timeout n0 on1"}, h.timeouts(w))
		require.Equal(t, []string{"on12"}, h.state(w, 0).Fired)
	})
}

// Arming a timer again replaces it, with its new waitOn; CancelTimer
// disarms it.
func TestTimerReplaceAndCancel(t *testing.T) {
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.SetTimer("t") // may fire at once
			ctx.SetTimer("c") // cancelled below
			ctx.Send(0, tmsg{1})
		}),
		receive: func(ctx *model.Ctx[tmsg], s tstate, _ model.NodeID, m tmsg) tstate {
			if ctx.Self() == 0 {
				ctx.SetTimer("t", 1) // now waits on n1
				ctx.CancelTimer("c")
			}
			return s
		},
	}
	h, w := compile(t, p, model.Config{N: 2})
	require.ElementsMatch(t, []string{"timeout n0 t", "timeout n0 c"}, h.timeouts(w))
	w = h.do(t, w, "deliver n0→n0 {V:1}")
	require.Empty(t, h.timeouts(w), "t waits on the live n1 and c is cancelled")
	require.Equal(t, "timers{t[n1]}", h.m.FormatTimers(h.st.Nodes(w)[0]))
}

// crashProtocol: every node arms "free"; n1 sends {1} and {2} to n0 and n0
// sends {10} to n1; a node whose "free" fires sends {20} to n0.
var crashProtocol = script{
	init: func(ctx *model.Ctx[tmsg]) tstate {
		ctx.SetTimer("free")
		switch ctx.Self() {
		case 0:
			ctx.Send(1, tmsg{10})
		case 1:
			ctx.Send(0, tmsg{1})
			ctx.Send(0, tmsg{2})
		}
		return tstate{}
	},
	timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
		if ctx.Self() != 0 {
			ctx.Send(0, tmsg{20})
		}
		s.Fired = append(s.Fired, tm.(string))
		return s
	},
	recover: func(ctx *model.Ctx[tmsg], s tstate) tstate {
		ctx.SetTimer("restarted")
		return tstate{Recovered: s.Recovered + 1, Before: slices.Clone(s.Got)}
	},
}

func TestCrash(t *testing.T) {
	h, w := compile(t, crashProtocol, model.Config{N: 3, Crashes: 1, Recoveries: 1})
	_, faults := h.events(w)
	require.ElementsMatch(t, []string{"crash n0", "crash n1", "crash n2"}, faults)
	require.NotEmpty(t, h.m.FormatTimers(h.st.Nodes(w)[0]))

	w = h.do(t, w, "deliver n1→n0 {V:1}")
	require.Equal(t, []int{1}, h.state(w, 0).Got)
	// before the crash, n2's timer puts a message to n0 in flight
	require.Contains(t, h.inFlight(h.do(t, w, "timeout n2 free")), "n2→n0 {V:20}")

	w = h.do(t, w, "crash n0")
	require.False(t, h.st.Alive(w, 0))
	c, r := sim.FaultsUsed(w)
	require.Equal(t, [2]int{1, 0}, [2]int{c, r})
	// its timers are disarmed; what was in flight to it is lost, what it
	// sent is not
	require.Empty(t, h.m.FormatTimers(h.st.Nodes(w)[0]))
	require.Equal(t, []string{"n0→n1 {V:10}"}, h.inFlight(w))
	proto, faults := h.events(w)
	require.ElementsMatch(t, []string{"deliver n0→n1 {V:10}", "timeout n1 free", "timeout n2 free"}, proto)
	// the crash budget is spent; the recovery budget is not
	require.Equal(t, []string{"recover n0"}, faults)
	// its state is kept
	require.Equal(t, []int{1}, h.state(w, 0).Got)

	// messages sent to it while it is down are lost at send time
	w = h.do(t, w, "timeout n2 free")
	require.Equal(t, []string{"n0→n1 {V:10}"}, h.inFlight(w))

	// Recover gets the state the node crashed in and decides what survives
	w = h.do(t, w, "recover n0")
	require.True(t, h.st.Alive(w, 0))
	c, r = sim.FaultsUsed(w)
	require.Equal(t, [2]int{1, 1}, [2]int{c, r})
	s := h.state(w, 0)
	require.Equal(t, 1, s.Recovered)
	require.Equal(t, []int{1}, s.Before)
	require.Nil(t, s.Got)
	// timers from before the crash stay disarmed; Recover's are armed
	require.ElementsMatch(t, []string{"timeout n0 restarted", "timeout n1 free"}, h.timeouts(w))
	_, faults = h.events(w)
	require.Empty(t, faults, "both budgets are spent")

	// messages to the recovered node are delivered again
	w = h.do(t, w, "timeout n1 free")
	require.Contains(t, h.inFlight(w), "n1→n0 {V:20}")
}

func TestFaultBudgets(t *testing.T) {
	cases := []struct {
		name        string
		crashes     int
		recoveries  int
		path        []string // faults applied in turn
		wantFaults  []string // faults enabled at the end
		crashesUsed int
		recovUsed   int
	}{
		{"no crashes", 0, 1, nil, nil, 0, 0},
		{"one crash", 1, 0, nil, []string{"crash n0", "crash n1", "crash n2"}, 0, 0},
		{"one crash spent, no recovery", 1, 0, []string{"crash n1"}, nil, 1, 0},
		{"two crashes, one spent", 2, 0, []string{"crash n1"}, []string{"crash n0", "crash n2"}, 1, 0},
		{"two crashes spent", 2, 0, []string{"crash n1", "crash n2"}, nil, 2, 0},
		{"two down, one recovery", 2, 1, []string{"crash n1", "crash n2"}, []string{"recover n1", "recover n2"}, 2, 0},
		{"recovery spent", 2, 1, []string{"crash n1", "recover n1", "crash n1"}, nil, 2, 1},
		{"recovery left", 2, 2, []string{"crash n1", "recover n1", "crash n1"}, []string{"recover n1"}, 2, 1},
		{"crash after recovery", 2, 1, []string{"crash n1", "recover n1"}, []string{"crash n0", "crash n1", "crash n2"}, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, w := compile(t, script{}, model.Config{N: 3, Crashes: c.crashes, Recoveries: c.recoveries})
			for _, f := range c.path {
				w = h.do(t, w, f)
			}
			proto, faults := h.events(w)
			require.Empty(t, proto)
			require.ElementsMatch(t, c.wantFaults, faults)
			cu, ru := sim.FaultsUsed(w)
			require.Equal(t, c.crashesUsed, cu)
			require.Equal(t, c.recovUsed, ru)
		})
	}
}

// Enabled lists protocol events first and counts only them: a world with
// faults left but no delivery, timeout or action is quiescent.
func TestQuiescence(t *testing.T) {
	p := script{init: n0Starts(func(ctx *model.Ctx[tmsg]) {
		ctx.Send(1, tmsg{1})
	}), receive: func(ctx *model.Ctx[tmsg], s tstate, _ model.NodeID, m tmsg) tstate {
		if m.V == 1 {
			ctx.SetTimer("t")
		}
		return s
	}}
	h, w := compile(t, p, model.Config{N: 2, Crashes: 1, Recoveries: 1})
	steps := []struct {
		do     string
		nproto int
		nall   int
	}{
		{"", 1, 3},                    // the delivery; two crashes
		{"deliver n0→n1 {V:1}", 1, 3}, // the timer; two crashes
		{"timeout n1 t", 0, 2},        // quiescent, crashes left
		{"crash n0", 0, 1},            // quiescent, a recovery left
		{"recover n0", 0, 0},          // nothing at all
	}
	for _, s := range steps {
		if s.do != "" {
			w = h.do(t, w, s.do)
		}
		evs, n := h.st.Enabled(w, nil)
		require.Equal(t, s.nproto, n, "after %q", s.do)
		require.Len(t, evs, s.nall, "after %q", s.do)
		for i, ev := range evs {
			fault := ev.Kind == sim.Crash || ev.Kind == sim.Recover
			require.Equal(t, i >= n, fault, "after %q: event %d (%v) on the wrong side", s.do, i, ev.Kind)
		}
	}
}

// A handler that mutates its input state is a Fault, whichever handler it
// is, not a panic: the Stepper records it, with the state before and
// after, and puts the Machine's copy back; one that builds a new value is
// fine.
func TestMutatingHandlerFaults(t *testing.T) {
	start := func(ctx *model.Ctx[tmsg]) tstate {
		ctx.SetTimer("t", 1)
		if ctx.Self() == 0 {
			ctx.Send(1, tmsg{1})
		}
		return tstate{Got: []int{0, 0}, M: map[string]int{"k": 0}}
	}
	cases := []struct {
		name    string
		p       script
		event   string
		handler string // "" when no fault is expected
		node    model.NodeID
		after   string
		change  string // where and how the state changed, as the fault says
	}{
		{"receive writes a slice element", script{init: start, receive: func(_ *model.Ctx[tmsg], s tstate, _ model.NodeID, _ tmsg) tstate {
			s.Got[1] = 9
			return s
		}}, "deliver n0→n1 {V:1}", "Receive", 1, "Got:[0 9]", " at .Got[1]: before 0, after 9;"},
		{"receive writes a map entry", script{init: start, receive: func(_ *model.Ctx[tmsg], s tstate, _ model.NodeID, _ tmsg) tstate {
			s.M["k"] = 9
			return s
		}}, "deliver n0→n1 {V:1}", "Receive", 1, "M:map[k:9]", ` at .M["k"]: before 0, after 9;`},
		{"receive adds a map entry", script{init: start, receive: func(_ *model.Ctx[tmsg], s tstate, _ model.NodeID, _ tmsg) tstate {
			s.M["new"] = 0
			return tstate{}
		}}, "deliver n0→n1 {V:1}", "Receive", 1, "M:map[k:0 new:0]", ` at .M["new"]: before (none), after 0;`},
		{"timeout writes a slice element", script{init: start, timeout: func(_ *model.Ctx[tmsg], s tstate, _ model.Timer) tstate {
			s.Got[0]++
			return s
		}}, "timeout n0 t", "Timeout", 0, "Got:[1 0]", " at .Got[0]: before 0, after 1;"},
		{"recover writes a slice element", script{init: start, recover: func(_ *model.Ctx[tmsg], s tstate) tstate {
			s.Got[0] = 1
			return tstate{}
		}}, "recover n1", "Recover", 1, "Got:[1 0]", " at .Got[0]: before 0, after 1;"},
		{"receive appends and copies", script{init: start, receive: func(_ *model.Ctx[tmsg], s tstate, _ model.NodeID, m tmsg) tstate {
			s.Got = append(s.Got, m.V)
			s.M = map[string]int{"k": 1}
			return s
		}}, "deliver n0→n1 {V:1}", "", 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, w := compile(t, c.p, model.Config{N: 2, Timing: model.Async, Crashes: 1, Recoveries: 1})
			if c.event == "recover n1" {
				w = h.do(t, w, "crash n1")
			}
			if c.handler == "" {
				w = h.do(t, w, c.event)
				require.Nil(t, h.st.TakeFault())
				require.Equal(t, []int{0, 0, 1}, h.state(w, 1).Got)
				w0, _ := h.st.Init()
				require.Equal(t, []int{0, 0}, h.state(w0, 1).Got, "the input state is intact")
				return
			}
			// A timeout's handler runs as Enabled lists it (a timeout that
			// changes nothing is not listed), a delivery's as it is applied.
			evs, _ := h.st.Enabled(w, nil)
			for _, ev := range evs {
				if h.describe(w, ev) == c.event {
					h.st.Apply(w, ev, nil)
				}
			}
			f := h.st.TakeFault()
			require.NotNil(t, f, "no fault")
			require.Nil(t, h.st.TakeFault(), "TakeFault forgets the fault")
			require.Equal(t, c.handler, f.Handler)
			require.Equal(t, c.node, f.Node)
			require.Equal(t, "state", f.Mutated)
			require.Contains(t, f.Before, "Got:[0 0]")
			require.Contains(t, f.Before, "M:map[k:0]")
			require.Contains(t, f.After, c.after)
			require.Contains(t, f.Error(), "protocol test: "+c.handler+" on "+c.node.String()+" mutated its input state"+c.change)
			ev, ok := f.Event()
			require.True(t, ok)
			require.Equal(t, c.event, h.describe(w, ev))
			st := h.state(w, c.node)
			require.Equal(t, []int{0, 0}, st.Got, "the Machine's copy of the input state is put back")
			require.Equal(t, map[string]int{"k": 0}, st.M, "the Machine's copy of the input state is put back")
		})
	}
}

// Sending outside 0..N-1 is a protocol bug the Machine reports as a fault.
func TestSendOutOfRangeFaults(t *testing.T) {
	p := script{init: func(ctx *model.Ctx[tmsg]) tstate {
		ctx.Send(model.NodeID(ctx.N()), tmsg{})
		return tstate{}
	}}
	m, err := sim.Compile("test", p, model.Config{N: 2})
	require.NoError(t, err)
	st := m.NewStepper()
	st.Init()
	f := st.TakeFault()
	require.NotNil(t, f)
	require.Equal(t, "protocol test: Init on n0 sent to node 2, outside 0..1", f.Error())
	_, ok := f.Event()
	require.False(t, ok, "no event runs Init")
}

// On a topology other than the complete graph a node sends only to its
// neighbours (and to itself, which crosses no link): any other send is a
// fault, named like an out-of-range one.
func TestSendToNonNeighbourFaults(t *testing.T) {
	to := []model.NodeID{1, 3, 0}
	p := script{init: n0Starts(func(ctx *model.Ctx[tmsg]) {
		for _, j := range to {
			ctx.Send(j, tmsg{})
		}
	})}
	m, err := sim.Compile("test", p, model.Config{N: 4, Topology: "ring"})
	require.NoError(t, err)
	st := m.NewStepper()
	st.Init()
	require.Nil(t, st.TakeFault(), "n1 and n3 are n0's neighbours on the ring")

	to = []model.NodeID{1, 2}
	m, err = sim.Compile("test", p, model.Config{N: 4, Topology: "ring"})
	require.NoError(t, err)
	st = m.NewStepper()
	st.Init()
	f := st.TakeFault()
	require.NotNil(t, f)
	require.Equal(t, "protocol test: Init on n0 sent to n2, which is not a neighbour of n0 on topology ring", f.Error())
	require.Equal(t, "sent to n2, which is not a neighbour of n0 on topology ring", f.Misuse)

	// the same sends on the complete graph are fine
	m, err = sim.Compile("test", p, model.Config{N: 4})
	require.NoError(t, err)
	st = m.NewStepper()
	st.Init()
	require.Nil(t, st.TakeFault())
}

// logMonitor records every observation it is fed.
type logMonitor struct{}

func (logMonitor) Name() string            { return "log" }
func (logMonitor) Start(*model.Config) any { return []string{} }
func (logMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return append(slices.Clone(st.([]string)), fmt.Sprintf("%v %v", node, o))
}

// countMonitor counts observations.
type countMonitor struct{}

func (countMonitor) Name() string            { return "count" }
func (countMonitor) Start(*model.Config) any { return 0 }
func (countMonitor) Observe(_ *model.Config, st any, _ model.NodeID, _ model.Obs) any {
	return st.(int) + 1
}

// observingProtocol: node 0 observes itself leader and tells node 1,
// which observes node 0 leader in turn.
func observingProtocol() script {
	return script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.Observe(model.Leader(0))
			ctx.Send(1, tmsg{1})
		}),
		receive: func(ctx *model.Ctx[tmsg], s tstate, from model.NodeID, _ tmsg) tstate {
			ctx.Observe(model.Leader(from))
			return s
		},
	}
}

// Monitors see the protocols' observations and the World's crash and
// recover observations, in order.
func TestMonitors(t *testing.T) {
	p := observingProtocol()
	p.recover = func(ctx *model.Ctx[tmsg], s tstate) tstate {
		ctx.Observe(model.Leader(model.None))
		return s
	}
	h, w := compile(t, p, model.Config{N: 3, Crashes: 1, Recoveries: 1}, logMonitor{}, countMonitor{})
	require.Equal(t, []model.Monitor{logMonitor{}, countMonitor{}}, h.m.Monitors())
	require.Equal(t, []string{"n0 leader=n0"}, h.st.MonitorValue(w, 0))
	require.Equal(t, 1, h.st.MonitorValue(w, 1))

	w = h.do(t, w, "deliver n0→n1 {V:1}")
	w = h.do(t, w, "crash n2")
	afterCrash := slices.Clone(w)
	w = h.do(t, w, "recover n2")
	require.Equal(t, []string{"n0 leader=n0", "n1 leader=n0", "n2 crash", "n2 recover", "n2 leader=none"}, h.st.MonitorValue(w, 0))
	require.Equal(t, 5, h.st.MonitorValue(w, 1))
	require.Equal(t, []string{"n0 leader=n0", "n1 leader=n0", "n2 crash"}, h.st.MonitorValue(afterCrash, 0))
}

// actorProtocol: node 0 has two local actions while it has done fewer than
// two: inc counts, ping also sends to the next node.
type actorProtocol struct{ script }

func (actorProtocol) Actions(env *model.Env, s tstate) []model.Action {
	if env.Self() != 0 || s.Count >= 2 {
		return nil
	}
	return []model.Action{"inc", "ping"}
}

func (actorProtocol) Do(ctx *model.Ctx[tmsg], s tstate, a model.Action) tstate {
	if a == "ping" {
		ctx.Send(ctx.Next(), tmsg{100})
	}
	s.Count++
	return s
}

func TestActions(t *testing.T) {
	h, w := compile(t, actorProtocol{}, model.Config{N: 2, Crashes: 1})
	evs, n := h.st.Enabled(w, nil)
	require.Equal(t, 2, n)
	require.Equal(t, []sim.Event{{Kind: sim.Act, Node: 0, Arg: 0}, {Kind: sim.Act, Node: 0, Arg: 1}}, evs[:n])
	require.Equal(t, model.Action("inc"), h.m.ActionName(0, h.st.NodeState(w, 0), 0))
	require.Equal(t, model.Action("ping"), h.m.ActionName(0, h.st.NodeState(w, 0), 1))

	w = h.do(t, w, "action n0 ping")
	require.Equal(t, 1, h.state(w, 0).Count)
	require.Equal(t, []string{"n0→n1 {V:100}"}, h.inFlight(w))
	proto, _ := h.events(w)
	require.ElementsMatch(t, []string{"deliver n0→n1 {V:100}", "action n0 inc", "action n0 ping"}, proto)

	// a crashed node takes no action
	crashed := h.do(t, w, "crash n0")
	proto, _ = h.events(crashed)
	require.Equal(t, []string{"deliver n0→n1 {V:100}"}, proto)

	w = h.do(t, w, "action n0 inc")
	require.Equal(t, 2, h.state(w, 0).Count)
	proto, _ = h.events(w)
	require.Equal(t, []string{"deliver n0→n1 {V:100}"}, proto, "no action once two are done")
	w = h.do(t, w, "deliver n0→n1 {V:100}")
	_, n = h.st.Enabled(w, nil)
	require.Zero(t, n)

	// A protocol that is not an Actor has no actions.
	h2, w2 := compile(t, script{}, model.Config{N: 2})
	evs, _ = h2.st.Enabled(w2, nil)
	require.Empty(t, evs)
}

// A partition cuts an arc of the ring of ids away: messages across the cut
// are lost, in flight and later; Sync timers waiting on a node cut off may
// fire, and keep that right after the heal; a heal reconnects everyone.
func TestPartitions(t *testing.T) {
	// n0 waits on n2 and sends to n1 and n2 at start; receivers echo to n0
	// once; n0 resends to everyone when its timer fires.
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.SetTimer("on2", 2)
			ctx.SendAll([]model.NodeID{1, 2}, tmsg{1})
		}),
		timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
			ctx.SendAll([]model.NodeID{1, 2, 3}, tmsg{2})
			s.Fired = append(s.Fired, tm.(string))
			return s
		},
	}
	h, w := compile(t, p, model.Config{N: 4, Partitions: 3})
	_, faults := h.events(w)
	require.Equal(t, []string{"partition n1..n1", "partition n1..n2", "partition n1..n3",
		"partition n2..n2", "partition n2..n3", "partition n3..n3"}, faults, "every arc not holding n0")
	require.False(t, h.st.Split(w))
	require.Empty(t, h.timeouts(w), "n2 is reachable")

	w = h.do(t, w, "partition n2..n3")
	require.Equal(t, "n0 n1 | n2 n3", h.st.Groups(w))
	require.True(t, h.st.Connected(w, 0, 1))
	require.False(t, h.st.Connected(w, 1, 2))
	require.Equal(t, []string{"n0→n1 {V:1}"}, h.inFlight(w), "the message to n2 was lost")
	require.Equal(t, []string{"timeout n0 on2"}, h.timeouts(w), "n2 is cut off: the timer may fire")
	_, faults = h.events(w)
	require.Equal(t, []string{"partition n1..n1", "partition n1..n2", "partition n1..n3",
		"partition n2..n2", "partition n3..n3", "heal"}, faults, "n2..n3 would split no group")

	w = h.do(t, w, "heal")
	require.False(t, h.st.Split(w))
	require.Equal(t, []string{"timeout n0 on2"}, h.timeouts(w), "the timer expired when n2 was cut off")
	w = h.do(t, w, "timeout n0 on2")
	require.ElementsMatch(t, []string{"n0→n1 {V:1}", "n0→n1 {V:2}", "n0→n2 {V:2}", "n0→n3 {V:2}"}, h.inFlight(w))

	// two cuts: groups are numbered by first appearance, so the same
	// grouping reached in either order is the same world
	a := h.do(t, h.do(t, w, "partition n1..n1"), "partition n3..n3")
	b := h.do(t, h.do(t, w, "partition n3..n3"), "partition n1..n1")
	require.Equal(t, "n0 n2 | n1 | n3", h.st.Groups(a))
	require.Equal(t, a, b)
	require.Equal(t, 3, sim.PartitionsUsed(a))
	_, faults = h.events(a)
	require.Equal(t, []string{"heal"}, faults, "the budget is spent")
	require.Equal(t, []string{"n0→n2 {V:2}"}, h.inFlight(a))
}

// A timer whose firing would change nothing (same state and timers, every
// message lost) is not enabled: a world where only such steps remain is
// quiescent.
func TestStuttersAreNotEnabled(t *testing.T) {
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.SetTimer("poll")
		}),
		timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
			ctx.Send(1, tmsg{1})
			ctx.SetTimer("poll")
			return s
		},
	}
	h, w := compile(t, p, model.Config{N: 2, Partitions: 1})
	require.Equal(t, []string{"timeout n0 poll"}, h.timeouts(w), "n1 would get the poll")
	w = h.do(t, w, "partition n1..n1")
	proto, _ := h.events(w)
	require.Empty(t, proto, "the poll is lost and n0 is as before: quiescent")
	w = h.do(t, w, "heal")
	require.Equal(t, []string{"timeout n0 poll"}, h.timeouts(w))
}

// Only a lost message expires timers: a timer waiting on a node cut off may
// fire while the cut lasts, but once the network heals it waits again,
// unless a message between the two was lost meanwhile.
func TestExpiryNeedsALostMessage(t *testing.T) {
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.SetTimer("on1", 1)
			ctx.SetTimer("on2", 2)
		}),
		receive: func(ctx *model.Ctx[tmsg], s tstate, from model.NodeID, m tmsg) tstate {
			ctx.Send(0, tmsg{m.V}) // echo
			return s
		},
	}
	h, w := compile(t, p, model.Config{N: 3, Partitions: 1})
	require.Empty(t, h.timeouts(w))
	w = h.do(t, w, "partition n1..n2")
	require.ElementsMatch(t, []string{"timeout n0 on1", "timeout n0 on2"}, h.timeouts(w), "both cut off")
	w = h.do(t, w, "heal")
	require.Empty(t, h.timeouts(w), "nothing was lost: both wait again")

	// a message from n0 to n2 lost to the cut expires on2 only
	p.init = n0Starts(func(ctx *model.Ctx[tmsg]) {
		ctx.SetTimer("on1", 1)
		ctx.SetTimer("on2", 2)
		ctx.Send(2, tmsg{1})
	})
	h, w = compile(t, p, model.Config{N: 3, Partitions: 1})
	w = h.do(t, w, "partition n2..n2")
	require.Empty(t, h.inFlight(w))
	w = h.do(t, w, "heal")
	require.Equal(t, []string{"timeout n0 on2"}, h.timeouts(w))
}

// A timer that asks a node cut off and re-arms itself to wait on it
// stutters once its message has been lost: the loss expires the timer it
// re-armed, which is the timer it had.
func TestRetryIntoACutStutters(t *testing.T) {
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.SetTimer("ask", 1)
		}),
		timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
			ctx.Send(1, tmsg{1})
			ctx.SetTimer("ask", 1)
			return s
		},
	}
	h, w := compile(t, p, model.Config{N: 2, Partitions: 1})
	w = h.do(t, w, "partition n1..n1")
	require.Equal(t, []string{"timeout n0 ask"}, h.timeouts(w), "n1 is cut off")
	w = h.do(t, w, "timeout n0 ask")
	require.Empty(t, h.inFlight(w))
	proto, _ := h.events(w)
	require.Empty(t, proto, "asking again changes nothing: the timer expired already")
	w = h.do(t, w, "heal")
	require.Equal(t, []string{"timeout n0 ask"}, h.timeouts(w), "the expired timer may fire after the heal")
}

// Timers are typed values compared by type and content: two timer types
// with the same underlying value are two timers, and a timer per peer needs
// no name built from strings.
type (
	heartbeat int
	ackWait   int
)

func (h heartbeat) String() string { return fmt.Sprintf("heartbeat-%d", int(h)) }

func TestTypedTimers(t *testing.T) {
	p := script{
		init: n0Starts(func(ctx *model.Ctx[tmsg]) {
			ctx.SetTimer(heartbeat(1))
			ctx.SetTimer(ackWait(1))
			ctx.SetTimer(heartbeat(2))
			ctx.SetTimer(heartbeat(2)) // re-armed: still one timer
		}),
		timeout: func(ctx *model.Ctx[tmsg], s tstate, tm model.Timer) tstate {
			if hb, ok := tm.(heartbeat); ok {
				s.Fired = append(s.Fired, fmt.Sprint("peer ", int(hb)))
			}
			return s
		},
	}
	h, w := compile(t, p, model.Config{N: 2})
	require.ElementsMatch(t, []string{"timeout n0 heartbeat-1", "timeout n0 1", "timeout n0 heartbeat-2"}, h.timeouts(w))
	w = h.do(t, w, "timeout n0 heartbeat-2")
	require.Equal(t, []string{"peer 2"}, h.state(w, 0).Fired)
	require.ElementsMatch(t, []string{"timeout n0 heartbeat-1", "timeout n0 1"}, h.timeouts(w))
}

// A timer or an action must be a plain comparable value: one that is not
// is reported as a fault of the handler, not met as a runtime hash panic.
func TestTimerMustBeComparable(t *testing.T) {
	p := script{init: func(ctx *model.Ctx[tmsg]) tstate {
		ctx.SetTimer([]int{1})
		return tstate{}
	}}
	m, err := sim.Compile("test", p, model.Config{N: 1})
	require.NoError(t, err)
	st := m.NewStepper()
	st.Init()
	f := st.TakeFault()
	require.NotNil(t, f)
	require.Equal(t, "protocol test: Init on n0 armed timer [1]: type []int is not comparable", f.Error())
}

// Any message in flight may be lost or duplicated while the budgets last:
// under FIFO any message of a channel (the rest keep their order), with
// one event per distinct successor; a duplicate joins the tail of its FIFO
// channel. A loss expires the timers of either end that wait on the other.
func TestMessageFaults(t *testing.T) {
	// n0 sends 1, 2, 1, 1 to n1 and waits on n1; n1 waits on n0.
	p := script{init: func(ctx *model.Ctx[tmsg]) tstate {
		switch ctx.Self() {
		case 0:
			ctx.SetTimer("on1", 1)
			for _, v := range []int{1, 2, 1, 1} {
				ctx.Send(1, tmsg{v})
			}
		case 1:
			ctx.SetTimer("on0", 0)
		}
		return tstate{}
	}}
	t.Run("fifo", func(t *testing.T) {
		h, w := compile(t, p, model.Config{N: 2, Losses: 1, Duplicates: 2})
		proto, faults := h.events(w)
		require.Equal(t, []string{"deliver n0→n1 {V:1}"}, proto)
		require.Equal(t, []string{"lose n0→n1 {V:1}", "lose n0→n1 {V:2}", "lose n0→n1 {V:1}",
			"duplicate n0→n1 {V:1}", "duplicate n0→n1 {V:2}"}, faults,
			"losing either of the last two 1s gives one world; so does duplicating any 1")
		require.Empty(t, h.timeouts(w), "Sync timers: both ends are up")

		evs, n := h.st.Enabled(w, nil)
		gap, _ := h.st.Apply(w, evs[n+1], nil) // lose the 2
		require.Equal(t, []string{"n0→n1 {V:1}", "n0→n1 {V:1}", "n0→n1 {V:1}"}, h.inFlight(gap))
		losses, dups := sim.MessageFaultsUsed(gap)
		require.Equal(t, [2]int{1, 0}, [2]int{losses, dups})
		require.ElementsMatch(t, []string{"timeout n0 on1", "timeout n1 on0"}, h.timeouts(gap),
			"a lost message expires the timers of either end that wait on the other")
		_, faults = h.events(gap)
		require.Equal(t, []string{"duplicate n0→n1 {V:1}"}, faults, "the loss budget is spent")

		head, _ := h.st.Apply(w, evs[n], nil) // lose the first 1
		require.Equal(t, []string{"n0→n1 {V:2}", "n0→n1 {V:1}", "n0→n1 {V:1}"}, h.inFlight(head))
		tail, _ := h.st.Apply(w, evs[n+2], nil) // lose a later 1
		require.Equal(t, []string{"n0→n1 {V:1}", "n0→n1 {V:2}", "n0→n1 {V:1}"}, h.inFlight(tail))

		dup := h.do(t, w, "duplicate n0→n1 {V:2}")
		require.Equal(t, []string{"n0→n1 {V:1}", "n0→n1 {V:2}", "n0→n1 {V:1}", "n0→n1 {V:1}", "n0→n1 {V:2}"}, h.inFlight(dup),
			"the copy joins the tail")
		require.Empty(t, h.timeouts(dup), "nothing was lost")
		dup = h.do(t, dup, "duplicate n0→n1 {V:2}")
		_, faults = h.events(dup)
		require.Equal(t, []string{"lose n0→n1 {V:1}", "lose n0→n1 {V:2}", "lose n0→n1 {V:1}", "lose n0→n1 {V:2}"}, faults,
			"losses only: the duplication budget is spent")
		for range 6 {
			dup = h.do(t, dup, "deliver n0→n1 {V:"+fmt.Sprint(h.nextTo(dup))+"}")
		}
		require.Equal(t, []int{1, 2, 1, 1, 2, 2}, h.state(dup, 1).Got)
	})
	t.Run("unordered", func(t *testing.T) {
		h, w := compile(t, p, model.Config{N: 2, Channels: model.Unordered, Losses: 1, Duplicates: 1})
		_, faults := h.events(w)
		require.ElementsMatch(t, []string{"lose n0→n1 {V:1}", "lose n0→n1 {V:2}",
			"duplicate n0→n1 {V:1}", "duplicate n0→n1 {V:2}"}, faults, "one event per distinct message")
		w2 := h.do(t, w, "duplicate n0→n1 {V:2}")
		require.ElementsMatch(t, []string{"n0→n1 {V:1}", "n0→n1 {V:1}", "n0→n1 {V:1}", "n0→n1 {V:2}", "n0→n1 {V:2}"}, h.inFlight(w2))
		w2 = h.do(t, w2, "lose n0→n1 {V:1}")
		require.ElementsMatch(t, []string{"n0→n1 {V:1}", "n0→n1 {V:1}", "n0→n1 {V:2}", "n0→n1 {V:2}"}, h.inFlight(w2))
		_, faults = h.events(w2)
		require.Empty(t, faults)
	})
	t.Run("off", func(t *testing.T) {
		h, w := compile(t, p, model.Config{N: 2})
		_, faults := h.events(w)
		require.Empty(t, faults)
	})
}

// nextTo returns the value of the oldest message in flight (FIFO, one channel).
func (h harness) nextTo(w sim.World) int {
	var m tmsg
	fmt.Sscanf(h.m.FormatMsg(uint32(h.st.Msgs(w)[0])), "{V:%d}", &m.V)
	return m.V
}

// Under Bounded timing time passes in ticks: every message must be
// delivered within the delay bound (no tick while one is that old), and a
// timer armed with SetTimerAfter fires exactly when its ticks have passed
// (no tick while it is due). Time does not pass where nothing would change.
func TestBoundedTiming(t *testing.T) {
	p := script{init: n0Starts(func(ctx *model.Ctx[tmsg]) {
		ctx.Send(1, tmsg{1})
		ctx.SetTimerAfter("t", 3)
	})}
	h, w := compile(t, p, model.Config{N: 2, Timing: model.Bounded, Delay: 2})
	steps := []struct {
		do   string
		want []string
	}{
		{"", []string{"deliver n0→n1 {V:1}", "tick n0"}},
		{"tick n0", []string{"deliver n0→n1 {V:1}", "tick n0"}},
		{"tick n0", []string{"deliver n0→n1 {V:1}"}}, // two ticks old: no later than now
		{"deliver n0→n1 {V:1}", []string{"tick n0"}},
		{"tick n0", []string{"timeout n0 t"}}, // due: fires before time passes on
		{"timeout n0 t", nil},
	}
	for _, s := range steps {
		if s.do != "" {
			w = h.do(t, w, s.do)
		}
		proto, _ := h.events(w)
		require.Equal(t, s.want, proto, "after %q", s.do)
	}
	require.Equal(t, []string{"t"}, h.state(w, 0).Fired)

	// Without Bounded timing the same timer has no clock: it may fire at
	// once, and no tick is ever enabled.
	h, w = compile(t, p, model.Config{N: 2, Timing: model.Sync})
	proto, _ := h.events(w)
	require.ElementsMatch(t, []string{"deliver n0→n1 {V:1}", "timeout n0 t"}, proto)
}

// bare has only the handlers every protocol must have: no Timeout, no
// Recover. Its Init arms a timer when arm is set.
type bare struct{ arm bool }

func (p bare) Init(ctx *model.Ctx[tmsg]) tstate {
	if p.arm {
		ctx.SetTimer("t")
	}
	return tstate{}
}

func (bare) Receive(_ *model.Ctx[tmsg], s tstate, _ model.NodeID, _ tmsg) tstate { return s }

// Timeout and Recover are optional: a protocol without Recover is
// crash-stop and refuses runs with recoveries, one without Timeout may not
// arm a timer.
func TestOptionalHandlers(t *testing.T) {
	_, err := sim.Compile("bare", bare{}, model.Config{N: 2, Crashes: 1})
	require.NoError(t, err, "crashes need no Recover")
	_, err = sim.Compile("bare", bare{}, model.Config{N: 2, Crashes: 1, Recoveries: 1})
	require.ErrorIs(t, err, model.ErrCrashStop)
	require.EqualError(t, err, "protocol bare: crash-stop protocol (it has no Recover method): run it with no recoveries, not 1")

	m, err := sim.Compile("bare", bare{arm: true}, model.Config{N: 2})
	require.NoError(t, err)
	st := m.NewStepper()
	st.Init()
	f := st.TakeFault()
	require.NotNil(t, f)
	require.Equal(t, "protocol bare: Init on n0 armed timer t, but the protocol has no Timeout method to handle it", f.Error())
}

// kmsg is a message with a kind of its own.
type kmsg struct {
	K string
	V int
}

func (m kmsg) Kind() string { return m.K }

// fanOut sends, on receiving v, v messages of kind "a" to its successor
// and v%2 of kind "b" back: steps that send alike and steps that do not.
type fanOut struct{}

func (fanOut) Init(ctx *model.Ctx[kmsg]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, kmsg{"a", 3})
	}
	return 0
}

func (fanOut) Receive(ctx *model.Ctx[kmsg], s int, from model.NodeID, m kmsg) int {
	if m.V > 0 {
		for range m.V - 1 {
			ctx.Send(ctx.Next(), kmsg{"a", m.V - 1})
		}
		if m.V%2 == 1 {
			ctx.Send(from, kmsg{"b", m.V - 1})
		}
	}
	return s + 1
}

// TestStepSentCountsItsSends checks Step.Sent on every step of a run
// space: Machine.SentCounts gives the step's messages by kind, and two
// steps share an id exactly when they sent alike.
func TestStepSentCountsItsSends(t *testing.T) {
	m, err := sim.Compile("fan-out", fanOut{}, model.Config{N: 3})
	require.NoError(t, err)
	st := m.NewStepper()
	w0, _ := st.Init()
	byCounts := map[string]uint16{}
	todo, seen := []sim.World{w0}, map[string]bool{}
	steps := 0
	for len(todo) > 0 {
		w := todo[0]
		todo = todo[1:]
		evs, _ := st.Enabled(w, nil)
		for _, ev := range evs {
			next, step := st.Apply(w, ev, nil)
			require.NotNil(t, step)
			steps++
			want := map[string]int{}
			for _, s := range step.Sends {
				want[m.Kinds()[sim.SendKind(s)]]++
			}
			got := map[string]int{}
			for k, n := range m.SentCounts(step.Sent) {
				if n > 0 {
					got[m.Kinds()[k]] = n
				}
			}
			require.Equal(t, want, got, "step %v", ev)
			key := fmt.Sprint(want)
			if id, ok := byCounts[key]; ok {
				require.Equal(t, id, step.Sent, "steps that sent %v", want)
			}
			byCounts[key] = step.Sent
			if k := fmt.Sprint(next); !seen[k] {
				seen[k] = true
				todo = append(todo, next)
			}
		}
	}
	ids := map[uint16]bool{}
	for id := range maps.Values(byCounts) {
		ids[id] = true
	}
	require.Len(t, ids, len(byCounts), "two counts share an id")
	require.GreaterOrEqual(t, len(byCounts), 4, "the protocol sends in too few ways to tell")
	require.Positive(t, steps)
}
