package isis

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func v(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

// The four steps of ISIS, one handler call each.
func TestHandlersSteps(t *testing.T) {
	a, b := v(0, 1), v(1, 1)
	num := func(s int, p model.NodeID) Number { return Number{Seq: s, Proposer: p} }

	// 2. propose max(A, P) + 1 to the sender; hold back, not deliverable
	ctx := model.NewCtx[Msg](model.Config{N: 2}, 1)
	s := Protocol{}.Receive(ctx, State{P: 1, A: 3}, 0, Msg{Type: Data, Value: a})
	require.Equal(t, State{P: 4, A: 3, Queue: []Entry{{Number: num(4, 1), Value: a}}}, s)
	require.Equal(t, []model.Sent[Msg]{{To: 0, Msg: Msg{Type: Proposal, Value: a, Number: num(4, 1)}}}, ctx.Sent())

	// 3. the sender waits for all N proposals, then sends the highest
	collecting := State{Collects: []Collect{{Value: a}}}
	ctx = model.NewCtx[Msg](model.Config{N: 2}, 0)
	s = Protocol{}.Receive(ctx, collecting, 1, Msg{Type: Proposal, Value: a, Number: num(2, 1)})
	require.Nil(t, ctx.Sent())
	require.Equal(t, []Collect{{Value: a, Got: 1, Max: num(2, 1)}}, s.Collects)
	require.Equal(t, []Collect{{Value: a}}, collecting.Collects, "the input changed")
	ctx = model.NewCtx[Msg](model.Config{N: 2}, 0)
	s = Protocol{}.Receive(ctx, s, 0, Msg{Type: Proposal, Value: a, Number: num(2, 0)})
	agreed := Msg{Type: Agreed, Value: a, Number: num(2, 1)} // ties go to the higher proposer
	require.Equal(t, []model.Sent[Msg]{{To: 0, Msg: agreed}, {To: 1, Msg: agreed}}, ctx.Sent())
	require.Nil(t, s.Collects)

	// 4. the agreed number makes the entry deliverable; delivery from the
	// head only while the head is deliverable
	queue := []Entry{{Number: num(1, 0), Value: b}, {Number: num(2, 0), Value: a}}
	ctx = model.NewCtx[Msg](model.Config{N: 2}, 0)
	s = Protocol{}.Receive(ctx, State{P: 2, Queue: queue}, 0, Msg{Type: Agreed, Value: a, Number: num(3, 1)})
	require.Nil(t, ctx.Observed(), "b, undeliverable, heads the queue")
	require.Equal(t, State{P: 2, A: 3, Queue: []Entry{{Number: num(1, 0), Value: b}, {Number: num(3, 1), Value: a, Deliverable: true}}}, s)
	ctx = model.NewCtx[Msg](model.Config{N: 2}, 0)
	s = Protocol{}.Receive(ctx, s, 1, Msg{Type: Agreed, Value: b, Number: num(2, 1)})
	require.Equal(t, []model.Obs{model.Delivered(b.ID), model.Delivered(a.ID)}, ctx.Observed())
	require.Nil(t, s.Queue)
	require.Equal(t, 3, s.A)
	require.Len(t, queue, 2, "the input changed")
	require.False(t, queue[1].Deliverable, "the input changed")
}
