package isis

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
)

func value(p model.NodeID, k int) multicast.Value {
	return multicast.Value{ID: model.MsgID{Sender: p, Seq: k}}
}

func n(seq int, p model.NodeID) Number { return Number{Seq: seq, Proposer: p} }

func data(x multicast.Value) Msg { return Msg{Type: Data, Value: x} }

func proposal(x multicast.Value, num Number) Msg { return Msg{Type: Proposal, Value: x, Number: num} }

func agreed(x multicast.Value, num Number) Msg { return Msg{Type: Agreed, Value: x, Number: num} }

// pending is a hold-back entry under a proposed number; ready one under
// its agreed number.
func pending(x multicast.Value, num Number) Entry { return Entry{Number: num, Value: x} }

func ready(x multicast.Value, num Number) Entry {
	return Entry{Number: num, Value: x, Deliverable: true}
}

func queue(es ...Entry) []Entry { return es }

func collects(cs ...Collect) []Collect { return cs }

func delivered(x multicast.Value) model.Obs { return model.Delivered(x.ID) }

func toAll(m Msg) []model.Sent[Msg] {
	return []model.Sent[Msg]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}
}

func sendTo(j model.NodeID, m Msg) multicast.Item[Msg] { return multicast.Item[Msg]{To: j, Msg: m} }

func deliverOf(x multicast.Value) multicast.Item[Msg] {
	return multicast.Item[Msg]{To: model.None, Value: x}
}

func work(items ...multicast.Item[Msg]) multicast.Process[Msg] {
	return multicast.Process[Msg]{Issued: 1, Work: items}
}

// roomy gives s's slices spare capacity; whole copies s with it, so that a
// handler writing to its input's backing arrays shows.
func roomy(s State) State {
	if s.Work != nil {
		s.Work = append(make([]multicast.Item[Msg], 0, len(s.Work)+3), s.Work...)
	}
	if s.Queue != nil {
		s.Queue = append(make([]Entry, 0, len(s.Queue)+3), s.Queue...)
	}
	if s.Collects != nil {
		s.Collects = append(make([]Collect, 0, len(s.Collects)+3), s.Collects...)
	}
	return s
}

func whole(s State) State {
	if s.Work != nil {
		s.Work = slices.Clone(s.Work[:cap(s.Work)])
	}
	if s.Queue != nil {
		s.Queue = slices.Clone(s.Queue[:cap(s.Queue)])
	}
	if s.Collects != nil {
		s.Collects = slices.Clone(s.Collects[:cap(s.Collects)])
	}
	return s
}

type receiveCase struct {
	name     string
	crashes  int
	self     model.NodeID
	in       State
	from     model.NodeID
	m        Msg
	want     State
	sent     []model.Sent[Msg]
	observed []model.Obs
}

func runReceive(t *testing.T, cases []receiveCase) {
	t.Helper()
	for _, c := range cases {
		in := roomy(c.in)
		before := whole(in)
		ctx := model.NewCtx[Msg](model.Config{N: 3, Crashes: c.crashes}, c.self)
		got := Protocol{}.Receive(ctx, in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, whole(in), "%s: the input changed", c.name)
	}
}

// Step 2: q proposes P_q := max(A_q, P_q) + 1, replies <i, P_q> to the
// sender, and holds m back under it, not deliverable.
func TestReceiveData(t *testing.T) {
	a, b := value(0, 1), value(2, 1)
	runReceive(t, []receiveCase{
		{"A above P: A + 1", 0, 1, State{P: 1, A: 3}, 0, data(a),
			State{P: 4, A: 3, Queue: queue(pending(a, n(4, 1)))},
			[]model.Sent[Msg]{{To: 0, Msg: proposal(a, n(4, 1))}}, nil},
		{"P above A: P + 1", 0, 1, State{P: 5, A: 2}, 0, data(a),
			State{P: 6, A: 2, Queue: queue(pending(a, n(6, 1)))},
			[]model.Sent[Msg]{{To: 0, Msg: proposal(a, n(6, 1))}}, nil},
		{"the first ever: 1", 0, 2, State{}, 0, data(a),
			State{P: 1, Queue: queue(pending(a, n(1, 2)))},
			[]model.Sent[Msg]{{To: 0, Msg: proposal(a, n(1, 2))}}, nil},
		{"its own message: the proposal to itself", 0, 2, State{P: 2, A: 2}, 2, data(b),
			State{P: 3, A: 2, Queue: queue(pending(b, n(3, 2)))},
			[]model.Sent[Msg]{{To: 2, Msg: proposal(b, n(3, 2))}}, nil},
		{"held back behind smaller numbers", 0, 1, State{P: 2, A: 3, Queue: queue(pending(b, n(2, 1)), ready(value(1, 1), n(3, 0)))}, 0, data(a),
			State{P: 4, A: 3, Queue: queue(pending(b, n(2, 1)), ready(value(1, 1), n(3, 0)), pending(a, n(4, 1)))},
			[]model.Sent[Msg]{{To: 0, Msg: proposal(a, n(4, 1))}}, nil},
		{"crashes: the proposal queued", 1, 1, State{P: 1}, 0, data(a),
			State{Process: multicast.Process[Msg]{Work: []multicast.Item[Msg]{sendTo(0, proposal(a, n(2, 1)))}}, P: 2, Queue: queue(pending(a, n(2, 1)))},
			nil, nil},
	})
}

// Step 3: the sender collects the N proposals and multicasts the highest
// (Seq, Proposer) as agreed.
func TestReceiveProposal(t *testing.T) {
	a, b := value(0, 1), value(0, 2)
	runReceive(t, []receiveCase{
		{"the first of N: counted", 0, 0, State{Collects: collects(Collect{Value: a})}, 1, proposal(a, n(2, 1)),
			State{Collects: collects(Collect{Value: a, Got: 1, Max: n(2, 1)})}, nil, nil},
		{"a higher one: the new max", 0, 0, State{Collects: collects(Collect{Value: a, Got: 1, Max: n(2, 1)})}, 2, proposal(a, n(3, 2)),
			State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, nil, nil},
		{"a lower one: the max stays", 0, 0, State{Collects: collects(Collect{Value: a, Got: 1, Max: n(3, 2)})}, 1, proposal(a, n(2, 1)),
			State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, nil, nil},
		{"a tie on Seq: the higher proposer wins", 0, 0, State{Collects: collects(Collect{Value: a, Got: 1, Max: n(3, 1)})}, 2, proposal(a, n(3, 2)),
			State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, nil, nil},
		{"the Nth: Agreed with the max to everyone", 0, 0, State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, 0, proposal(a, n(3, 0)),
			State{}, toAll(agreed(a, n(3, 2))), nil},
		{"the Nth, the highest: Agreed with it", 0, 0, State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, 1, proposal(a, n(4, 1)),
			State{}, toAll(agreed(a, n(4, 1))), nil},
		{"the Nth for one of two: the other still collects", 0, 0,
			State{Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 0)}, Collect{Value: b, Got: 2, Max: n(2, 1)})}, 2, proposal(b, n(1, 2)),
			State{Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 0)})}, toAll(agreed(b, n(2, 1))), nil},
		{"the proposals of another message are counted apart", 0, 0,
			State{Collects: collects(Collect{Value: a, Got: 2, Max: n(1, 0)}, Collect{Value: b})}, 2, proposal(b, n(5, 2)),
			State{Collects: collects(Collect{Value: a, Got: 2, Max: n(1, 0)}, Collect{Value: b, Got: 1, Max: n(5, 2)})}, nil, nil},
		{"not collecting it: nothing", 0, 0, State{}, 1, proposal(a, n(2, 1)), State{}, nil, nil},
		{"crashes: the Agreed queued", 1, 0, State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, 0, proposal(a, n(1, 0)),
			State{Process: multicast.Process[Msg]{Work: []multicast.Item[Msg]{
				sendTo(0, agreed(a, n(3, 2))), sendTo(1, agreed(a, n(3, 2))), sendTo(2, agreed(a, n(3, 2)))}}},
			nil, nil},
	})
}

// Step 4: A_q := max(A_q, a); the entry takes number a, becomes
// deliverable, moves to its place; delivery from the head while the head
// is deliverable.
func TestReceiveAgreed(t *testing.T) {
	a, b, c := value(0, 1), value(1, 1), value(2, 1)
	runReceive(t, []receiveCase{
		{"alone: delivered, A raised", 0, 2, State{P: 2, A: 1, Queue: queue(pending(a, n(2, 2)))}, 0, agreed(a, n(3, 1)),
			State{P: 2, A: 3}, nil, []model.Obs{delivered(a)}},
		{"A stays when above", 0, 2, State{P: 5, A: 5, Queue: queue(pending(a, n(2, 2)))}, 0, agreed(a, n(3, 1)),
			State{P: 5, A: 5}, nil, []model.Obs{delivered(a)}},
		{"behind an undeliverable head: kept, deliverable", 0, 2,
			State{P: 2, Queue: queue(pending(b, n(1, 2)), pending(a, n(2, 2)))}, 0, agreed(a, n(3, 1)),
			State{P: 2, A: 3, Queue: queue(pending(b, n(1, 2)), ready(a, n(3, 1)))}, nil, nil},
		{"the head moves behind another: no delivery", 0, 2,
			State{P: 2, Queue: queue(pending(a, n(1, 2)), pending(b, n(2, 2)))}, 0, agreed(a, n(3, 1)),
			State{P: 2, A: 3, Queue: queue(pending(b, n(2, 2)), ready(a, n(3, 1)))}, nil, nil},
		{"the head becomes deliverable: the deliverables behind it too, up to one that is not", 0, 2,
			State{P: 4, A: 3, Queue: queue(pending(b, n(1, 2)), ready(a, n(3, 1)), pending(c, n(4, 2)))}, 1, agreed(b, n(2, 0)),
			State{P: 4, A: 3, Queue: queue(pending(c, n(4, 2)))}, nil, []model.Obs{delivered(b), delivered(a)}},
		{"a tie on Seq, the lower proposer first: before it, delivered", 0, 2,
			State{P: 3, Queue: queue(pending(c, n(3, 1)), pending(a, n(3, 2)))}, 0, agreed(a, n(3, 0)),
			State{P: 3, A: 3, Queue: queue(pending(c, n(3, 1)))}, nil, []model.Obs{delivered(a)}},
		{"a tie on Seq, the higher proposer: behind it, not delivered", 0, 2,
			State{P: 3, Queue: queue(pending(a, n(2, 2)), pending(c, n(3, 1)))}, 0, agreed(a, n(3, 2)),
			State{P: 3, A: 3, Queue: queue(pending(c, n(3, 1)), ready(a, n(3, 2)))}, nil, nil},
		{"not held back here: A raised only", 0, 2, State{P: 1, A: 1, Queue: queue(pending(b, n(1, 2)))}, 0, agreed(a, n(4, 0)),
			State{P: 1, A: 4, Queue: queue(pending(b, n(1, 2)))}, nil, nil},
		{"crashes, a loop under way: the deliveries wait behind it", 1, 2,
			State{Process: work(sendTo(1, data(c))), P: 2, Queue: queue(pending(b, n(1, 2)), ready(a, n(2, 0)))}, 1, agreed(b, n(1, 1)),
			State{Process: work(sendTo(1, data(c)), deliverOf(b), deliverOf(a)), P: 2, A: 1}, nil, nil},
	})
}

// Step 1: multicast <m, i> to the group, itself included, and collect the
// proposals.
func TestDo(t *testing.T) {
	a, b := value(1, 1), value(1, 2)
	ctx := model.NewCtx[Msg](model.Config{N: 3, Params: map[string]int{"msgs": 2}}, 1)
	got := Protocol{}.Do(ctx, State{}, multicast.MulticastOp)
	require.Equal(t, State{Process: multicast.Process[Msg]{Issued: 1}, Collects: collects(Collect{Value: a})}, got)
	require.Equal(t, toAll(data(a)), ctx.Sent())
	require.Equal(t, []model.Obs{model.Multicast(a.ID)}, ctx.Observed())

	in := roomy(State{Process: multicast.Process[Msg]{Issued: 1}, P: 1, Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 1)})})
	before := whole(in)
	ctx = model.NewCtx[Msg](model.Config{N: 3, Crashes: 1, Params: map[string]int{"msgs": 2}}, 1)
	got = Protocol{}.Do(ctx, in, multicast.MulticastOp)
	require.Equal(t, State{Process: multicast.Process[Msg]{Issued: 2, Work: []multicast.Item[Msg]{sendTo(0, data(b)), sendTo(1, data(b)), sendTo(2, data(b))}},
		P: 1, Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 1)}, Collect{Value: b})}, got)
	require.Nil(t, ctx.Sent())
	require.Equal(t, before, whole(in), "the input changed")
}

func TestCompareNumbers(t *testing.T) {
	require.Negative(t, compareNumbers(n(1, 2), n(2, 0)))
	require.Negative(t, compareNumbers(n(2, 0), n(2, 1)))
	require.Positive(t, compareNumbers(n(3, 0), n(2, 2)))
	require.Positive(t, compareNumbers(n(2, 2), n(2, 1)))
	require.Zero(t, compareNumbers(n(2, 1), n(2, 1)))
}
