package checker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/shardtest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// pingPong is a protocol with a bug planted at the third hop: n0 sends hop
// 1 to n1, each node answers hop h with hop h+1 up to hop 4, and reports
// each receipt as an observation. Its fault names what goes wrong at hop 3
// (received by n1, the third step of every run), or, for timeout-panic,
// at the timer n1 arms on hop 1.
type pingPong struct{ fault string }

type ppState struct {
	Hops int
	Seen map[int]bool // hops received
}

type ppMsg struct {
	Hop  int
	Path []int // the hops so far
}

type ppTimer int

func (ppTimer) String() string { return "late" }

func (p pingPong) Init(ctx *model.Ctx[ppMsg]) ppState {
	if ctx.Self() == 0 {
		ctx.Send(1, ppMsg{Hop: 1, Path: []int{1}})
	}
	return ppState{Seen: map[int]bool{}}
}

func (p pingPong) Receive(ctx *model.Ctx[ppMsg], s ppState, from model.NodeID, m ppMsg) ppState {
	if m.Hop == 3 {
		switch p.fault {
		case "receive-panic":
			var hops []int
			_ = hops[m.Hop] // index out of range
		case "state-mutation":
			s.Seen[m.Hop] = true // writes into the input state's map
			return s
		case "message-mutation":
			m.Path[0] = 99 // writes into the received message
		}
	}
	if m.Hop == 1 && p.fault == "timeout-panic" {
		ctx.SetTimer(ppTimer(0))
	}
	seen := maps.Clone(s.Seen)
	seen[m.Hop] = true
	if m.Hop < 4 {
		ctx.Send(from, ppMsg{Hop: m.Hop + 1, Path: append(append([]int(nil), m.Path...), m.Hop+1)})
	}
	ctx.Observe(model.Leader(ctx.Self()))
	return ppState{Hops: s.Hops + 1, Seen: seen}
}

func (p pingPong) Timeout(_ *model.Ctx[ppMsg], s ppState, _ model.Timer) ppState {
	if p.fault == "timeout-panic" {
		panic("the late timer fired")
	}
	return s
}

func (pingPong) Recover(_ *model.Ctx[ppMsg], s ppState) ppState { return s }

// receipts is a monitor counting the receipts each node reported, with a
// bug planted at the third: a panic, or a write into its input state.
type receipts struct{ fault string }

func (receipts) Name() string            { return "receipts" }
func (receipts) Start(*model.Config) any { return map[int]int{} }
func (r receipts) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	in := st.(map[int]int)
	if o.Kind != model.ObsLeader {
		return in
	}
	total := 1
	for _, n := range in {
		total += n
	}
	if total == 3 {
		switch r.fault {
		case "monitor-panic":
			panic(fmt.Sprintf("receipt %d", total))
		case "monitor-mutation":
			in[int(node)]++
			return in
		}
	}
	out := maps.Clone(in)
	out[int(node)]++
	return out
}

// quiet is an invariant that always holds: it fails no search, so only
// the fault can end one.
var quiet = &properties.Property{Name: "quiet", Family: "test", When: properties.Always,
	Check: func(properties.View) string { return "" }}

// faultCase is a fault planted in pingPong and what the search must say of
// it.
type faultCase struct {
	fault   string
	handler string // Fault.Handler
	monitor string
	node    model.NodeID
	last    string // the faulting step, as the trace prints it
	steps   int    // events in the trace, the faulting one included
	panic   string // Fault.Panic contains it
	mutated string
	before  string
	after   string
	path    string   // where before and after differ
	values  []string // what each holds there
}

// requireFault checks what f says of the fault: where, and the panic or the
// mutation.
func (c faultCase) requireFault(t *testing.T, f *checker.Fault) {
	t.Helper()
	require.Equal(t, "pingpong", f.Protocol)
	require.Equal(t, c.handler, f.Handler)
	require.Equal(t, c.monitor, f.Monitor)
	require.Equal(t, c.node, f.Node)
	if c.panic != "" {
		require.Contains(t, f.Panic, c.panic)
		require.Contains(t, f.Stack, "checker_test.")
		require.Contains(t, f.Where(), "fault_test.go:", "the panic's place")
		return
	}
	require.Empty(t, f.Panic)
	require.Equal(t, c.mutated, f.Mutated)
	require.Equal(t, c.before, f.Before)
	require.Equal(t, c.after, f.After)
	require.Equal(t, c.path, f.Path)
	require.Equal(t, c.values, f.Values)
	require.Contains(t, f.Error(), fmt.Sprintf(" at %s: before %s, after %s;", c.path, c.values[0], c.values[1]))
}

// TestFaultsAreResults: a handler or monitor that panics or mutates its
// input ends every engine's search with a fault and the run to it, the
// faulting step last, never a crash; the same with one worker or two;
// the run replays to the same fault.
func TestFaultsAreResults(t *testing.T) {
	cases := []faultCase{
		{fault: "receive-panic", handler: "Receive", node: 1, last: "n0 → n1  {Hop:3 Path:[1 2 3]}", steps: 3,
			panic: "index out of range"},
		{fault: "timeout-panic", handler: "Timeout", node: 1, last: "n1  timeout late", steps: 2,
			panic: "the late timer fired"},
		{fault: "state-mutation", handler: "Receive", node: 1, last: "n0 → n1  {Hop:3 Path:[1 2 3]}", steps: 3,
			mutated: "state", before: "{Hops:1 Seen:map[1:true]}", after: "{Hops:1 Seen:map[1:true 3:true]}",
			path: ".Seen[3]", values: []string{"(none)", "true"}},
		{fault: "message-mutation", handler: "Receive", node: 1, last: "n0 → n1  {Hop:3 Path:[1 2 3]}", steps: 3,
			mutated: "message", before: "{Hop:3 Path:[1 2 3]}", after: "{Hop:3 Path:[99 2 3]}",
			path: ".Path[0]", values: []string{"1", "99"}},
		{fault: "monitor-panic", handler: "Observe", monitor: "receipts", node: 1, last: "n0 → n1  {Hop:3 Path:[1 2 3]}", steps: 3,
			panic: "receipt 3"},
		{fault: "monitor-mutation", handler: "Observe", monitor: "receipts", node: 1, last: "n0 → n1  {Hop:3 Path:[1 2 3]}", steps: 3,
			mutated: "state", before: "map[0:1 1:1]", after: "map[0:1 1:2]",
			path: "[1]", values: []string{"1", "2"}},
	}
	// Crashes and async timers give the search worlds to explore besides
	// the ping-pong; each fault is at the same depth in every run.
	cfg := model.Config{N: 2, Crashes: 1, Timing: model.Async}
	props := []*properties.Property{quiet}
	for _, c := range cases {
		compile := func() *checker.Machine {
			m, err := checker.Compile("pingpong", pingPong{c.fault}, cfg, append(props, watching(receipts{c.fault}))...)
			require.NoError(t, err)
			return m
		}
		runs := []engine{
			exhaustiveEngine("exhaustive/workers=1", checker.Options{Workers: 1, Messages: true}),
			exhaustiveEngine("exhaustive/workers=2", checker.Options{Workers: 2, Messages: true}),
			exhaustiveEngine("exhaustive/sweep", checker.Options{Workers: 2, Sweep: true}),
			randomEngine("random/workers=1", checker.RandomOptions{Walks: 200, Seed: 7, Workers: 1}),
			randomEngine("random/workers=2", checker.RandomOptions{Walks: 200, Seed: 7, Workers: 2}),
			{"random/3 shards", func(m *checker.Machine) *checker.Result {
				return shardtest.Merged(t, m, checker.RandomOptions{Walks: 200, Seed: 7, Workers: 2}, 3)
			}},
		}
		var byMode = map[checker.Mode]*checker.Result{}
		for _, r := range runs {
			t.Run(c.fault+"/"+r.name, func(t *testing.T) {
				res := r.run(compile())
				require.Equal(t, checker.Error, res.Verdict)
				require.NotNil(t, res.Fault, "no fault reported")
				f := res.Fault
				c.requireFault(t, f)
				require.Equal(t, checker.Unknown, res.Properties[0].Verdict)
				require.Nil(t, res.Messages)

				tr := f.Trace
				require.NotNil(t, tr)
				require.Equal(t, f.Error(), tr.Fault)
				require.True(t, tr.FaultInStep)
				if res.Mode == checker.ModeExhaustive {
					require.Len(t, tr.Events, c.steps, "breadth first: the shortest run to the fault")
				} else {
					require.GreaterOrEqual(t, len(tr.Events), c.steps) // a walk may crash a node on the way
				}
				require.Equal(t, c.last, tr.Events[len(tr.Events)-1].String())
				require.Empty(t, tr.Events[len(tr.Events)-1].Changes, "nothing came of the faulting step")
				if res.Mode == checker.ModeRandom {
					require.NotNil(t, tr.Seed, "a walk's fault replays from its seed")
				}
				var out bytes.Buffer
				checker.Render(&out, tr)
				require.Contains(t, out.String(), "fault: "+f.Error()+"\n")
				require.Contains(t, out.String(), fmt.Sprintf("  %2d. %s\n  (the fault is in this last step: nothing came of it)\n", len(tr.Events), c.last))

				// Replay meets the same fault, as an error, with the same run.
				rt, err := checker.Replay(compile(), tr)
				var mf *checker.Fault
				require.True(t, errors.As(err, &mf), "replay: %v", err)
				require.Equal(t, f.Error(), mf.Error())
				require.NotNil(t, rt)
				require.Equal(t, tr.Events, rt.Events)

				// the same result with one worker or two
				mode := res.Mode
				if base := byMode[mode]; base != nil {
					if mode == checker.ModeRandom || res.Sweep == base.Sweep {
						require.Equal(t, comparableFault(base), comparableFault(res))
					}
				} else {
					byMode[mode] = res
				}
			})
		}
	}
}

// comparableFault clears what legitimately differs between two runs: the
// time taken, and the goroutine's stack.
func comparableFault(r *checker.Result) checker.Result {
	c := comparableResult(r)
	f := *c.Fault
	f.Stack = ""
	c.Fault = &f
	return c
}

// A fault at start-up (a node's Init, a monitor's Start) is a result too,
// with an empty run.
func TestFaultAtStartUp(t *testing.T) {
	m, err := checker.Compile("pingpong", pingPong{}, model.Config{N: 2}, quiet, watching(startPanics{}))
	require.NoError(t, err)
	for _, res := range []*checker.Result{
		checker.Exhaustive(context.Background(), m, checker.Options{}),
		checker.Random(context.Background(), m, checker.RandomOptions{Walks: 10}),
	} {
		require.Equal(t, checker.Error, res.Verdict)
		require.NotNil(t, res.Fault)
		require.Equal(t, "Start", res.Fault.Handler)
		require.Equal(t, "monitor startpanics: Start panicked: no start", res.Fault.Error())
		require.Empty(t, res.Fault.Trace.Events)
		require.Empty(t, res.Fault.Trace.Initial)
	}
}

type startPanics struct{}

func (startPanics) Name() string            { return "startpanics" }
func (startPanics) Start(*model.Config) any { panic("no start") }
func (startPanics) Observe(_ *model.Config, st any, _ model.NodeID, _ model.Obs) any {
	return st
}

// watching is a property that holds everywhere and reads mon, so that a
// Machine compiled with it feeds mon.
func watching(mon model.Monitor) *properties.Property {
	return &properties.Property{Name: "watch-" + mon.Name(), When: properties.Always, Monitor: mon,
		Check: func(properties.View) string { return "" }}
}

// engine is one search of a machine, named for the subtest: what holds of
// every engine (a fault ends the search, the coverage counts its steps) is
// checked on each in turn.
type engine struct {
	name string
	run  func(*checker.Machine) *checker.Result
}

func exhaustiveEngine(name string, opt checker.Options) engine {
	return engine{name, func(m *checker.Machine) *checker.Result {
		return checker.Exhaustive(context.Background(), m, opt)
	}}
}

func randomEngine(name string, opt checker.RandomOptions) engine {
	return engine{name, func(m *checker.Machine) *checker.Result {
		return checker.Random(context.Background(), m, opt)
	}}
}

// A property whose own code panics (here it reads the node states as the
// wrong type) ends the search with a fault of the property, and the run to
// the world it was judging; every engine, and Replay, say so.
func TestPropertyFault(t *testing.T) {
	wrongType := properties.Invariant("wrong-type", "reads the states as ints",
		func(v properties.View) string {
			if v.InFlight() == 0 {
				_ = properties.StateOf[int](v, 0)
			}
			return ""
		})
	m, err := checker.Compile("flood", Flood{}, model.Config{N: 2}, wrongType)
	require.NoError(t, err)
	for _, res := range []*checker.Result{
		checker.Exhaustive(context.Background(), m, checker.Options{Workers: 1}),
		checker.Exhaustive(context.Background(), m, checker.Options{Workers: 2}),
		checker.Random(context.Background(), m, checker.RandomOptions{Walks: 10}),
	} {
		require.Equal(t, checker.Error, res.Verdict)
		require.NotNil(t, res.Fault)
		require.Equal(t, "wrong-type", res.Fault.Property)
		require.Equal(t, "property wrong-type: Check panicked: properties.StateOf: node states are checker_test.FloodState, not int", res.Fault.Error())
		require.Len(t, res.Fault.Trace.Events, 2, "the two deliveries empty the channels")
	}
	r := m.Start()
	for r.Steps() < 2 {
		p, _ := r.Violation()
		require.Nil(t, p)
		r.Take(0)
	}
	p, _ := r.Violation()
	require.Nil(t, p)
	require.NotNil(t, r.Fault(), "the run ends at the property's fault")
}

// A fault's JSON has every field of the fault, in its order, then its run:
// what a fault read back from JSON (a shard's) writes again byte for byte.
func TestFaultJSON(t *testing.T) {
	const text = `{"protocol":"pingpong","property":"safe","handler":"Receive","monitor":"order","node":1,` +
		`"observation":"deliver(2)","panic":"boom","stack":"goroutine 1","misuse":"sent to n7",` +
		`"mutated":"state","before":"{1}","after":"{2}","nondeterministic":"sends","input":"ping from n0",` +
		`"path":".Votes[2]","values":["0","1"],"trace":{"property":"","detail":"","initial":null,"events":null,"fault":"boom"}}`
	var f checker.Fault
	require.NoError(t, json.Unmarshal([]byte(text), &f))
	require.Equal(t, "sent to n7", f.Misuse)
	require.Equal(t, "boom", f.Trace.Fault)
	b, err := json.Marshal(&f)
	require.NoError(t, err)
	require.Equal(t, text, string(b))

	var empty checker.Fault
	b, err = json.Marshal(&empty)
	require.NoError(t, err)
	require.Equal(t, `{"protocol":"","handler":"","node":0,"trace":null}`, string(b))
}
