package maekawa

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
)

var (
	request = Msg{Request}
	reply   = Msg{Reply}
	release = Msg{Release}
)

func ids(is ...int) []model.NodeID {
	out := make([]model.NodeID, len(is))
	for k, i := range is {
		out[k] = model.NodeID(i)
	}
	return out
}

func TestVotingSet(t *testing.T) {
	// N = 4, a 2×2 grid: row ∪ column
	require.Equal(t, ids(0, 1, 2), VotingSet(4, 0))
	require.Equal(t, ids(0, 1, 3), VotingSet(4, 1))
	require.Equal(t, ids(0, 2, 3), VotingSet(4, 2))
	require.Equal(t, ids(1, 2, 3), VotingSet(4, 3))
	// N = 3: the last row (node 2) is incomplete
	require.Equal(t, ids(0, 1, 2), VotingSet(3, 0))
	require.Equal(t, ids(0, 1), VotingSet(3, 1))
	require.Equal(t, ids(0, 2), VotingSet(3, 2))
	require.Equal(t, ids(0), VotingSet(1, 0))
}

// Every two voting sets meet, for N = 1..16, and each holds its node; on a
// full grid K = 2√N-1.
func TestVotingSetsIntersect(t *testing.T) {
	for n := 1; n <= 16; n++ {
		for i := range n {
			vi := VotingSet(n, i)
			require.Contains(t, vi, model.NodeID(i), "n=%d: %d ∉ V_%d", n, i, i)
			if w := Width(n); w*w == n {
				require.Len(t, vi, 2*w-1, "n=%d, V_%d", n, i)
			}
			for j := range n {
				vj := VotingSet(n, j)
				require.True(t, slices.ContainsFunc(vi, func(k model.NodeID) bool { return slices.Contains(vj, k) }),
					"n=%d: V_%d=%v and V_%d=%v do not meet", n, i, vi, j, vj)
			}
		}
	}
}

// Vlassov and Montelius's pseudo-code, one handler call each (N = 4, K = 3).
func TestReceive(t *testing.T) {
	cfg := model.Config{N: 4}
	cases := []struct {
		name     string
		self     model.NodeID
		in       State
		from     model.NodeID
		m        Msg
		want     State
		sent     []model.Sent[Msg]
		observed []model.Obs
	}{
		{"request, not voted: reply, voted := TRUE", 1, State{Phase: Released}, 3, request,
			State{Phase: Released, Voted: true}, []model.Sent[Msg]{{To: 3, Msg: reply}}, nil},
		{"request while wanted, not voted: vote all the same", 1, State{Phase: Wanted, Replies: 1}, 0, request,
			State{Phase: Wanted, Replies: 1, Voted: true}, []model.Sent[Msg]{{To: 0, Msg: reply}}, nil},
		{"request, voted: queue without replying", 1, State{Phase: Released, Voted: true, Queue: ids(3)}, 0, request,
			State{Phase: Released, Voted: true, Queue: ids(3, 0)}, nil, nil},
		{"request while held: queue", 1, State{Phase: Held, Voted: true, Replies: 3}, 3, request,
			State{Phase: Held, Voted: true, Replies: 3, Queue: ids(3)}, nil, nil},
		{"a reply, more to come: count it", 0, State{Phase: Wanted, Voted: true, Replies: 1}, 1, reply,
			State{Phase: Wanted, Voted: true, Replies: 2}, nil, nil},
		{"the Kth reply: state := HELD", 0, State{Phase: Wanted, Voted: true, Replies: 2}, 2, reply,
			State{Phase: Held, Voted: true, Replies: 3}, nil, []model.Obs{model.EnterCS()}},
		{"release, queue non-empty: reply to its head, voted := TRUE", 2, State{Phase: Released, Voted: true, Queue: ids(3, 0)}, 0, release,
			State{Phase: Released, Voted: true, Queue: ids(0)}, []model.Sent[Msg]{{To: 3, Msg: reply}}, nil},
		{"release, last queued", 2, State{Phase: Released, Voted: true, Queue: ids(3)}, 0, release,
			State{Phase: Released, Voted: true}, []model.Sent[Msg]{{To: 3, Msg: reply}}, nil},
		{"release, queue empty: voted := FALSE", 2, State{Phase: Released, Voted: true}, 0, release,
			State{Phase: Released}, nil, nil},
	}
	for _, c := range cases {
		before := c.in
		before.Queue = slices.Clone(c.in.Queue)
		ctx := model.NewCtx[Msg](cfg, c.self)
		got := Protocol{}.Receive(ctx, c.in, c.from, c.m)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sent, ctx.Sent(), c.name)
		require.Equal(t, c.observed, ctx.Observed(), c.name)
		require.Equal(t, before, c.in, "%s: the input state changed", c.name)
	}
}

func sendAll(to []model.NodeID, m Msg) []model.Sent[Msg] {
	var out []model.Sent[Msg]
	for _, j := range to {
		out = append(out, model.Sent[Msg]{To: j, Msg: m})
	}
	return out
}

// "For pi to enter the critical section" and "For pi to exit": multicast
// to V_i, the node itself included.
func TestDo(t *testing.T) {
	cfg := model.Config{N: 4, Params: map[string]int{"requests": 2}}
	ctx := model.NewCtx[Msg](cfg, 3)
	got := Protocol{}.Do(ctx, State{Phase: Released, Asked: 1}, mutex.Request)
	require.Equal(t, State{Phase: Wanted, Asked: 2}, got)
	require.Equal(t, sendAll(ids(1, 2, 3), request), ctx.Sent())
	require.Equal(t, []model.Obs{model.RequestCS(0)}, ctx.Observed())

	ctx = model.NewCtx[Msg](cfg, 3)
	got = Protocol{}.Do(ctx, State{Phase: Held, Voted: true, Replies: 3, Queue: ids(1), Asked: 2}, mutex.Exit)
	require.Equal(t, State{Phase: Released, Voted: true, Queue: ids(1), Asked: 2}, got)
	require.Equal(t, sendAll(ids(1, 2, 3), release), ctx.Sent())
	require.Equal(t, []model.Obs{model.ExitCS()}, ctx.Observed())

	env := &model.NewCtx[Msg](cfg, 3).Env
	require.Equal(t, []model.Action{mutex.Request}, Protocol{}.Actions(env, State{Phase: Released, Asked: 1}))
	require.Nil(t, Protocol{}.Actions(env, State{Phase: Released, Asked: 2}))
	require.Nil(t, Protocol{}.Actions(env, State{Phase: Wanted, Asked: 1}))
	require.Equal(t, []model.Action{mutex.Exit}, Protocol{}.Actions(env, State{Phase: Held, Asked: 1}))
}

// net is a hand-driven network of n nodes for the tests below.
type net struct {
	cfg      model.Config
	states   []State
	inflight []flight
	sent     map[string]int // messages sent, by kind
}

type flight struct {
	from, to model.NodeID
	m        Msg
}

func newNet(n int) *net {
	w := &net{cfg: model.Config{N: n}, states: make([]State, n), sent: map[string]int{}}
	for i := range n {
		w.states[i] = Protocol{}.Init(model.NewCtx[Msg](w.cfg, model.NodeID(i)))
	}
	return w
}

func (w *net) post(from model.NodeID, ctx *model.Ctx[Msg]) {
	for _, s := range ctx.Sent() {
		w.inflight = append(w.inflight, flight{from, s.To, s.Msg})
		w.sent[s.Msg.Kind()]++
	}
}

func (w *net) do(i model.NodeID, a model.Action) {
	ctx := model.NewCtx[Msg](w.cfg, i)
	w.states[i] = Protocol{}.Do(ctx, w.states[i], a)
	w.post(i, ctx)
}

// deliver delivers the first message in flight for which pick holds.
func (w *net) deliver(pick func(f flight) bool) bool {
	k := slices.IndexFunc(w.inflight, pick)
	if k < 0 {
		return false
	}
	f := w.inflight[k]
	w.inflight = slices.Delete(w.inflight, k, k+1)
	ctx := model.NewCtx[Msg](w.cfg, f.to)
	w.states[f.to] = Protocol{}.Receive(ctx, w.states[f.to], f.from, f.m)
	w.post(f.to, ctx)
	return true
}

func (w *net) drain() {
	for w.deliver(func(flight) bool { return true }) {
	}
}

// One entry alone costs K requests, K replies and K releases: 9 at N = 4.
func TestOneEntryCosts3K(t *testing.T) {
	for _, n := range []int{1, 4, 9, 16} {
		k := len(VotingSet(n, 0))
		w := newNet(n)
		w.do(0, mutex.Request)
		w.drain()
		require.Equal(t, Held, w.states[0].Phase, "n=%d", n)
		w.do(0, mutex.Exit)
		w.drain()
		require.Equal(t, map[string]int{"request": k, "reply": k, "release": k}, w.sent, "n=%d", n)
		for i, s := range w.states {
			require.False(t, s.Voted, "n=%d: n%d still voted", n, i)
		}
	}
	require.Equal(t, 3, len(VotingSet(4, 0)))
}

// "Unfortunately, the algorithm is deadlock-prone": at N = 4, nodes 0 and
// 1 ask at once and each votes for itself first. Each then holds a vote
// the other needs, and nothing more can happen.
func TestDeadlock(t *testing.T) {
	w := newNet(4)
	w.do(0, mutex.Request)
	w.do(1, mutex.Request)
	require.True(t, w.deliver(func(f flight) bool { return f.from == 0 && f.to == 0 }))
	require.True(t, w.deliver(func(f flight) bool { return f.from == 1 && f.to == 1 }))
	w.drain()
	require.Empty(t, w.inflight)
	require.Equal(t, State{Phase: Wanted, Voted: true, Replies: 2, Queue: ids(1), Asked: 1}, w.states[0])
	require.Equal(t, State{Phase: Wanted, Voted: true, Replies: 2, Queue: ids(0), Asked: 1}, w.states[1])
}
