package sim

import (
	"github.com/vigil-check/vigil/model"
)

// Enabled appends to buf the events enabled in w: first the protocol's
// (deliveries, timeouts, actions; quiescent when there are none), then
// faults. It returns the events and how many of them are protocol events.
func (s *Stepper) Enabled(w World, buf []Event) ([]Event, int) {
	buf, n, _ := s.enabled(w, buf, nil, false)
	return buf, n
}

// EnabledAll is Enabled with the timeouts and actions that would stutter
// listed too, in their places, and stutters (stut with one flag appended
// per event listed) telling which: a random walk draws among them all and draws
// again when it drew one that stutters (see Walker), so that it runs a
// handler only for what it draws.
func (s *Stepper) EnabledAll(w World, buf []Event, stut []bool) (evs []Event, protocol int, stutters []bool) {
	return s.enabled(w, buf, stut, true)
}

func (s *Stepper) enabled(w World, buf []Event, stut []bool, all bool) ([]Event, int, []bool) {
	cfg := &s.m.cfg
	stutStart := len(stut)
	start := len(buf)
	msgs := s.Msgs(w)
	for i, mw := range msgs {
		if i > 0 {
			prev := msgs[i-1]
			if prev == mw || (cfg.Channels == model.FIFO && prev>>32 == mw>>32) {
				continue // a duplicate, or not the head of its FIFO channel
			}
		}
		e := Event{Kind: Deliver, Node: msgTo(mw), From: msgFrom(mw), Arg: msgID(mw)}
		if s.set {
			// a crashed node receives nothing; a redelivery that changes
			// nothing is a stutter, not a step (see setStutters)
			if rec := w[1+int(e.Node)]; !recDead(rec) {
				buf, stut = s.listStep(w, buf, stut, all, e, s.setStutters(w, e.Node, rec, input(e)))
			}
			continue
		}
		buf = s.forgedEvents(w, buf, e, w[1+int(e.Node)])
	}
	stut = unflagged(stut, all, stutStart, len(buf)-start) // the deliveries
	for i := range cfg.N {
		rec := w[1+i]
		if recDead(rec) {
			continue
		}
		if ts := recTimers(rec); ts != 0 { // set 0 is the empty set
			for _, e := range s.timerSet(ts) {
				var fires bool
				switch {
				case e.timed(): // Bounded timing only
					fires = e.due()
				case cfg.Timing == model.Async:
					fires = true
				default:
					fires = s.waitOver(w, model.NodeID(i), s.waitSets[e.wait])
				}
				if fires {
					buf, stut = s.listStep(w, buf, stut, all, Event{Kind: Timeout, Node: model.NodeID(i), Arg: e.timer}, s.stutters(w, model.NodeID(i), rec, inTimeout<<56|uint64(e.timer)))
				}
			}
		}
		if s.acts {
			for a := range s.localActions(model.NodeID(i), recState(rec)) {
				buf, stut = s.listStep(w, buf, stut, all, Event{Kind: Act, Node: model.NodeID(i), Arg: uint32(a)}, s.stutters(w, model.NodeID(i), rec, inAction<<56|uint64(a)))
			}
		}
	}
	if cfg.Timing == model.Bounded && s.ticks(w, buf[start:], stut[stutStart:]) {
		buf = append(buf, Event{Kind: Tick})
	}
	nProtocol := len(buf) - start
	crashes, recoveries := FaultsUsed(w)
	if cfg.Partitions > 0 {
		buf = s.networkEvents(w, buf)
	}
	if cfg.Losses > 0 || cfg.Duplicates > 0 {
		buf = s.messageFaults(w, buf)
	}
	if crashes < cfg.Crashes || recoveries < cfg.Recoveries {
		for i := range cfg.N {
			dead := recDead(w[1+i])
			if !dead && crashes < cfg.Crashes {
				buf = append(buf, Event{Kind: Crash, Node: model.NodeID(i)})
			}
			if dead && recoveries < cfg.Recoveries {
				buf = s.forgedEvents(w, buf, Event{Kind: Recover, Node: model.NodeID(i)}, w[1+i])
			}
		}
	}
	if cfg.Traitors > 0 {
		buf = s.traitorEvents(w, buf)
	}
	stut = unflagged(stut, all, stutStart, len(buf)-start) // a tick, the faults
	return buf, nProtocol, stut
}

// unflagged flags as not stuttering (all, see EnabledAll) the events
// listed past those stut[from:] flags, up to n of them: deliveries and
// faults, which never stutter.
func unflagged(stut []bool, all bool, from, n int) []bool {
	for all && len(stut)-from < n {
		stut = append(stut, false)
	}
	return stut
}

// listStep lists timeout or action e, which stutters or not, with its
// flag (all, see EnabledAll) or only if it does not stutter; at a traitor,
// once per choice of its lies (whether a step stutters does not depend on
// what its messages say, only on whether they arrive).
func (s *Stepper) listStep(w World, buf []Event, stut []bool, all bool, e Event, stutters bool) ([]Event, []bool) {
	if !all && stutters {
		return buf, stut
	}
	n := len(buf)
	buf = s.forgedEvents(w, buf, e, w[1+int(e.Node)])
	if all {
		for range len(buf) - n {
			stut = append(stut, stutters)
		}
	}
	return buf, stut
}

// Identity returns a key of e that names the same event in every world of
// the run, as fairness speaks of it: "this message from n1 to n2", "n1's
// timer t", "n0's action request". Deliveries and timeouts are named by
// interned content already; an action's Arg, its position among the node's
// enabled actions, is replaced by its interned name. Faults are never owed,
// so a loss under FIFO keeps its Arg, the lost message's place in its
// channel.
func (s *Stepper) Identity(w World, e Event) uint64 {
	arg := e.Arg
	if e.Kind == Deliver && s.m.cfg.Timing == model.Bounded {
		arg = idOf(arg) // the same message as it ages
	}
	if e.Kind == Act {
		name := s.localActions(e.Node, recState(w[1+int(e.Node)]))[e.Arg]
		id, ok := s.actIDs[name]
		if !ok {
			s.m.mu.Lock()
			if id, ok = s.m.actionIdx[name]; !ok {
				id = uint32(len(s.m.actionIdx))
				s.m.actionIdx[name] = id
			}
			s.m.mu.Unlock()
			s.actIDs[name] = id
		}
		arg = id
	}
	return uint64(e.Kind)<<60 | uint64(e.Node)<<45 | uint64(e.From)<<30 | uint64(arg)
}

func (s *Stepper) localActions(node model.NodeID, state uint32) []model.Action {
	k := actKey{node, state}
	h := k.hash()
	if as, ok := s.actions.get(k, h); ok {
		return as
	}
	var as []model.Action
	s.m.mu.Lock()
	f := catch(func() { as = s.m.actionsLocked(node, state) })
	s.m.mu.Unlock()
	if f != nil {
		f.Protocol, f.Handler, f.Node = s.m.Name, "Actions", node
		s.setFault(f)
		return nil
	}
	s.actions.put(k, h, as)
	return as
}
