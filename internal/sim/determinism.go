package sim

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// Handlers and monitors must be deterministic: a call's outcome may depend
// on its inputs alone. One that reads a clock, draws a random number or
// follows Go's map order still runs, but the Machine memoises its first
// outcome for good, so the search explores worlds no run of the protocol
// would meet and its state counts, replays and counterexamples change from
// run to run. Every call the Machine makes (each distinct one, once) and
// every call a Walker samples for purity is therefore made a second time,
// on a fresh copy of its inputs, and the two outcomes compared by their
// canonical encodings: a difference is a Fault (Fault.Nondeterministic).

// twice is what comparing two calls' outcomes needs, kept from call to
// call: buffers for their encodings, so that a check allocates nothing of
// its own.
type twice struct {
	a, b []byte
}

// freshCopy returns *p, sharing no slice or map with it when T holds any
// (writable): a second call gets an input equal to the first's, not the
// same memory.
func freshCopy[T any](p *T, writable bool) T {
	if !writable {
		return *p
	}
	return deepClone(reflect.ValueOf(p).Elem()).Interface().(T)
}

// sameOutcome compares the outcomes of two calls of one handler: the
// states returned (s1, s2) and the sends, timers and observations their
// contexts' effect buffers (b1, b2) hold. It returns the Fault of the
// first part that differs, naming where (see firstDifference), or nil.
func sameOutcome[S, M any](tw *twice, s1, s2 *S, b1, b2 *effectBuffer[M]) *Fault {
	tw.a, tw.b = appendKeyOf(tw.a[:0], s1), appendKeyOf(tw.b[:0], s2)
	if string(tw.a) != string(tw.b) {
		return nondeterministic("state", *s1, *s2)
	}
	sa, sb := b1.Sends, b2.Sends
	same := len(sa) == len(sb)
	for k := 0; same && k < len(sa); k++ {
		tw.a, tw.b = appendKeyOf(tw.a[:0], &sa[k].Msg), appendKeyOf(tw.b[:0], &sb[k].Msg)
		same = sa[k].To == sb[k].To && string(tw.a) == string(tw.b)
	}
	if !same {
		return nondeterministic("sends", sa, sb)
	}
	ta, tb := b1.Timers, b2.Timers
	if !sameTimers(ta, tb) {
		return nondeterministic("timers", ta, tb)
	}
	oa, ob := b1.Obs, b2.Obs
	if !slices.Equal(oa, ob) {
		return nondeterministic("observations", oa, ob)
	}
	return nil
}

// sameTimers compares two lists of timer operations; timers are compared
// by content, as they need not be comparable yet (a misuse found later).
func sameTimers(a, b []timerEffect) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		x, y := &a[k], &b[k]
		if x.Armed != y.Armed || x.Ticks != y.Ticks || !slices.Equal(x.WaitOn, y.WaitOn) {
			return false
		}
		if _, differ := firstDifference(x.Timer, y.Timer); differ {
			return false
		}
	}
	return true
}

// again calls handler h, which run called with inputs in and msg (ids, -1
// for none) and which returned next and filled buf, a second time on
// fresh copies of the inputs, and compares the outcomes (see
// sameOutcome). The interned inputs are put back whatever h does.
func (t *typed[S, M]) again(self model.NodeID, in, msg int64, h func(*model.Ctx[M]) S, next S, buf *effectBuffer[M]) *Fault {
	second := model.NewCtx[M](*t.cfg, self)
	var next2 S
	func() {
		// h reads its inputs from the tables: they hold the copies while
		// it runs
		if in >= 0 && t.writableS {
			orig := t.states[in]
			t.states[in] = freshCopy(&orig, true)
			defer func() { t.states[in] = orig }()
		}
		if msg >= 0 && t.writableM {
			orig := t.msgs[msg]
			t.msgs[msg] = freshCopy(&orig, true)
			defer func() { t.msgs[msg] = orig }()
		}
		next2 = h(second)
	}()
	return sameOutcome(&t.twice, &next, &next2, buf, bufferOf(second))
}

// actionsAgain lists node self's actions in state s a second time, on a
// fresh copy of it, and compares the list with as, the first call's.
func (t *typed[S, M]) actionsAgain(self model.NodeID, s uint32, as []model.Action) *Fault {
	env := &model.NewCtx[M](*t.cfg, self).Env
	in := freshCopy(&t.states[s], t.writableS)
	again := t.actor.Actions(env, in)
	if _, differ := firstDifference(as, again); differ {
		return nondeterministic("actions", as, again)
	}
	return nil
}

// inputText names what the handler of input in was given at node in
// state besides its state, for a Nondeterministic fault: "prepare from
// n1", a timer, an action; "" for Init and Recover. Called with m.mu held.
func (m *Machine) inputText(node model.NodeID, state uint32, in uint64) string {
	arg := uint32(in)
	switch in >> 56 {
	case inReceive:
		return fmt.Sprintf("%s from %v", m.impl.msgKind(arg), model.NodeID(in>>32&0xffff))
	case inTimeout:
		return fmt.Sprint(m.timerVal[arg])
	case inAction:
		if as := m.actions[actKey{node, state}]; int(arg) < len(as) {
			return fmt.Sprint(as[arg])
		}
	}
	return ""
}

// freshMonitorState returns a copy of monitor state v sharing no slice or
// map with it, or v itself where its type cannot be copied so (an
// unexported field holds one: deepClone refuses it).
func freshMonitorState(v any) (c any) {
	if v == nil || !writable(reflect.TypeOf(v)) {
		return v
	}
	defer func() {
		if recover() != nil {
			c = v
		}
	}()
	return deepClone(reflect.ValueOf(v)).Interface()
}

// monitorAgain feeds o at node to monitor k a second time, on a fresh
// copy of its state id, and compares the state it returns with next, the
// first call's, by key. Called with m.mu held.
func (m *Machine) monitorAgain(k int, id, next uint32, node model.NodeID, o model.Obs) *Fault {
	t := &m.mons[k]
	in := freshMonitorState(t.vals[id])
	var out any
	if f := catch(func() {
		out = m.monitors[k].Observe(&m.cfg, in, node, o)
		m.buf = AppendKey(m.buf[:0], out)
	}); f != nil {
		return f
	}
	if string(m.buf) != t.keys[next] {
		return nondeterministic("state", t.vals[next], out)
	}
	return nil
}

// startTwice calls monitor mon's Start twice and returns the first state,
// or the Fault of two that differ.
func startTwice(mon model.Monitor, cfg *model.Config) (any, *Fault) {
	first, second := mon.Start(cfg), mon.Start(cfg)
	if string(AppendKey(nil, first)) != string(AppendKey(nil, second)) {
		return first, nondeterministic("state", first, second)
	}
	return first, nil
}
