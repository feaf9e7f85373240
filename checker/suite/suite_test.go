package suite_test

import (
	"slices"
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
		r := &checker.Result{Mode: checker.Mode(c.mode), Verdict: checker.Pass, Messages: c.figures}
		if c.mode == "stopped" {
			r.Mode, r.Stopped = checker.ModeExhaustive, true
		}
		require.Equal(t, c.want, suite.Judge(&sc, r), "%s %q", c.mode, c.messages)
	}
}

// Figures are asserted as kind-range pairs.
func TestScenarioMessagesAreChecked(t *testing.T) {
	p := &suite.Protocol{Name: "p", Family: "f", Summary: "s", Source: "w",
		Properties: []*properties.Property{properties.UniqueLeader}, Claims: []string{"unique-leader"},
		Compile: func(model.Config, []*properties.Property) (*checker.Machine, error) { return nil, nil }}
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

// valid is a description that holds together; each case of
// TestValidateRefuses breaks one thing of a copy.
func valid() *suite.Protocol {
	return &suite.Protocol{Name: "p", Family: "f",
		Properties: []*properties.Property{properties.UniqueLeader, properties.Agreement},
		Claims:     []string{"unique-leader"},
		Params:     []suite.Param{{Name: "reads", Values: []string{"none", "local"}}, {Name: "msgs", Default: 2}},
		Compile:    func(model.Config, []*properties.Property) (*checker.Machine, error) { return nil, nil },
		Scenarios: []suite.Scenario{
			{Name: "a", N: 2, Expect: checker.Pass, Params: map[string]int{"reads": 1, "msgs": 3}},
			{Name: "b", N: 2, Props: []string{"agreement", "unique-leader"}, Expect: checker.Fail, Shows: "agreement", Violates: []string{"unique-leader"}},
		}}
}

// Validate refuses what keeps a description from working, each with a
// message that names the protocol, the scenario where there is one, and
// the fault; Register refuses the same, and a protocol without scenarios.
func TestValidateRefuses(t *testing.T) {
	require.NoError(t, valid().Validate())
	cases := []struct {
		name  string
		spoil func(p *suite.Protocol)
		want  string
	}{
		{"a name with a slash", func(p *suite.Protocol) { p.Name = "a/b" }, `protocol name "a/b": want a non-empty word without slashes or spaces`},
		{"a family with a space", func(p *suite.Protocol) { p.Family = "x y" }, `protocol p: family "x y": want a word without slashes or spaces`},
		{"no Compile", func(p *suite.Protocol) { p.Compile = nil }, "protocol f/p has no Compile"},
		{"two properties of one name", func(p *suite.Protocol) {
			p.Properties = append(p.Properties, properties.Agreement)
		}, "protocol f/p: two properties are named agreement"},
		{"a claim naming no property", func(p *suite.Protocol) { p.Claims = []string{"liveness"} },
			`protocol f/p: claim: f/p has no property "liveness" (it has: agreement, unique-leader)`},
		{"a claim made twice", func(p *suite.Protocol) { p.PartialClaims = []string{"agreement", "agreement"} },
			"protocol f/p claims agreement twice"},
		{"a parameter named like -seed", func(p *suite.Protocol) { p.Params[1].Name = "seed" },
			`protocol f/p: parameter "seed" is named like a vigil check flag (-seed); rename it`},
		{"a parameter named like -rounds", func(p *suite.Protocol) { p.Params[1].Name = "rounds" },
			`protocol f/p: parameter "rounds" is named like a vigil check flag (-rounds); rename it`},
		{"a parameter named like -n", func(p *suite.Protocol) { p.Params[1].Name = "n" },
			`protocol f/p: parameter "n" is named like a vigil check flag (-n); rename it`},
		{"a parameter named like -help", func(p *suite.Protocol) { p.Params[1].Name = "help" },
			`protocol f/p: parameter "help" is named like a vigil check flag (-help); rename it`},
		{"a parameter without a name", func(p *suite.Protocol) { p.Params[1].Name = "" },
			`protocol f/p: parameter "": want a name of letters, digits, '-' and '_' that starts with a letter`},
		{"a parameter with an =", func(p *suite.Protocol) { p.Params[1].Name = "a=b" },
			`protocol f/p: parameter "a=b": want a name of letters, digits, '-' and '_' that starts with a letter`},
		{"a parameter declared twice", func(p *suite.Protocol) { p.Params[1].Name = "reads" },
			`protocol f/p: parameter "reads" is declared twice`},
		{"a value listed twice", func(p *suite.Protocol) { p.Params[0].Values = []string{"none", "none"} },
			`protocol f/p: parameter "reads": value "none" is empty or listed twice`},
		{"a default naming no value", func(p *suite.Protocol) { p.Params[0].Default = 2 },
			`protocol f/p: parameter "reads": default 2 names none of its 2 values`},
		{"two scenarios of one name", func(p *suite.Protocol) { p.Scenarios[1].Name = "a" },
			`protocol f/p: scenario "a" is unnamed or named twice`},
		{"a scenario that cannot run", func(p *suite.Protocol) { p.Scenarios[0].Ranks = "1,1" },
			`protocol f/p, scenario a: ranks "1,1": ranks must be distinct`},
		{"a scenario setting an undeclared parameter", func(p *suite.Protocol) { p.Scenarios[0].Params["mgs"] = 1 },
			`protocol f/p, scenario a: sets parameter "mgs", which the protocol does not declare (it has: reads, msgs)`},
		{"a scenario setting a value out of range", func(p *suite.Protocol) { p.Scenarios[0].Params["reads"] = 2 },
			`protocol f/p, scenario a: sets parameter "reads" to 2, which names none of its values (none, local)`},
		{"a scenario checking no such property", func(p *suite.Protocol) { p.Scenarios[1].Props = []string{"agreemnt"} },
			`protocol f/p, scenario b: f/p has no property "agreemnt" (it has: agreement, unique-leader)`},
		{"an expected failure the scenario does not check", func(p *suite.Protocol) { p.Scenarios[1].Props = nil },
			"protocol f/p, scenario b: expects agreement to fail, which it does not check (it checks: unique-leader)"},
		{"a property that may fail and is not checked", func(p *suite.Protocol) {
			p.Scenarios[1].Props, p.Scenarios[1].Violates = []string{"agreement"}, []string{"unique-leader"}
		}, "protocol f/p, scenario b: expects unique-leader to fail, which it does not check (it checks: agreement)"},
		{"a pass that names failures", func(p *suite.Protocol) { p.Scenarios[0].Shows = "agreement" },
			"protocol f/p, scenario a: expects pass, yet names properties that fail"},
		{"no expectation", func(p *suite.Protocol) { p.Scenarios[0].Expect = "" },
			`protocol f/p, scenario a: Expect is "": want checker.Pass or checker.Fail`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := valid()
			c.spoil(p)
			require.EqualError(t, p.Validate(), c.want)
			var r suite.Registry
			require.EqualError(t, r.Register(p), c.want)
			require.Empty(t, r.All())
		})
	}
}

// A protocol without scenarios is fine for the test kit, which is given
// its scenario; a registry needs its default run for vigil check.
func TestRegisterNeedsAScenario(t *testing.T) {
	p := valid()
	p.Scenarios = nil
	require.NoError(t, p.Validate())
	var r suite.Registry
	require.EqualError(t, r.Register(p), "protocol f/p has no scenario: give it at least its default run")
}

// The names a parameter cannot take are vigil check's flags, sorted
// (checker/cli tests that its flags are all among them).
func TestReservedParamNames(t *testing.T) {
	names := suite.ReservedParamNames()
	require.True(t, slices.IsSorted(names), "%v", names)
	require.Subset(t, names, []string{"seed", "rounds", "n", "param", "port", "h", "help"})
	names[0] = "changed"
	require.NotEqual(t, "changed", suite.ReservedParamNames()[0], "a copy")
}
