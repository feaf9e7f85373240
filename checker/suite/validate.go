package suite

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/properties"
)

// reservedParamNames are the flags of vigil check, explore, run and node (see
// checker/cli), and the flag package's -h and -help. A protocol parameter
// is a flag of those commands too, so it must not take one of their
// names: checker/cli tests that every flag it defines is listed here.
var reservedParamNames = []string{
	"all", "channels", "chaos", "crashes", "depth", "duplicates", "fairness", "first", "for", "format", "h", "help",
	"hot-bound", "html", "id", "initiators", "json", "linearizability-html", "links", "log", "losses", "max-states",
	"memory", "mode", "n", "param", "partitions", "peers", "port", "probe", "props", "ranks", "recoveries",
	"reduce", "rounds", "run", "runner", "scenario", "scheduler", "seed", "shard", "shrink-time", "sweep",
	"tick", "time", "timing", "topology", "trace", "traitors", "walks", "window", "witness", "workers",
}

// ReservedParamNames lists the names a protocol parameter cannot take, for
// they are flags of vigil check already, sorted.
func ReservedParamNames() []string { return slices.Clone(reservedParamNames) }

// paramName is what a parameter's name must look like to be a flag.
var paramName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// Validate reports the first thing that makes p unusable by vigil's tools:
// a bad name, a property without a name or a Check or named twice, a claim
// that names no property, a parameter that cannot be a flag of vigil check
// (badly named, declared twice, named like one of its flags, values listed
// twice or a default that names none), or a scenario that cannot run or
// cannot be judged (see ValidateScenario; two scenarios of one name).
// Registry.Register and the test kit (checker/checktest) call it, so a
// description is held to one rule wherever it is used. A protocol may have
// no scenario; a registered one needs its default run (see Register).
func (p *Protocol) Validate() error {
	switch {
	case p.Name == "" || strings.ContainsAny(p.Name, "/ \t\n"):
		return fmt.Errorf("protocol name %q: want a non-empty word without slashes or spaces", p.Name)
	case strings.ContainsAny(p.Family, "/ \t\n"):
		return fmt.Errorf("protocol %s: family %q: want a word without slashes or spaces", p.Name, p.Family)
	case p.Compile == nil:
		return fmt.Errorf("protocol %s has no Compile", p.Path())
	}
	if err := properties.CheckNames(p.Properties); err != nil {
		return fmt.Errorf("protocol %s: %w", p.Path(), err)
	}
	for _, claims := range [][]string{p.Claims, p.PartialClaims} {
		for i, n := range claims {
			if _, err := p.Property(n); err != nil {
				return fmt.Errorf("protocol %s: claim: %w", p.Path(), err)
			}
			if slices.Contains(claims[:i], n) {
				return fmt.Errorf("protocol %s claims %s twice", p.Path(), n)
			}
		}
	}
	if err := p.validateParams(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := range p.Scenarios {
		s := &p.Scenarios[i]
		if s.Name == "" || seen[s.Name] {
			return fmt.Errorf("protocol %s: scenario %q is unnamed or named twice", p.Path(), s.Name)
		}
		seen[s.Name] = true
		if err := p.ValidateScenario(s); err != nil {
			return err
		}
	}
	return nil
}

// validateParams checks that each parameter can be a flag of vigil check.
func (p *Protocol) validateParams() error {
	for i, prm := range p.Params {
		switch {
		case !paramName.MatchString(prm.Name):
			return fmt.Errorf("protocol %s: parameter %q: want a name of letters, digits, '-' and '_' that starts with a letter", p.Path(), prm.Name)
		case slices.Contains(reservedParamNames, prm.Name):
			return fmt.Errorf("protocol %s: parameter %q is named like a vigil check flag (-%s); rename it", p.Path(), prm.Name, prm.Name)
		case slices.ContainsFunc(p.Params[:i], func(q Param) bool { return q.Name == prm.Name }):
			return fmt.Errorf("protocol %s: parameter %q is declared twice", p.Path(), prm.Name)
		}
		for k, v := range prm.Values {
			if v == "" || slices.Contains(prm.Values[:k], v) {
				return fmt.Errorf("protocol %s: parameter %q: value %q is empty or listed twice", p.Path(), prm.Name, v)
			}
		}
		if prm.Values != nil && (prm.Default < 0 || prm.Default >= len(prm.Values)) {
			return fmt.Errorf("protocol %s: parameter %q: default %d names none of its %d values", p.Path(), prm.Name, prm.Default, len(prm.Values))
		}
	}
	return nil
}

// ValidateScenario reports what keeps scenario s of p from running or from
// being judged: a configuration that is not valid, a parameter p does not
// declare or a value out of its range, a property p does not have, an
// expectation that is neither pass nor fail, a property expected to fail
// that the scenario does not check, or message figures that do not parse.
// The errors name the protocol and the scenario.
func (p *Protocol) ValidateScenario(s *Scenario) error {
	err := p.scenarioError(s)
	switch {
	case err == nil:
		return nil
	case s.Name == "":
		return fmt.Errorf("protocol %s: scenario: %w", p.Path(), err)
	}
	return fmt.Errorf("protocol %s, scenario %s: %w", p.Path(), s.Name, err)
}

func (p *Protocol) scenarioError(s *Scenario) error {
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	for name, v := range s.Params {
		prm := p.Param(name)
		switch {
		case prm == nil:
			return fmt.Errorf("sets parameter %q, which the protocol does not declare (it has: %s)", name, p.ParamNames())
		case prm.Values != nil && (v < 0 || v >= len(prm.Values)):
			return fmt.Errorf("sets parameter %q to %d, which names none of its values (%s)", name, v, strings.Join(prm.Values, ", "))
		}
	}
	for _, n := range append(slices.Clone(s.Props), s.Violates...) {
		if _, err := p.Property(n); err != nil {
			return err
		}
	}
	checked := s.Props
	if checked == nil {
		checked = p.ClaimsFor(cfg)
	}
	switch s.Expect {
	case checker.Pass:
		if s.Shows != "" || s.Violates != nil {
			return fmt.Errorf("expects pass, yet names properties that fail")
		}
	case checker.Fail:
		if _, err := p.Property(s.Shows); err != nil {
			return fmt.Errorf("expects fail: Shows: %w", err)
		}
		for _, n := range append([]string{s.Shows}, s.Violates...) {
			if !slices.Contains(checked, n) {
				return fmt.Errorf("expects %s to fail, which it does not check (it checks: %s)", n, strings.Join(checked, ", "))
			}
		}
	default:
		return fmt.Errorf("Expect is %q: want checker.Pass or checker.Fail", s.Expect)
	}
	for _, f := range s.figures() {
		if len(strings.Fields(f)) != 2 {
			return fmt.Errorf("Messages: %q is not a kind and a range, as in \"election 21\"", f)
		}
	}
	return nil
}

// ParamNames lists p's parameters by name, or says it has none ("none"),
// for messages.
func (p *Protocol) ParamNames() string { return paramNames(p.Params) }

// paramNames lists parameters by name, or says there are none ("none").
func paramNames(params []Param) string {
	var names []string
	for _, prm := range params {
		names = append(names, prm.Name)
	}
	if names == nil {
		return "none"
	}
	return strings.Join(names, ", ")
}
