package regress

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// A lost or duplicated message is described by its channel and message,
// and a loss under FIFO by its place in the channel; a trace holding them
// reads as such, survives JSON and replays.
func TestMessageFaultTraces(t *testing.T) {
	t.Parallel()
	p, err := protocols.Lookup("basic")
	require.NoError(t, err)
	cfg := model.Config{N: 2, Losses: 1, Duplicates: 1, Initiators: []bool{true, false}, Params: map[string]int{"msgs": 2}}
	m := claimsMachine(t, p, cfg)
	r := m.Start()
	take := func(want string) {
		t.Helper()
		var all []string
		for i, s := range r.Events() {
			if s.String() == want {
				r.Take(i)
				return
			}
			all = append(all, s.String())
		}
		t.Fatalf("%q is not enabled: %q", want, all)
	}
	take("n0  multicast")
	take("n0  multicast")
	// n0 → n1 holds n0#1 then n0#2
	take("duplicate  n0 → n1  msg n0#1")
	take("lose  n0 → n1  msg n0#2 (message 2 of the channel)")
	take("n0 → n1  msg n0#1")
	take("n0 → n1  msg n0#1")
	tr := r.Trace("integrity", "n1 delivered n0#1 twice")
	var out bytes.Buffer
	checker.Render(&out, tr)
	require.Contains(t, out.String(), "   3. duplicate  n0 → n1  msg n0#1\n      (no node changed)\n")
	require.Contains(t, out.String(), "   4. lose  n0 → n1  msg n0#2 (message 2 of the channel)\n")

	b, err := json.Marshal(tr)
	require.NoError(t, err)
	require.Contains(t, string(b), `{"kind":"lose","node":1,"msg":"msg n0#2","pos":1}`)
	var back checker.Trace
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := checker.Replay(m, &back)
	require.NoError(t, err)
	require.Equal(t, "integrity", again.Property)
	require.Equal(t, tr.Events, again.Events)
}
