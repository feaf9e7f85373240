package maekawa_test

import (
	. "github.com/vigil-check/vigil/protocols/mutex/maekawa"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/mutextest"
)

type step = checktest.Step[State, Msg]

var handlers = checktest.Handlers[State, Msg]{Protocol: Protocol{}, Config: model.Config{N: 4}}

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
	handlers.Receive(t, []step{
		{Name: "request, not voted: reply, voted := TRUE", Self: 1, In: State{Phase: mutex.Released}, From: 3, Msg: request,
			Want: State{Phase: mutex.Released, Voted: true}, Sent: checktest.SentTo(reply, 3)},
		{Name: "request while wanted, not voted: vote all the same", Self: 1, In: State{Phase: mutex.Wanted, Replies: 1}, From: 0, Msg: request,
			Want: State{Phase: mutex.Wanted, Replies: 1, Voted: true}, Sent: checktest.SentTo(reply, 0)},
		{Name: "request, voted: queue without replying", Self: 1, In: State{Phase: mutex.Released, Voted: true, Queue: ids(3)}, From: 0, Msg: request,
			Want: State{Phase: mutex.Released, Voted: true, Queue: ids(3, 0)}},
		{Name: "request while held: queue", Self: 1, In: State{Phase: mutex.Held, Voted: true, Replies: 3}, From: 3, Msg: request,
			Want: State{Phase: mutex.Held, Voted: true, Replies: 3, Queue: ids(3)}},
		{Name: "a reply, more to come: count it", Self: 0, In: State{Phase: mutex.Wanted, Voted: true, Replies: 1}, From: 1, Msg: reply,
			Want: State{Phase: mutex.Wanted, Voted: true, Replies: 2}},
		{Name: "the Kth reply: state := HELD", Self: 0, In: State{Phase: mutex.Wanted, Voted: true, Replies: 2}, From: 2, Msg: reply,
			Want: State{Phase: mutex.Held, Voted: true, Replies: 3}, Observed: []model.Obs{model.EnterCS()}},
		{Name: "release, queue non-empty: reply to its head, voted := TRUE", Self: 2,
			In: State{Phase: mutex.Released, Voted: true, Queue: ids(3, 0)}, From: 0, Msg: release,
			Want: State{Phase: mutex.Released, Voted: true, Queue: ids(0)}, Sent: checktest.SentTo(reply, 3)},
		{Name: "release, last queued", Self: 2, In: State{Phase: mutex.Released, Voted: true, Queue: ids(3)}, From: 0, Msg: release,
			Want: State{Phase: mutex.Released, Voted: true}, Sent: checktest.SentTo(reply, 3)},
		{Name: "release, queue empty: voted := FALSE", Self: 2, In: State{Phase: mutex.Released, Voted: true}, From: 0, Msg: release,
			Want: State{Phase: mutex.Released}},
	})
}

// "For pi to enter the critical section" and "For pi to exit": multicast
// to V_i, the node itself included.
func TestDo(t *testing.T) {
	twice := mutextest.Requests(4, 2)
	handlers.Do(t, []step{
		{Name: "request", Config: twice, Self: 3, In: State{Phase: mutex.Released, Asked: 1}, Action: mutex.Request,
			Want: State{Phase: mutex.Wanted, Asked: 2}, Sent: checktest.SentTo(request, 1, 2, 3), Observed: []model.Obs{model.RequestCS(0)}},
		{Name: "exit", Config: twice, Self: 3, In: State{Phase: mutex.Held, Voted: true, Replies: 3, Queue: ids(1), Asked: 2}, Action: mutex.Exit,
			Want: State{Phase: mutex.Released, Voted: true, Queue: ids(1), Asked: 2}, Sent: checktest.SentTo(release, 1, 2, 3), Observed: []model.Obs{model.ExitCS()}},
	})
}

// The client's local actions, as every mutual-exclusion protocol lists
// them; a node asks a bounded number of times.
func TestActions(t *testing.T) {
	client := func(p mutex.Phase, asked int) State { return State{Phase: p, Asked: asked} }
	mutextest.Client[State, Msg]{Handlers: handlers, Self: 3, State: client}.Actions(t)
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
	for _, s := range checktest.Sent(ctx) {
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
		require.Equal(t, mutex.Held, w.states[0].Phase, "n=%d", n)
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
	require.Equal(t, State{Phase: mutex.Wanted, Voted: true, Replies: 2, Queue: ids(1), Asked: 1}, w.states[0])
	require.Equal(t, State{Phase: mutex.Wanted, Voted: true, Replies: 2, Queue: ids(0), Asked: 1}, w.states[1])
}
