package properties

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// The agreement family: the Byzantine generals of L. Lamport, R. Shostak
// and M. Pease, The Byzantine Generals Problem (ACM TOPLAS 4(3), 1982). A
// commander sends an order to its lieutenants; some generals may be
// traitors (model.Config.Traitors), and the properties judge the loyal
// ones alone, told apart by the ObsTraitor the checker reports when a node
// turns traitor.

// Orders the generals give and obey, as observation arguments.
const (
	Retreat = 0
	Attack  = 1
)

// OrderName names an order: "retreat" or "attack".
func OrderName(v int) string {
	if v == Attack {
		return "attack"
	}
	if v == Retreat {
		return "retreat"
	}
	return fmt.Sprintf("order %d", v)
}

var (
	// Commanded is the observation kind "this node, the commander, sends
	// order Arg to its lieutenants", reported as it sends it.
	Commanded = model.NewObsKind("command", OrderName)
	// Obeyed is the observation kind "this node, a lieutenant, obeys
	// order Arg", reported once, as it decides.
	Obeyed = model.NewObsKind("obey", OrderName)
)

// Command is the observation "this node commands order v".
func Command(v int) model.Obs { return model.Obs{Kind: Commanded, Arg: v} }

// Obey is the observation "this node obeys order v".
func Obey(v int) model.Obs { return model.Obs{Kind: Obeyed, Arg: v} }

// NoOrder stands for "no order" in GeneralsState.
const NoOrder = -1

// GeneralsState is the Generals monitor's state.
type GeneralsState struct {
	// Commander is the node that commanded, or model.None; Order its
	// order, or NoOrder.
	Commander model.NodeID
	Order     int
	// Obeyed[i] is the order node i obeys, or NoOrder; Traitor[i]
	// whether it has turned traitor.
	Obeyed  []int
	Traitor []bool
}

// Generals is the agreement monitor, fed by Commanded and Obeyed
// observations and by ObsTraitor: who commanded what, what each
// lieutenant obeys, and who is a traitor. A node that turns traitor is
// one for the rest of the run, and what it obeyed, before or after, is
// no loyal lieutenant's decision: the paper's interactive consistency
// conditions speak of the generals loyal throughout.
var Generals model.Monitor = generalsMonitor{}

type generalsMonitor struct{}

func (generalsMonitor) Name() string { return "generals" }

func (generalsMonitor) Start(cfg *model.Config) any {
	obeyed := make([]int, cfg.N)
	for i := range obeyed {
		obeyed[i] = NoOrder
	}
	return GeneralsState{Commander: model.None, Order: NoOrder, Obeyed: obeyed, Traitor: make([]bool, cfg.N)}
}

func (generalsMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	s := st.(GeneralsState)
	switch o.Kind {
	case Commanded:
		if s.Commander == model.None {
			s.Commander, s.Order = node, o.Arg
		}
	case Obeyed:
		if s.Obeyed[node] != NoOrder {
			return st
		}
		s.Obeyed = slices.Clone(s.Obeyed)
		s.Obeyed[node] = o.Arg
	case model.ObsTraitor:
		s.Traitor = slices.Clone(s.Traitor)
		s.Traitor[node] = true
	}
	return s
}

func generals(v View) GeneralsState { return v.Monitor(Generals).(GeneralsState) }

// loyalObeying lists the loyal lieutenants that obey an order, in id
// order.
func loyalObeying(s GeneralsState) []model.NodeID {
	var out []model.NodeID
	for i, o := range s.Obeyed {
		if o != NoOrder && !s.Traitor[i] && model.NodeID(i) != s.Commander {
			out = append(out, model.NodeID(i))
		}
	}
	return out
}

// GeneralsDecided: some run has a loyal lieutenant obey an order, the
// situation IC1 and IC2 speak of (their trigger).
var GeneralsDecided = &Property{
	Name: "decided", Family: "agreement", When: Possibly, Monitor: Generals, MonitorOnly: true,
	Doc: "some loyal lieutenant decides which order to obey",
	Check: func(v View) string {
		s := generals(v)
		if l := loyalObeying(s); len(l) > 0 {
			return fmt.Sprintf("%v obeys %s", l[0], OrderName(s.Obeyed[l[0]]))
		}
		return ""
	},
}

// GeneralsIC1: interactive consistency condition IC1, "all loyal
// lieutenants obey the same order".
var GeneralsIC1 = &Property{
	Name: "ic1", Family: "agreement", When: Always, Monitor: Generals, MonitorOnly: true, Trigger: GeneralsDecided,
	Doc: "in every reachable world all loyal lieutenants that have decided obey the same order (IC1)",
	Check: func(v View) string {
		s := generals(v)
		l := loyalObeying(s)
		for _, j := range l {
			if s.Obeyed[j] != s.Obeyed[l[0]] {
				return fmt.Sprintf("loyal lieutenants disagree: %v obeys %s, %v obeys %s", l[0], OrderName(s.Obeyed[l[0]]), j, OrderName(s.Obeyed[j]))
			}
		}
		return ""
	},
}

// GeneralsIC2: interactive consistency condition IC2, "if the commanding
// general is loyal, then every loyal lieutenant obeys the order he sends".
var GeneralsIC2 = &Property{
	Name: "ic2", Family: "agreement", When: Always, Monitor: Generals, MonitorOnly: true, Trigger: GeneralsDecided,
	Doc: "in every reachable world, if the commander is loyal, every loyal lieutenant that has decided obeys its order (IC2)",
	Check: func(v View) string {
		s := generals(v)
		if s.Commander == model.None || s.Traitor[s.Commander] {
			return ""
		}
		for _, j := range loyalObeying(s) {
			if s.Obeyed[j] != s.Order {
				return fmt.Sprintf("the loyal commander %v ordered %s, and loyal %v obeys %s", s.Commander, OrderName(s.Order), j, OrderName(s.Obeyed[j]))
			}
		}
		return ""
	},
}

// undecidedLoyal returns the live loyal lieutenants that obey no order
// yet, one bit each (nodes 0..63: from 64 on, 1<<i is 0).
func undecidedLoyal(v View) uint64 {
	s := generals(v)
	var m uint64
	for i, o := range s.Obeyed {
		id := model.NodeID(i)
		if o == NoOrder && !s.Traitor[i] && id != s.Commander && v.Alive(id) {
			m |= 1 << i
		}
	}
	return m
}

// GeneralsTermination: every live loyal lieutenant eventually decides.
var GeneralsTermination = &Property{
	Name: "termination", Family: "agreement", When: Eventually, Monitor: Generals, MonitorOnly: true,
	Doc:     "on every fair run every live loyal lieutenant eventually decides which order to obey",
	Pending: undecidedLoyal,
	Check: func(v View) string {
		ids := nodesOf(undecidedLoyal(v))
		if len(ids) == 0 {
			return ""
		}
		return fmt.Sprintf("%s, alive and loyal, ha%s decided nothing", joinNodes(ids), hasHave(len(ids)))
	},
	Obligation: func(b int) string { return fmt.Sprintf("%v has decided nothing", model.NodeID(b)) },
}

func init() {
	register(GeneralsDecided, GeneralsIC1, GeneralsIC2, GeneralsTermination)
}
