package multicast

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

type msg struct{ V Value }

func val(p model.NodeID, k int) Value { return Value{ID: model.MsgID{Sender: p, Seq: k}} }

// Sends go out at once when nothing can interrupt a loop, else one step
// each; deliveries wait only for the sends decided before them.
func TestHandlersWork(t *testing.T) {
	v := val(0, 1)
	cfg := model.Config{N: 3}
	ctx := model.NewCtx[msg](cfg, 0)
	p := Process[msg]{}.Send(ctx, Group(&ctx.Env), msg{v}).Deliver(ctx, v)
	require.Empty(t, p.Work)
	require.Equal(t, []model.Sent[msg]{{To: 0, Msg: msg{v}}, {To: 1, Msg: msg{v}}, {To: 2, Msg: msg{v}}}, ctx.Sent())
	require.Equal(t, []model.Obs{model.Delivered(v.ID)}, ctx.Observed())

	cfg.Crashes = 1
	ctx = model.NewCtx[msg](cfg, 0)
	p = Process[msg]{}.Send(ctx, Others(&ctx.Env), msg{v}).Deliver(ctx, v)
	require.Nil(t, ctx.Sent())
	require.Nil(t, ctx.Observed())
	require.Equal(t, []model.Action{"send n1"}, Actions(&ctx.Env, p))
	before := append([]Item[msg](nil), p.Work...)

	ctx = model.NewCtx[msg](cfg, 0)
	q := Step(ctx, p)
	require.Equal(t, before, p.Work, "Step changed its input")
	require.Equal(t, []model.Sent[msg]{{To: 1, Msg: msg{v}}}, ctx.Sent())
	require.Nil(t, ctx.Observed())
	require.Equal(t, []model.Action{"send n2"}, Actions(&ctx.Env, q))

	ctx = model.NewCtx[msg](cfg, 0)
	q = Step(ctx, q)
	require.Equal(t, []model.Sent[msg]{{To: 2, Msg: msg{v}}}, ctx.Sent())
	require.Equal(t, []model.Obs{model.Delivered(v.ID)}, ctx.Observed(), "the delivery behind the last send")
	require.Nil(t, q.Work)
}

// The application's operations: what is enabled, and what each observes.
func TestHandlersOperations(t *testing.T) {
	env := func(params map[string]int, init []bool) *model.Env {
		return &model.NewCtx[msg](model.Config{N: 2, Params: params, Initiators: init}, 1).Env
	}
	cases := []struct {
		name string
		env  *model.Env
		p    Process[msg]
		want []model.Action
	}{
		{"multicast", env(nil, nil), Process[msg]{}, []model.Action{"multicast"}},
		{"operations used up", env(nil, nil), Process[msg]{Issued: 1}, nil},
		{"msgs 2", env(map[string]int{"msgs": 2}, nil), Process[msg]{Issued: 1}, []model.Action{"multicast"}},
		{"not an initiator", env(nil, []bool{true, false}), Process[msg]{}, nil},
		{"a register", env(map[string]int{"reads": 1}, nil), Process[msg]{}, []model.Action{"write", "read"}},
		{"a client waits for its operation", env(map[string]int{"reads": 2, "msgs": 2}, nil), Process[msg]{Issued: 1, Waiting: true}, nil},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Actions(c.env, c.p), c.name)
	}

	reg := model.MsgID{Sender: 0, Seq: 1}
	for _, c := range []struct {
		reads     Reads
		a         model.Action
		multicast bool
		waiting   bool
		obs       []model.Obs
	}{
		{NoReads, "multicast", true, false, []model.Obs{model.Multicast(model.MsgID{Sender: 1, Seq: 1})}},
		{LocalReads, "write", true, true, []model.Obs{model.Multicast(model.MsgID{Sender: 1, Seq: 1})}},
		{LocalReads, "read", false, false, []model.Obs{model.ReadCall(), model.ReadReturn(reg)}},
		{OrderedReads, "read", true, true, []model.Obs{model.ReadCall()}},
	} {
		ctx := model.NewCtx[msg](model.Config{N: 2, Params: map[string]int{"reads": int(c.reads)}}, 1)
		p, v, ok := Issue(ctx, Process[msg]{Register: reg}, c.a)
		require.Equal(t, c.multicast, ok, "%v %s", c.reads, c.a)
		require.Equal(t, c.waiting, p.Waiting, "%v %s", c.reads, c.a)
		require.Equal(t, 1, p.Issued)
		require.Equal(t, model.MsgID{Sender: 1, Seq: 1}, v.ID)
		require.Equal(t, c.obs, ctx.Observed(), "%v %s", c.reads, c.a)
	}

	// delivering a write sets the register; the reader's own ordered read
	// returns it, and its client may go on
	ctx := model.NewCtx[msg](model.Config{N: 2, Params: map[string]int{"reads": 2}}, 1)
	p := Process[msg]{Waiting: true}.Deliver(ctx, val(0, 1))
	require.Equal(t, reg, p.Register)
	require.True(t, p.Waiting)
	p = p.Deliver(ctx, Value{ID: model.MsgID{Sender: 1, Seq: 1}, Read: true})
	require.False(t, p.Waiting)
	require.Equal(t, []model.Obs{model.Delivered(reg), model.ReadReturn(reg)}, ctx.Observed())
}

func TestHandlersParams(t *testing.T) {
	require.NoError(t, CheckParams("x", model.Config{N: 2}, false))
	require.ErrorContains(t, CheckParams("x", model.Config{N: 2, Params: map[string]int{"msgs": 0}}, false), "msgs must be between 1 and 65535")
	require.ErrorContains(t, CheckParams("x", model.Config{N: 2, Params: map[string]int{"reads": 2}}, false), "needs a total order")
	require.NoError(t, CheckParams("x", model.Config{N: 2, Params: map[string]int{"reads": 2}}, true))
	for s, want := range map[string]Reads{"none": NoReads, "local": LocalReads, "ordered": OrderedReads} {
		r, err := ParseReads(s)
		require.NoError(t, err)
		require.Equal(t, want, r)
		require.Equal(t, s, r.String())
	}
	_, err := ParseReads("sometimes")
	require.Error(t, err)
	require.Negative(t, Compare(val(0, 2), val(1, 1)))
	require.Negative(t, Compare(val(1, 1), val(1, 2)))
	require.Negative(t, Compare(val(1, 1), Value{ID: val(1, 1).ID, Read: true}))
	require.Zero(t, Compare(val(1, 1), val(1, 1)))
}
