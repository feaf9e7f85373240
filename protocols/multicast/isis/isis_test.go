package isis

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	. "github.com/vigil-check/vigil/protocols/multicast/multicasttest"
)

type step = checktest.Step[State, Msg]

var handlers = Handlers(Protocol{})

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

func deliverOf(x multicast.Value) multicast.Item[Msg] { return DeliverOf[Msg](x) }

func work(items ...multicast.Item[Msg]) multicast.Process[Msg] {
	return multicast.Process[Msg]{Issued: 1, Work: items}
}

// Step 2: q proposes P_q := max(A_q, P_q) + 1, replies <i, P_q> to the
// sender, and holds m back under it, not deliverable.
func TestReceiveData(t *testing.T) {
	a, b := ValueOf(0, 1), ValueOf(2, 1)
	handlers.Receive(t, []step{
		{Name: "A above P: A + 1", Self: 1, In: State{P: 1, A: 3}, From: 0, Msg: data(a),
			Want: State{P: 4, A: 3, Queue: queue(pending(a, n(4, 1)))}, Sent: checktest.SentTo(proposal(a, n(4, 1)), 0)},
		{Name: "P above A: P + 1", Self: 1, In: State{P: 5, A: 2}, From: 0, Msg: data(a),
			Want: State{P: 6, A: 2, Queue: queue(pending(a, n(6, 1)))}, Sent: checktest.SentTo(proposal(a, n(6, 1)), 0)},
		{Name: "the first ever: 1", Self: 2, In: State{}, From: 0, Msg: data(a),
			Want: State{P: 1, Queue: queue(pending(a, n(1, 2)))}, Sent: checktest.SentTo(proposal(a, n(1, 2)), 0)},
		{Name: "its own message: the proposal to itself", Self: 2, In: State{P: 2, A: 2}, From: 2, Msg: data(b),
			Want: State{P: 3, A: 2, Queue: queue(pending(b, n(3, 2)))}, Sent: checktest.SentTo(proposal(b, n(3, 2)), 2)},
		{Name: "held back behind smaller numbers", Self: 1, In: State{P: 2, A: 3, Queue: queue(pending(b, n(2, 1)), ready(ValueOf(1, 1), n(3, 0)))}, From: 0,
			Msg:  data(a),
			Want: State{P: 4, A: 3, Queue: queue(pending(b, n(2, 1)), ready(ValueOf(1, 1), n(3, 0)), pending(a, n(4, 1)))},
			Sent: checktest.SentTo(proposal(a, n(4, 1)), 0)},
		{Name: "crashes: the proposal queued", Config: Crashes, Self: 1, In: State{P: 1}, From: 0, Msg: data(a),
			Want: State{Process: multicast.Process[Msg]{Work: []multicast.Item[Msg]{SendTo(0, proposal(a, n(2, 1)))}}, P: 2,
				Queue: queue(pending(a, n(2, 1)))}},
	})
}

// Step 3: the sender collects the N proposals and multicasts the highest
// (Seq, Proposer) as agreed.
func TestReceiveProposal(t *testing.T) {
	a, b := ValueOf(0, 1), ValueOf(0, 2)
	handlers.Receive(t, []step{
		{Name: "the first of N: counted", Self: 0, In: State{Collects: collects(Collect{Value: a})}, From: 1, Msg: proposal(a, n(2, 1)),
			Want: State{Collects: collects(Collect{Value: a, Got: 1, Max: n(2, 1)})}},
		{Name: "a higher one: the new max", Self: 0, In: State{Collects: collects(Collect{Value: a, Got: 1, Max: n(2, 1)})}, From: 2,
			Msg:  proposal(a, n(3, 2)),
			Want: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}},
		{Name: "a lower one: the max stays", Self: 0, In: State{Collects: collects(Collect{Value: a, Got: 1, Max: n(3, 2)})}, From: 1,
			Msg:  proposal(a, n(2, 1)),
			Want: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}},
		{Name: "a tie on Seq: the higher proposer wins", Self: 0, In: State{Collects: collects(Collect{Value: a, Got: 1, Max: n(3, 1)})}, From: 2,
			Msg:  proposal(a, n(3, 2)),
			Want: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}},
		{Name: "the Nth: Agreed with the max to everyone", Self: 0, In: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, From: 0,
			Msg:  proposal(a, n(3, 0)),
			Want: State{}, Sent: ToAll(agreed(a, n(3, 2)))},
		{Name: "the Nth, the highest: Agreed with it", Self: 0, In: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, From: 1,
			Msg:  proposal(a, n(4, 1)),
			Want: State{}, Sent: ToAll(agreed(a, n(4, 1)))},
		{Name: "the Nth for one of two: the other still collects", Self: 0,
			In: State{Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 0)}, Collect{Value: b, Got: 2, Max: n(2, 1)})}, From: 2,
			Msg:  proposal(b, n(1, 2)),
			Want: State{Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 0)})}, Sent: ToAll(agreed(b, n(2, 1)))},
		{Name: "the proposals of another message are counted apart", Self: 0,
			In: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(1, 0)}, Collect{Value: b})}, From: 2, Msg: proposal(b, n(5, 2)),
			Want: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(1, 0)}, Collect{Value: b, Got: 1, Max: n(5, 2)})}},
		{Name: "not collecting it: nothing", Self: 0, In: State{}, From: 1, Msg: proposal(a, n(2, 1)),
			Want: State{}},
		{Name: "crashes: the Agreed queued", Config: Crashes, Self: 0, In: State{Collects: collects(Collect{Value: a, Got: 2, Max: n(3, 2)})}, From: 0,
			Msg:  proposal(a, n(1, 0)),
			Want: State{Process: multicast.Process[Msg]{Work: QueuedToAll(agreed(a, n(3, 2)))}}},
	})
}

// Step 4: A_q := max(A_q, a); the entry takes number a, becomes
// deliverable, moves to its place; delivery from the head while the head
// is deliverable.
func TestReceiveAgreed(t *testing.T) {
	a, b, c := ValueOf(0, 1), ValueOf(1, 1), ValueOf(2, 1)
	handlers.Receive(t, []step{
		{Name: "alone: delivered, A raised", Self: 2, In: State{P: 2, A: 1, Queue: queue(pending(a, n(2, 2)))}, From: 0, Msg: agreed(a, n(3, 1)),
			Want: State{P: 2, A: 3}, Observed: []model.Obs{delivered(a)}},
		{Name: "A stays when above", Self: 2, In: State{P: 5, A: 5, Queue: queue(pending(a, n(2, 2)))}, From: 0, Msg: agreed(a, n(3, 1)),
			Want: State{P: 5, A: 5}, Observed: []model.Obs{delivered(a)}},
		{Name: "behind an undeliverable head: kept, deliverable", Self: 2, In: State{P: 2, Queue: queue(pending(b, n(1, 2)), pending(a, n(2, 2)))}, From: 0,
			Msg:  agreed(a, n(3, 1)),
			Want: State{P: 2, A: 3, Queue: queue(pending(b, n(1, 2)), ready(a, n(3, 1)))}},
		{Name: "the head moves behind another: no delivery", Self: 2, In: State{P: 2, Queue: queue(pending(a, n(1, 2)), pending(b, n(2, 2)))}, From: 0,
			Msg:  agreed(a, n(3, 1)),
			Want: State{P: 2, A: 3, Queue: queue(pending(b, n(2, 2)), ready(a, n(3, 1)))}},
		{Name: "the head becomes deliverable: the deliverables behind it too, up to one that is not", Self: 2,
			In: State{P: 4, A: 3, Queue: queue(pending(b, n(1, 2)), ready(a, n(3, 1)), pending(c, n(4, 2)))}, From: 1, Msg: agreed(b, n(2, 0)),
			Want: State{P: 4, A: 3, Queue: queue(pending(c, n(4, 2)))}, Observed: []model.Obs{delivered(b), delivered(a)}},
		{Name: "a tie on Seq, the lower proposer first: before it, delivered", Self: 2,
			In: State{P: 3, Queue: queue(pending(c, n(3, 1)), pending(a, n(3, 2)))}, From: 0, Msg: agreed(a, n(3, 0)),
			Want: State{P: 3, A: 3, Queue: queue(pending(c, n(3, 1)))}, Observed: []model.Obs{delivered(a)}},
		{Name: "a tie on Seq, the higher proposer: behind it, not delivered", Self: 2,
			In: State{P: 3, Queue: queue(pending(a, n(2, 2)), pending(c, n(3, 1)))}, From: 0, Msg: agreed(a, n(3, 2)),
			Want: State{P: 3, A: 3, Queue: queue(pending(c, n(3, 1)), ready(a, n(3, 2)))}},
		{Name: "not held back here: A raised only", Self: 2, In: State{P: 1, A: 1, Queue: queue(pending(b, n(1, 2)))}, From: 0, Msg: agreed(a, n(4, 0)),
			Want: State{P: 1, A: 4, Queue: queue(pending(b, n(1, 2)))}},
		{Name: "crashes, a loop under way: the deliveries wait behind it", Config: Crashes, Self: 2,
			In: State{Process: work(SendTo(1, data(c))), P: 2, Queue: queue(pending(b, n(1, 2)), ready(a, n(2, 0)))}, From: 1, Msg: agreed(b, n(1, 1)),
			Want: State{Process: work(SendTo(1, data(c)), deliverOf(b), deliverOf(a)), P: 2, A: 1}},
	})
}

// Step 1: multicast <m, i> to the group, itself included, and collect the
// proposals.
func TestDo(t *testing.T) {
	a, b := ValueOf(1, 1), ValueOf(1, 2)
	two := model.Config{N: 3, Params: map[string]int{"msgs": 2}}
	handlers.Do(t, []step{
		{Name: "the first", Config: two, Self: 1, In: State{}, Action: multicast.MulticastOp,
			Want: State{Process: multicast.Process[Msg]{Issued: 1}, Collects: collects(Collect{Value: a})},
			Sent: ToAll(data(a)), Observed: []model.Obs{model.Multicast(a.ID)}},
		{Name: "the second, crashes: queued", Config: model.Config{N: 3, Crashes: 1, Params: two.Params}, Self: 1,
			In:     State{Process: multicast.Process[Msg]{Issued: 1}, P: 1, Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 1)})},
			Action: multicast.MulticastOp,
			Want: State{Process: multicast.Process[Msg]{Issued: 2, Work: QueuedToAll(data(b))},
				P: 1, Collects: collects(Collect{Value: a, Got: 1, Max: n(1, 1)}, Collect{Value: b})},
			Observed: []model.Obs{model.Multicast(b.ID)}},
	})
}

func TestCompareNumbers(t *testing.T) {
	require.Negative(t, compareNumbers(n(1, 2), n(2, 0)))
	require.Negative(t, compareNumbers(n(2, 0), n(2, 1)))
	require.Positive(t, compareNumbers(n(3, 0), n(2, 2)))
	require.Positive(t, compareNumbers(n(2, 2), n(2, 1)))
	require.Zero(t, compareNumbers(n(2, 1), n(2, 1)))
}
