package checker_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
)

// A result's typed mode, cut and symmetry use show in JSON as the text
// they always had, and read back from it as they were: shards and files
// go through JSON.
func TestResultJSONRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		res  checker.Result
		want map[string]any // the fields as JSON shows them; nil: left out
	}{
		{"no symmetry", checker.Result{Mode: checker.ModeExhaustive},
			map[string]any{"mode": "exhaustive", "cut": nil, "rounds_cut": nil, "reduction": nil}},
		{"symmetry used", checker.Result{Mode: checker.ModeExhaustive, Cut: checker.CutStates,
			Reduction: checker.SymmetryUse{Kind: checker.SymmetryUsed, Detail: "n1 n2 n3 interchangeable"}},
			map[string]any{"mode": "exhaustive", "cut": "states", "reduction": "symmetry: n1 n2 n3 interchangeable"}},
		{"symmetry not used", checker.Result{Mode: checker.ModeExhaustive, Cut: checker.CutMemory, RoundsCut: checker.CutMemory,
			Reduction: checker.SymmetryUse{Kind: checker.SymmetryNotUsed, Detail: "partitions cut the nodes in id order"}},
			map[string]any{"cut": "memory", "rounds_cut": "memory", "reduction": "none: partitions cut the nodes in id order"}},
		{"symmetry not used on cycles", checker.Result{Mode: checker.ModeExhaustive, RoundsCut: checker.CutCycle,
			Reduction: checker.SymmetryUse{Kind: checker.SymmetryNotUsed, Detail: "n1 n2 interchangeable, but runs that never end are judged on every world"}},
			map[string]any{"rounds_cut": "cycle", "reduction": "none: n1 n2 interchangeable, but runs that never end are judged on every world"}},
		{"symmetry declined", checker.Result{Mode: checker.ModeAuto, Cut: checker.CutCanceled,
			Reduction: checker.SymmetryUse{Kind: checker.SymmetryDeclined, Detail: "n1 n2 interchangeable"}},
			map[string]any{"mode": "auto", "cut": "canceled", "reduction": "none, as asked (n1 n2 interchangeable)"}},
		{"random walks", checker.Result{Mode: checker.ModeRandom, Cut: checker.CutTime, RoundsCut: checker.CutFault},
			map[string]any{"mode": "random", "cut": "time", "rounds_cut": "fault", "reduction": nil}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(&c.res)
			require.NoError(t, err)
			var fields map[string]any
			require.NoError(t, json.Unmarshal(b, &fields))
			for k, v := range c.want {
				if v == nil {
					require.NotContains(t, fields, k)
				} else {
					require.Equal(t, v, fields[k], k)
				}
			}
			var back checker.Result
			require.NoError(t, json.Unmarshal(b, &back))
			require.Equal(t, c.res, back)
		})
	}
}

// A reduction whose text is none of the three forms is refused, not read
// as no symmetry.
func TestSymmetryUseUnknownText(t *testing.T) {
	var r checker.Result
	err := json.Unmarshal([]byte(`{"mode":"exhaustive","reduction":"mirror: n1 n2"}`), &r)
	require.ErrorContains(t, err, `reduction "mirror: n1 n2"`)
}
