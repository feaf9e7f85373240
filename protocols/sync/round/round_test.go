package round

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/vigil-check/vigil/model"
)

type echo struct{} // sends its pulse number to every neighbour, for two pulses

func (echo) Start(ctx *Ctx[int]) int {
	ctx.SendAll(ctx.Neighbors(), 0)
	return 0
}

func (echo) Pulse(ctx *Ctx[int], s, i int, in []In[int]) int {
	ctx.Observe(model.Leader(model.NodeID(len(in))))
	ctx.SendAll(ctx.Neighbors(), i)
	return s + len(in)
}

func (echo) Pulses(*model.Env) int { return 2 }

func TestSimulate(t *testing.T) {
	cfg := model.Config{N: 3, Topology: "line"}
	send := func(to int) model.Obs { return model.Obs{Kind: ObsSend, Arg: to} }
	take := func(from int) model.Obs { return model.Obs{Kind: ObsTake, Arg: from} }
	pulse := func(i int) model.Obs { return model.Obs{Kind: ObsPulse, Arg: i} }
	in := []In[int]{{From: 0, Msg: 0}, {From: 2, Msg: 0}}
	cases := []struct {
		name     string
		i        int
		in       []In[int]
		want     int
		sent     []model.Sent[int]
		observed []model.Obs
	}{
		{"pulse 0 is the start: its sends, no pulse observation", 0, nil, 0,
			[]model.Sent[int]{{To: 0, Msg: 0}, {To: 2, Msg: 0}}, []model.Obs{send(0), send(2)}},
		{"pulse 1: takes, the pulse, the algorithm's effects in order", 1, in, 2,
			[]model.Sent[int]{{To: 0, Msg: 1}, {To: 2, Msg: 1}}, []model.Obs{take(0), take(2), pulse(1), model.Leader(2), send(0), send(2)}},
		{"the last pulse sends nothing", 2, in, 2,
			nil, []model.Obs{take(0), take(2), pulse(2), model.Leader(2)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[string](cfg, 1)
		got, out := Simulate(ctx, echo{}, 0, c.i, c.in)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, out, c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
	}
}

func TestSendToANonNeighbourPanics(t *testing.T) {
	ctx := NewCtx[int](model.Config{N: 3, Topology: "line"}, 0)
	require.Panics(t, func() { ctx.Send(2, 1) })
	require.Panics(t, func() { ctx.Send(0, 1) })
	ctx.Send(1, 7)
	require.Equal(t, []model.Sent[int]{{To: 1, Msg: 7}}, ctx.Sent())
}

// The pulse-order monitor, one observation at a time.
func TestPulseOrder(t *testing.T) {
	cfg := &model.Config{N: 3}
	type step struct {
		node model.NodeID
		o    model.Obs
	}
	send := func(n, to int) step { return step{model.NodeID(n), model.Obs{Kind: ObsSend, Arg: to}} }
	take := func(n, from int) step { return step{model.NodeID(n), model.Obs{Kind: ObsTake, Arg: from}} }
	pulse := func(n, i int) step { return step{model.NodeID(n), model.Obs{Kind: ObsPulse, Arg: i}} }
	cases := []struct {
		name  string
		steps []step
		bad   string
	}{
		{"sent in pulse 0, taken in pulse 1", []step{send(0, 1), take(1, 0), pulse(1, 1), pulse(0, 1)}, ""},
		{"a neighbour's next pulse may run ahead", []step{send(0, 1), take(1, 0), pulse(1, 1), send(1, 0), pulse(0, 1), take(0, 1), pulse(0, 2)}, ""},
		{"pulse 1 begun with a message of pulse 0 owed", []step{send(0, 1), pulse(1, 1)},
			"n1 began pulse 1 before it received and acted on the message n0 sent it in pulse 0"},
		{"a message sent to a node already past its pulse", []step{pulse(1, 1), send(0, 1)},
			"n1 began pulse 1 before n0 sent it a message of pulse 0"},
		{"a message taken a pulse late", []step{send(0, 1), take(1, 0), pulse(1, 1), take(1, 0)},
			"n1 acts in pulse 2 on a message n0 did not send it in pulse 1"},
		{"a message taken in the pulse it was sent", []step{pulse(0, 1), send(0, 1), take(1, 0)},
			"n1 acts in pulse 1 on the message n0 sent it in pulse 1"},
		{"a pulse skipped", []step{pulse(2, 2)}, "n2 begins pulse 2 after pulse 0"},
		{"a pulse's input by sender", []step{send(0, 1), send(2, 1), send(2, 1), take(1, 0), take(1, 2), take(1, 2), pulse(1, 1), send(1, 0), pulse(0, 1), take(0, 1), pulse(0, 2)}, ""},
		{"a pulse's input out of sender order", []step{send(0, 1), send(2, 1), take(1, 2), take(1, 0)},
			"n1 is handed the message n0 sent it in pulse 0 after one from n2: a pulse's input is ordered by sender"},
	}
	for _, c := range cases {
		st := Pulses.Start(cfg)
		for _, s := range c.steps {
			st = Pulses.Observe(cfg, st, s.node, s.o)
		}
		require.Equal(t, c.bad, st.(Order).Bad, c.name)
	}
}

// Keep holds messages by pulse and sender, a sender's in arrival order,
// without touching its input; Take hands out one pulse's and leaves the
// rest, earlier pulses' included.
func TestInbox(t *testing.T) {
	type r = Received[string]
	var rs []r
	for _, x := range []r{{1, 2, "c"}, {0, 1, "a"}, {1, 0, "b"}, {0, 1, "a2"}, {2, 0, "d"}} {
		before := slices.Clone(rs)
		next := Keep(rs, x)
		require.Equal(t, before, rs, "Keep changed its input")
		rs = next
	}
	require.Equal(t, []r{{0, 1, "a"}, {0, 1, "a2"}, {1, 0, "b"}, {1, 2, "c"}, {2, 0, "d"}}, rs)
	in, rest := Take(rs, 1)
	require.Equal(t, []In[string]{{From: 0, Msg: "b"}, {From: 2, Msg: "c"}}, in)
	require.Equal(t, []r{{0, 1, "a"}, {0, 1, "a2"}, {2, 0, "d"}}, rest)
	in, rest = Take(rest[2:], 2)
	require.Len(t, in, 1)
	require.Nil(t, rest)
}

// Pulses updated in place (a walk's ObserveInPlace, on a state of its own)
// keeps what Observe returns, through runs of sends, takes of what is owed
// and new pulses, valid or not, and Observe leaves its input as it was.
func TestPulsesInPlace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := &model.Config{N: 3}
		st := Pulses.Start(cfg).(Order)
		own := Pulses.Start(cfg).(Order) // the walk's copy
		for range rapid.IntRange(0, 40).Draw(t, "steps") {
			node := model.NodeID(rapid.IntRange(0, 2).Draw(t, "node"))
			var o model.Obs
			switch k := rapid.IntRange(0, 3).Draw(t, "kind"); {
			case k == 0 || k == 1 && len(st.Owed) == 0:
				o = model.Obs{Kind: ObsSend, Arg: rapid.IntRange(0, 2).Draw(t, "to")}
			case k == 1: // take something owed, to its receiver
				w := st.Owed[rapid.IntRange(0, len(st.Owed)-1).Draw(t, "owed")]
				node, o = w.To, model.Obs{Kind: ObsTake, Arg: int(w.From)}
			default:
				o = model.Obs{Kind: ObsPulse, Arg: st.Pulse[node] + rapid.IntRange(0, 2).Draw(t, "ahead")}
			}
			before := cloneOrder(st)
			next := Pulses.Observe(cfg, st, node, o).(Order)
			require.Equal(t, before, st, "Observe changed its input")
			own = Pulses.ObserveInPlace(cfg, own, node, o).(Order)
			require.Equal(t, next, own, "%v %v", node, o)
			st = next
		}
	})
}

func cloneOrder(o Order) Order {
	o.Pulse, o.Owed = slices.Clone(o.Pulse), slices.Clone(o.Owed)
	return o
}
