package cli

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// flagLine is a flag as the flag package prints it under -h.
var flagLine = regexp.MustCompile(`(?m)^  -(\S+)`)

// A protocol parameter is a flag of vigil check and vigil explore, so
// suite refuses the names of their own flags; its list must hold every
// flag they define, as their -h prints them over a registry without
// parameters, or a parameter could take a flag's name again.
func TestEveryCheckFlagIsAReservedParamName(t *testing.T) {
	reserved := suite.ReservedParamNames()
	for _, cmd := range []string{"check", "explore"} {
		var out, errOut bytes.Buffer
		require.Equal(t, 0, Main(&suite.Registry{}, []string{cmd, "-h"}, &out, &errOut))
		var flags []string
		for _, m := range flagLine.FindAllStringSubmatch(errOut.String(), -1) {
			flags = append(flags, m[1])
		}
		require.Greater(t, len(flags), 30, "vigil %s -h lists its flags:\n%s", cmd, errOut.String())
		for _, f := range flags {
			require.Contains(t, reserved, f, "vigil %s -%s is not in suite's reserved parameter names", cmd, f)
		}
	}
}

// A parameter named like one of vigil check's flags is refused when it is
// registered, naming the clash, rather than breaking every check of the
// binary; a parameter of another name is a flag of vigil check.
func TestRegisterRefusesParamsNamedLikeFlags(t *testing.T) {
	described := func(param string) *suite.Protocol {
		return &suite.Protocol{Name: "greeter", Family: "test", Properties: []*properties.Property{properties.UniqueLeader},
			Claims: []string{"unique-leader"}, Params: []suite.Param{{Name: param, Doc: "unused"}},
			Compile:   suite.Compiler("test/greeter", greeter{}, func(model.Config) error { return nil }),
			Scenarios: []suite.Scenario{{Name: "hello", N: 2, Expect: checker.Pass}}}
	}
	for _, name := range []string{"rounds", "seed", "n", "port", "param", "help"} {
		var r suite.Registry
		err := r.Register(described(name))
		require.EqualError(t, err, `protocol test/greeter: parameter "`+name+`" is named like a vigil check flag (-`+name+`); rename it`)
	}
	var r suite.Registry
	require.NoError(t, r.Register(described("greetings")))
	var out, errOut bytes.Buffer
	code := Main(&r, []string{"check", "greeter", "-greetings", "2", "-seed", "3", "-rounds"}, &out, &errOut)
	require.Equal(t, 0, code, out.String()+errOut.String())
	require.Contains(t, out.String(), "params=map[greetings:2]")
}
