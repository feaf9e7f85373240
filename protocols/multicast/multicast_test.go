package multicast_test

import (
	. "github.com/vigil-check/vigil/protocols/multicast"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
)

// note is the message type of these tests.
type note string

func id(p model.NodeID, k int) model.MsgID { return model.MsgID{Sender: p, Seq: k} }

func write(p model.NodeID, k int) Value { return Value{ID: id(p, k)} }

func read(p model.NodeID, k int) Value { return Value{ID: id(p, k), Read: true} }

func sendTo(j model.NodeID, m note) Item[note] { return Item[note]{To: j, Msg: m} }

func deliverOf(v Value) Item[note] { return Item[note]{To: model.None, Value: v} }

func work(items ...Item[note]) []Item[note] { return items }

// roomy returns a copy of p whose Work has spare capacity, so that a helper
// that appends to its input's Work in place shows in the backing array.
func roomy(p Process[note]) Process[note] {
	if p.Work != nil {
		w := make([]Item[note], len(p.Work), len(p.Work)+3)
		copy(w, p.Work)
		p.Work = w
	}
	return p
}

// whole is a deep copy of p that includes Work's spare capacity.
func whole(p Process[note]) Process[note] {
	if p.Work != nil {
		p.Work = slices.Clone(p.Work[:cap(p.Work)])
	}
	return p
}

// checkCall calls f, a helper of the package, as node 1 of a run of cfg,
// on a copy of in whose Work has spare capacity; it checks what f returns,
// sends and observes, and that it left its input as it was.
func checkCall(t *testing.T, name string, cfg model.Config, in Process[note], f func(*model.Ctx[note], Process[note]) Process[note],
	want Process[note], sent []model.Sent[note], observed []model.Obs) {
	t.Helper()
	in = roomy(in)
	before := whole(in)
	ctx := model.NewCtx[note](cfg, 1)
	require.Equal(t, want, f(ctx, in), name)
	require.Equal(t, sent, checktest.Sent(ctx), name)
	require.Equal(t, observed, checktest.Observed(ctx), name)
	require.Equal(t, before, whole(in), "%s: the input changed", name)
}

func withParams(n int, crashes int, params map[string]int) model.Config {
	return model.Config{N: n, Crashes: crashes, Params: params}
}

func reads(r Reads) map[string]int { return map[string]int{"reads": int(r)} }

func TestActions(t *testing.T) {
	env := func(params map[string]int, init []bool) *model.Env {
		return &model.NewCtx[note](model.Config{N: 3, Params: params, Initiators: init}, 1).Env
	}
	notMe := []bool{true, false, true}
	cases := []struct {
		name string
		env  *model.Env
		p    Process[note]
		want []model.Action
	}{
		{"work: its head is the next step", env(nil, nil), Process[note]{Work: work(sendTo(2, "a"), sendTo(0, "a"))},
			[]model.Action{SendNext(2)}},
		{"work comes before operations, even done ones", env(nil, notMe), Process[note]{Issued: 1, Work: work(sendTo(0, "a"), deliverOf(write(1, 1)))},
			[]model.Action{SendNext(0)}},
		{"no reads: multicast", env(nil, nil), Process[note]{}, []model.Action{MulticastOp}},
		{"local reads: write or read", env(reads(LocalReads), nil), Process[note]{}, []model.Action{WriteOp, ReadOp}},
		{"ordered reads: write or read", env(reads(OrderedReads), nil), Process[note]{}, []model.Action{WriteOp, ReadOp}},
		{"not an initiator", env(nil, notMe), Process[note]{}, nil},
		{"not an initiator, register", env(reads(LocalReads), notMe), Process[note]{}, nil},
		{"operations exhausted (msgs defaults to 1)", env(nil, nil), Process[note]{Issued: 1}, nil},
		{"msgs 3, two issued", env(map[string]int{"msgs": 3}, nil), Process[note]{Issued: 2}, []model.Action{MulticastOp}},
		{"msgs 3, three issued", env(map[string]int{"msgs": 3}, nil), Process[note]{Issued: 3}, nil},
		{"the client waits for its operation", env(map[string]int{"msgs": 3, "reads": int(OrderedReads)}, nil),
			Process[note]{Issued: 1, Waiting: true}, nil},
	}
	for _, c := range cases {
		before := whole(c.p)
		require.Equal(t, c.want, Actions(c.env, c.p), c.name)
		require.Equal(t, before, whole(c.p), "%s: the input changed", c.name)
	}
}

// Send: a loop of sends at once when no crash can interrupt it, else queued
// behind the work already there.
func TestSend(t *testing.T) {
	cases := []struct {
		name    string
		crashes int
		in      Process[note]
		to      []model.NodeID
		want    Process[note]
		sent    []model.Sent[note]
	}{
		{"no crash: at once, in order", 0, Process[note]{Issued: 1}, []model.NodeID{2, 0, 1},
			Process[note]{Issued: 1}, []model.Sent[note]{{To: 2, Msg: "m"}, {To: 0, Msg: "m"}, {To: 1, Msg: "m"}}},
		{"no crash: at once, even with work queued", 0, Process[note]{Work: work(sendTo(1, "x"))}, []model.NodeID{0},
			Process[note]{Work: work(sendTo(1, "x"))}, []model.Sent[note]{{To: 0, Msg: "m"}}},
		{"crashes: queued", 1, Process[note]{Issued: 1}, []model.NodeID{2, 0, 1},
			Process[note]{Issued: 1, Work: work(sendTo(2, "m"), sendTo(0, "m"), sendTo(1, "m"))}, nil},
		{"crashes: behind the work there", 2, Process[note]{Work: work(sendTo(1, "x"), deliverOf(write(1, 1)))}, []model.NodeID{0, 2},
			Process[note]{Work: work(sendTo(1, "x"), deliverOf(write(1, 1)), sendTo(0, "m"), sendTo(2, "m"))}, nil},
		{"crashes, nobody to send to: nothing", 1, Process[note]{}, nil, Process[note]{}, nil},
	}
	for _, c := range cases {
		send := func(ctx *model.Ctx[note], p Process[note]) Process[note] { return p.Send(ctx, c.to, "m") }
		checkCall(t, c.name, withParams(3, c.crashes, nil), c.in, send, c.want, c.sent, nil)
	}
}

// Deliver: now when no send is queued, else behind the queued sends; a
// write sets the register, the reader's own read returns it.
func TestDeliver(t *testing.T) {
	w01 := id(0, 1)
	cases := []struct {
		name     string
		reads    Reads
		in       Process[note]
		v        Value
		want     Process[note]
		observed []model.Obs
	}{
		{"no work: delivered now", NoReads, Process[note]{Issued: 1}, write(2, 1),
			Process[note]{Issued: 1}, []model.Obs{model.Delivered(id(2, 1))}},
		{"no reads: no register", NoReads, Process[note]{}, write(0, 1),
			Process[note]{}, []model.Obs{model.Delivered(w01)}},
		{"sends queued: behind them", NoReads, Process[note]{Work: work(sendTo(2, "a"))}, write(0, 1),
			Process[note]{Work: work(sendTo(2, "a"), deliverOf(write(0, 1)))}, nil},
		{"sends queued, register: set only when delivered", LocalReads, Process[note]{Work: work(sendTo(2, "a"))}, write(0, 1),
			Process[note]{Work: work(sendTo(2, "a"), deliverOf(write(0, 1)))}, nil},
		{"register: a write sets it", LocalReads, Process[note]{Register: id(2, 1)}, write(0, 1),
			Process[note]{Register: w01}, []model.Obs{model.Delivered(w01)}},
		{"register: the writer's client may go on", OrderedReads, Process[note]{Issued: 1, Waiting: true}, write(1, 1),
			Process[note]{Issued: 1, Register: id(1, 1)}, []model.Obs{model.Delivered(id(1, 1))}},
		{"register: another's write, the client still waits", OrderedReads, Process[note]{Issued: 1, Waiting: true}, write(0, 1),
			Process[note]{Issued: 1, Waiting: true, Register: w01}, []model.Obs{model.Delivered(w01)}},
		{"its own read returns the register", OrderedReads, Process[note]{Issued: 2, Waiting: true, Register: w01}, read(1, 2),
			Process[note]{Issued: 2, Register: w01}, []model.Obs{model.ReadReturn(w01)}},
		{"its own read, nothing written: the initial value", OrderedReads, Process[note]{Issued: 1, Waiting: true}, read(1, 1),
			Process[note]{Issued: 1}, []model.Obs{model.ReadReturn(model.MsgID{})}},
		{"another's read: nothing", OrderedReads, Process[note]{Issued: 1, Waiting: true, Register: w01}, read(2, 1),
			Process[note]{Issued: 1, Waiting: true, Register: w01}, nil},
	}
	for _, c := range cases {
		deliver := func(ctx *model.Ctx[note], p Process[note]) Process[note] { return p.Deliver(ctx, c.v) }
		checkCall(t, c.name, withParams(3, 1, reads(c.reads)), c.in, deliver, c.want, nil, c.observed)
	}
}

// Step: the send at the head of the work, then the deliveries right
// behind it, up to the next send.
func TestStep(t *testing.T) {
	cases := []struct {
		name     string
		reads    Reads
		in       Process[note]
		want     Process[note]
		sent     []model.Sent[note]
		observed []model.Obs
	}{
		{"the last send", NoReads, Process[note]{Issued: 1, Work: work(sendTo(2, "a"))},
			Process[note]{Issued: 1}, []model.Sent[note]{{To: 2, Msg: "a"}}, nil},
		{"a send with more behind", NoReads, Process[note]{Work: work(sendTo(0, "a"), sendTo(1, "a"), deliverOf(write(0, 1)))},
			Process[note]{Work: work(sendTo(1, "a"), deliverOf(write(0, 1)))}, []model.Sent[note]{{To: 0, Msg: "a"}}, nil},
		{"the deliveries right behind, not those behind the next send", NoReads,
			Process[note]{Work: work(sendTo(1, "a"), deliverOf(write(0, 1)), deliverOf(write(2, 1)), sendTo(2, "b"), deliverOf(write(2, 2)))},
			Process[note]{Work: work(sendTo(2, "b"), deliverOf(write(2, 2)))}, []model.Sent[note]{{To: 1, Msg: "a"}},
			[]model.Obs{model.Delivered(id(0, 1)), model.Delivered(id(2, 1))}},
		{"all the deliveries behind the last send", NoReads,
			Process[note]{Work: work(sendTo(1, "a"), deliverOf(write(0, 1)), deliverOf(write(2, 1)))},
			Process[note]{}, []model.Sent[note]{{To: 1, Msg: "a"}},
			[]model.Obs{model.Delivered(id(0, 1)), model.Delivered(id(2, 1))}},
		{"register: a write, then the reader's read returns it", OrderedReads,
			Process[note]{Issued: 1, Waiting: true, Work: work(sendTo(0, "a"), deliverOf(write(0, 1)), deliverOf(read(1, 1)))},
			Process[note]{Issued: 1, Register: id(0, 1)}, []model.Sent[note]{{To: 0, Msg: "a"}},
			[]model.Obs{model.Delivered(id(0, 1)), model.ReadReturn(id(0, 1))}},
	}
	for _, c := range cases {
		checkCall(t, c.name, withParams(3, 1, reads(c.reads)), c.in, Step[note], c.want, c.sent, c.observed)
	}
}

// Issue: operation k of node p is MsgID{p, k}; what each operation
// observes, and whether it is multicast.
func TestIssue(t *testing.T) {
	reg := id(0, 1)
	cases := []struct {
		name     string
		reads    Reads
		in       Process[note]
		a        model.Action
		want     Process[note]
		v        Value
		mcast    bool
		observed []model.Obs
	}{
		{"multicast", NoReads, Process[note]{}, MulticastOp,
			Process[note]{Issued: 1}, write(2, 1), true, []model.Obs{model.Multicast(id(2, 1))}},
		{"multicast, the third", NoReads, Process[note]{Issued: 2}, MulticastOp,
			Process[note]{Issued: 3}, write(2, 3), true, []model.Obs{model.Multicast(id(2, 3))}},
		{"write: multicast, the client waits", LocalReads, Process[note]{Register: reg}, WriteOp,
			Process[note]{Issued: 1, Register: reg, Waiting: true}, write(2, 1), true, []model.Obs{model.Multicast(id(2, 1))}},
		{"local read: answered here and now", LocalReads, Process[note]{Issued: 1, Register: reg}, ReadOp,
			Process[note]{Issued: 2, Register: reg}, write(2, 2), false, []model.Obs{model.ReadCall(), model.ReadReturn(reg)}},
		{"local read of the initial value", LocalReads, Process[note]{}, ReadOp,
			Process[note]{Issued: 1}, write(2, 1), false, []model.Obs{model.ReadCall(), model.ReadReturn(model.MsgID{})}},
		{"ordered read: multicast as a read, the client waits", OrderedReads, Process[note]{Register: reg}, ReadOp,
			Process[note]{Issued: 1, Register: reg, Waiting: true}, read(2, 1), true, []model.Obs{model.ReadCall()}},
		{"ordered write", OrderedReads, Process[note]{Issued: 1}, WriteOp,
			Process[note]{Issued: 2, Waiting: true}, write(2, 2), true, []model.Obs{model.Multicast(id(2, 2))}},
	}
	for _, c := range cases {
		ctx := model.NewCtx[note](withParams(3, 0, reads(c.reads)), 2)
		got, v, ok := Issue(ctx, c.in, c.a)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.v, v, c.name)
		require.Equal(t, c.mcast, ok, c.name)
		require.Nil(t, checktest.Sent(ctx), c.name)
		require.Equal(t, c.observed, checktest.Observed(ctx), c.name)
	}
}

// Do: a step of the work when there is some, else an operation whose
// value goes to the protocol's multicast.
func TestDo(t *testing.T) {
	cases := []struct {
		name     string
		reads    Reads
		in       Process[note]
		a        model.Action
		want     Process[note]
		mcast    []Value
		sent     []model.Sent[note]
		observed []model.Obs
	}{
		{"busy: the head of the work", NoReads, Process[note]{Issued: 1, Work: work(sendTo(0, "a"), deliverOf(write(1, 1)))}, SendNext(0),
			Process[note]{Issued: 1}, nil, []model.Sent[note]{{To: 0, Msg: "a"}}, []model.Obs{model.Delivered(id(1, 1))}},
		{"multicast", NoReads, Process[note]{}, MulticastOp,
			Process[note]{Issued: 1, Work: work(sendTo(2, "mcast"))}, []Value{write(1, 1)}, nil, []model.Obs{model.Multicast(id(1, 1))}},
		{"local read: nothing to multicast", LocalReads, Process[note]{}, ReadOp,
			Process[note]{Issued: 1}, nil, nil, []model.Obs{model.ReadCall(), model.ReadReturn(model.MsgID{})}},
		{"ordered read: multicast", OrderedReads, Process[note]{}, ReadOp,
			Process[note]{Issued: 1, Waiting: true, Work: work(sendTo(2, "mcast"))}, []Value{read(1, 1)}, nil, []model.Obs{model.ReadCall()}},
	}
	for _, c := range cases {
		var mcast []Value
		do := func(ctx *model.Ctx[note], p Process[note]) Process[note] {
			return Do(ctx, p, c.a, func(p Process[note], v Value) Process[note] {
				mcast = append(mcast, v)
				p.Work = append(slices.Clip(p.Work), sendTo(2, "mcast"))
				return p
			})
		}
		checkCall(t, c.name, withParams(3, 1, reads(c.reads)), c.in, do, c.want, c.sent, c.observed)
		require.Equal(t, c.mcast, mcast, c.name)
	}
}

// DoBMulticast: Do whose multicast(g, m) sends msg(v) to the group, the
// sender included.
func TestDoBMulticast(t *testing.T) {
	msg := func(v Value) note { return note("carries " + v.String()) }
	m := msg(write(1, 1))
	cases := []struct {
		name    string
		crashes int
		in      Process[note]
		a       model.Action
		want    Process[note]
		sent    []model.Sent[note]
	}{
		{"no crash: to the group at once", 0, Process[note]{}, MulticastOp,
			Process[note]{Issued: 1}, []model.Sent[note]{{To: 0, Msg: m}, {To: 1, Msg: m}, {To: 2, Msg: m}}},
		{"crashes: the loop queued", 1, Process[note]{}, MulticastOp,
			Process[note]{Issued: 1, Work: work(sendTo(0, m), sendTo(1, m), sendTo(2, m))}, nil},
		{"busy: the head of the work, no multicast", 1, Process[note]{Issued: 1, Work: work(sendTo(2, "a"))}, SendNext(2),
			Process[note]{Issued: 1}, []model.Sent[note]{{To: 2, Msg: "a"}}},
	}
	for _, c := range cases {
		do := func(ctx *model.Ctx[note], p Process[note]) Process[note] { return DoBMulticast(ctx, p, c.a, msg) }
		var observed []model.Obs
		if c.a == MulticastOp {
			observed = []model.Obs{model.Multicast(id(1, 1))}
		}
		checkCall(t, c.name, withParams(3, c.crashes, nil), c.in, do, c.want, c.sent, observed)
	}
}

// Held shows a hold-back queue only when it holds something.
func TestHeld(t *testing.T) {
	require.Empty(t, Held[int](nil))
	require.Empty(t, Held([]int{}))
	require.Equal(t, " held=[2 1]", Held([]int{2, 1}))
	require.Equal(t, " held=[msg n0#1]", Held([]Data{DataOf(write(0, 1))}))
}

func TestCheckParams(t *testing.T) {
	cases := []struct {
		name      string
		params    map[string]int
		withReads bool
		err       string
	}{
		{"defaults", nil, false, ""},
		{"msgs 65535", map[string]int{"msgs": 65535}, false, ""},
		{"msgs 0", map[string]int{"msgs": 0}, false, "multicast/x: msgs must be between 1 and 65535, not 0"},
		{"msgs -1", map[string]int{"msgs": -1}, true, "multicast/x: msgs must be between 1 and 65535, not -1"},
		{"msgs 65536", map[string]int{"msgs": 65536}, true, "multicast/x: msgs must be between 1 and 65535, not 65536"},
		{"reads 3", reads(3), true, "multicast/x: reads must be 0 (none), 1 (local) or 2 (ordered), not 3"},
		{"reads -1", reads(-1), true, "multicast/x: reads must be 0 (none), 1 (local) or 2 (ordered), not -1"},
		{"local reads without a total order", reads(LocalReads), false,
			"multicast/x: a replicated register needs a total order: use multicast/sequencer or multicast/isis"},
		{"ordered reads without a total order", reads(OrderedReads), false,
			"multicast/x: a replicated register needs a total order: use multicast/sequencer or multicast/isis"},
		{"no reads without a total order", reads(NoReads), false, ""},
		{"local reads with a total order", reads(LocalReads), true, ""},
		{"ordered reads with a total order", reads(OrderedReads), true, ""},
	}
	for _, c := range cases {
		err := CheckParams("multicast/x", model.Config{N: 3, Params: c.params}, c.withReads)
		if c.err == "" {
			require.NoError(t, err, c.name)
		} else {
			require.EqualError(t, err, c.err, c.name)
		}
	}
}

func TestCompare(t *testing.T) {
	cases := []struct {
		name string
		a, b Value
		want int // its sign
	}{
		{"equal", write(1, 2), write(1, 2), 0},
		{"equal reads", read(1, 2), read(1, 2), 0},
		{"by sender first", write(0, 9), write(1, 1), -1},
		{"by sender first, reversed", write(2, 1), write(1, 9), 1},
		{"then by sequence number", write(1, 1), write(1, 2), -1},
		{"then by sequence number, reversed", read(1, 3), write(1, 2), 1},
		{"then writes before reads", write(1, 1), read(1, 1), -1},
		{"then writes before reads, reversed", read(1, 1), write(1, 1), 1},
	}
	for _, c := range cases {
		got := Compare(c.a, c.b)
		switch {
		case c.want < 0:
			require.Negative(t, got, c.name)
		case c.want > 0:
			require.Positive(t, got, c.name)
		default:
			require.Zero(t, got, c.name)
		}
	}
}

func TestParseReads(t *testing.T) {
	for _, c := range []struct {
		s    string
		want Reads
	}{{"none", NoReads}, {"local", LocalReads}, {"ordered", OrderedReads}} {
		r, err := ParseReads(c.s)
		require.NoError(t, err, c.s)
		require.Equal(t, c.want, r, c.s)
		require.Equal(t, c.s, r.String())
	}
	_, err := ParseReads("Local")
	require.EqualError(t, err, `reads must be none, local or ordered, not "Local"`)
	require.Equal(t, "reads(7)", Reads(7).String())
	require.Equal(t, "reads(-1)", Reads(-1).String())
}

func TestGroup(t *testing.T) {
	env := &model.NewCtx[note](model.Config{N: 3}, 1).Env
	require.Equal(t, []model.NodeID{0, 1, 2}, Group(env))
	require.Equal(t, []model.NodeID{0, 2}, Others(env))
}
