package report_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/report"
)

type cell struct {
	State   string `json:"state"`
	Alive   bool   `json:"alive"`
	Changed bool   `json:"changed"`
}

type step struct {
	Label string `json:"label"`
	Nodes []cell `json:"nodes"`
}

// data returns the steps the page's slider reads, for each counterexample.
func data(t *testing.T, page string) [][]step {
	var out [][]step
	for _, m := range regexp.MustCompile(`(?s)<script type="application/json" class="data">(.*?)</script>`).FindAllStringSubmatch(page, -1) {
		var steps []step
		require.NoError(t, json.Unmarshal([]byte(m[1]), &steps), m[1])
		out = append(out, steps)
	}
	return out
}

// A run of two nodes in which n1 crashes: the report lists the verdicts
// and figures, draws the counterexample, and gives the slider every
// node's state after every step, with what changed marked.
func TestReport(t *testing.T) {
	tr := &checker.Trace{
		Property: "agreement", Detail: "n0 believes <n0>, n1 is gone", Quiescent: true,
		Initial: []checker.NodeState{{Node: 0, Alive: true, State: "idle"}, {Node: 1, Alive: true, State: "idle"}},
		Start:   []checker.Send{{From: 0, To: 1, Msg: "hello"}},
		Events: []checker.TraceStep{
			{Kind: "deliver", Node: 1, From: 0, Msg: "hello", Changes: []checker.NodeState{{Node: 1, Alive: true, State: "greeted"}}},
			{Kind: "crash", Node: 1, Changes: []checker.NodeState{{Node: 1, Alive: false, State: "greeted"}}},
			{Kind: "timeout", Node: 0, Timer: "t", Observed: []string{"leader=n0"}, Changes: []checker.NodeState{{Node: 0, Alive: true, State: "leader"}}},
		},
	}
	res := &checker.Result{Mode: checker.ModeExhaustive, Verdict: checker.Fail,
		Properties: []checker.PropertyResult{
			{Name: "unique-leader", Verdict: checker.Pass},
			{Name: "agreement", Verdict: checker.Fail, Detail: tr.Detail, Counterexample: tr},
		},
		Stats:    checker.Stats{States: 12, Transitions: 20, Depth: 3},
		Messages: []checker.MessageRange{{Kind: "total", Min: 1, Max: 2}},
		Rounds:   &checker.Rounds{Min: 1, Max: 2},
	}
	var b bytes.Buffer
	require.NoError(t, report.Write(&b, report.Page{Title: "toy [crash]", Run: "n=2", Result: res, Text: "the text <report>"}))
	page := b.String()

	require.NotRegexp(t, `(src|href)=`, page, "nothing is loaded from elsewhere")
	require.Equal(t, 1, strings.Count(page, "<svg "))
	require.Contains(t, page, `<tr class="fail"><td>agreement</td><td>fail</td><td>n0 believes &lt;n0&gt;, n1 is gone</td></tr>`)
	require.Contains(t, page, `<tr class="pass"><td>unique-leader</td><td>pass</td><td></td></tr>`)
	require.Contains(t, page, "messages per complete run: total 1..2")
	require.Contains(t, page, "time of a complete run, in asynchronous rounds: rounds 1..2")
	require.Contains(t, page, "the text &lt;report&gt;")
	require.Contains(t, page, `max="3" value="3"`, "the slider starts at the violation")

	runs := data(t, page)
	require.Len(t, runs, 1)
	require.Equal(t, []step{
		{"start-up: every node has run its start-up handler and sent 1 message", []cell{{"idle", true, false}, {"idle", true, false}}},
		{"1. n0 → n1  hello", []cell{{"idle", true, false}, {"greeted", true, true}}},
		{"2. n1  crash", []cell{{"idle", true, false}, {"greeted", false, true}}},
		{"3. n0  timeout t; n0 observed leader=n0", []cell{{"leader", true, true}, {"greeted", false, false}}},
	}, runs[0])

	// a page with nothing to draw still reports the verdicts
	b.Reset()
	res.Properties, res.Verdict = res.Properties[:1], checker.Pass
	require.NoError(t, report.Write(&b, report.Page{Title: "toy", Result: res}))
	require.NotContains(t, b.String(), "<svg ")
	require.Empty(t, data(t, b.String()))
	require.Contains(t, b.String(), `verdict: <b>pass</b>`)
}
