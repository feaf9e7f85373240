// Package om is the oral-messages algorithm OM(m) of L. Lamport, R.
// Shostak and M. Pease, The Byzantine Generals Problem (ACM TOPLAS 4(3),
// 1982), section 3 (Lamport et al. below), which reaches agreement among
// n generals of whom at most m are traitors whenever n > 3m.
//
// Node n0 is the commander and the others its lieutenants. The paper's
// algorithm, for m > 0:
//
//  1. The commander sends his value to every lieutenant.
//  2. For each i, let v_i be the value Lieutenant i receives from the
//     commander, or RETREAT if he receives none. Lieutenant i acts as the
//     commander in OM(m-1) to send v_i to each of the n-2 other
//     lieutenants.
//  3. For each i and each j ≠ i, let v_j be the value Lieutenant i
//     received from Lieutenant j in step 2 (using OM(m-1)), or RETREAT;
//     Lieutenant i uses majority(v_1, ..., v_{n-1}).
//
// and OM(0): the commander sends his value to every lieutenant, and each
// uses the value he receives. The recursion unrolls into messages that
// carry the path of generals that relayed them, from the commander: the
// commander's order carries [n0]; a lieutenant i that receives value v
// along path p (p's last general is the sender) of at most m generals
// relays v along p+[i] to every general not on p+[i], which is the
// commander's part in the instance of OM(m-len(p)) that p names. A
// lieutenant decides once it holds a value for every path that can reach
// it: value(p) is the value received along p when p has m+1 generals
// (OM(0)), and otherwise the majority of the value received along p and
// value(p+[j]) for every other lieutenant j of p's instance, RETREAT on a
// tie (the paper's choice of default). OM(m) sends (n-1) + (n-1)(n-2) + …
// + (n-1)(n-2)…(n-m-1) messages: 9 for OM(1) at n = 4.
//
// The commander's value is a local action, "order attack" or "order
// retreat", so that both are explored and a traitor commander may lie from
// his first message. Traitors are the checker's (model.Config.Traitors):
// a traitor's handlers run as written and each message it sends is one
// Forge lists, the same path with either value. A path is never forged: a
// receiver knows who sent a message (the paper's assumption A2), and a
// value relayed along a path that is not the sender's own is no message of
// OM; a missing message, which the paper reads as RETREAT, is what a
// traitor's RETREAT already says.
//
// Parameter m (default: the run's traitors, model.Env.Traitors) is the m
// of OM(m), which must be at most n-2. The paper's assumption A3, that
// the absence of a message can be detected, needs timeouts in a
// synchronous system; vigil's runs are asynchronous and crash nothing
// here, so a lieutenant simply waits for every value it is owed.
package om

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// MParam is the parameter m of OM(m); -1 (the default) takes the run's
// traitors.
const MParam = "m"

// Commander is the commanding general.
const Commander model.NodeID = 0

// Msg is a value relayed along a path of generals, the commander first and
// the sender last.
type Msg struct {
	Path  []model.NodeID
	Value int // properties.Attack or properties.Retreat
}

// Kind is "order" for the commander's message, "relay" for a lieutenant's.
func (m Msg) Kind() string {
	if len(m.Path) == 1 {
		return "order"
	}
	return "relay"
}

func (m Msg) String() string { return properties.OrderName(m.Value) + " " + pathKey(m.Path) }

// Order is the commander's local action: give order Value.
type Order struct{ Value int }

func (Order) Kind() string     { return "order" }
func (o Order) String() string { return "order " + properties.OrderName(o.Value) }

// State is one general's state: the commander's whether he has given his
// order; a lieutenant's the values received, by path (see pathKey), and
// the order he obeys once decided.
type State struct {
	Ordered bool
	Values  map[string]int
	Decided bool
	Obeys   int
}

func (s State) String() string {
	switch {
	case s.Ordered:
		return "ordered"
	case len(s.Values) == 0:
		return "waiting"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s.Values)) {
		parts = append(parts, k+":"+properties.OrderName(s.Values[k]))
	}
	out := "values{" + strings.Join(parts, " ") + "}"
	if s.Decided {
		out += " obeys " + properties.OrderName(s.Obeys)
	}
	return out
}

// pathKey names a path: "[n0 n2]".
func pathKey(p []model.NodeID) string {
	ids := make([]string, len(p))
	for i, j := range p {
		ids[i] = j.String()
	}
	return "[" + strings.Join(ids, " ") + "]"
}

// Protocol is OM(m).
type Protocol struct{}

// rounds is the m of OM(m) in env's run.
func rounds(env *model.Env) int {
	if m := env.Param(MParam, -1); m >= 0 {
		return m
	}
	return env.Traitors()
}

func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	if ctx.Self() == Commander {
		return State{}
	}
	return State{Values: map[string]int{}}
}

// Actions: the commander, before his order, may give either.
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	if env.Self() != Commander || s.Ordered {
		return nil
	}
	return []model.Action{Order{properties.Attack}, Order{properties.Retreat}}
}

// Do is step 1: the commander sends his value to every lieutenant.
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	v := a.(Order).Value
	ctx.Observe(properties.Command(v))
	ctx.SendAll(ctx.Nodes(func(model.NodeID) bool { return true }), Msg{Path: []model.NodeID{Commander}, Value: v})
	return State{Ordered: true}
}

// Receive is steps 2 and 3 at lieutenant i: keep the value received
// along the path, relay it as the commander of OM(m-len(path)) while the
// path is short enough, and decide once every value owed has come.
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	self, k := ctx.Self(), pathKey(m.Path)
	if self == Commander || s.Decided || len(m.Path) == 0 || m.Path[len(m.Path)-1] != from || slices.Contains(m.Path, self) {
		return s // no message of OM
	}
	if _, dup := s.Values[k]; dup {
		return s
	}
	next := State{Values: make(map[string]int, len(s.Values)+1)}
	for p, v := range s.Values {
		next.Values[p] = v
	}
	next.Values[k] = m.Value
	if len(m.Path) <= rounds(&ctx.Env) {
		path := append(slices.Clone(m.Path), self)
		ctx.SendAll(ctx.Nodes(func(j model.NodeID) bool { return !slices.Contains(path, j) }), Msg{Path: path, Value: m.Value})
	}
	if len(next.Values) == owed(ctx.N(), rounds(&ctx.Env)) {
		next.Decided, next.Obeys = true, value(&ctx.Env, next.Values, []model.NodeID{Commander})
		ctx.Observe(properties.Obey(next.Obeys))
	}
	return next
}

// owed is how many values a lieutenant receives in OM(m) among n
// generals: one per path from the commander through distinct other
// lieutenants, of 1 to m+1 generals.
func owed(n, m int) int {
	total, paths := 0, 1
	for length := 1; length <= m+1; length++ {
		total += paths
		paths *= n - 1 - length // the next general: not on the path, not oneself
	}
	return total
}

// value is the value lieutenant env.Self() uses for the instance of OM
// whose commander's path is p: what it received along p in OM(0), and
// else the majority of that and of value(p+[j]) for every other
// lieutenant j of the instance (step 3).
func value(env *model.Env, values map[string]int, p []model.NodeID) int {
	received := values[pathKey(p)]
	if len(p) == rounds(env)+1 {
		return received
	}
	vs := []int{received}
	for _, j := range env.Nodes(func(j model.NodeID) bool { return !slices.Contains(p, j) }) {
		vs = append(vs, value(env, values, append(slices.Clone(p), j)))
	}
	return majority(vs)
}

// majority is the value most of vs hold, RETREAT on a tie.
func majority(vs []int) int {
	attack := 0
	for _, v := range vs {
		if v == properties.Attack {
			attack++
		}
	}
	if 2*attack > len(vs) {
		return properties.Attack
	}
	return properties.Retreat
}

// Forge lists what a traitor may send in place of m: m, then m with the
// other value, along the same path.
func (Protocol) Forge(_ *model.Env, _ model.NodeID, m Msg) []Msg {
	other := properties.Attack
	if m.Value == properties.Attack {
		other = properties.Retreat
	}
	return []Msg{m, {Path: m.Path, Value: other}}
}

// Vocabulary declares the messages and actions of OM.
func (Protocol) Vocabulary() model.Vocabulary {
	return model.Vocabulary{Messages: []string{"order", "relay"}, Actions: []string{"order"}}
}

// Validate refuses what OM(m) cannot run: m below -1, or a path longer
// than the generals.
func Validate(cfg model.Config) error {
	m := cfg.Param(MParam, -1)
	if m < 0 {
		m = cfg.Traitors
	}
	switch {
	case cfg.Param(MParam, -1) < -1:
		return fmt.Errorf("agreement/om: m must be at least 0 (or -1: the run's traitors), not %d", cfg.Param(MParam, -1))
	case cfg.N < 2:
		return fmt.Errorf("agreement/om: a commander needs at least one lieutenant: n must be at least 2, not %d", cfg.N)
	case m > cfg.N-2:
		return fmt.Errorf("agreement/om: OM(%d) relays along paths of %d generals, more than n-1 = %d: m must be at most n-2", m, m+1, cfg.N-1)
	case cfg.N > 64:
		return fmt.Errorf("agreement/om: at most 64 generals, not %d", cfg.N)
	}
	return nil
}
