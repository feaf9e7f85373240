package validate

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/tracelog"
)

// node is one node's log as the Watcher replays it on the node's handlers.
type node struct {
	*checker.Node
	file string
	// pending: its records that came and are not taken yet, in order;
	// arrived counts those that came
	pending []tracelog.Logged
	arrived int
	// taken: the indices in the Watcher's order of its events taken
	taken []int
	// the node in the model: started, its state, the timers it has armed
	// (by their text, as logs name them), whether it is down and, if it
	// ever crashed, the line of its last crash and its state then
	started    bool
	state      checker.State
	armed      map[string]model.Timer
	crashed    bool
	crashedAt  int
	crashState checker.State
	// inFlight: the messages sent to it since its last crash, which a
	// crash drops
	inFlight []*sent
}

// admit says why the model's node cannot take event rec at all, or "":
// a node starts once, first; a crashed node only recovers.
func (nd *node) admit(rec tracelog.Logged) string {
	switch {
	case !nd.started && rec.Event != tracelog.Start:
		return "the log does not begin with the node's start"
	case nd.started && rec.Event == tracelog.Start:
		return "the node starts again: a node that restarts after a crash logs its recovery"
	case nd.crashed && rec.Event != tracelog.Recover:
		return fmt.Sprintf("n%d is down, crashed at line %d: it takes no event but its recovery", rec.Node, nd.crashedAt)
	case !nd.crashed && rec.Event == tracelog.Recover:
		return fmt.Sprintf("n%d recovers, and it is not down", rec.Node)
	}
	return ""
}

// replay takes event rec, which admit admits, on the model's node, with
// msg the message of a receive: the handler it calls must exist in the
// node's state (a timer armed, an action enabled, a recovery) and have
// the logged effects exactly. It returns the handler's step, or what
// differs, with no place.
func (nd *node) replay(m *checker.Machine, rec tracelog.Logged, msg checker.Message) (checker.Step, *Discrepancy) {
	var none checker.Step
	differ := func(format string, args ...any) (checker.Step, *Discrepancy) {
		return none, &Discrepancy{What: fmt.Sprintf(format, args...)}
	}
	var (
		st  checker.Step
		err error
	)
	switch rec.Event {
	case tracelog.Start:
		nd.started = true
		st, err = nd.Init()
	case tracelog.Receive:
		st, err = nd.Receive(nd.state, model.NodeID(*rec.From), msg)
	case tracelog.Timeout:
		t, ok := nd.armed[rec.Timer]
		if !ok {
			return differ("the model has no timer %s armed (it has %s)", rec.Timer, nd.armedText())
		}
		// a timer that fires is no longer armed; the handler may arm it again
		delete(nd.armed, rec.Timer)
		st, err = nd.Timeout(nd.state, t)
	case tracelog.Action:
		var as []model.Action
		if as, err = nd.Actions(nd.state); err == nil {
			i := slices.IndexFunc(as, func(a model.Action) bool { return fmt.Sprint(a) == rec.Action })
			if i < 0 {
				return differ("the model has no action %s enabled (it has %s)", rec.Action, listOr(as, "none"))
			}
			st, err = nd.Do(nd.state, as[i])
		}
	case tracelog.Crash:
		nd.crashed, nd.crashedAt, nd.crashState = true, rec.Line, nd.state
		clear(nd.armed)
		return none, nil
	case tracelog.Recover:
		if !m.Recoverable() {
			return differ("the model's nodes do not recover: the protocol is no model.Recoverer")
		}
		nd.crashed = false
		st, err = nd.Recover(nd.crashState)
	}
	if err != nil {
		d := &Discrepancy{What: err.Error()}
		if errors.As(err, &d.Fault) {
			d.What = "the model faults: " + d.Fault.Error()
		}
		return none, d
	}
	if what := nd.compare(m, rec.Record, st); what != "" {
		return none, &Discrepancy{What: what}
	}
	nd.state = st.State
	for _, op := range st.Timers {
		if text := fmt.Sprint(op.Timer); op.Armed {
			nd.armed[text] = op.Timer
		} else {
			delete(nd.armed, text)
		}
	}
	return st, nil
}

// compare says how the logged effects of rec differ from those of the
// model's step st, the first kind that differs: sends, timers, then
// observations; or "".
func (nd *node) compare(m *checker.Machine, rec tracelog.Record, st checker.Step) string {
	logged, modelled := make([]string, len(rec.Sends)), make([]string, len(st.Sends))
	same := len(rec.Sends) == len(st.Sends)
	for k, s := range rec.Sends {
		msg, err := m.DecodeMessage(s.Msg)
		if err != nil {
			return fmt.Sprintf("logged send %d, to n%d, is %s, none of the model's messages: %v", k+1, s.To, compact(s.Msg), err)
		}
		logged[k] = fmt.Sprintf("%s to n%d", m.MessageText(msg), s.To)
		if same {
			same = s.To == int(st.Sends[k].To) && msg == st.Sends[k].Msg
		}
	}
	for k, s := range st.Sends {
		modelled[k] = fmt.Sprintf("%s to n%d", m.MessageText(s.Msg), s.To)
	}
	if !same {
		return fmt.Sprintf("logged %s%s; the model sends %s", count(len(logged), "send"), listedStrings(logged), listed(modelled))
	}
	var want []tracelog.TimerOp
	for _, op := range st.Timers {
		t := tracelog.TimerOp{Op: "cancel", Timer: fmt.Sprint(op.Timer)}
		if op.Armed {
			t.Op, t.Ticks = "set", op.Ticks
			for _, j := range op.WaitOn {
				t.WaitOn = append(t.WaitOn, int(j))
			}
		}
		want = append(want, t)
	}
	if !slices.EqualFunc(rec.Timers, want, sameTimerOp) {
		return fmt.Sprintf("logged %s%s; the model: %s", count(len(rec.Timers), "timer operation"), listedStrings(opsText(rec.Timers)), listOr(opsText(want), "none"))
	}
	var obs []string
	for _, o := range st.Observed {
		obs = append(obs, o.String())
	}
	if !slices.Equal(rec.Observed, obs) {
		return fmt.Sprintf("logged %s%s; the model observes %s", count(len(rec.Observed), "observation"), listedStrings(rec.Observed), listOr(obs, "nothing"))
	}
	return ""
}

func sameTimerOp(a, b tracelog.TimerOp) bool {
	return a.Op == b.Op && a.Timer == b.Timer && a.Ticks == b.Ticks && slices.Equal(a.WaitOn, b.WaitOn)
}

// armedText lists the timers the node has armed, sorted.
func (nd *node) armedText() string {
	var names []string
	for name := range nd.armed {
		names = append(names, name)
	}
	slices.Sort(names)
	return listOr(names, "none")
}

// opsText is timer operations as text: "set answer on n2 n3", "set tick
// after 3 ticks", "cancel coordinator".
func opsText(ops []tracelog.TimerOp) []string {
	var out []string
	for _, op := range ops {
		s := op.Op + " " + op.Timer
		if len(op.WaitOn) > 0 {
			var on []string
			for _, j := range op.WaitOn {
				on = append(on, fmt.Sprintf("n%d", j))
			}
			s += " on " + strings.Join(on, " ")
		}
		if op.Ticks > 0 {
			s += fmt.Sprintf(" after %d ticks", op.Ticks)
		}
		out = append(out, s)
	}
	return out
}

// count is "1 send", "3 sends", "no send".
func count(n int, what string) string {
	switch n {
	case 0:
		return "no " + what
	case 1:
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// listed is a count and what it counts, "3: a, b, c", or "nothing".
func listed(items []string) string {
	if len(items) == 0 {
		return "nothing"
	}
	return fmt.Sprintf("%d: %s", len(items), strings.Join(items, ", "))
}

// listedStrings is ": a, b" after a count, or "" for none.
func listedStrings(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return ": " + strings.Join(items, ", ")
}

// listOr lists items, comma-separated, or says none.
func listOr[T any](items []T, none string) string {
	if len(items) == 0 {
		return none
	}
	var parts []string
	for _, it := range items {
		parts = append(parts, fmt.Sprint(it))
	}
	return strings.Join(parts, ", ")
}
