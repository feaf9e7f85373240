package sim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/model"
)

type dmsg struct {
	V     int
	Order []int // an answer's: keys in the order node 1 went through them
}

type dstate struct {
	Stamp int64
	Got   []int
}

// flaky is a two-node protocol: node 0 sends node 1 two values, and may
// act once; node 1 records what it receives and answers. Its variants
// read a clock or follow Go's map order where a handler must not.
type flaky struct {
	clock    bool // node 1's Receive stores the time
	mapOrder bool // node 1's Receive answers in the order of a map
	actions  bool // node 0's Actions lists a map's keys in its order
}

// manyKeys is a map large enough that two iterations over it agree on
// their order only rarely.
var manyKeys = func() map[int]bool {
	m := map[int]bool{}
	for k := range 16 {
		m[k] = true
	}
	return m
}()

// keys lists manyKeys four times over in map order (two calls agree on
// all four orders once in thousands), or sorted.
func keys(mapOrder bool) []int {
	var ks []int
	for range 4 {
		for k := range manyKeys {
			ks = append(ks, k)
		}
	}
	if !mapOrder {
		slices.Sort(ks)
	}
	return ks
}

func (p flaky) Init(ctx *model.Ctx[dmsg]) dstate {
	if ctx.Self() == 0 {
		ctx.Send(1, dmsg{V: 1})
		ctx.Send(1, dmsg{V: 2})
	}
	return dstate{}
}

func (p flaky) Receive(ctx *model.Ctx[dmsg], s dstate, _ model.NodeID, m dmsg) dstate {
	if ctx.Self() == 0 {
		return s // answers change nothing
	}
	next := dstate{Stamp: s.Stamp, Got: append(slices.Clip(s.Got), m.V)}
	if p.clock {
		next.Stamp = time.Now().UnixNano()
	}
	ctx.Send(0, dmsg{V: 100, Order: keys(p.mapOrder)})
	ctx.Observe(model.Leader(model.NodeID(m.V)))
	return next
}

func (p flaky) Actions(env *model.Env, s dstate) []model.Action {
	if env.Self() != 0 || len(s.Got) > 0 {
		return nil
	}
	var as []model.Action
	for _, k := range keys(p.actions) {
		as = append(as, k)
	}
	return as
}

func (p flaky) Do(_ *model.Ctx[dmsg], s dstate, a model.Action) dstate {
	return dstate{Stamp: s.Stamp, Got: []int{-a.(int)}}
}

// stamper is a monitor that stores the time of the last observation when
// clock is set, and counts observations otherwise; startClock: it starts
// from the time.
type stamper struct{ clock, startClock bool }

type stamp struct{ At int64 }

func (stamper) Name() string { return "stamper" }
func (m stamper) Start(*model.Config) any {
	if m.startClock {
		return stamp{At: time.Now().UnixNano()}
	}
	return stamp{}
}
func (m stamper) Observe(_ *model.Config, st any, _ model.NodeID, _ model.Obs) any {
	if m.clock {
		return stamp{At: time.Now().UnixNano()}
	}
	return stamp{At: st.(stamp).At + 1}
}

// searchFault explores every world of m breadth first with a Stepper and
// returns the first fault met, or nil.
func searchFault(m *sim.Machine) *sim.Fault {
	st := m.NewStepper()
	w, _ := st.Init()
	if f := st.TakeFault(); f != nil {
		return f
	}
	seen := map[string]bool{fmt.Sprint(w): true}
	for queue := []sim.World{w}; len(queue) > 0; queue = queue[1:] {
		evs, _ := st.Enabled(queue[0], nil)
		if f := st.TakeFault(); f != nil {
			return f
		}
		for _, ev := range evs {
			next, _ := st.Apply(queue[0], ev, nil)
			if f := st.TakeFault(); f != nil {
				return f
			}
			if k := fmt.Sprint(next); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return nil
}

// walkFault makes random walks of m with a Walker, whose first calls are
// all checked, and returns the first fault met, or nil.
func walkFault(m *sim.Machine) *sim.Fault {
	rng := rand.New(rand.NewPCG(1, 2))
	lw := m.NewWalker()
	for range 20 {
		lw.Start(nil)
		for lw.Fault() == nil {
			total, _ := lw.Enabled()
			if total == 0 {
				break
			}
			lw.Take(rng.IntN(total))
		}
		if f := lw.Fault(); f != nil {
			return f
		}
	}
	return nil
}

// Two calls on equal inputs must agree: a handler or monitor that reads a
// clock or follows map order is a fault naming the handler, the node,
// what it was given and where its outcomes differ, in a search as in a
// random walk; a deterministic protocol passes both.
func TestNondeterminismFaults(t *testing.T) {
	cases := []struct {
		name    string
		p       flaky
		mon     stamper
		handler string
		monitor string
		node    model.NodeID
		part    string
		path    string // a regular expression
		text    string // the start of the fault's message
	}{
		{"deterministic", flaky{}, stamper{}, "", "", 0, "", "", ""},
		{"clock in state", flaky{clock: true}, stamper{}, "Receive", "", 1, "state", `^\.Stamp$`,
			"protocol flaky: Receive of msg from n0 on n1 is not deterministic: two calls on equal inputs returned states that differ at .Stamp: "},
		{"sends in map order", flaky{mapOrder: true}, stamper{}, "Receive", "", 1, "sends", `^\[0\]\.Msg\.Order\[\d+\]$`,
			"protocol flaky: Receive of msg from n0 on n1 is not deterministic: two calls on equal inputs sent messages that differ at [0].Msg.Order["},
		{"actions in map order", flaky{actions: true}, stamper{}, "Actions", "", 0, "actions", `^\[\d+\]$`,
			"protocol flaky: Actions on n0 is not deterministic: two calls on equal inputs listed actions that differ at ["},
		{"monitor reads the clock", flaky{}, stamper{clock: true}, "Observe", "stamper", 1, "state", `^\.At$`,
			"monitor stamper: Observe of n1's leader=n1 is not deterministic: two calls on equal inputs returned states that differ at .At: "},
		{"monitor starts from the clock", flaky{}, stamper{startClock: true}, "Start", "stamper", model.None, "state", `^\.At$`,
			"monitor stamper: Start is not deterministic: two calls on equal inputs returned states that differ at .At: "},
	}
	engines := []struct {
		name string
		run  func(*sim.Machine) *sim.Fault
	}{{"search", searchFault}, {"walk", walkFault}}
	for _, c := range cases {
		for _, e := range engines {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				var f *sim.Fault
				// map order agrees between two calls now and then: a few
				// fresh Machines make a miss all but impossible
				for try := 0; try < 10 && f == nil; try++ {
					m, err := sim.Compile("flaky", c.p, model.Config{N: 2}, c.mon)
					require.NoError(t, err)
					f = e.run(m)
				}
				if c.handler == "" {
					require.Nil(t, f)
					return
				}
				require.NotNil(t, f, "no fault")
				require.Equal(t, c.handler, f.Handler)
				require.Equal(t, c.monitor, f.Monitor)
				require.Equal(t, c.node, f.Node)
				require.Equal(t, c.part, f.Nondeterministic)
				require.Regexp(t, c.path, f.Path)
				require.Len(t, f.Values, 2)
				require.NotEqual(t, f.Values[0], f.Values[1])
				require.Contains(t, f.Error(), c.text)
				require.Contains(t, f.Error(), "; a handler must not read clocks, randomness or map order")
			})
		}
	}
}
