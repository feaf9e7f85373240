package checker_test

import (
	"context"
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Flood is a user-written election: every node sends its rank to every
// other node and, once it has heard from all of them, follows the highest.
type Flood struct{}

// FloodState is one node's state: plain values only.
type FloodState struct {
	Heard int          // how many ranks it has received
	Best  model.NodeID // the node of highest rank seen so far
}

// FloodMsg carries a rank.
type FloodMsg struct{ Rank int }

func (Flood) Init(ctx *model.Ctx[FloodMsg]) FloodState {
	ctx.SendAll(ctx.Nodes(func(model.NodeID) bool { return true }), FloodMsg{ctx.MyRank()})
	return FloodState{Best: ctx.Self()}
}

func (Flood) Receive(ctx *model.Ctx[FloodMsg], s FloodState, from model.NodeID, m FloodMsg) FloodState {
	s.Heard++
	if m.Rank > ctx.Rank(s.Best) {
		s.Best = from
	}
	if s.Heard == ctx.N()-1 {
		ctx.Observe(model.Leader(s.Best))
	}
	return s
}

func (Flood) Timeout(_ *model.Ctx[FloodMsg], s FloodState, _ model.Timer) FloodState { return s }
func (Flood) Recover(_ *model.Ctx[FloodMsg], s FloodState) FloodState                { return s }

// Checking a protocol of your own: compile it for a configuration with the
// properties to check, and run an engine.
func Example_yourOwnProtocol() {
	props := []*properties.Property{properties.Agreement, properties.HighestLeader, properties.Termination, properties.UniqueLeader}
	cfg := model.Config{N: 3, Channels: model.Unordered}
	m, err := checker.Compile("flood", Flood{}, cfg, props...)
	if err != nil {
		panic(err)
	}
	r := checker.Exhaustive(context.Background(), m, checker.Options{Messages: true})
	for _, p := range r.Properties {
		fmt.Println(p.Name, p.Verdict)
	}
	// Each of the 6 messages is delivered or not, and the delivered set
	// determines every node state: 2^6 worlds.
	fmt.Println(r.Stats.States, "states;", r.Messages[0])

	// With a crash, the survivors may follow a dead node: its rank was
	// already on its way to them.
	cfg.Crashes = 1
	if m, err = checker.Compile("flood", Flood{}, cfg, props...); err != nil {
		panic(err)
	}
	r = checker.Exhaustive(context.Background(), m, checker.Options{})
	fmt.Println(r.Property("highest-leader").Detail)
	// Output:
	// agreement pass
	// highest-leader pass
	// termination pass
	// unique-leader pass
	// 64 states; total 6
	// n0 believes n2 leads, but the live node of highest rank is n1
}
