package suite

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
)

// ParseScenarios reads scenarios written as text (see the package doc) for
// a protocol that declares params, each of which is a flag there as it is
// of vigil check. The first error stops it, named by its line: a line that
// is not NAME: FLAGS where a scenario starts, an unknown flag or field, a
// bad value, a flag or field given twice, a scenario without -n or expect,
// a configuration that is not valid, or a name taken by an earlier
// scenario. The properties named are checked by Protocol.Validate, which
// knows the protocol's.
func ParseScenarios(src string, params []Param) ([]Scenario, error) {
	paras, err := paragraphs(src)
	if err != nil {
		return nil, err
	}
	var out []Scenario
	first := map[string]int{}
	for _, para := range paras {
		s, err := parseScenario(para, params)
		if err != nil {
			return nil, err
		}
		if n, taken := first[s.Name]; taken {
			return nil, fmt.Errorf("line %d: scenario %s is named twice (first on line %d)", para[0].n, s.Name, n)
		}
		first[s.Name] = para[0].n
		out = append(out, s)
	}
	return out, nil
}

// MustAddScenarios appends the scenarios src writes (see ParseScenarios),
// whose flags include p's parameters, to p's, and returns p. It panics
// where src does not parse, as regexp.MustCompile does: it is meant for a
// package-level description whose scenarios are a constant text, embedded
// with go:embed, so that a mistake in them fails every test of the
// package at once.
func (p *Protocol) MustAddScenarios(src string) *Protocol {
	scs, err := ParseScenarios(src, p.Params)
	if err != nil {
		panic(fmt.Sprintf("protocol %s: scenarios: %v", p.Path(), err))
	}
	p.Scenarios = append(p.Scenarios, scs...)
	return p
}

// line is a line of scenario text with its continuation lines folded in,
// and the number of its first line, for errors.
type line struct {
	n    int
	text string
}

// paragraphs splits src into its scenarios' lines: blank lines end a
// scenario, comments are dropped and an indented line is folded into the
// line above it with one space.
func paragraphs(src string) ([][]line, error) {
	var paras [][]line
	var cur []line
	for i, raw := range strings.Split(src, "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		text := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(raw, "#"):
		case text == "":
			if cur != nil {
				paras, cur = append(paras, cur), nil
			}
		case raw[0] == ' ' || raw[0] == '\t':
			if cur == nil {
				return nil, fmt.Errorf("line %d: an indented line continues the line above it, and there is none: a scenario starts unindented", i+1)
			}
			cur[len(cur)-1].text += " " + text
		default:
			cur = append(cur, line{i + 1, text})
		}
	}
	if cur != nil {
		paras = append(paras, cur)
	}
	return paras, nil
}

// parseScenario reads one scenario: its NAME: FLAGS line, then its fields.
func parseScenario(para []line, params []Param) (Scenario, error) {
	head := para[0]
	name, flags, ok := strings.Cut(head.text, ":")
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return Scenario{}, fmt.Errorf("line %d: %q: a scenario starts with NAME: FLAGS, its name and its flags of vigil check", head.n, head.text)
	}
	s := Scenario{Name: name}
	if err := s.setFlags(strings.Fields(flags), params); err != nil {
		return s, fmt.Errorf("line %d: scenario %s: %w", head.n, name, err)
	}
	given := map[string]bool{}
	for _, l := range para[1:] {
		key, value, _ := strings.Cut(l.text, ":")
		value = strings.TrimSpace(value)
		if err := s.setField(key, value, given); err != nil {
			return s, fmt.Errorf("line %d: scenario %s: %w", l.n, name, err)
		}
		given[key] = true
	}
	if !given["expect"] {
		return s, fmt.Errorf("line %d: scenario %s has no expect: line (expect: pass, or expect: fail PROPERTY)", head.n, name)
	}
	if _, err := s.Config(); err != nil {
		return s, fmt.Errorf("line %d: scenario %s: %w", head.n, name, err)
	}
	return s, nil
}

// setField sets the field key of a scenario's text; given holds the fields
// set so far.
func (s *Scenario) setField(key, value string, given map[string]bool) error {
	switch {
	case !slices.Contains([]string{"expect", "also fails", "messages", "why"}, key):
		return fmt.Errorf("%q is no field: want expect:, also fails:, messages: or why:", key)
	case given[key]:
		return fmt.Errorf("%s: is given twice", key)
	case value == "":
		return fmt.Errorf("%s: is empty", key)
	}
	switch key {
	case "expect":
		return s.setExpect(value)
	case "also fails":
		if !given["expect"] || s.Expect != checker.Fail {
			return fmt.Errorf("also fails: follows an expect: fail line")
		}
		s.Violates = strings.Split(value, ",")
		for i, v := range s.Violates {
			s.Violates[i] = strings.TrimSpace(v)
			if s.Violates[i] == "" || strings.ContainsAny(s.Violates[i], " \t") {
				return fmt.Errorf("also fails: %q: want comma-separated property names", value)
			}
		}
	case "messages":
		s.Messages = value
	case "why":
		s.Why = value
	}
	return nil
}

// setExpect reads "pass", or "fail" and the property that must fail.
func (s *Scenario) setExpect(value string) error {
	f := strings.Fields(value)
	switch {
	case len(f) == 1 && f[0] == string(checker.Pass):
		s.Expect = checker.Pass
	case len(f) == 2 && f[0] == string(checker.Fail):
		s.Expect, s.Shows = checker.Fail, f[1]
	default:
		return fmt.Errorf("expect: %q: want pass, or fail and the property that must fail", value)
	}
	return nil
}

// setFlags sets the scenario's configuration from flags of vigil check,
// as -NAME VALUE or -NAME=VALUE (-sweep alone), each at most once.
func (s *Scenario) setFlags(args []string, params []Param) error {
	given := map[string]bool{}
	for i := 0; i < len(args); i++ {
		flag, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-"), "=")
		switch {
		case !strings.HasPrefix(args[i], "-") || flag == "":
			return fmt.Errorf("%q is not a flag: want -NAME VALUE", args[i])
		case flag == "sweep" && hasValue:
			return fmt.Errorf("-sweep takes no value")
		case flag != "sweep" && !hasValue && i+1 == len(args):
			return fmt.Errorf("-%s needs a value", flag)
		case flag != "sweep" && !hasValue:
			i++
			value = args[i]
		}
		name := flag
		if flag == "param" {
			arg := value
			var ok bool
			if name, value, ok = strings.Cut(arg, "="); !ok || name == "" {
				return fmt.Errorf("-param %q: want NAME=VALUE", arg)
			}
		}
		if err := s.setFlag(flag, name, value, params); err != nil {
			return err
		}
		if given[name] {
			return fmt.Errorf("-%s is given twice", name)
		}
		given[name] = true
	}
	if !given["n"] {
		return fmt.Errorf("-n is missing: a scenario says how many nodes it runs")
	}
	return nil
}

// setFlag sets what flag (name, the parameter's name under -param) says.
func (s *Scenario) setFlag(flag, name, value string, params []Param) error {
	counts := map[string]*int{"n": &s.N, "crashes": &s.Crashes, "recoveries": &s.Recoveries,
		"partitions": &s.Partitions, "losses": &s.Losses, "duplicates": &s.Duplicates, "traitors": &s.Traitors,
		"depth": &s.MaxDepth, "window": &s.Window}
	texts := map[string]*string{"topology": &s.Topology, "ranks": &s.Ranks, "initiators": &s.Initiators}
	var err error
	switch {
	case flag == "param":
	case counts[flag] != nil:
		v, err := strconv.Atoi(value)
		if err != nil || v < 0 {
			return fmt.Errorf("-%s takes a number of at least 0, not %q", flag, value)
		}
		*counts[flag] = v
		return nil
	case texts[flag] != nil:
		*texts[flag] = value
		return nil
	case flag == "sweep":
		s.Sweep = true
		return nil
	case flag == "channels":
		s.Channels, err = model.ParseChannels(value)
		return err
	case flag == "timing":
		s.Timing, s.Delay, err = model.ParseTimingSpec(value)
		return err
	case flag == "props":
		s.Props, err = ParseProps(value)
		return err
	}
	i := slices.IndexFunc(params, func(p Param) bool { return p.Name == name })
	if i < 0 {
		return fmt.Errorf("unknown flag -%s: neither a scenario flag of vigil check nor a parameter of the protocol (it has: %s)", name, paramNames(params))
	}
	v, err := params[i].Parse(value)
	if err != nil {
		return err
	}
	if s.Params == nil {
		s.Params = map[string]int{}
	}
	s.Params[name] = v
	return nil
}

// ParseProps reads the value of vigil check's -props, as a scenario's
// Props: comma-separated property names, or none, an empty list (no
// property: the protocol's own states, with no monitor in them).
func ParseProps(value string) ([]string, error) {
	if value == "none" {
		return []string{}, nil
	}
	props := strings.Split(value, ",")
	if slices.Contains(props, "") || slices.Contains(props, "none") {
		return nil, fmt.Errorf("-props %q: want comma-separated property names, or none", value)
	}
	return props, nil
}
