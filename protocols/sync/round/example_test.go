package round_test

import (
	"context"
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/sync/alpha"
	"github.com/vigil-check/vigil/protocols/sync/round"
)

// MaxRank is a synchronous election of a user's own: in every pulse each
// node tells its neighbours the node of highest rank it knows of; after
// N-1 pulses everyone knows the highest.
type MaxRank struct{}

func (MaxRank) Start(ctx *round.Ctx[model.NodeID]) model.NodeID {
	ctx.SendAll(ctx.Neighbors(), ctx.Self())
	return ctx.Self()
}

func (MaxRank) Pulse(ctx *round.Ctx[model.NodeID], best model.NodeID, i int, in []round.In[model.NodeID]) model.NodeID {
	for _, m := range in {
		if ctx.Rank(m.Msg) > ctx.Rank(best) {
			best = m.Msg
		}
	}
	if i == ctx.N()-1 {
		ctx.Observe(model.Leader(best))
	}
	ctx.SendAll(ctx.Neighbors(), best)
	return best
}

func (MaxRank) Pulses(env *model.Env) int { return env.N() - 1 }

// A synchronous algorithm of your own, run over synchronizer α on an
// asynchronous network.
func Example() {
	cfg := model.Config{N: 4, Topology: "line", Channels: model.Unordered, Ranks: []int{3, 0, 2, 1}}
	m, err := checker.Compile("maxrank", alpha.Over(MaxRank{}), cfg,
		properties.HighestLeader, properties.Agreement, properties.Termination, round.PulseOrder)
	if err != nil {
		panic(err)
	}
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	fmt.Println(r.Verdict)
	// Output:
	// pass
}
