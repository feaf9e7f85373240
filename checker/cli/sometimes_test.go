package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// silent is greeter that elects nobody: n1 takes n0's hello and counts it.
type silent struct{ crashy }

func (silent) Receive(_ *model.Ctx[hello], s int, _ model.NodeID, _ hello) int { return s + 1 }

// withElections is the built-in registry with greeter, whose one run
// elects n0 in one step, and silent, whose runs never elect: each may be
// checked for elected and unique-leader, and claims the latter.
func withElections(t *testing.T) func(args ...string) (int, string, string) {
	r := protocols.Registry()
	hello := []suite.Scenario{{Name: "hello", N: 2, Expect: checker.Pass}}
	props := []*properties.Property{properties.Elected, properties.UniqueLeader}
	require.NoError(t, r.Register(
		&suite.Protocol{Name: "greeter", Family: "test", Properties: props, Claims: []string{"elected", "unique-leader"},
			Compile: suite.Compiler("test/greeter", greeter{}, nil), Scenarios: hello},
		&suite.Protocol{Name: "silent", Family: "test", Properties: props, Claims: []string{"unique-leader"},
			Compile: suite.Compiler("test/silent", silent{}, nil), Scenarios: hello},
	))
	return func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := Main(r, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
}

// A sometimes-property reads as any other in vigil check: pass with
// -witness printing the run that reaches its goal, fail (exit 1) where no
// run can, unknown where walks found none; and a pass whose trigger no run
// reached is warned of, the exit code unchanged.
func TestSometimesFromTheCommandLine(t *testing.T) {
	run := withElections(t)
	cases := []struct {
		name    string
		args    []string
		code    int
		want    []string
		without []string
	}{
		{"pass", []string{"check", "greeter"}, 0,
			[]string{"  elected          pass: n1 is told n0 leads\n", "verdict: pass\n"}, []string{"witness for", "warning"}},
		{"the witness printed", []string{"check", "greeter", "-witness"}, 0,
			[]string{"witness for elected: n1 is told n0 leads\n", "   1. n0 → n1  {Hello:1}\n", "(the goal is reached in the last world)\n", "verdict: pass\n"},
			[]string{"counterexample", "violation"}},
		{"witnesses alone prove", []string{"check", "greeter", "-props", "elected", "-mode", "random", "-walks", "3"}, 0,
			[]string{"verdict: pass\n"}, []string{"not a proof"}},
		{"a witness of walks", []string{"check", "greeter", "-mode", "random", "-walks", "3", "-witness"}, 0,
			[]string{"  elected          pass: n1 is told n0 leads\n", "witness for elected: n1 is told n0 leads\nfound by the random walk of seed "}, nil},
		{"no run reaches it", []string{"check", "silent", "-props", "elected"}, 1,
			[]string{"  elected          fail: no reachable world reaches it (2 states searched)\n", "verdict: fail\n"}, []string{"counterexample"}},
		{"no walk reaches it", []string{"check", "silent", "-props", "elected", "-mode", "random", "-walks", "3"}, 2,
			[]string{"  elected          unknown: no walk reached it (3 walks): a random search is not a proof\n"}, nil},
		{"a pass that may be vacuous", []string{"check", "silent"}, 0,
			[]string{"  unique-leader    pass\nwarning: unique-leader passed, but no run reached elected (some node is told a leader): the pass may be vacuous\n", "verdict: pass\n"},
			[]string{"  elected "}},
		{"vacuous, the trigger asked for", []string{"check", "silent", "-props", "elected,unique-leader"}, 1,
			[]string{"  elected          fail", "warning: unique-leader passed, but no run reached elected"}, nil},
		{"not vacuous", []string{"check", "greeter", "-props", "unique-leader"}, 0, []string{"verdict: pass\n"}, []string{"warning"}},
		{"vacuous among every scenario", []string{"check", "--all", "test/silent"}, 0,
			[]string{"vigil: test/silent [hello]: warning: unique-leader passed, but no run reached elected"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(c.args...)
			out += errOut // (--all tells of each scenario on stderr)
			require.Equal(t, c.code, code, out+errOut)
			for _, w := range c.want {
				require.Contains(t, out, w)
			}
			for _, w := range c.without {
				require.NotContains(t, out, w)
			}
		})
	}
}

// JSON carries each witness and the passes that may be vacuous; Mermaid
// draws the witness where -witness asks for it; a witness written with
// -trace replays to its goal, exit 0.
func TestSometimesOutputs(t *testing.T) {
	run := withElections(t)
	code, out, _ := run("check", "greeter", "-json")
	require.Equal(t, 0, code, out)
	var doc struct {
		Properties []checker.PropertyResult `json:"properties"`
		Vacuous    []checker.Vacuity        `json:"vacuous"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.True(t, doc.Properties[0].Sometimes)
	require.NotNil(t, doc.Properties[0].Witness)
	require.True(t, doc.Properties[0].Witness.Witness)
	require.Len(t, doc.Properties[0].Witness.Events, 1)
	require.Empty(t, doc.Vacuous)

	code, out, _ = run("check", "silent", "-json")
	require.Equal(t, 0, code, out)
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, []checker.Vacuity{{Property: "unique-leader", Trigger: "elected", Doc: "some node is told a leader",
		Detail: "no reachable world reaches it (2 states searched)"}}, doc.Vacuous)

	code, out, _ = run("check", "greeter", "-format", "mermaid")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "no counterexample to draw")
	code, out, _ = run("check", "greeter", "-format", "mermaid", "-witness")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "n0->>n1")

	trace := filepath.Join(t.TempDir(), "witness.json")
	code, out, _ = run("check", "greeter", "-witness", "-trace", trace)
	require.Equal(t, 0, code, out)
	code, out, errOut := run("replay", trace)
	require.Equal(t, 0, code, out+errOut)
	require.Contains(t, out, "witness for elected: n1 is told n0 leads")
}
