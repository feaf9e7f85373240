package round

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Order is the state of the Pulses monitor: the pulse each node simulates
// (0 until it begins pulse 1), the algorithm messages sent and not yet
// handed to their receiver, and the first breach of the notes' rule or of
// Algorithm.Pulse's input order, if any ("" while none).
type Order struct {
	Pulse []int
	Owed  []Owed
	Bad   string
	// Taker is the node whose next pulse's input is being handed over
	// (its ObsTake observations come before its ObsPulse, in one step),
	// TakenFrom the sender of the last message it was handed; Taker is
	// model.None between pulses.
	Taker, TakenFrom model.NodeID
}

// Owed counts the messages From sent To in pulse Pulse that the
// synchronizer has not yet handed to To's algorithm.
type Owed struct {
	To, From model.NodeID
	Pulse    int
	Count    int
}

// Pulses is the monitor of pulse order, fed by ObsPulse, ObsSend and
// ObsTake. Its state is an Order: N pulse numbers and, under a synchronizer
// that keeps neighbours within a pulse of each other, the messages of at most
// two pulses, so it stays small. A random walk updates it in place
// (model.InPlaceMonitor): it is fed at nearly every step.
var Pulses = properties.NewInPlaceMonitor("pulses",
	func(cfg *model.Config) Order { return Order{Pulse: make([]int, cfg.N), Taker: model.None} },
	func(_ *model.Config, st Order, node model.NodeID, o model.Obs) Order {
		return observe(st, node, o, false)
	},
	func(_ *model.Config, st Order, node model.NodeID, o model.Obs) Order {
		return observe(st, node, o, true)
	})

// observe is the monitor's step; inPlace: st's slices may be written.
func observe(st Order, node model.NodeID, o model.Obs, inPlace bool) Order {
	if st.Bad == "" {
		st = checkOrder(st, node, o, inPlace)
	}
	// A pulse is counted here, whether it keeps the order or not: all-pulses
	// reads the count once the order is broken too.
	if o.Kind == ObsPulse && o.Arg > st.Pulse[node] {
		st.Pulse = setPulse(st.Pulse, node, o.Arg, inPlace)
	}
	return st
}

// setPulse sets node's pulse in ps, or in a copy unless inPlace.
func setPulse(ps []int, node model.NodeID, p int, inPlace bool) []int {
	if !inPlace {
		ps = slices.Clone(ps)
	}
	ps[node] = p
	return ps
}

// checkOrder follows the messages of each pulse until the order breaks;
// observe counts the pulses.
func checkOrder(st Order, node model.NodeID, o model.Obs, inPlace bool) Order {
	switch o.Kind {
	case ObsSend:
		to, p := model.NodeID(o.Arg), st.Pulse[node]
		if st.Pulse[to] > p {
			st.Bad = fmt.Sprintf("%v began pulse %d before %v sent it a message of pulse %d", to, st.Pulse[to], node, p)
			return st
		}
		st.Owed = owe(st.Owed, Owed{To: to, From: node, Pulse: p}, 1, inPlace)
	case ObsTake:
		from, p := model.NodeID(o.Arg), st.Pulse[node]
		if !slices.ContainsFunc(st.Owed, func(w Owed) bool { return w.To == node && w.From == from && w.Pulse == p }) {
			st.Bad = fmt.Sprintf("%v acts in pulse %d on a message %v did not send it in pulse %d", node, p+1, from, p)
			if i := slices.IndexFunc(st.Owed, func(w Owed) bool { return w.To == node && w.From == from }); i >= 0 {
				st.Bad = fmt.Sprintf("%v acts in pulse %d on the message %v sent it in pulse %d", node, p+1, from, st.Owed[i].Pulse)
			}
			return st
		}
		if st.Taker == node && from < st.TakenFrom {
			st.Bad = fmt.Sprintf("%v is handed the message %v sent it in pulse %d after one from %v: a pulse's input is ordered by sender", node, from, p, st.TakenFrom)
			return st
		}
		st.Owed = owe(st.Owed, Owed{To: node, From: from, Pulse: p}, -1, inPlace)
		st.Taker, st.TakenFrom = node, from
	case ObsPulse:
		st.Taker, st.TakenFrom = model.None, 0
		if o.Arg != st.Pulse[node]+1 {
			st.Bad = fmt.Sprintf("%v begins pulse %d after pulse %d", node, o.Arg, st.Pulse[node])
			return st
		}
		for _, w := range st.Owed {
			if w.To == node && w.Pulse < o.Arg {
				st.Bad = fmt.Sprintf("%v began pulse %d before it received and acted on the message %v sent it in pulse %d", node, o.Arg, w.From, w.Pulse)
				return st
			}
		}
	}
	return st
}

// owe adds d to the count of w's (To, From, Pulse) in ws, kept sorted,
// without zero counts: in ws itself if inPlace, else in a fresh slice.
func owe(ws []Owed, w Owed, d int, inPlace bool) []Owed {
	i, found := slices.BinarySearchFunc(ws, w, compareOwed)
	if !inPlace {
		ws = append(make([]Owed, 0, len(ws)+1), ws...)
	}
	switch {
	case !found:
		w.Count = d
		return slices.Insert(ws, i, w)
	case ws[i].Count+d == 0:
		return slices.Delete(ws, i, i+1)
	default:
		ws[i].Count += d
		return ws
	}
}

// compareOwed orders owed messages by receiver, sender and pulse.
func compareOwed(a, b Owed) int {
	return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.From, b.From), cmp.Compare(a.Pulse, b.Pulse))
}

// PulseOrder (pulse-order) is the notes' rule of a synchronizer: no node
// simulates pulse i+1 before it has received and acted on every algorithm
// message sent to it in pulse i, and each such message is acted on in
// pulse i+1, not later; and, as Algorithm.Pulse promises, the messages of
// a pulse are handed over ordered by sender. It is judged in every world,
// over Pulses.
var PulseOrder = &properties.Property{
	Name: "pulse-order", Family: "sync", When: properties.Always, Monitor: Pulses, MonitorOnly: true,
	Doc: "no node simulates pulse i+1 before it has received and acted on every message sent to it in pulse i",
	Check: func(v properties.View) string {
		return properties.MonitorState[Order](v, Pulses).Bad
	},
}

// AllPulses (all-pulses) is the liveness half of a synchronizer, judged
// where runs end: every node has simulated every pulse alg asks for, so
// no run stops short, deadlocked, and none beyond: the algorithm's last
// pulse ends it. It reads Pulses.
func AllPulses[S, M any](alg Algorithm[S, M]) *properties.Property {
	return &properties.Property{
		Name: "all-pulses", Family: "sync", When: properties.AtQuiescence, Monitor: Pulses, MonitorOnly: true,
		Doc: "where a run ends every node has simulated every pulse of the algorithm, and no more",
		Check: func(v properties.View) string {
			o := properties.MonitorState[Order](v, Pulses)
			for i := range model.NodeID(v.N()) {
				ctx := model.NewCtx[M](*v.Config(), i)
				switch want := alg.Pulses(&ctx.Env); {
				case o.Pulse[i] < want:
					return fmt.Sprintf("the run is over and %v has simulated %d of %d pulses", i, o.Pulse[i], want)
				case o.Pulse[i] > want:
					return fmt.Sprintf("%v has simulated pulse %d of an algorithm of %d", i, o.Pulse[i], want)
				}
			}
			return ""
		},
	}
}
