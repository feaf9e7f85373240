package round_test

import (
	. "github.com/vigil-check/vigil/protocols/sync/round"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// step is one observation fed to the Pulses monitor: node reports o.
type step struct {
	node model.NodeID
	o    model.Obs
}

func send(n, to int) step   { return step{model.NodeID(n), SendObs(model.NodeID(to))} }
func take(n, from int) step { return step{model.NodeID(n), TakeObs(model.NodeID(from))} }
func pulse(n, i int) step   { return step{model.NodeID(n), PulseObs(i)} }

// observeAll feeds steps to Pulses from its start twice, as the engines
// do: through Observe, which must leave its input as it was, and through
// ObserveInPlace on a state of its own, as a random walk does; the two
// must agree at every step.
func observeAll(t *testing.T, cfg *model.Config, steps []step) Order {
	t.Helper()
	st := Pulses.Start(cfg).(Order)
	own := Pulses.Start(cfg).(Order)
	for k, s := range steps {
		before := cloneOrder(st)
		next := Pulses.Observe(cfg, st, s.node, s.o).(Order)
		require.Equal(t, before, st, "step %d (%v %v): Observe changed its input", k, s.node, s.o)
		own = Pulses.ObserveInPlace(cfg, own, s.node, s.o).(Order)
		require.Equal(t, next, own, "step %d (%v %v): ObserveInPlace and Observe differ", k, s.node, s.o)
		st = next
	}
	return st
}

func cloneOrder(o Order) Order {
	o.Pulse, o.Owed = slices.Clone(o.Pulse), slices.Clone(o.Owed)
	return o
}

// pulsesView is a world as the sync properties see it: its configuration
// and the Pulses monitor's state.
type pulsesView struct {
	properties.View // not used beyond the methods below
	cfg             model.Config
	st              Order
}

func (v pulsesView) N() int                    { return v.cfg.N }
func (v pulsesView) Config() *model.Config     { return &v.cfg }
func (v pulsesView) Monitor(model.Monitor) any { return v.st }

// The clauses of pulse-order: the notes' rule ("a process can go from
// pulse i to i+1 only when it has received and acted on all messages sent
// during pulse i-1"; "a message sent in pulse i is received at pulse
// i+1"; "round i: pulse := pulse + 1") and Algorithm.Pulse's promise of a
// pulse's input ordered by sender.
const (
	clauseAllActedOn = "no node simulates pulse i+1 before it has received and acted on every message sent to it in pulse i"
	clauseNextPulse  = "a message sent in pulse i is acted on in pulse i+1, not before"
	clauseSentToIt   = "a node acts only on the messages sent to it"
	clauseOneByOne   = "a node simulates its pulses one after another"
	clauseBySender   = "a pulse's input is handed over ordered by sender"
)

// pulse-order accepts the runs a synchronizer may make and rejects one
// run for each clause it breaks, with the first breach.
func TestPulseOrder(t *testing.T) {
	cfg := &model.Config{N: 3}
	cases := []struct {
		name   string
		breaks string // the clause a reject row breaks; "" for an accept row
		steps  []step
		bad    string
	}{
		{name: "sent in pulse 0, taken in pulse 1",
			steps: []step{send(0, 1), take(1, 0), pulse(1, 1), pulse(0, 1)}},
		{name: "a neighbour's next pulse may run ahead",
			steps: []step{send(0, 1), take(1, 0), pulse(1, 1), send(1, 0), pulse(0, 1), take(0, 1), pulse(0, 2)}},
		{name: "a pulse's input by sender, a sender's own one after another",
			steps: []step{send(0, 1), send(2, 1), send(2, 1), take(1, 0), take(1, 2), take(1, 2), pulse(1, 1), send(1, 0), pulse(0, 1), take(0, 1), pulse(0, 2)}},
		{name: "each node's input is ordered on its own",
			steps: []step{send(2, 1), send(1, 0), take(1, 2), take(0, 1), pulse(1, 1), pulse(0, 1)}},
		{name: "each pulse's input is ordered afresh",
			steps: []step{send(2, 1), take(1, 2), pulse(1, 1), pulse(0, 1), send(0, 1), take(1, 0), pulse(1, 2)}},
		{name: "pulse 1 begun with a message of pulse 0 owed", breaks: clauseAllActedOn,
			steps: []step{send(0, 1), pulse(1, 1)},
			bad:   "n1 began pulse 1 before it received and acted on the message n0 sent it in pulse 0"},
		{name: "pulse 1 begun with one of two messages of pulse 0 taken", breaks: clauseAllActedOn,
			steps: []step{send(0, 1), send(0, 1), take(1, 0), pulse(1, 1)},
			bad:   "n1 began pulse 1 before it received and acted on the message n0 sent it in pulse 0"},
		{name: "a message sent to a node already past its pulse", breaks: clauseAllActedOn,
			steps: []step{pulse(1, 1), send(0, 1)},
			bad:   "n1 began pulse 1 before n0 sent it a message of pulse 0"},
		{name: "a message taken in the pulse it was sent", breaks: clauseNextPulse,
			steps: []step{pulse(0, 1), send(0, 1), take(1, 0)},
			bad:   "n1 acts in pulse 1 on the message n0 sent it in pulse 1"},
		{name: "a message never sent", breaks: clauseSentToIt,
			steps: []step{take(1, 0)},
			bad:   "n1 acts in pulse 1 on a message n0 did not send it in pulse 0"},
		{name: "a message taken twice", breaks: clauseSentToIt,
			steps: []step{send(0, 1), take(1, 0), take(1, 0)},
			bad:   "n1 acts in pulse 1 on a message n0 did not send it in pulse 0"},
		{name: "a message taken again in the next pulse", breaks: clauseSentToIt,
			steps: []step{send(0, 1), take(1, 0), pulse(1, 1), take(1, 0)},
			bad:   "n1 acts in pulse 2 on a message n0 did not send it in pulse 1"},
		{name: "a message its sender sent another node", breaks: clauseSentToIt,
			steps: []step{send(0, 2), take(1, 0)},
			bad:   "n1 acts in pulse 1 on a message n0 did not send it in pulse 0"},
		{name: "a message from another sender than the one sent", breaks: clauseSentToIt,
			steps: []step{send(2, 1), take(1, 0)},
			bad:   "n1 acts in pulse 1 on a message n0 did not send it in pulse 0"},
		{name: "a pulse skipped", breaks: clauseOneByOne,
			steps: []step{pulse(2, 2)},
			bad:   "n2 begins pulse 2 after pulse 0"},
		{name: "a pulse begun twice", breaks: clauseOneByOne,
			steps: []step{pulse(2, 1), pulse(2, 1)},
			bad:   "n2 begins pulse 1 after pulse 1"},
		{name: "a pulse's input out of sender order", breaks: clauseBySender,
			steps: []step{send(0, 1), send(2, 1), take(1, 2), take(1, 0)},
			bad:   "n1 is handed the message n0 sent it in pulse 0 after one from n2: a pulse's input is ordered by sender"},
		{name: "the first breach is kept", breaks: clauseOneByOne,
			steps: []step{pulse(2, 2), send(0, 1), pulse(1, 1)},
			bad:   "n2 begins pulse 2 after pulse 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.breaks == "", c.bad == "", "a row breaks a clause if and only if it is rejected")
			st := observeAll(t, cfg, c.steps)
			require.Equal(t, c.bad, st.Bad, "breaks: %s", c.breaks)
			require.Equal(t, c.bad, PulseOrder.Check(pulsesView{cfg: *cfg, st: st}), "breaks: %s", c.breaks)
		})
	}
}

// The whole state of Pulses, which the checker tells worlds apart by:
// what is owed is counted by (receiver, sender, pulse) in that order,
// without zero counts, and the taker is forgotten when its pulse begins,
// so a world has one state however its run came there.
func TestPulsesState(t *testing.T) {
	cfg := &model.Config{N: 3}
	cases := []struct {
		name  string
		steps []step
		want  Order
	}{
		{"the start: no pulse, nothing owed", nil,
			Order{Pulse: []int{0, 0, 0}, Taker: model.None}},
		{"messages counted by receiver, sender and pulse",
			[]step{pulse(2, 1), send(2, 1), send(0, 1), send(0, 1), pulse(0, 1), send(0, 2), send(0, 1)},
			Order{Pulse: []int{1, 0, 1}, Owed: []Owed{{1, 0, 0, 2}, {1, 0, 1, 1}, {1, 2, 1, 1}, {2, 0, 1, 1}}, Taker: model.None}},
		{"a message taken is no longer owed; the taker and its last sender are kept",
			[]step{send(2, 1), send(2, 1), take(1, 2)},
			Order{Pulse: []int{0, 0, 0}, Owed: []Owed{{1, 2, 0, 1}}, Taker: 1, TakenFrom: 2}},
		{"a pulse begun: its number, no taker",
			[]step{send(2, 1), take(1, 2), pulse(1, 1)},
			Order{Pulse: []int{0, 1, 0}, Owed: []Owed{}, Taker: model.None}},
		{"pulses counted once the order is broken, never backwards",
			[]step{send(0, 1), pulse(1, 1), pulse(1, 3), pulse(1, 2), send(1, 0), take(0, 1)},
			Order{Pulse: []int{0, 3, 0}, Owed: []Owed{{1, 0, 0, 1}}, Taker: model.None,
				Bad: "n1 began pulse 1 before it received and acted on the message n0 sent it in pulse 0"}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, observeAll(t, cfg, c.steps), c.name)
	}
}

// all-pulses where runs end, of an algorithm of two pulses on two nodes.
func TestAllPulses(t *testing.T) {
	cfg := model.Config{N: 2, Topology: "line"}
	full := []step{send(0, 1), send(1, 0), take(0, 1), pulse(0, 1), send(0, 1), take(1, 0), pulse(1, 1), send(1, 0),
		take(0, 1), pulse(0, 2), take(1, 0), pulse(1, 2)}
	const broken = "n1 began pulse 1 before it received and acted on the message n0 sent it in pulse 0"
	cases := []struct {
		name   string
		breaks string // the clause a reject row breaks; "" for an accept row
		steps  []step
		want   string
		order  string // pulse-order's verdict
	}{
		{name: "every node through every pulse", steps: full},
		{name: "every pulse run though the order broke",
			steps: []step{send(0, 1), pulse(1, 1), pulse(0, 1), pulse(0, 2), pulse(1, 2)}, order: broken},
		{name: "no node begins", breaks: "every node simulates every pulse",
			want: "the run is over and n0 has simulated 0 of 2 pulses"},
		{name: "a node stops short", breaks: "every node simulates every pulse", steps: full[:len(full)-2],
			want: "the run is over and n1 has simulated 1 of 2 pulses"},
		{name: "a node stops short once the order broke", breaks: "every node simulates every pulse",
			steps: []step{send(0, 1), pulse(1, 1), pulse(0, 1), pulse(0, 2)},
			want:  "the run is over and n1 has simulated 1 of 2 pulses", order: broken},
		{name: "a node runs beyond the last pulse", breaks: "no node simulates more pulses than the algorithm's",
			steps: append(slices.Clip(full), pulse(1, 3)),
			want:  "n1 has simulated pulse 3 of an algorithm of 2"},
		{name: "the first node runs beyond the last pulse", breaks: "no node simulates more pulses than the algorithm's",
			steps: append(slices.Clip(full), pulse(0, 3)),
			want:  "n0 has simulated pulse 3 of an algorithm of 2"},
	}
	all := AllPulses(echo{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.breaks == "", c.want == "", "a row breaks a clause if and only if it is rejected")
			v := pulsesView{cfg: cfg, st: observeAll(t, &cfg, c.steps)}
			require.Equal(t, c.want, all.Check(v), "breaks: %s", c.breaks)
			require.Equal(t, c.order, PulseOrder.Check(v), "pulse-order")
		})
	}
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
				o = SendObs(model.NodeID(rapid.IntRange(0, 2).Draw(t, "to")))
			case k == 1: // take something owed, to its receiver
				w := st.Owed[rapid.IntRange(0, len(st.Owed)-1).Draw(t, "owed")]
				node, o = w.To, TakeObs(w.From)
			default:
				o = PulseObs(st.Pulse[node] + rapid.IntRange(0, 2).Draw(t, "ahead"))
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
