package msc_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
)

// A hand-made run of three nodes with every kind of event: two copies of
// one message (the network duplicates it) delivered in turn, a message
// lost by the network, one lost to its receiver's crash, one to a
// partition, two lost as they are sent (across the cut, to a node that is
// down), one still in flight, and a cycle.
func run() *checker.Trace {
	return &checker.Trace{
		Property: "no-starvation", Detail: "n2 waits forever", Cycle: 2, Fairness: "weak",
		Initial:       []checker.NodeState{{Node: 0}, {Node: 1}, {Node: 2}},
		Start:         []checker.Send{{From: 0, To: 1, Msg: "ping#1"}, {From: 0, To: 2, Msg: "ping#1"}},
		StartObserved: [][]string{{"leader=n0"}},
		Events: []checker.TraceStep{
			{Kind: "duplicate", Node: 1, From: 0, Msg: "ping#1"},
			{Kind: "deliver", Node: 1, From: 0, Msg: "ping#1", Sent: []checker.Send{{From: 1, To: 0, Msg: "pong;1"}}},
			{Kind: "deliver", Node: 1, From: 0, Msg: "ping#1", Sent: []checker.Send{{From: 1, To: 0, Msg: "ack"}}},
			{Kind: "lose", Node: 0, From: 1, Msg: "pong;1"},
			{Kind: "crash", Node: 2},
			{Kind: "partition", Node: 0, From: 0, Groups: "n0 | n1 n2"},
			{Kind: "timeout", Node: 1, Timer: "check", Observed: []string{"leader=n1"},
				Sent: []checker.Send{{From: 1, To: 0, Msg: "late"}, {From: 1, To: 2, Msg: "x"}}},
			{Kind: "action", Node: 1, Action: "request", Sent: []checker.Send{{From: 1, To: 1, Msg: "self"}}},
		},
	}
}

func TestLayout(t *testing.T) {
	l := msc.New(run())
	require.Equal(t, 3, l.N)
	require.Equal(t, []msc.Arrow{
		{From: 0, To: 1, Msg: "ping#1", Sent: 0, End: 2},
		{From: 0, To: 2, Msg: "ping#1", Sent: 0, End: 5, Lost: true, Cause: "n2 crashed"},
		{From: 0, To: 1, Msg: "ping#1", Sent: 1, End: 3, Copy: true},
		{From: 1, To: 0, Msg: "pong;1", Sent: 2, End: 4, Lost: true},
		{From: 1, To: 0, Msg: "ack", Sent: 3, End: 6, Lost: true, Cause: "the partition cut it off"},
		{From: 1, To: 0, Msg: "late", Sent: 7, End: 7, Lost: true, Cause: "the partition cuts it off"},
		{From: 1, To: 2, Msg: "x", Sent: 7, End: 7, Lost: true, Cause: "n2 is down"},
		{From: 1, To: 1, Msg: "self", Sent: 8},
	}, l.Arrows, "the first delivery takes the original, the second the copy")
	require.Equal(t, []int{-1, 0, 2, 3, -1, -1, -1, -1}, l.At)
	require.Equal(t, []msc.Arrow{l.Arrows[7]}, l.Undelivered())
	require.Equal(t, []msc.Arrow{l.Arrows[5], l.Arrows[6]}, l.LostAt(7))
	require.True(t, l.Arrows[0].Delivered())
	require.False(t, l.Arrows[3].Delivered(), "lost")
	require.False(t, l.Arrows[7].Delivered(), "in flight")
}

func TestMermaid(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, msc.Mermaid(&b, msc.New(run()), "a hand-made run", "second line"))
	require.Equal(t, `%% a hand-made run
%% second line
sequenceDiagram
    participant n0
    participant n1
    participant n2
    Note right of n0: start-up: observed leader=n0
    Note over n0,n1: 1. the network duplicates ping#35;1
    n0->>n1: 2. ping#35;1 (sent at start-up)
    n0->>n1: 3. ping#35;1 (a copy made at 1)
    n1-xn0: 4. lost: pong#59;1 (sent at 2)
    rect rgb(255, 236, 236)
    Note over n2: 5. CRASH
    end
    n0--xn2: ping#35;1 (sent at start-up), lost: n2 crashed
    Note over n0,n2: 6. partition n0 | n1 n2
    n1--xn0: ack (sent at 3), lost: the partition cut it off
    loop the cycle repeats forever (weak fairness)
    Note over n1: 7. timeout check
    Note right of n1: observed leader=n1
    n1--xn0: late (sent at 7), lost: the partition cuts it off
    n1--xn2: x (sent at 7), lost: n2 is down
    Note over n1: 8. request
    end
    n1--xn1: self (sent at 8), never delivered
    rect rgb(255, 214, 214)
    Note over n0,n2: no-starvation fails: n2 waits forever
    end
`, b.String())

	// a run cut short by an invariant leaves messages in flight; a fault
	// closes the chart instead of a property; one node has one lifeline
	tr := &checker.Trace{Fault: "handler panicked", Initial: []checker.NodeState{{Node: 0}},
		Start: []checker.Send{{From: 0, To: 0, Msg: "self"}}}
	b.Reset()
	require.NoError(t, msc.Mermaid(&b, msc.New(tr)))
	require.Equal(t, `sequenceDiagram
    participant n0
    n0--xn0: self (sent at start-up), still in flight
    rect rgb(255, 214, 214)
    Note over n0: fault: handler panicked
    end
`, b.String())
}

func TestSVG(t *testing.T) {
	tr := run()
	tr.Events[6].Observed = []string{"leader=<n1>"}
	var b bytes.Buffer
	require.NoError(t, msc.SVG(&b, msc.New(tr)))
	svg := b.String()
	count := func(s string) int { return strings.Count(svg, s) }
	require.True(t, strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg" class="msc"`))
	require.Equal(t, 9, count(`<g class="row" data-step=`), "start-up and eight steps")
	require.Equal(t, 3, count(`<g class="node" data-node=`))
	require.Equal(t, 8, count(`<g class="msg`), "one line per message, copies included")
	require.Equal(t, 5, count(`<g class="msg lost"`), "by the network, a crash, a cut, and two as they are sent")
	require.Equal(t, 1, count(`<g class="msg copy"`))
	require.Equal(t, 1, count(`<g class="msg inflight"`))
	require.Contains(t, svg, `self (never delivered)`, "a lasso never delivers what is left in flight")
	require.Contains(t, svg, `n0 → n2 ping#1 (lost: n2 crashed)`)
	require.Equal(t, 1, count(`<g class="crash">`))
	require.Equal(t, 1, count(`<line class="life down"`), "n2 is down from its crash on")
	require.Equal(t, 1, count(`<g class="partition">`))
	require.Equal(t, 1, count(`<g class="cycle">`))
	require.Contains(t, svg, "observed leader=&lt;n1&gt;", "text is escaped")
	require.Contains(t, svg, `<g class="violation">`)
	require.Contains(t, svg, "no-starvation fails: n2 waits forever")
	require.True(t, strings.HasSuffix(svg, "</svg>\n"))
}
