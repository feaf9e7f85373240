package properties

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/internal/inplace"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

// feed runs script through mon both ways an engine does: Observe, as a
// search calls it on states it keeps, and ObserveInPlace, as a random walk
// calls it on the one state it holds. The two must reach the same state
// after every step. Observe must also leave every state it was given as
// it was, even when called again on an earlier state (a search branches):
// from each state the copy path reached, every step of the script is
// observed once more, and no state kept may change. feed returns the
// state ObserveInPlace reached.
func feed(t *testing.T, mon model.Monitor, cfg *model.Config, script []mstep) any {
	t.Helper()
	ip, ok := mon.(inplace.Monitor)
	require.True(t, ok, "%s observes in place", mon.Name())
	kept := []any{mon.Start(cfg)}
	keys := [][]byte{sim.AppendKey(nil, kept[0])}
	unchanged := func(when string) {
		t.Helper()
		for k, st := range kept {
			require.Equal(t, keys[k], sim.AppendKey(nil, st), "%s: the state after step %d changed %s", mon.Name(), k, when)
		}
	}
	inPlace := mon.Start(cfg)
	for k, e := range script {
		next := mon.Observe(cfg, kept[k], e.node, e.obs)
		inPlace = ip.ObserveInPlace(cfg, inPlace, e.node, e.obs)
		require.Equal(t, next, inPlace, "%s, step %d (%v at %v): ObserveInPlace and Observe differ", mon.Name(), k, e.obs, e.node)
		kept = append(kept, next)
		keys = append(keys, sim.AppendKey(nil, next))
		unchanged("when Observe went on from it")
	}
	for _, st := range kept {
		for _, e := range script {
			mon.Observe(cfg, st, e.node, e.obs)
		}
	}
	unchanged("when Observe branched off an earlier state")
	return inPlace
}

// add and merge write into their receiver where they are told they may
// (inPlace) and it has room, and otherwise leave it alone and return a new
// set; either way the result is the same set.
func TestMsgSetInPlace(t *testing.T) {
	add := func(i int, inPlace bool) func(msgSet) msgSet {
		return func(s msgSet) msgSet { return s.add(i, inPlace) }
	}
	merge := func(u msgSet, inPlace bool) func(msgSet) msgSet {
		return func(s msgSet) msgSet { return s.merge(u, inPlace) }
	}
	cases := []struct {
		name    string
		s       msgSet
		op      func(msgSet) msgSet
		want    msgSet
		written bool // the result is s, written in place
	}{
		{"add in place, in the first word", msgSet{1}, add(5, true), msgSet{1 | 1<<5}, true},
		{"add in place, the first word's last bit", msgSet{1}, add(63, true), msgSet{1 | 1<<63}, true},
		{"add in place, message 64 in the second word", msgSet{1, 2}, add(64, true), msgSet{1, 3}, true},
		{"add in place, message 71 in the second word", msgSet{1, 1}, add(71, true), msgSet{1, 1 | 1<<7}, true},
		{"add in place, the second word's last bit", msgSet{0, 1}, add(127, true), msgSet{0, 1 | 1<<63}, true},
		{"add in place, a member already", msgSet{1 << 5}, add(5, true), msgSet{1 << 5}, true},
		{"add in place past the last word grows a copy", msgSet{1}, add(64, true), msgSet{1, 1}, false},
		{"add in place two words past the last", msgSet{1}, add(130, true), msgSet{1, 0, 1 << 2}, false},
		{"add in place to no set", nil, add(3, true), msgSet{1 << 3}, false},
		{"add with a copy, though there is room", msgSet{1}, add(5, false), msgSet{1 | 1<<5}, false},
		{"merge in place, as long", msgSet{1, 2}, merge(msgSet{4, 8}, true), msgSet{5, 10}, true},
		{"merge in place, shorter", msgSet{1, 2}, merge(msgSet{4}, true), msgSet{5, 2}, true},
		{"merge in place, nothing", msgSet{1, 2}, merge(nil, true), msgSet{1, 2}, true},
		{"merge in place, longer grows a copy", msgSet{1}, merge(msgSet{4, 8}, true), msgSet{5, 8}, false},
		{"merge with a copy, as long", msgSet{1, 2}, merge(msgSet{4, 8}, false), msgSet{5, 10}, false},
		{"merge with a copy, shorter", msgSet{1, 2}, merge(msgSet{4}, false), msgSet{5, 2}, false},
	}
	for _, c := range cases {
		before := slices.Clone(c.s)
		got := c.op(c.s)
		require.Equal(t, c.want, got, c.name)
		if c.written {
			require.True(t, sameSlice(got, c.s), "%s: written into the set", c.name)
			continue
		}
		require.Equal(t, before, c.s, "%s: the set is left alone", c.name)
		if len(c.s) > 0 {
			require.NotSame(t, &c.s[0], &got[0], "%s: a new set", c.name)
		}
	}
}

// cow hands back the slice itself to write into where the monitor holds
// its state alone, else a copy.
func TestCow(t *testing.T) {
	s := []bool{true, false}
	require.True(t, sameSlice(s, cow(s, true)), "in place: the slice itself")
	c := cow(s, false)
	require.Equal(t, s, c)
	require.NotSame(t, &s[0], &c[0], "shared: a copy")
}

// probe is a state whose sameness is its id alone.
type probe struct{ id int }

func (p probe) sameAs(q probe) bool { return p.id == q.id }

// observed hands back the boxed state it was given where nothing moved,
// else the new state.
func TestObserved(t *testing.T) {
	require.Equal(t, "the state boxed", observed("the state boxed", probe{1}, probe{1}))
	require.Equal(t, probe{2}, observed("the state boxed", probe{1}, probe{2}))
}

// An observation that changes nothing returns the state it was given, not
// a new box of the same value: a search calls Observe on every edge, most
// of which change no monitor.
func TestMulticastObserveUnchangedAllocatesNothing(t *testing.T) {
	script := script(sent(0, 1), sent(1, 1), got(1, 0, 1), got(1, 0, 1), fails(2))
	type unchanged struct {
		why string
		mstep
	}
	forAll := []unchanged{
		{"multicast again", sent(0, 1)},
		{"crashed already", fails(2)},
		{"no such sender", reports(0, model.Multicast(msgID(3, 1)))},
		{"never multicast, or by a crashed node", got(2, 2, 1)},
	}
	cases := []struct {
		mon       model.Monitor
		unchanged []unchanged
	}{
		{Deliveries, append(forAll, unchanged{"a duplicate after the first violation", got(1, 0, 1)})},
		{FIFOLog, append(forAll, unchanged{"a recovery, which order does not read", restarts(0)})},
		{CausalLog, append(forAll, unchanged{"a recovery, which order does not read", restarts(0)})},
		{DeliveryOrder, append(forAll, unchanged{"a recovery, which order does not read", restarts(0)})},
	}
	cfg := &model.Config{N: 3}
	for _, c := range cases {
		st := c.mon.Start(cfg)
		for _, e := range script {
			st = c.mon.Observe(cfg, st, e.node, e.obs)
		}
		for _, u := range c.unchanged {
			for _, path := range []struct {
				name    string
				observe func(*model.Config, any, model.NodeID, model.Obs) any
			}{{"Observe", c.mon.Observe}, {"ObserveInPlace", c.mon.(inplace.Monitor).ObserveInPlace}} {
				allocs := testing.AllocsPerRun(5, func() { path.observe(cfg, st, u.node, u.obs) })
				require.Zero(t, allocs, "%s.%s, %s", c.mon.Name(), path.name, u.why)
			}
		}
	}
}
