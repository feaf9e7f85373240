package suite_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// A scenario's asserted message figures are compared with an exhaustive
// search's, kind by kind; a random search's are samples and not judged.
func TestJudgeMessages(t *testing.T) {
	figures := []checker.MessageRange{{Kind: "total", Min: 15, Max: 49}, {Kind: "answer", Min: 3, Max: 15}, {Kind: "token", Min: 25, Max: 25}}
	cases := []struct {
		mode, messages string
		figures        []checker.MessageRange
		want           string
	}{
		{"exhaustive", "", figures, ""},
		{"exhaustive", "token 25", figures, ""},
		{"exhaustive", "total 15..49, answer 3..15", figures, ""},
		{"exhaustive", "token 24", figures, "expected messages token 24, got token 25"},
		{"exhaustive", "total 15..48", figures, "expected messages total 15..48, got total 15..49"},
		{"exhaustive", "elected 6", figures, "expected messages elected 6, and no run sent one"},
		{"exhaustive", "token 25", nil, "expected messages token 25, and no complete run was explored"},
		{"random", "token 24", figures, ""},
		{"stopped", "token 25", figures, "expected messages token 25, and the search stopped early, at its counterexamples"},
	}
	for _, c := range cases {
		sc := suite.Scenario{Name: "s", Expect: checker.Pass, Messages: c.messages}
		r := &checker.Result{Mode: c.mode, Verdict: checker.Pass, Messages: c.figures}
		if c.mode == "stopped" {
			r.Mode, r.Stopped = "exhaustive", true
		}
		require.Equal(t, c.want, suite.Judge(&sc, r), "%s %q", c.mode, c.messages)
	}
}

// Figures are asserted as kind-range pairs.
func TestScenarioMessagesAreChecked(t *testing.T) {
	p := &suite.Protocol{Name: "p", Family: "f", Summary: "s", Source: "w",
		Properties: []*properties.Property{properties.UniqueLeader},
		Compile:    func(model.Config, []*properties.Property) (*checker.Machine, error) { return nil, nil }}
	for _, c := range []struct {
		sc   suite.Scenario
		want string
	}{
		{suite.Scenario{Name: "a", N: 2, Expect: checker.Pass, Messages: "token"}, `Messages: "token" is not a kind and a range`},
		{suite.Scenario{Name: "b", N: 2, Expect: checker.Fail, Shows: "unique-leader", Messages: "token 3, total"}, `Messages: "total" is not a kind and a range`},
	} {
		p.Scenarios = []suite.Scenario{c.sc}
		var r suite.Registry
		err := r.Register(p)
		require.ErrorContains(t, err, c.want)
	}
}
