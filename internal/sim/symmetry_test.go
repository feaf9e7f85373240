package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// grants is a server (node 0) handing one grant at a time to clients that
// ask once: the clients are interchangeable. Its states name nodes in
// every way a renaming must follow: NodeID fields and slices, a slice
// indexed by node, a map keyed by node, a timer type over NodeID.
type grants struct{}

type gstate struct {
	Queue  []model.NodeID
	Asked  []bool `vigil:"bynode"`
	Holder model.NodeID
	Votes  map[model.NodeID]int
	Got    int
	Me     model.NodeID // a client's own id
}

type gmsg struct {
	Ask, Hello bool
	Who        model.NodeID
	Note       int // 1: a note of who asked
}

// peer is the server's timer on a client: it fires once the client is
// down.
type peer model.NodeID

func (p peer) RenameNodes(to func(model.NodeID) model.NodeID) any {
	return peer(to(model.NodeID(p)))
}

func (grants) Interchangeable(cfg *model.Config) [][]model.NodeID {
	var clients []model.NodeID
	for i := 1; i < cfg.N; i++ {
		clients = append(clients, model.NodeID(i))
	}
	return [][]model.NodeID{clients}
}

func (grants) Init(ctx *model.Ctx[gmsg]) gstate {
	if ctx.Self() != 0 {
		ctx.Send(0, gmsg{Ask: true, Who: ctx.Self()})
		ctx.Send(0, gmsg{Hello: true, Who: ctx.Self()})
		return gstate{Holder: model.None, Me: ctx.Self()}
	}
	for j := 1; j < ctx.N(); j++ {
		ctx.SetTimer(peer(j), model.NodeID(j))
	}
	return gstate{Holder: model.None, Asked: make([]bool, ctx.N())}
}

func (grants) Receive(ctx *model.Ctx[gmsg], s gstate, from model.NodeID, m gmsg) gstate {
	if ctx.Self() != 0 {
		if m.Note > 0 {
			return s
		}
		s.Got++
		ctx.Send(0, gmsg{Who: ctx.Self()})
		return s
	}
	s.Asked = slices.Clone(s.Asked)
	s.Votes = map[model.NodeID]int{from: len(s.Votes)}
	if m.Hello {
		return s
	}
	if m.Ask {
		// a note to the other clients of who asked, so that a channel
		// holds messages met in the order a search meets asks
		for j := 1; j < ctx.N(); j++ {
			if model.NodeID(j) != m.Who {
				ctx.Send(model.NodeID(j), gmsg{Who: m.Who, Note: 1})
			}
		}
		s.Asked[m.Who] = true
		if s.Holder == model.None {
			s.Holder = m.Who
			ctx.Send(m.Who, gmsg{Who: 0})
		} else {
			s.Queue = append(slices.Clone(s.Queue), m.Who)
		}
		return s
	}
	return next(ctx, s)
}

func next(ctx *model.Ctx[gmsg], s gstate) gstate {
	s.Holder = model.None
	if len(s.Queue) > 0 {
		s.Holder, s.Queue = s.Queue[0], s.Queue[1:]
		ctx.Send(s.Holder, gmsg{Who: 0})
	}
	return s
}

func (grants) Timeout(ctx *model.Ctx[gmsg], s gstate, t model.Timer) gstate {
	j := model.NodeID(t.(peer))
	s.Queue = slices.DeleteFunc(slices.Clone(s.Queue), func(i model.NodeID) bool { return i == j })
	if s.Holder == j {
		return next(ctx, s)
	}
	return s
}

// grantLog is a symmetric monitor: the grants each node observed.
type grantLog struct{}

func (grantLog) Name() string                { return "grants" }
func (grantLog) Start(cfg *model.Config) any { return make([]int, cfg.N) }
func (grantLog) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	if o.Kind != model.ObsCrash {
		return st
	}
	out := slices.Clone(st.([]int))
	out[node]++
	return out
}
func (grantLog) RenameNodes(_ *model.Config, st any, to func(model.NodeID) model.NodeID) any {
	in := st.([]int)
	out := make([]int, len(in))
	for i, v := range in {
		out[to(model.NodeID(i))] = v
	}
	return out
}

func TestRenameFollowsEveryNodeID(t *testing.T) {
	m, err := sim.Compile("grants", grants{}, model.Config{N: 3})
	require.NoError(t, err)
	sym, why := m.Symmetry()
	require.NotNil(t, sym, why)
	st := m.NewStepper()
	w, _ := st.Init()
	// the world after every client asked and the server granted n1
	for _, e := range []sim.Event{{Kind: sim.Deliver, Node: 0, From: 1}, {Kind: sim.Deliver, Node: 0, From: 2}} {
		evs, _ := st.Enabled(w, nil)
		k := slices.IndexFunc(evs, func(x sim.Event) bool { return x.Kind == e.Kind && x.Node == e.Node && x.From == e.From })
		require.GreaterOrEqual(t, k, 0)
		w, _ = st.Apply(w, evs[k], nil)
	}
	swap := []model.NodeID{0, 2, 1}
	r := st.Rename(w, swap, nil)
	server := m.StateValue(st.NodeState(r, 0)).(gstate)
	require.Equal(t, gstate{Queue: []model.NodeID{1}, Asked: []bool{false, true, true}, Holder: 2, Votes: map[model.NodeID]int{1: 1}}, server)
	require.Equal(t, m.FormatTimers(st.Nodes(w)[0]), m.FormatTimers(st.Nodes(r)[0]), "the server's timers, one per client, map onto themselves")
	// n1 was granted and noted of n2's ask, n2 noted of n1's: renamed,
	// the other way round
	var msgs []string
	for _, mw := range st.Msgs(r) {
		if to := model.NodeID(mw >> 32 & 0xffff); to != 0 {
			msgs = append(msgs, fmt.Sprintf("%v: %s", to, m.FormatMsg(uint32(mw))))
		}
	}
	slices.Sort(msgs)
	require.Equal(t, []string{
		"n1: {Ask:false Hello:false Who:n2 Note:1}",
		"n2: {Ask:false Hello:false Who:n0 Note:0}",
		"n2: {Ask:false Hello:false Who:n1 Note:1}",
	}, msgs)
	require.Equal(t, w, st.Rename(r, swap, nil), "renaming twice by a swap gives the world back")
}

type badUnexported struct {
	holder model.NodeID
}

type badTag struct {
	N int `vigil:"bynode"`
}

type plainProto[S any] struct{}

func (plainProto[S]) Init(*model.Ctx[gmsg]) S                                   { var s S; return s }
func (plainProto[S]) Receive(_ *model.Ctx[gmsg], s S, _ model.NodeID, _ gmsg) S { return s }
func (plainProto[S]) Interchangeable(*model.Config) [][]model.NodeID            { return [][]model.NodeID{{0, 1}} }

func TestSymmetryRefusesWhatItCannotRename(t *testing.T) {
	for name, why := range map[string]string{
		"unexported": symmetryOf(t, plainProto[badUnexported]{}, model.Config{N: 2}),
		"tag":        symmetryOf(t, plainProto[badTag]{}, model.Config{N: 2}),
		"partitions": symmetryOf(t, grants{}, model.Config{N: 3, Partitions: 1}),
		"topology":   symmetryOf(t, grants{}, model.Config{N: 3, Topology: "line"}),
	} {
		require.NotEmpty(t, why, name)
	}
	m, err := sim.Compile("grants", grants{}, model.Config{N: 3}, logMonitor{})
	require.NoError(t, err)
	sym, why := m.Symmetry()
	require.Nil(t, sym)
	require.Contains(t, why, "rename")
}

func symmetryOf[S any](t *testing.T, p model.Protocol[S, gmsg], cfg model.Config) string {
	m, err := sim.Compile("p", p, cfg)
	require.NoError(t, err)
	sym, why := m.Symmetry()
	if sym != nil {
		return ""
	}
	return why
}

// Every world of the grants protocol, with a crash: renaming a world
// never changes its representative, and the representatives are as many
// as the families a brute force finds (the least of each world's
// renamings, by every permutation of the clients).
func TestCanonicalKeepsOneWorldPerFamily(t *testing.T) {
	for _, cfg := range []model.Config{
		{N: 4, Crashes: 1},
		{N: 4, Channels: model.Unordered},
		{N: 3, Channels: model.Unordered, Timing: model.Async, Crashes: 1, Losses: 1, Duplicates: 1},
	} {
		m, err := sim.Compile("grants", grants{}, cfg, grantLog{})
		require.NoError(t, err)
		sym, why := m.Symmetry()
		require.NotNil(t, sym, why)
		st := m.NewStepper()
		w0, _ := st.Init()
		perms := permutations(sym.Classes()[0])
		seen := map[string]bool{string(key(w0)): true}
		queue := []sim.World{w0}
		families := map[string]bool{}
		reps := map[string]bool{}
		for len(queue) > 0 {
			w := queue[0]
			queue = queue[1:]
			rep := st.Canonical(sym, w, nil)
			reps[string(key(rep))] = true
			least := ""
			for _, to := range perms {
				r := st.Rename(w, to, nil)
				require.Equal(t, rep, st.Canonical(sym, r, nil), "the representative of a renaming")
				if k := string(key(r)); least == "" || k < least {
					least = k
				}
			}
			families[least] = true
			evs, _ := st.Enabled(w, nil)
			for _, e := range evs {
				next, _ := st.Apply(w, e, nil)
				if k := string(key(next)); !seen[k] {
					seen[k] = true
					queue = append(queue, next)
				}
			}
		}
		require.Nil(t, st.TakeFault())
		require.Equal(t, len(families), len(reps), "families of %+v", cfg)
		require.Less(t, len(reps), len(seen), "%+v: %d worlds, %d families", cfg, len(seen), len(reps))
	}
}

func key(w sim.World) []byte {
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		for k := 56; k >= 0; k -= 8 {
			b = append(b, byte(x>>k))
		}
	}
	return b
}

// permutations returns the renamings of N = len(ids)+1 nodes that keep
// node 0 and permute ids every way.
func permutations(ids []model.NodeID) [][]model.NodeID {
	var out [][]model.NodeID
	sim.EachOrder(ids, func() { out = append(out, append([]model.NodeID{0}, ids...)) })
	return out
}

// The representative does not depend on the order a search met values
// in (their ids): two searches that list events in opposite orders keep
// representatives of the same content.
func TestCanonicalIgnoresInterningOrder(t *testing.T) {
	cfg := model.Config{N: 4, Channels: model.Unordered}
	contents := func(reverse bool) []string {
		m, err := sim.Compile("grants", grants{}, cfg, grantLog{})
		require.NoError(t, err)
		sym, _ := m.Symmetry()
		st := m.NewStepper()
		w0, _ := st.Init()
		seen := map[string]bool{}
		var out []string
		for queue := []sim.World{st.Canonical(sym, w0, nil)}; len(queue) > 0; queue = queue[1:] {
			w := queue[0]
			if k := string(key(w)); seen[k] {
				continue
			} else {
				seen[k] = true
			}
			out = append(out, render(m, st, w))
			evs, _ := st.Enabled(w, nil)
			if reverse {
				slices.Reverse(evs)
			}
			for _, e := range evs {
				next, _ := st.Apply(w, e, nil)
				queue = append(queue, st.Canonical(sym, next, nil))
			}
		}
		slices.Sort(out)
		return out
	}
	forward := contents(false)
	require.Greater(t, len(forward), 20)
	require.Equal(t, forward, contents(true))
}

// render spells w out by content: states, timers and messages.
func render(m *sim.Machine, st *sim.Stepper, w sim.World) string {
	out := ""
	for i, rec := range st.Nodes(w) {
		out += m.FormatState(st.NodeState(w, model.NodeID(i))) + " " + m.FormatTimers(rec)
		if !st.Alive(w, model.NodeID(i)) {
			out += " dead"
		}
		out += " | "
	}
	var msgs []string
	for _, mw := range st.Msgs(w) {
		msgs = append(msgs, fmt.Sprintf("%d>%d:%s", mw>>48, mw>>32&0xffff, m.FormatMsg(uint32(mw))))
	}
	slices.Sort(msgs)
	return out + fmt.Sprint(msgs, st.MonitorValue(w, 0))
}
