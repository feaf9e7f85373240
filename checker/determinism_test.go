package checker_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
)

// hopper passes a hop back and forth between two nodes, n0 sending hop 1,
// up to hop 4. Its flaw, at hop 3 (received by n1, the third step of
// every run), is a handler that reads the clock into its state, or sends
// a list in Go's map order.
type hopper struct{ flaw string }

type hopState struct {
	Hops  int
	Stamp int64 // when the last hop arrived, for the "clock" flaw
}

type hopMsg struct {
	Hop   int
	Order []int
}

// bigMap is large enough that two iterations over it agree on their
// order only once in hundreds.
var bigMap = func() map[int]bool {
	m := map[int]bool{}
	for k := range 256 {
		m[k] = true
	}
	return m
}()

func (hopper) Init(ctx *model.Ctx[hopMsg]) hopState {
	if ctx.Self() == 0 {
		ctx.Send(1, hopMsg{Hop: 1})
	}
	return hopState{}
}

func (r hopper) Receive(ctx *model.Ctx[hopMsg], s hopState, from model.NodeID, m hopMsg) hopState {
	next := hopState{Hops: s.Hops + 1, Stamp: s.Stamp}
	var order []int
	if m.Hop == 3 {
		switch r.flaw {
		case "clock":
			next.Stamp = time.Now().UnixNano()
		case "map-order":
			for range 4 { // two calls agree on all four orders next to never
				for k := range bigMap {
					order = append(order, k)
				}
			}
		}
	}
	if m.Hop < 4 {
		ctx.Send(from, hopMsg{Hop: m.Hop + 1, Order: order})
	}
	ctx.Observe(model.Leader(ctx.Self()))
	return next
}

func (hopper) Timeout(_ *model.Ctx[hopMsg], s hopState, _ model.Timer) hopState { return s }
func (hopper) Recover(_ *model.Ctx[hopMsg], s hopState) hopState                { return s }

// lastSeen is a monitor of the receipts reported, which stores the time of
// the third when clock is set.
type lastSeen struct{ clock bool }

type lastSeenState struct{ Receipts, At int64 }

func (lastSeen) Name() string            { return "lastseen" }
func (lastSeen) Start(*model.Config) any { return lastSeenState{} }
func (l lastSeen) Observe(_ *model.Config, st any, _ model.NodeID, o model.Obs) any {
	s := st.(lastSeenState)
	if o.Kind != model.ObsLeader {
		return s
	}
	s.Receipts++
	if l.clock && s.Receipts == 3 {
		s.At = time.Now().UnixNano()
	}
	return s
}

// A handler or monitor whose two calls on equal inputs disagree ends
// every engine's search with a fault naming the handler, the event and
// the field, and the run to it; a replay of that run meets it again.
func TestNondeterministicHandlersAreFaults(t *testing.T) {
	cases := []struct {
		name    string
		flaw    string
		clock   bool // the monitor's
		handler string
		monitor string
		part    string
		path    string // a regular expression
		text    string
	}{
		{"deterministic", "", false, "", "", "", "", ""},
		{"state from the clock", "clock", false, "Receive", "", "state", `^\.Stamp$`,
			"protocol hopper: Receive of msg from n0 on n1 is not deterministic: two calls on equal inputs returned states that differ at .Stamp: "},
		{"sends in map order", "map-order", false, "Receive", "", "sends", `^\[0\]\.Msg\.Order\[\d+\]$`,
			"protocol hopper: Receive of msg from n0 on n1 is not deterministic: two calls on equal inputs sent messages that differ at [0].Msg.Order["},
		{"monitor from the clock", "", true, "Observe", "lastseen", "state", `^\.At$`,
			"monitor lastseen: Observe of n1's leader=n1 is not deterministic: two calls on equal inputs returned states that differ at .At: "},
	}
	cfg := model.Config{N: 2, Crashes: 1, Timing: model.Async}
	for _, c := range cases {
		compile := func() *checker.Machine {
			m, err := checker.Compile("hopper", hopper{c.flaw}, cfg, quiet, watching(lastSeen{c.clock}))
			require.NoError(t, err)
			return m
		}
		runs := []engine{
			exhaustiveEngine("exhaustive/workers=1", checker.Options{Workers: 1}),
			exhaustiveEngine("exhaustive/workers=2", checker.Options{Workers: 2, Messages: true}),
			randomEngine("random", checker.RandomOptions{Walks: 50, Seed: 3, Workers: 1}),
		}
		for _, r := range runs {
			t.Run(c.name+"/"+r.name, func(t *testing.T) {
				res := r.run(compile())
				if c.handler == "" {
					require.Equal(t, checker.Pass, res.Verdict)
					require.Nil(t, res.Fault)
					return
				}
				require.Equal(t, checker.Error, res.Verdict)
				f := res.Fault
				require.NotNil(t, f, "no fault reported")
				require.Equal(t, c.handler, f.Handler)
				require.Equal(t, c.monitor, f.Monitor)
				require.Equal(t, model.NodeID(1), f.Node)
				require.Equal(t, c.part, f.Nondeterministic)
				require.Regexp(t, c.path, f.Path)
				require.Len(t, f.Values, 2)
				require.Contains(t, f.Error(), c.text)
				require.True(t, f.Trace.FaultInStep)
				require.Equal(t, "n0 → n1  {Hop:3 Order:[]}", f.Trace.Events[len(f.Trace.Events)-1].String())

				// a replay of the run meets the fault again
				rt, err := checker.Replay(compile(), f.Trace)
				var mf *checker.Fault
				require.True(t, errors.As(err, &mf), "replay: %v", err)
				require.Equal(t, c.part, mf.Nondeterministic)
				require.Equal(t, f.Path == "", mf.Path == "")
				require.Equal(t, slices.Clip(f.Trace.Events), rt.Events)
			})
		}
	}
}
