package regress

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/multicast"
	"github.com/vigil-check/vigil/protocols/multicast/reliable"
)

// The messages of one multicast, as each package doc states them, over
// every interleaving of a run where one node multicasts once: exactly that
// many, by kind, for N = 2..4.
func TestMulticastMessagesPerMulticast(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		kinds    func(n int) map[string]int
	}{
		{"basic", func(n int) map[string]int { return map[string]int{"msg": n} }},
		{"reliable", func(n int) map[string]int { return map[string]int{"msg": n * n} }},
		{"fifo", func(n int) map[string]int { return map[string]int{"msg": n} }},
		{"causal", func(n int) map[string]int { return map[string]int{"msg": n - 1} }},
		{"sequencer", func(n int) map[string]int { return map[string]int{"msg": n, "order": n} }},
		{"isis", func(n int) map[string]int { return map[string]int{"msg": n, "propose": n, "agreed": n} }},
	}
	for _, c := range cases {
		for n := 2; n <= 4; n++ {
			for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
				cfg := model.Config{N: n, Channels: ch, Initiators: initiators(n, n-1)}
				r := exhaustiveRun(t, c.protocol, cfg, nil, checker.Options{Messages: true})
				require.Equal(t, checker.Pass, r.Verdict, "%s n=%d %v", c.protocol, n, ch)
				total := 0
				for kind, want := range c.kinds(n) {
					m := checktest.Messages(t, r, kind)
					require.Equal(t, [2]int{want, want}, [2]int{m.Min, m.Max}, "%s n=%d %v: %s", c.protocol, n, ch, kind)
					total += want
				}
				m := checktest.Messages(t, r, "total")
				require.Equal(t, [2]int{total, total}, [2]int{m.Min, m.Max}, "%s n=%d %v", c.protocol, n, ch)
			}
		}
	}
}

// deliverFirst is R-multicast that delivers a message when it arrives and
// relays it afterwards (Vlassov and Montelius, "Uniform agreement": "assume we first
// deliver a received message before we forward it"): a node that crashes
// between the two has delivered a message no one else will.
type deliverFirst struct{ reliable.Protocol }

func (deliverFirst) Receive(ctx *model.Ctx[reliable.Msg], s reliable.State, _ model.NodeID, m reliable.Msg) reliable.State {
	if s.Seen(m.Value) {
		return s
	}
	s = s.WithReceived(m.Value)
	ctx.Observe(model.Delivered(m.Value.ID)) // R-deliver m, at once
	if m.Value.ID.Sender != ctx.Self() {
		s.Process = s.Send(ctx, multicast.Group(&ctx.Env), m)
	}
	return s
}

// The deliver-before-relay variant breaks uniform agreement with one
// crash, and only uniform agreement: the counterexample replays, its node
// delivers and crashes before anyone else has the message. The shipped
// R-multicast keeps it in the same runs (the golden sweeps check it with two
// senders too). The sender multicasts twice; in the quick tier, once
// (two thousand worlds, not eight hundred thousand).
func TestDeliverBeforeRelayBreaksUniformAgreement(t *testing.T) {
	t.Parallel()
	cfg := deliverFirstConfig(tier.Pick(1, 2))
	m := compileVariant(t, "reliable", "multicast/reliable-deliver-first", deliverFirst{}, cfg)
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	require.Equal(t, []string{"uniform-agreement"}, names(r.Failed()))
	pr := r.Property("uniform-agreement")
	require.Regexp(t, `^the run is over, some process delivered n0#1 and n\d, correct, never did$`, pr.Detail)
	cx := pr.Counterexample
	require.Equal(t, "crash", cx.Events[len(cx.Events)-1].Kind, "the deliverer crashes last")
	back, err := checker.Replay(m, cx)
	require.NoError(t, err)
	require.Equal(t, pr.Detail, back.Detail)

	r = exhaustiveRun(t, "reliable", cfg, nil, checker.Options{})
	require.Equal(t, checker.Pass, r.Verdict, "%v", r.Failed())
}

// deliverFirstConfig is where deliverFirst breaks uniform agreement: N =
// 3 on unordered channels, one crash, node 0 multicasting msgs messages.
func deliverFirstConfig(msgs int) model.Config {
	return model.Config{N: 3, Channels: model.Unordered, Crashes: 1, Initiators: initiators(3, 0), Params: map[string]int{"msgs": msgs}}
}

// A replicated register over total order: with reads answered locally a
// reader sees a value older than a write that has returned, and porcupine
// finds the stale read and draws it; with reads through the total order
// every history is linearizable. Random runs of 10 nodes, two operations
// each: 300 walks; in the quick tier 50, whose runs shown it shrinks
// briefly.
func TestRegisterLinearizability(t *testing.T) {
	t.Parallel()
	walks := tier.Pick(50, 300)
	opt := checker.RandomOptions{Walks: walks, Seed: 1, Object: properties.Register, ShrinkTime: quickShrinkTime()}
	for _, name := range []string{"sequencer", "isis"} {
		cfg := model.Config{N: 10, Channels: model.Unordered, Params: map[string]int{"msgs": 2, "reads": int(multicast.OrderedReads)}}
		r := randomRun(t, name, cfg, nil, opt)
		require.Equal(t, checker.Pass, r.Verdict, "%s, ordered reads: %v", name, r.Failed())
		l := r.Linearizability
		require.Equal(t, checker.Pass, l.Verdict, "%s, ordered reads", name)
		require.Equal(t, walks, l.Histories)
		require.Equal(t, walks*10*2, l.Operations, "%s: every operation returns", name)

		cfg.Params = map[string]int{"msgs": 2, "reads": int(multicast.LocalReads)}
		r = randomRun(t, name, cfg, nil, opt)
		require.Empty(t, r.Failed(), "%s, local reads: the multicast properties still hold", name)
		l = r.Linearizability
		require.Equal(t, checker.Fail, l.Verdict, "%s: no stale local read in %d walks", name, walks)
		require.Equal(t, checker.Fail, r.Verdict)
		require.NotNil(t, l.Seed)
		require.False(t, porcupine.CheckOperations(properties.Register.Model, l.History))
		html := filepath.Join(t.TempDir(), name+".html")
		require.NoError(t, l.WriteHTML(html))
		b, err := os.ReadFile(html)
		require.NoError(t, err)
		require.Contains(t, string(b), "<html")
		require.Contains(t, string(b), " read ")

		// the walk that failed fails again from its seed alone
		one := randomRun(t, name, cfg, nil, checker.RandomOptions{Walks: 1, Seed: *l.Seed, Object: properties.Register, ShrinkTime: quickShrinkTime()})
		require.Equal(t, checker.Fail, one.Linearizability.Verdict, "%s: seed %d does not replay", name, *l.Seed)
	}
}

// The register's sequential model, on histories whose answer is known:
// each is a run's observations, node and what, in the order they happen.
func TestRegisterModel(t *testing.T) {
	t.Parallel()
	type obs struct {
		node model.NodeID
		o    model.Obs
	}
	a, b, initial := model.MsgID{Sender: 0, Seq: 1}, model.MsgID{Sender: 1, Seq: 1}, model.MsgID{}
	write := func(n model.NodeID, v model.MsgID) obs { return obs{n, model.Multicast(v)} }
	wrote := func(n model.NodeID, v model.MsgID) obs { return obs{n, model.Delivered(v)} }
	call := func(n model.NodeID) obs { return obs{n, model.ReadCall()} }
	read := func(n model.NodeID, v model.MsgID) obs { return obs{n, model.ReadReturn(v)} }
	crash := func(n model.NodeID) obs { return obs{n, model.Obs{Kind: model.ObsCrash}} }
	cases := []struct {
		name string
		run  []obs
		ops  int
		ok   bool
	}{
		{"read the initial value", []obs{call(2), read(2, initial)}, 1, true},
		{"read a write that returned", []obs{write(0, a), wrote(0, a), call(2), read(2, a)}, 2, true},
		{"stale read after a write returned", []obs{write(0, a), wrote(0, a), call(2), read(2, initial)}, 2, false},
		{"read during a write: either value", []obs{write(0, a), call(2), read(2, initial), call(1), read(1, a), wrote(0, a)}, 3, true},
		{"new then old value", []obs{write(0, a), call(2), read(2, a), call(1), read(1, initial), wrote(0, a)}, 3, false},
		{"two writes seen in two orders", []obs{write(0, a), write(1, b), wrote(0, a), wrote(1, b), call(2), read(2, a), call(2), read(2, b), call(1), read(1, a)}, 5, false},
		{"another node's delivery returns nothing", []obs{write(0, a), wrote(1, a), call(2), read(2, initial)}, 2, true},
		{"a write whose writer crashed is kept open: it may have taken effect", []obs{write(0, a), crash(0), call(1), read(1, a)}, 2, true},
		{"a read whose reader crashed is left out", []obs{write(0, a), wrote(0, a), call(1), crash(1)}, 1, true},
	}
	for _, c := range cases {
		rec := properties.Register.NewRecorder()
		for _, o := range c.run {
			rec.Observe(o.node, o.o)
		}
		h := rec.History()
		require.Len(t, h, c.ops, c.name)
		require.Equal(t, c.ok, porcupine.CheckOperations(properties.Register.Model, h), c.name)
	}
}

// Random mode at N = 30 gives no false alarm: every claim of every
// protocol holds without crashes (R-multicast, whose N² messages a
// multicast make a walk long, at N = 12), and the crash-tolerant claims
// with crashes. The quick tier takes half the walks, and shrinks the runs
// shown briefly.
func TestRandomMulticastLarge(t *testing.T) {
	t.Parallel()
	walks, crashyWalks := tier.Pick(10, 20), tier.Pick(50, 100)
	for _, p := range protocols.All() {
		if p.Family != "multicast" {
			continue
		}
		n := 30
		if p.Name == "reliable" {
			n = 12
		}
		cfg := model.Config{N: n, Channels: model.Unordered}
		r := randomRun(t, p.Name, cfg, nil, checker.RandomOptions{Walks: walks, Seed: 1, ShrinkTime: quickShrinkTime()})
		require.Equal(t, checker.Pass, r.Verdict, "%s: %v", p.Name, r.Failed())
		require.Len(t, r.Properties, len(p.Claims))
	}
	// crashes: R-multicast keeps every claim; FIFO and causal order keep
	// their order (not agreement: ordering is not reliability)
	crashy := model.Config{N: 12, Channels: model.Unordered, Crashes: 3, Params: map[string]int{"msgs": 2}}
	for name, props := range map[string][]string{
		"reliable": nil,
		"fifo":     {"integrity", "fifo-order", "validity"},
		"causal":   {"integrity", "fifo-order", "causal-order", "validity"},
	} {
		r := randomRun(t, name, crashy, props, checker.RandomOptions{Walks: crashyWalks, Seed: 1, ShrinkTime: quickShrinkTime()})
		require.Equal(t, checker.Pass, r.Verdict, "%s with crashes: %v", name, r.Failed())
	}
	// and B-multicast's lost agreement is found at this size too
	r := randomRun(t, "basic", crashy, []string{"agreement"}, checker.RandomOptions{Walks: crashyWalks, Seed: 1, ShrinkTime: quickShrinkTime()})
	require.Equal(t, checker.Fail, r.Property("agreement").Verdict)
}

// Bad parameters are errors, not runs.
func TestMulticastParameters(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		protocol string
		params   map[string]int
		want     string
	}{
		{"basic", map[string]int{"msgs": 0}, "msgs must be between 1 and 65535, not 0"},
		{"reliable", map[string]int{"reads": 1}, "a replicated register needs a total order"},
		{"sequencer", map[string]int{"reads": 3}, "reads must be 0 (none), 1 (local) or 2 (ordered), not 3"},
	} {
		p := lookup(t, c.protocol)
		_, err := p.Compile(model.Config{N: 3, Params: c.params}, nil)
		require.ErrorContains(t, err, c.want)
	}
}
