package round_test

import (
	. "github.com/vigil-check/vigil/protocols/sync/round"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker/checktest"
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
			[]model.Sent[int]{{To: 0, Msg: 0}, {To: 2, Msg: 0}}, []model.Obs{SendObs(0), SendObs(2)}},
		{"pulse 1: takes, the pulse, the algorithm's effects in order", 1, in, 2,
			[]model.Sent[int]{{To: 0, Msg: 1}, {To: 2, Msg: 1}}, []model.Obs{TakeObs(0), TakeObs(2), PulseObs(1), model.Leader(2), SendObs(0), SendObs(2)}},
		{"the last pulse sends nothing", 2, in, 2,
			nil, []model.Obs{TakeObs(0), TakeObs(2), PulseObs(2), model.Leader(2)}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[string](cfg, 1)
		got, out := Simulate(ctx, echo{}, 0, c.i, c.in)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, out, c.name)
		require.Equal(t, c.observed, checktest.Observed(ctx), c.name)
	}
}

func TestSendToANonNeighbourPanics(t *testing.T) {
	ctx := NewCtx[int](model.Config{N: 3, Topology: "line"}, 0)
	require.Panics(t, func() { ctx.Send(2, 1) })
	require.Panics(t, func() { ctx.Send(0, 1) })
	ctx.Send(1, 7)
	require.Equal(t, []model.Sent[int]{{To: 1, Msg: 7}}, ctx.Sent())
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

// The observations the synchronizers report, each of its kind and with its
// argument, as a trace shows them.
func TestObservations(t *testing.T) {
	for _, c := range []struct {
		obs  model.Obs
		kind model.ObsKind
		want string
	}{
		{PulseObs(3), ObsPulse, "pulse=3"},
		{SendObs(2), ObsSend, "pulse-send=n2"},
		{TakeObs(1), ObsTake, "pulse-take=n1"},
	} {
		require.Equal(t, c.kind, c.obs.Kind, c.want)
		require.Equal(t, c.want, c.obs.String())
	}
}
