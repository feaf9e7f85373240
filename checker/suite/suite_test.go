package suite_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// textParams are the parameters of the protocol the texts below describe:
// a count, and one whose values have names.
var textParams = []suite.Param{
	{Name: "msgs", Default: 1},
	{Name: "reads", Values: []string{"none", "local", "ordered"}},
}

// Each text reads as the scenarios written beside it, and they read back
// from what formatScenarios writes of them.
func TestParseScenarios(t *testing.T) {
	cases := []struct {
		name, text string
		want       []suite.Scenario
	}{
		{"empty", "# nothing but a comment\n\n", nil},
		{"least", "a: -n 1\nexpect: pass\n", []suite.Scenario{{Name: "a", N: 1, Expect: checker.Pass}}},
		{"fail with others", "crash: -n 3 -crashes 1\nexpect: fail termination\nalso fails: highest-leader,  live-leader\n",
			[]suite.Scenario{{Name: "crash", N: 3, Crashes: 1, Expect: checker.Fail, Shows: "termination", Violates: []string{"highest-leader", "live-leader"}}}},
		{"every flag", "all: -n 4 -channels unordered -timing bounded:2 -crashes 1 -recoveries 1 -partitions 1 -losses 1 -duplicates 1" +
			" -topology ring -ranks reverse -initiators 0,2 -depth 9 -props unique-leader,agreement -sweep -window 3 -msgs 2 -reads local\nexpect: pass\n",
			[]suite.Scenario{{Name: "all", N: 4, Channels: model.Unordered, Timing: model.Bounded, Delay: 2, Crashes: 1, Recoveries: 1,
				Partitions: 1, Losses: 1, Duplicates: 1, Topology: "ring", Ranks: "reverse", Initiators: "0,2", MaxDepth: 9,
				Props: []string{"unique-leader", "agreement"}, Sweep: true, Window: 3,
				Params: map[string]int{"msgs": 2, "reads": 1}, Expect: checker.Pass}}},
		{"flag forms", "f: --n=2 -timing=async -param msgs=3 -param=reads=ordered -channels fifo\nexpect: pass\n",
			[]suite.Scenario{{Name: "f", N: 2, Timing: model.Async, Params: map[string]int{"msgs": 3, "reads": 2}, Expect: checker.Pass}}},
		{"props none", "own: -n 2 -props none\nexpect: pass\n", []suite.Scenario{{Name: "own", N: 2, Props: []string{}, Expect: checker.Pass}}},
		{"folded", "# the comment\nlong: -n 2\n  -crashes 1\nexpect: pass\n# inside\nmessages: election 6..20,\n\tanswer 3..15\n" +
			"why:\n  \"quoted\" text   \n   folded: with one space\n",
			[]suite.Scenario{{Name: "long", N: 2, Crashes: 1, Expect: checker.Pass, Messages: "election 6..20, answer 3..15",
				Why: `"quoted" text folded: with one space`}}},
		{"two, in order, CRLF", "b: -n 2\r\nexpect: pass\r\n\r\n\r\na: -n 3\r\nwhy: second\r\nexpect: fail agreement\r\n",
			[]suite.Scenario{{Name: "b", N: 2, Expect: checker.Pass}, {Name: "a", N: 3, Expect: checker.Fail, Shows: "agreement", Why: "second"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := suite.ParseScenarios(c.text, textParams)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
			again, err := suite.ParseScenarios(formatScenarios(got, textParams), textParams)
			require.NoError(t, err)
			require.Equal(t, got, again)
		})
	}
}

// Every mistake is named by its line, with what is wrong.
func TestParseScenariosErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"  -n 2\n", "line 1: an indented line continues the line above it, and there is none"},
		{"a: -n 2\nexpect: pass\n\n  why: x\n", "line 4: an indented line continues"},
		{"-n 2\nexpect: pass\n", `line 1: "-n 2": a scenario starts with NAME: FLAGS`},
		{"two words: -n 2\nexpect: pass\n", `line 1: "two words: -n 2": a scenario starts with NAME: FLAGS`},
		{": -n 2\nexpect: pass\n", "line 1: \": -n 2\": a scenario starts"},
		{"a: -crashes 1\nexpect: pass\n", "line 1: scenario a: -n is missing"},
		{"a: n 2\nexpect: pass\n", `line 1: scenario a: "n" is not a flag: want -NAME VALUE`},
		{"a: -n 2 -\nexpect: pass\n", `line 1: scenario a: "-" is not a flag`},
		{"a: -n\nexpect: pass\n", "line 1: scenario a: -n needs a value"},
		{"a: -n two\nexpect: pass\n", `line 1: scenario a: -n takes a number of at least 0, not "two"`},
		{"a: -n 2 -depth -1\nexpect: pass\n", `line 1: scenario a: -depth takes a number of at least 0, not "-1"`},
		{"a: -n 2 -n 3\nexpect: pass\n", "line 1: scenario a: -n is given twice"},
		{"a: -n 2 -msgs 1 -param msgs=2\nexpect: pass\n", "line 1: scenario a: -msgs is given twice"},
		{"a: -n 2 -sweep=true\nexpect: pass\n", "line 1: scenario a: -sweep takes no value"},
		{"a: -n 2 -mode random\nexpect: pass\n", "line 1: scenario a: unknown flag -mode: neither a scenario flag of vigil check nor a parameter of the protocol (it has: msgs, reads)"},
		{"a: -n 2 -param n=3\nexpect: pass\n", "line 1: scenario a: unknown flag -n: neither"},
		{"a: -n 2 -param msgs\nexpect: pass\n", `line 1: scenario a: -param "msgs": want NAME=VALUE`},
		{"a: -n 2 -msgs two\nexpect: pass\n", `line 1: scenario a: -msgs takes an integer, not "two"`},
		{"a: -n 2 -reads all\nexpect: pass\n", `line 1: scenario a: -reads takes none, local, ordered, not "all"`},
		{"a: -n 2 -channels lossy\nexpect: pass\n", `line 1: scenario a: channels must be fifo, unordered or set, not "lossy"`},
		{"a: -n 2 -timing bounded\nexpect: pass\n", "line 1: scenario a: timing bounded needs its delay bound"},
		{"a: -n 2 -props a,,b\nexpect: pass\n", `line 1: scenario a: -props "a,,b": want comma-separated property names, or none`},
		{"a: -n 2 -props a,none\nexpect: pass\n", `-props "a,none": want comma-separated property names, or none`},
		{"a: -n 2\n", "line 1: scenario a has no expect: line (expect: pass, or expect: fail PROPERTY)"},
		{"a: -n 2\nexpect: win\n", `line 2: scenario a: expect: "win": want pass, or fail and the property that must fail`},
		{"a: -n 2\nexpect: fail\n", `line 2: scenario a: expect: "fail": want pass, or fail`},
		{"a: -n 2\nexpect: pass unique-leader\n", `expect: "pass unique-leader": want pass`},
		{"a: -n 2\nexpect: pass\nexpect: pass\n", "line 3: scenario a: expect: is given twice"},
		{"a: -n 2\nexpect: pass\nwhy: x\nwhy: y\n", "line 4: scenario a: why: is given twice"},
		{"a: -n 2\nexpect: pass\nwhy:\n", "line 3: scenario a: why: is empty"},
		{"a: -n 2\nexpect: pass\nmessages:  \n", "line 3: scenario a: messages: is empty"},
		{"a: -n 2\nexpect: pass\nshows: agreement\n", `line 3: scenario a: "shows" is no field: want expect:, also fails:, messages: or why:`},
		{"a: -n 2\nexpect: pass\njust words\n", `line 3: scenario a: "just words" is no field`},
		{"a: -n 2\nexpect: pass\nalso fails: agreement\n", "line 3: scenario a: also fails: follows an expect: fail line"},
		{"a: -n 2\nalso fails: agreement\nexpect: fail termination\n", "line 2: scenario a: also fails: follows an expect: fail line"},
		{"a: -n 2\nexpect: fail termination\nalso fails: agreement,\n", `line 3: scenario a: also fails: "agreement,": want comma-separated property names`},
		{"a: -n 2\nexpect: fail termination\nalso fails: live leader\n", `also fails: "live leader": want comma-separated`},
		{"a: -n 2 -topology grid:3x3\nexpect: pass\n", `line 1: scenario a: topology "grid:3x3": a 3x3 grid has more than 2 nodes`},
		{"a: -n 2 -initiators 5\nexpect: pass\n", "line 1: scenario a: initiator"},
		{"a: -n 1 -partitions 1\nexpect: pass\n", "line 1: scenario a: partitions need at least 2 nodes"},
		{"a: -n 2\nexpect: pass\n\nb: -n 2\nexpect: pass\n\n# again\na: -n 3\nexpect: pass\n", "line 8: scenario a is named twice (first on line 1)"},
	}
	for _, c := range cases {
		_, err := suite.ParseScenarios(c.text, textParams)
		require.ErrorContains(t, err, c.want, "%q", c.text)
		require.NotContains(t, err.Error(), "\n")
	}
}

// A description adds the scenarios of its text to those it has, with its
// parameters as flags, and a text that does not parse panics, naming the
// protocol and the line.
func TestMustAddScenarios(t *testing.T) {
	p := &suite.Protocol{Name: "p", Family: "f", Params: textParams, Scenarios: []suite.Scenario{{Name: "go", N: 2, Expect: checker.Pass}}}
	require.Same(t, p, p.MustAddScenarios("text: -n 3 -reads ordered\nexpect: pass\n"))
	require.Equal(t, []suite.Scenario{{Name: "go", N: 2, Expect: checker.Pass},
		{Name: "text", N: 3, Params: map[string]int{"reads": 2}, Expect: checker.Pass}}, p.Scenarios)
	require.PanicsWithValue(t, "protocol f/p: scenarios: line 2: scenario bad has no expect: line (expect: pass, or expect: fail PROPERTY)",
		func() { p.MustAddScenarios("\nbad: -n 2\n") })
	require.Len(t, p.Scenarios, 2, "a text that does not parse adds nothing")
}

// Scenarios from text are held to the rule of descriptions: the properties
// they name are the protocol's.
func TestParsedScenariosAreValidated(t *testing.T) {
	p := &suite.Protocol{Name: "p", Family: "f", Summary: "s", Source: "w",
		Properties: []*properties.Property{properties.UniqueLeader}, Claims: []string{"unique-leader"},
		Compile: func(model.Config, []*properties.Property) (*checker.Machine, error) { return nil, nil }}
	p.MustAddScenarios("a: -n 2\nexpect: fail agreement\n")
	require.ErrorContains(t, p.Validate(), `protocol f/p, scenario a: expects fail: Shows: f/p has no property "agreement"`)
}

// formatScenarios writes scenarios as ParseScenarios reads them, with the
// flags of the protocol's params, each line folded before 100 columns
// where its words allow.
func formatScenarios(scs []suite.Scenario, params []suite.Param) string {
	var b strings.Builder
	for i, s := range scs {
		if i > 0 {
			b.WriteString("\n")
		}
		writeFolded(&b, s.Name+": "+strings.Join(scenarioFlags(&s, params), " "))
		expect := string(checker.Pass)
		if s.Expect == checker.Fail {
			expect = string(checker.Fail) + " " + s.Shows
		}
		writeFolded(&b, "expect: "+expect)
		if s.Violates != nil {
			writeFolded(&b, "also fails: "+strings.Join(s.Violates, ", "))
		}
		if s.Messages != "" {
			writeFolded(&b, "messages: "+s.Messages)
		}
		if s.Why != "" {
			writeFolded(&b, "why: "+s.Why)
		}
	}
	return b.String()
}

// scenarioFlags are the flags of vigil check that give s's run.
func scenarioFlags(s *suite.Scenario, params []suite.Param) []string {
	flags := []string{"-n", strconv.Itoa(s.N)}
	add := func(flag, value string, set bool) {
		if set {
			flags = append(flags, "-"+flag, value)
		}
	}
	add("channels", s.Channels.String(), s.Channels != model.FIFO)
	timing := s.Timing.String()
	if s.Timing == model.Bounded {
		timing = fmt.Sprintf("bounded:%d", s.Delay)
	}
	add("timing", timing, s.Timing != model.Sync)
	add("topology", s.Topology, s.Topology != "")
	add("ranks", s.Ranks, s.Ranks != "")
	add("initiators", s.Initiators, s.Initiators != "")
	for _, c := range []struct {
		flag  string
		count int
	}{{"crashes", s.Crashes}, {"recoveries", s.Recoveries}, {"partitions", s.Partitions}, {"losses", s.Losses}, {"duplicates", s.Duplicates}} {
		add(c.flag, strconv.Itoa(c.count), c.count != 0)
	}
	for _, p := range params {
		v, set := s.Params[p.Name]
		add(p.Name, p.Format(v), set)
	}
	add("props", "none", s.Props != nil && len(s.Props) == 0)
	add("props", strings.Join(s.Props, ","), len(s.Props) > 0)
	add("depth", strconv.Itoa(s.MaxDepth), s.MaxDepth != 0)
	if s.Sweep {
		flags = append(flags, "-sweep")
	}
	add("window", strconv.Itoa(s.Window), s.Window != 0)
	return flags
}

// writeFolded writes a line of text, folded before 100 columns where a
// single space between two words allows, its continuation lines indented.
func writeFolded(b *strings.Builder, text string) {
	words := strings.Split(text, " ")
	width := 0
	for i, w := range words {
		switch {
		case i == 0:
		case width+1+len(w) > 100 && w != "" && words[i-1] != "":
			b.WriteString("\n  ")
			width = 2
		default:
			b.WriteString(" ")
			width++
		}
		b.WriteString(w)
		width += len(w)
	}
	b.WriteString("\n")
}

// Scenarios that parse read back from what formatScenarios writes of them,
// and an error is one line that names its line.
func FuzzParseScenarios(f *testing.F) {
	f.Add("a: -n 1\nexpect: pass\n")
	f.Add("crash: -n 3 -crashes 1 -msgs 2 -reads local -props none\nexpect: fail termination\nalso fails: agreement\nmessages: total 3..4\nwhy: a b\n  c\n")
	f.Add("# c\nx: --n=4 -timing bounded:3 -topology grid:2x2 -ranks random:7 -initiators 0 -sweep -window 2 -depth 5\n" +
		"expect: pass\nwhy:  two  spaces  \n\ny: -n 2 -param msgs=0\nexpect: fail validity\n")
	f.Fuzz(func(t *testing.T, text string) {
		scs, err := suite.ParseScenarios(text, textParams)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("not one line that names its line: %q", err)
			}
			return
		}
		out := formatScenarios(scs, textParams)
		again, err := suite.ParseScenarios(out, textParams)
		require.NoError(t, err, "%q", out)
		require.Equal(t, scs, again, "%q", out)
	})
}
