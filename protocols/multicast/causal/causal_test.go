package causal

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	. "github.com/vigil-check/vigil/protocols/multicast/multicasttest"
)

type step = checktest.Step[State, Msg]

var (
	handlers = Handlers(Protocol{})
	twoMsgs  = model.Config{N: 3, Params: map[string]int{"msgs": 2}}
)

// crashes is cfg with a crash allowed.
func crashes(cfg model.Config) model.Config {
	cfg.Crashes = 1
	return cfg
}

// msgOf is <V, m> for message k of p.
func msgOf(p model.NodeID, k int, v ...int32) Msg { return Msg{Value: ValueOf(p, k), V: v} }

func deliverOf(p model.NodeID, k int) multicast.Item[Msg] { return DeliverOf[Msg](ValueOf(p, k)) }

func held(ms ...Msg) []Msg { return ms }

func work(issued int, items ...multicast.Item[Msg]) multicast.Process[Msg] {
	return multicast.Process[Msg]{Issued: issued, Work: items}
}

// CO-multicast(g, m) at p_i: V_i[i] := V_i[i] + 1; p_i delivers m at once
// and sends <V_i, m> to the others only.
var multicasts = []step{
	{Name: "the first: V_i[i] + 1, delivered, sent to the others", Config: twoMsgs, Self: 1, In: State{V: []int32{2, 0, 0}},
		Action: multicast.MulticastOp, Want: State{Process: work(1), V: []int32{2, 1, 0}},
		Sent:     checktest.SentTo(msgOf(1, 1, 2, 1, 0), 0, 2),
		Observed: []model.Obs{model.Multicast(ValueOf(1, 1).ID), Delivered(1, 1)}},
	{Name: "the second", Config: twoMsgs, Self: 1, In: State{Process: work(1), V: []int32{0, 1, 3}},
		Action: multicast.MulticastOp, Want: State{Process: work(2), V: []int32{0, 2, 3}},
		Sent:     checktest.SentTo(msgOf(1, 2, 0, 2, 3), 0, 2),
		Observed: []model.Obs{model.Multicast(ValueOf(1, 2).ID), Delivered(1, 2)}},
	{Name: "crashes: delivered at once, the sends queued", Config: crashes(twoMsgs), Self: 1, In: State{V: []int32{0, 0, 1}},
		Action:   multicast.MulticastOp,
		Want:     State{Process: work(1, SendTo(0, msgOf(1, 1, 0, 1, 1)), SendTo(2, msgOf(1, 1, 0, 1, 1))), V: []int32{0, 1, 1}},
		Observed: []model.Obs{model.Multicast(ValueOf(1, 1).ID), Delivered(1, 1)}},
}

func TestDo(t *testing.T) { handlers.Do(t, multicasts) }

// The timestamp sent, or queued to send, is a copy: the state's V may
// change later.
func TestDoCopiesTheTimestamp(t *testing.T) {
	for _, c := range multicasts {
		ctx := model.NewCtx[Msg](c.Config, c.Self)
		got := Protocol{}.Do(ctx, c.In, c.Action)
		got.V[0] = 99
		for _, s := range checktest.Sent(ctx) {
			require.NotEqual(t, 99, s.Msg.V[0], "%s: the message shares V with the state", c.Name)
		}
		for _, it := range got.Work {
			require.NotEqual(t, 99, it.Msg.V[0], "%s: the queued message shares V with the state", c.Name)
		}
	}
}

// receive is the receipt of m at p_2, from its sender.
func receive(name string, crashes int, in State, m Msg, want State, observed ...model.Obs) step {
	return step{Name: name, Config: model.Config{N: 3, Crashes: crashes}, Self: 2, In: in, From: m.Value.ID.Sender, Msg: m,
		Want: want, Observed: observed}
}

// On B-deliver(<V_j, m>) from p_j at p_i (here p_2): hold back, wait until
// V_j[j] = V_i[j] + 1 and V_j[k] ≤ V_i[k] (k ≠ j), CO-deliver m,
// V_i[j] := V_i[j] + 1.
func TestReceive(t *testing.T) {
	handlers.Receive(t, []step{
		receive("nothing to wait for: delivered", 0, State{V: []int32{0, 0, 0}}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{1, 0, 0}}, Delivered(0, 1)),
		receive("its sender's next, after what was delivered here", 0, State{V: []int32{1, 2, 1}}, msgOf(1, 3, 1, 3, 1),
			State{V: []int32{1, 3, 1}}, Delivered(1, 3)),
		receive("after the receiver's own message, which it delivered at once", 0, State{V: []int32{0, 0, 1}}, msgOf(0, 1, 1, 0, 1),
			State{V: []int32{1, 0, 1}}, Delivered(0, 1)),
		receive("a causal predecessor missing: held back", 0, State{V: []int32{0, 0, 0}}, msgOf(1, 1, 1, 1, 0),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0))}),
		receive("the receiver's own message not counted yet: held back", 0, State{V: []int32{0, 0, 0}}, msgOf(0, 1, 1, 0, 1),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(0, 1, 1, 0, 1))}),
		receive("its sender's previous missing: held back", 0, State{V: []int32{0, 0, 0}}, msgOf(0, 2, 2, 0, 0),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(0, 2, 2, 0, 0))}),
		receive("held back behind others, in arrival order", 0, State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0))}, msgOf(0, 2, 2, 0, 0),
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0), msgOf(0, 2, 2, 0, 0))}),
		receive("the predecessor arrives: it, then the message that waited for it", 0,
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0))}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{1, 1, 0}}, Delivered(0, 1), Delivered(1, 1)),
		receive("a chain released in causal order, not arrival order", 0,
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(0, 2, 2, 1, 0), msgOf(1, 1, 1, 1, 0))}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{2, 1, 0}}, Delivered(0, 1), Delivered(1, 1), Delivered(0, 2)),
		receive("what still waits stays held", 0,
			State{V: []int32{0, 0, 0}, HoldBack: held(msgOf(1, 1, 1, 1, 0), msgOf(0, 3, 3, 0, 0))}, msgOf(0, 1, 1, 0, 0),
			State{V: []int32{1, 1, 0}, HoldBack: held(msgOf(0, 3, 3, 0, 0))}, Delivered(0, 1), Delivered(1, 1)),
		receive("crashes, its loop under way: V counts, the deliveries wait", 1,
			State{Process: work(1, SendTo(1, msgOf(2, 1, 0, 0, 1))), V: []int32{0, 0, 1}, HoldBack: held(msgOf(1, 1, 1, 1, 1))},
			msgOf(0, 1, 1, 0, 0),
			State{Process: work(1, SendTo(1, msgOf(2, 1, 0, 0, 1)), deliverOf(0, 1), deliverOf(1, 1)), V: []int32{1, 1, 1}}),
	})
}

// Vlassov and Montelius's wait condition on its own.
func TestDeliverable(t *testing.T) {
	cases := []struct {
		name string
		v    []int32
		m    Msg
		want bool
	}{
		{"next of its sender, nothing else", []int32{0, 0, 0}, msgOf(0, 1, 1, 0, 0), true},
		{"next of its sender, its past delivered", []int32{2, 1, 0}, msgOf(1, 2, 1, 2, 0), true},
		{"next of its sender, less past than here", []int32{3, 1, 2}, msgOf(1, 2, 1, 2, 0), true},
		{"delivered already", []int32{1, 0, 0}, msgOf(0, 1, 1, 0, 0), false},
		{"a gap in its sender's", []int32{0, 0, 0}, msgOf(0, 2, 2, 0, 0), false},
		{"V_j[k] > V_i[k]", []int32{0, 0, 0}, msgOf(1, 1, 0, 1, 1), false},
		{"V_j[k] = V_i[k] + 1 is not enough for k ≠ j", []int32{1, 0, 0}, msgOf(1, 1, 2, 1, 0), false},
	}
	for _, c := range cases {
		require.Equal(t, c.want, deliverable(c.v, c.m), c.name)
	}
}

// V starts at 0.
func TestInit(t *testing.T) {
	handlers.Init(t, []step{{Name: "V = 0", Config: crashes(model.Config{N: 3}), Self: 1, Want: State{V: []int32{0, 0, 0}}}})
}
