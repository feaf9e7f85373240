package properties

import (
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/vigil-check/vigil/model"
)

// The multicast properties judged by their own Check functions, on worlds
// reached by a scripted protocol: each step of a script is an observation
// one node reports (through a local action) or a crash or recovery that
// the World itself reports to the monitors.

// mstep is one step of a script: node reports obs, or, for ObsCrash and
// ObsRecover, the World crashes or recovers node.
type mstep struct {
	node model.NodeID
	obs  model.Obs
}

func msgID(p model.NodeID, k int) model.MsgID { return model.MsgID{Sender: p, Seq: k} }

// sent: p multicasts p#k. got: q delivers p#k. fails, restarts: q crashes,
// q recovers.
func sent(p model.NodeID, k int) mstep          { return mstep{p, model.Multicast(msgID(p, k))} }
func got(q, p model.NodeID, k int) mstep        { return mstep{q, model.Delivered(msgID(p, k))} }
func fails(q model.NodeID) mstep                { return mstep{q, model.Obs{Kind: model.ObsCrash}} }
func restarts(q model.NodeID) mstep             { return mstep{q, model.Obs{Kind: model.ObsRecover}} }
func reports(q model.NodeID, o model.Obs) mstep { return mstep{q, o} }

// scripted is a protocol that sends nothing: node i has one local action
// while observations of its script remain, and each run of it reports the
// next one. A recovered node goes on where it stopped.
type scripted struct{ obs [][]model.Obs }

type scriptedState struct{ Pos int }

type scriptedMsg struct{}

func (scripted) Init(*model.Ctx[scriptedMsg]) scriptedState { return scriptedState{} }
func (scripted) Receive(_ *model.Ctx[scriptedMsg], s scriptedState, _ model.NodeID, _ scriptedMsg) scriptedState {
	return s
}
func (scripted) Timeout(_ *model.Ctx[scriptedMsg], s scriptedState, _ model.Timer) scriptedState {
	return s
}
func (scripted) Recover(_ *model.Ctx[scriptedMsg], s scriptedState) scriptedState { return s }

func (p scripted) Actions(env *model.Env, s scriptedState) []model.Action {
	if s.Pos < len(p.obs[env.Self()]) {
		return []model.Action{"next"}
	}
	return nil
}

func (p scripted) Do(ctx *model.Ctx[scriptedMsg], s scriptedState, _ model.Action) scriptedState {
	ctx.Observe(p.obs[ctx.Self()][s.Pos])
	return scriptedState{Pos: s.Pos + 1}
}

// play runs script on n nodes ("msgs" set to msgs unless 0) with the
// multicast family's monitors, and returns the view of every world on the
// way: views[k] is the world after the first k steps. The last one is
// quiescent.
func play(t *testing.T, n, msgs int, script []mstep) []View {
	t.Helper()
	p := scripted{obs: make([][]model.Obs, n)}
	cfg := model.Config{N: n}
	if msgs != 0 {
		cfg.Params = map[string]int{"msgs": msgs}
	}
	for _, e := range script {
		switch e.obs.Kind {
		case model.ObsCrash:
			cfg.Crashes++
		case model.ObsRecover:
			cfg.Recoveries++
		default:
			p.obs[e.node] = append(p.obs[e.node], e.obs)
		}
	}
	m, err := sim.Compile("scripted", p, cfg, Monitors(Family("multicast"))...)
	require.NoError(t, err)
	st := m.NewStepper()
	w, _ := st.Init()
	require.Nil(t, st.TakeFault())
	views := []View{st.View(w)}
	for k, e := range script {
		ev := sim.Event{Kind: sim.Act, Node: e.node}
		switch e.obs.Kind {
		case model.ObsCrash:
			ev.Kind = sim.Crash
			require.True(t, st.Alive(w, e.node), "step %d: %v crashes while down", k, e.node)
		case model.ObsRecover:
			ev.Kind = sim.Recover
			require.False(t, st.Alive(w, e.node), "step %d: %v recovers while up", k, e.node)
		default:
			require.True(t, st.Alive(w, e.node), "step %d: %v observes while down", k, e.node)
		}
		w, _ = st.Apply(w, ev, nil)
		require.Nil(t, st.TakeFault(), "step %d: a monitor failed", k)
		views = append(views, st.View(w))
	}
	_, nproto := st.Enabled(w, nil)
	require.Zero(t, nproto, "the script's end must be quiescent")
	return views
}

// verdicts says what each property named reports where a script ends;
// properties not named are not judged.
type verdicts map[*Property]string

type mcase struct {
	name    string
	n, msgs int // n 0: 3 nodes; msgs 0: unset (the default, 1)
	script  []mstep
	want    verdicts
}

func (c mcase) run(t *testing.T) {
	t.Helper()
	n := c.n
	if n == 0 {
		n = 3
	}
	views := play(t, n, c.msgs, c.script)
	last := views[len(views)-1]
	for _, mon := range Monitors(Family("multicast")) {
		require.Equal(t, last.Monitor(mon), feed(t, mon, last.Config(), c.script), "%s: %s fed directly", c.name, mon.Name())
	}
	for p, want := range c.want {
		require.Equal(t, want, p.Check(last), "%s: %s", c.name, p.Name)
		require.Equal(t, want, p.Judge(last, true), "%s: %s judged where the run ends", c.name, p.Name)
		if p.When == AtQuiescence {
			for k, v := range views[:len(views)-1] {
				require.Empty(t, p.Judge(v, false), "%s: %s judged before the end, after step %d", c.name, p.Name, k)
			}
		}
	}
	// An invariant, once violated, stays violated in every later world.
	for _, p := range Family("multicast") {
		if p.When != Always {
			continue
		}
		violated := -1
		for k, v := range views {
			d := p.Check(v)
			if violated >= 0 {
				require.NotEmpty(t, d, "%s: %s violated after step %d, holds again after step %d", c.name, p.Name, violated, k)
			} else if d != "" {
				violated = k
			}
		}
	}
}

func runCases(t *testing.T, cases []mcase) {
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

func script(steps ...mstep) []mstep { return steps }

func TestMulticastIntegrity(t *testing.T) {
	runCases(t, []mcase{
		{name: "each node delivers once", msgs: 2,
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), sent(0, 2), got(1, 0, 2), got(2, 0, 2)),
			want:   verdicts{Integrity: ""}},
		{name: "a duplicate delivery", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), got(2, 0, 1), got(1, 0, 1)),
			want:   verdicts{Integrity: "n1 delivered n0#1 twice"}},
		{name: "the first duplicate is kept", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), got(2, 0, 2), got(2, 0, 2), got(1, 0, 1), got(1, 0, 1)),
			want:   verdicts{Integrity: "n2 delivered n0#2 twice"}},
		{name: "a delivery of a message never multicast", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), got(1, 0, 2)),
			want:   verdicts{Integrity: "n1 delivered n0#2, which no process multicast"}},
		{name: "a delivery before the multicast", msgs: 2,
			script: script(got(1, 2, 1), sent(2, 1)),
			want:   verdicts{Integrity: "n1 delivered n2#1, which no process multicast"}},
		{name: "seq above msgs, even if multicast", msgs: 2,
			script: script(sent(0, 3), got(1, 0, 3)),
			want:   verdicts{Integrity: "n1 delivered n0#3, which no process multicast"}},
		{name: "seq above the default msgs 1",
			script: script(sent(0, 1), got(0, 0, 1), sent(0, 2), got(1, 0, 2)),
			want:   verdicts{Integrity: "n1 delivered n0#2, which no process multicast"}},
		{name: "sender beyond the nodes, even if multicast", msgs: 2,
			script: script(reports(0, model.Multicast(msgID(3, 1))), reports(1, model.Delivered(msgID(3, 1)))),
			want:   verdicts{Integrity: "n1 delivered n3#1, which no process multicast"}},
		{name: "a recovered node may deliver again", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), fails(1), restarts(1), got(1, 0, 1)),
			want:   verdicts{Integrity: ""}},
		{name: "but not twice in its new incarnation", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), fails(1), restarts(1), got(1, 0, 1), got(1, 0, 1)),
			want:   verdicts{Integrity: "n1 delivered n0#1 twice"}},
		{name: "a duplicate after another node's crash", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), fails(2), got(1, 0, 1)),
			want:   verdicts{Integrity: "n1 delivered n0#1 twice"}},
	})
}

func TestMulticastValidity(t *testing.T) {
	runCases(t, []mcase{
		{name: "nothing multicast",
			want: verdicts{Validity: ""}},
		{name: "the sender delivered its own message",
			script: script(sent(0, 1), got(0, 0, 1)),
			want:   verdicts{Validity: ""}},
		{name: "a correct sender never delivered its own message",
			script: script(sent(0, 1), got(1, 0, 1), got(2, 0, 1)),
			want:   verdicts{Validity: "the run is over and n0, correct, never delivered its own n0#1"}},
		{name: "a crashed sender is not bound",
			script: script(sent(0, 1), got(1, 0, 1), fails(0)),
			want:   verdicts{Validity: ""}},
		{name: "a recovered sender is not correct either",
			script: script(sent(0, 1), fails(0), restarts(0)),
			want:   verdicts{Validity: ""}},
		{name: "another node's crash does not excuse the sender",
			script: script(sent(0, 1), got(1, 0, 1), fails(1)),
			want:   verdicts{Validity: "the run is over and n0, correct, never delivered its own n0#1"}},
		{name: "the second message of a sender", msgs: 2,
			script: script(sent(0, 1), got(0, 0, 1), sent(1, 1), got(1, 1, 1), sent(1, 2), got(0, 1, 2)),
			want:   verdicts{Validity: "the run is over and n1, correct, never delivered its own n1#2"}},
	})
}

func TestMulticastAgreement(t *testing.T) {
	runCases(t, []mcase{
		{name: "every node delivers",
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), got(2, 0, 1)),
			want:   verdicts{DeliveryAgreement: "", UniformAgreement: ""}},
		{name: "nothing delivered",
			script: script(sent(0, 1)),
			want:   verdicts{DeliveryAgreement: "", UniformAgreement: ""}},
		{name: "only a crashed node delivered",
			script: script(sent(0, 1), got(0, 0, 1), fails(0)),
			want: verdicts{Validity: "", DeliveryAgreement: "",
				UniformAgreement: "the run is over, some process delivered n0#1 and n1, correct, never did"}},
		{name: "only a crashed receiver delivered",
			script: script(sent(0, 1), got(2, 0, 1), fails(2), fails(0)),
			want: verdicts{DeliveryAgreement: "",
				UniformAgreement: "the run is over, some process delivered n0#1 and n1, correct, never did"}},
		{name: "a correct node delivered, another correct one did not",
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1)),
			want: verdicts{DeliveryAgreement: "the run is over, a correct process delivered n0#1 and n2, correct, never did",
				UniformAgreement: "the run is over, some process delivered n0#1 and n2, correct, never did"}},
		{name: "a crashed node delivered, and every correct one",
			script: script(sent(0, 1), got(0, 0, 1), fails(0), got(1, 0, 1), got(2, 0, 1)),
			want:   verdicts{DeliveryAgreement: "", UniformAgreement: ""}},
		{name: "the missing node crashed",
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), fails(2)),
			want:   verdicts{DeliveryAgreement: "", UniformAgreement: ""}},
		{name: "a delivery before a crash and recovery counts for uniform agreement",
			script: script(sent(0, 1), got(1, 0, 1), fails(1), restarts(1)),
			want: verdicts{DeliveryAgreement: "",
				UniformAgreement: "the run is over, some process delivered n0#1 and n0, correct, never did"}},
		{name: "a recovered node is not correct, delivered or not",
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), fails(1), restarts(1), got(2, 0, 1)),
			want:   verdicts{DeliveryAgreement: "", UniformAgreement: ""}},
	})
}

func TestMulticastFIFOOrder(t *testing.T) {
	runCases(t, []mcase{
		{name: "in the sender's order", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), got(1, 0, 1), got(1, 0, 2)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "seq 2 before seq 1", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), got(1, 0, 2), got(1, 0, 1)),
			want:   verdicts{FIFOOrder: "n1 delivered n0#2 before n0#1, which n0 multicast first"}},
		{name: "seq 2 without seq 1, multicast after a delivery", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(0, 2), got(2, 0, 2)),
			want:   verdicts{FIFOOrder: "n2 delivered n0#2 before n0#1, which n0 multicast first"}},
		{name: "the earliest missing message is named", msgs: 3,
			script: script(sent(0, 1), sent(0, 2), sent(0, 3), got(1, 0, 3)),
			want:   verdicts{FIFOOrder: "n1 delivered n0#3 before n0#1, which n0 multicast first"}},
		{name: "seq 3 after seq 1, without seq 2", msgs: 3,
			script: script(sent(0, 1), sent(0, 2), sent(0, 3), got(1, 0, 1), got(1, 0, 3)),
			want:   verdicts{FIFOOrder: "n1 delivered n0#3 before n0#2, which n0 multicast first"}},
		{name: "the sender crashed first", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), fails(0), got(1, 0, 2), got(1, 0, 1)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "the sender crashed after the bad delivery", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), got(1, 0, 2), fails(0)),
			want:   verdicts{FIFOOrder: "n1 delivered n0#2 before n0#1, which n0 multicast first"}},
		{name: "the deliverer crashed first", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), fails(1), restarts(1), got(1, 0, 2), got(1, 0, 1)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "seq 1 never multicast", msgs: 2,
			script: script(sent(0, 2), got(1, 0, 2)),
			want:   verdicts{FIFOOrder: "", Integrity: ""}},
		{name: "other senders' messages in any order", msgs: 2,
			script: script(sent(0, 1), sent(1, 1), got(2, 1, 1), got(2, 0, 1), got(1, 0, 1), got(1, 1, 1)),
			want:   verdicts{FIFOOrder: ""}},
		{name: "a forged delivery is integrity's business", msgs: 2,
			script: script(sent(0, 2), got(1, 0, 1), got(1, 0, 2)),
			want: verdicts{FIFOOrder: "",
				Integrity: "n1 delivered n0#1, which no process multicast"}},
	})
}

func TestMulticastCausalOrder(t *testing.T) {
	runCases(t, []mcase{
		{name: "a reply before its cause", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), got(2, 1, 1), got(2, 0, 1)),
			want:   verdicts{CausalOrder: "n2 delivered n1#1 before n0#1, whose multicast happened before", FIFOOrder: ""}},
		{name: "the cause first", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), got(2, 0, 1), got(2, 1, 1)),
			want:   verdicts{CausalOrder: ""}},
		{name: "a sender's own order is causal", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), got(2, 0, 2)),
			want:   verdicts{CausalOrder: "n2 delivered n0#2 before n0#1, whose multicast happened before"}},
		{name: "even when the sender crashed (unlike FIFO)", msgs: 2,
			script: script(sent(0, 1), sent(0, 2), fails(0), got(2, 0, 2)),
			want: verdicts{CausalOrder: "n2 delivered n0#2 before n0#1, whose multicast happened before",
				FIFOOrder: ""}},
		{name: "concurrent messages in any order", msgs: 2,
			script: script(sent(0, 1), sent(1, 1), got(2, 1, 1), got(2, 0, 1), got(0, 0, 1), got(0, 1, 1)),
			want:   verdicts{CausalOrder: ""}},
		{name: "a multicast before a delivery is concurrent with what follows it", msgs: 2,
			script: script(sent(1, 1), sent(0, 1), got(1, 0, 1), got(2, 1, 1)),
			want:   verdicts{CausalOrder: ""}},
		{name: "the deliverer crashed first", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2), got(2, 1, 1)),
			want:   verdicts{CausalOrder: ""}},
		{name: "a delivered message that was never multicast", msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), got(2, 1, 2)),
			want:   verdicts{CausalOrder: ""}},
		// n0 multicasts a; n1 delivers a and multicasts b; n2, exempt
		// after its crash, delivers b alone and multicasts c: a happened
		// before c through b, though n2 never delivered a.
		{name: "transitively, through a past n2 never delivered", n: 4, msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2), got(2, 1, 1), sent(2, 1),
				got(3, 2, 1)),
			want: verdicts{CausalOrder: "n3 delivered n2#1 before n0#1, whose multicast happened before"}},
		{name: "transitively, the middle message missing", n: 4, msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2), got(2, 1, 1), sent(2, 1),
				got(3, 0, 1), got(3, 2, 1)),
			want: verdicts{CausalOrder: "n3 delivered n2#1 before n1#1, whose multicast happened before"}},
		{name: "transitively, in order", n: 4, msgs: 2,
			script: script(sent(0, 1), got(1, 0, 1), sent(1, 1), fails(2), restarts(2), got(2, 1, 1), sent(2, 1),
				got(3, 0, 1), got(3, 1, 1), got(3, 2, 1)),
			want: verdicts{CausalOrder: ""}},
	})
}

func TestMulticastTotalOrder(t *testing.T) {
	// a, b, c: n0#1, n1#1, n2#1, multicast by their senders first
	abc := []mstep{sent(0, 1), sent(1, 1), sent(2, 1)}
	with := func(steps ...mstep) []mstep { return append(append([]mstep(nil), abc...), steps...) }
	runCases(t, []mcase{
		{name: "the same order",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 0, 1), got(1, 1, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "p delivers a then b, q delivers b without a",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 1, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 without n0#1, which n0 delivered before it"}},
		{name: "q delivers b, then p delivers a then b",
			script: with(got(1, 1, 1), got(0, 0, 1), got(0, 1, 1)),
			want:   verdicts{TotalOrder: "n0 delivered n0#1 before n1#1, n1 delivered n1#1 without n0#1 before it"}},
		{name: "opposite orders",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 1, 1), got(1, 0, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 without n0#1, which n0 delivered before it"}},
		{name: "opposite orders, interleaved",
			script: with(got(0, 0, 1), got(1, 1, 1), got(0, 1, 1), got(1, 0, 1)),
			want:   verdicts{TotalOrder: "n0 delivered n0#1 before n1#1, n1 delivered n1#1 without n0#1 before it"}},
		{name: "q delivers a without b: no reliability implied",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 0, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "disjoint deliveries",
			script: with(got(0, 0, 1), got(1, 1, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "p delivers c before a, q delivers a alone",
			script: with(got(0, 2, 1), got(0, 0, 1), got(1, 0, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n0#1 without n2#1, which n0 delivered before it"}},
		{name: "a message between them",
			script: with(got(0, 0, 1), got(0, 2, 1), got(0, 1, 1), got(1, 0, 1), got(1, 1, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 without n2#1, which n0 delivered before it"}},
		{name: "a third node against the first",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 0, 1), got(1, 1, 1), got(2, 1, 1)),
			want:   verdicts{TotalOrder: "n2 delivered n1#1 without n0#1, which n0 delivered before it"}},
		{name: "a crashed peer is excluded",
			script: with(got(0, 0, 1), got(0, 1, 1), fails(0), got(1, 1, 1), got(1, 0, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "a crashed deliverer is excluded",
			script: with(got(0, 0, 1), got(0, 1, 1), fails(1), restarts(1), got(1, 1, 1), got(1, 0, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "deliveries before a crash are excluded after it",
			script: with(got(1, 1, 1), fails(1), restarts(1), got(0, 0, 1), got(0, 1, 1)),
			want:   verdicts{TotalOrder: ""}},
		{name: "a crash after the violation does not undo it",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 1, 1), fails(0), fails(1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 without n0#1, which n0 delivered before it"}},
		{name: "the first violation is kept",
			script: with(got(0, 0, 1), got(0, 1, 1), got(1, 1, 1), got(2, 2, 1), got(1, 2, 1), got(2, 1, 1), got(2, 0, 1)),
			want:   verdicts{TotalOrder: "n1 delivered n1#1 without n0#1, which n0 delivered before it"}},
	})
}

// The detail of the first violation stays the same, word for word, in
// every later world, whatever comes next.
func TestMulticastViolationsLatched(t *testing.T) {
	cases := []struct {
		p      *Property
		n      int
		script []mstep
		at     int // the step after which the violation shows
		want   string
	}{
		{TotalOrder, 3, script(sent(0, 1), sent(1, 1), sent(2, 1), got(0, 0, 1), got(0, 1, 1), got(1, 1, 1),
			got(1, 0, 1), got(2, 2, 1), got(0, 2, 1), got(2, 1, 1), fails(0), fails(1), got(2, 0, 1)),
			5, "n1 delivered n1#1 without n0#1, which n0 delivered before it"},
		{FIFOOrder, 3, script(sent(0, 1), sent(0, 2), got(1, 0, 2), got(1, 0, 1), sent(2, 1), sent(2, 2),
			got(0, 2, 2), fails(0), fails(1), got(2, 0, 2)),
			2, "n1 delivered n0#2 before n0#1, which n0 multicast first"},
		{CausalOrder, 3, script(sent(0, 1), got(1, 0, 1), sent(1, 1), got(2, 1, 1), got(2, 0, 1), sent(2, 1),
			got(0, 2, 1), fails(2)),
			3, "n2 delivered n1#1 before n0#1, whose multicast happened before"},
		{Integrity, 3, script(sent(0, 1), got(1, 0, 1), got(1, 0, 1), got(2, 0, 1), got(2, 0, 1), fails(1), restarts(1)),
			2, "n1 delivered n0#1 twice"},
		// a forgery after a duplicate: the duplicate, first, is kept
		{Integrity, 3, script(sent(0, 1), got(1, 0, 1), got(1, 0, 1), got(2, 0, 2)),
			2, "n1 delivered n0#1 twice"},
	}
	for _, c := range cases {
		views := play(t, c.n, 2, c.script)
		for k, v := range views {
			want := ""
			if k > c.at {
				want = c.want
			}
			require.Equal(t, want, c.p.Check(v), "%s after step %d", c.p.Name, k)
		}
	}
}

// Runs of more than 64 messages: message sets span several words.
func TestMulticastManyMessages(t *testing.T) {
	runCases(t, []mcase{
		{name: "validity and agreement on the last message", msgs: 30,
			script: script(sent(0, 1), got(0, 0, 1), got(1, 0, 1), got(2, 0, 1),
				sent(2, 30), got(0, 2, 30), got(1, 2, 30)),
			want: verdicts{Integrity: "", Validity: "the run is over and n2, correct, never delivered its own n2#30",
				DeliveryAgreement: "the run is over, a correct process delivered n2#30 and n2, correct, never did",
				UniformAgreement:  "the run is over, some process delivered n2#30 and n2, correct, never did"}},
		{name: "a duplicate in the second word", msgs: 30,
			script: script(sent(2, 5), got(1, 2, 5), got(1, 2, 5)),
			want:   verdicts{Integrity: "n1 delivered n2#5 twice"}},
		{name: "seq above 30 is a forgery", msgs: 30,
			script: script(sent(2, 31), got(1, 2, 31)),
			want:   verdicts{Integrity: "n1 delivered n2#31, which no process multicast"}},
		{name: "FIFO across words", msgs: 30,
			script: script(sent(2, 1), sent(2, 5), sent(2, 30), got(1, 2, 1), got(1, 2, 30)),
			want:   verdicts{FIFOOrder: "n1 delivered n2#30 before n2#5, which n2 multicast first"}},
		{name: "causal across words", msgs: 30,
			script: script(sent(2, 30), got(0, 2, 30), sent(0, 1), got(1, 0, 1)),
			want:   verdicts{CausalOrder: "n1 delivered n0#1 before n2#30, whose multicast happened before"}},
		{name: "causal across words, in order", msgs: 30,
			script: script(sent(2, 30), got(0, 2, 30), sent(0, 1), got(1, 2, 30), got(1, 0, 1)),
			want:   verdicts{CausalOrder: ""}},
		{name: "total order across words", msgs: 30,
			script: script(sent(0, 1), sent(2, 30), got(0, 0, 1), got(0, 2, 30), got(1, 2, 30)),
			want:   verdicts{TotalOrder: "n1 delivered n2#30 without n0#1, which n0 delivered before it"}},
		{name: "forty nodes, the last node's last message", n: 40, msgs: 2,
			script: script(sent(39, 2), got(39, 39, 2), got(0, 39, 2), fails(0)),
			want: verdicts{Validity: "", DeliveryAgreement: "the run is over, a correct process delivered n39#2 and n1, correct, never did",
				UniformAgreement: "the run is over, some process delivered n39#2 and n1, correct, never did"}},
		{name: "forty nodes, only a crashed node delivered", n: 40, msgs: 2,
			script: script(sent(0, 1), got(0, 0, 1), sent(39, 2), got(0, 39, 2), fails(0)),
			want: verdicts{Validity: "the run is over and n39, correct, never delivered its own n39#2", DeliveryAgreement: "",
				UniformAgreement: "the run is over, some process delivered n0#1 and n1, correct, never did"}},
	})
}

func TestMulticastMsgSets(t *testing.T) {
	var empty msgSet
	require.Nil(t, empty.members())
	require.False(t, empty.has(0))
	require.False(t, empty.has(200))
	require.Empty(t, empty.union(nil))

	a := empty.with(3)
	require.Equal(t, msgSet{1 << 3}, a)
	require.Nil(t, empty, "with leaves its receiver alone")
	b := a.with(64)
	require.Equal(t, msgSet{1 << 3, 1}, b)
	require.Equal(t, msgSet{1 << 3}, a, "with leaves its receiver alone")
	require.True(t, b.has(64))
	require.True(t, b.has(3))
	require.False(t, b.has(63))
	require.False(t, b.has(65))
	require.False(t, b.has(128), "beyond the last word")
	require.Equal(t, b, b.with(64), "adding a member again")

	c := empty.with(130).with(63)
	require.Equal(t, msgSet{1 << 63, 0, 1 << 2}, c)
	require.Equal(t, []int{63, 130}, c.members())

	// equal sets are equal slices, whichever way they were built
	require.Equal(t, empty.with(3).with(64).with(130).with(63), c.union(b))
	require.Equal(t, c.union(b), b.union(c))
	require.Equal(t, []int{3, 63, 64, 130}, b.union(c).members())
	require.Equal(t, msgSet{1 << 3, 1}, b, "union leaves its operands alone")
	require.Equal(t, msgSet{1 << 63, 0, 1 << 2}, c, "union leaves its operands alone")
	require.Equal(t, b, b.union(nil))
	require.Equal(t, b, msgSet(nil).union(b))
	u := b.union(a)
	u[0] |= 1
	require.Equal(t, msgSet{1 << 3, 1}, b, "union returns a fresh slice")

	var all msgSet
	for i := range 200 {
		all = all.with(i)
	}
	require.Len(t, all.members(), 200)
	require.Len(t, all, 4)
	require.Equal(t, 199, all.members()[199])
	require.Equal(t, []int{0, 127}, empty.with(127).with(0).members(), "the last bit of the last word")

	cfg := &model.Config{N: 40, Params: map[string]int{"msgs": 3}}
	for _, c := range []struct {
		m  model.MsgID
		i  int
		ok bool
	}{
		{msgID(0, 1), 0, true}, {msgID(0, 3), 2, true}, {msgID(1, 1), 3, true}, {msgID(21, 2), 64, true},
		{msgID(39, 3), 119, true}, {msgID(0, 0), 0, false}, {msgID(0, 4), 0, false}, {msgID(40, 1), 0, false},
		{msgID(-1, 1), 0, false},
	} {
		i, ok := numberingOf(cfg).msgNumber(c.m)
		require.Equal(t, c.ok, ok, "%v", c.m)
		if ok {
			require.Equal(t, c.i, i, "%v", c.m)
			require.Equal(t, c.m, numberingOf(cfg).msgOf(i))
		}
	}
	i, ok := numberingOf(&model.Config{N: 3}).msgNumber(msgID(2, 1))
	require.True(t, ok, "msgs defaults to 1")
	require.Equal(t, 2, i)
	_, ok = numberingOf(&model.Config{N: 3}).msgNumber(msgID(2, 2))
	require.False(t, ok, "msgs defaults to 1")
}

func TestMulticastFamily(t *testing.T) {
	want := map[string]struct {
		p    *Property
		when When
		mon  model.Monitor
	}{
		"delivered":         {Delivered, Possibly, Deliveries},
		"validity":          {Validity, AtQuiescence, Deliveries},
		"integrity":         {Integrity, Always, Deliveries},
		"agreement":         {DeliveryAgreement, AtQuiescence, Deliveries},
		"uniform-agreement": {UniformAgreement, AtQuiescence, Deliveries},
		"fifo-order":        {FIFOOrder, Always, FIFOLog},
		"causal-order":      {CausalOrder, Always, CausalLog},
		"total-order":       {TotalOrder, Always, DeliveryOrder},
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	require.ElementsMatch(t, names, Names("multicast"))
	for name, w := range want {
		p, err := Lookup("multicast", name)
		require.NoError(t, err)
		require.Same(t, w.p, p, name)
		require.Equal(t, w.when, p.When, name)
		require.Equal(t, w.mon, p.Monitor, name)
		require.True(t, p.MonitorOnly, name)
		require.NotEmpty(t, p.Doc, name)
	}
	require.Equal(t, []model.Monitor{Deliveries, FIFOLog, CausalLog, DeliveryOrder},
		Monitors([]*Property{Validity, Integrity, DeliveryAgreement, UniformAgreement, FIFOOrder, CausalOrder, TotalOrder}))
	require.Equal(t, []string{"deliveries", "fifo", "causal", "delivery-order"},
		[]string{Deliveries.Name(), FIFOLog.Name(), CausalLog.Name(), DeliveryOrder.Name()})
}

// firstNotIn is the first member of one set that another lacks, whatever
// their lengths.
func TestFirstNotIn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := func(label string) msgSet {
			var s msgSet
			for _, i := range rapid.SliceOf(rapid.IntRange(0, 200)).Draw(t, label) {
				s = s.with(i)
			}
			return s
		}
		s, u := set("s"), set("t")
		want, wantOK := 0, false
		for _, i := range s.members() {
			if !u.has(i) {
				want, wantOK = i, true
				break
			}
		}
		got, ok := s.firstNotIn(u)
		require.Equal(t, wantOK, ok)
		require.Equal(t, want, got)
	})
}
