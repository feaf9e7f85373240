// Package suite runs the shipped protocols' scenarios with the checker and
// judges their verdicts against what the textbook predicts. The command
// line, the examples and the regression tests share it.
//
// Its tests cite the works the protocols follow by the short forms that
// package protocols defines with the full citations: Garcia-Molina, Kesden,
// Anthony, Silberschatz et al., Vlassov and Montelius, and the Leader
// Election notes.
package suite

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// Props resolves property names; nil means p's claims when every node
// initiates (see protocols.Protocol.ClaimsFor). Every property must belong
// to p's family.
func Props(p *protocols.Protocol, names []string) ([]*properties.Property, error) {
	if names == nil {
		names = p.Claims
	}
	var out []*properties.Property
	for _, n := range names {
		prop, err := properties.Lookup(p.Family, n)
		if err != nil {
			return nil, err
		}
		out = append(out, prop)
	}
	return out, nil
}

// Compile builds p's Machine for cfg with the monitors props need.
func Compile(p *protocols.Protocol, cfg model.Config, props []*properties.Property) (*model.Machine, error) {
	return p.Compile(cfg, properties.Monitors(props)...)
}

// Exhaustive checks scenario s of p exhaustively.
func Exhaustive(ctx context.Context, p *protocols.Protocol, s *protocols.Scenario, opt checker.Options) (*checker.Result, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	names := s.Props
	if names == nil {
		names = p.ClaimsFor(cfg)
	}
	props, err := Props(p, names)
	if err != nil {
		return nil, err
	}
	m, err := Compile(p, cfg, props)
	if err != nil {
		return nil, err
	}
	if opt.MaxDepth == 0 {
		opt.MaxDepth = s.MaxDepth
	}
	opt.Sweep = opt.Sweep || s.Sweep
	opt.Window = max(opt.Window, s.Window)
	return checker.Exhaustive(ctx, m, props, opt), nil
}

// Judge compares a result with the scenario's expectation and returns ""
// when they agree, else what differs.
func Judge(s *protocols.Scenario, r *checker.Result) string {
	switch s.Expect {
	case "pass":
		if r.Verdict != checker.Pass {
			return fmt.Sprintf("expected pass, got %s", describe(r))
		}
	case "fail":
		if p := r.Property(s.Shows); p == nil || p.Verdict != checker.Fail {
			return fmt.Sprintf("expected a counterexample to %s, got %s", s.Shows, describe(r))
		}
		for _, f := range r.Failed() {
			if f.Name != s.Shows && !slices.Contains(s.Violates, f.Name) {
				return fmt.Sprintf("%s failed, which the scenario does not expect: %s", f.Name, f.Detail)
			}
		}
	default:
		return fmt.Sprintf("scenario %s expects %q, neither pass nor fail", s.Name, s.Expect)
	}
	return ""
}

func describe(r *checker.Result) string {
	var parts []string
	for _, p := range r.Properties {
		parts = append(parts, p.Name+" "+string(p.Verdict))
	}
	s := string(r.Verdict) + " (" + strings.Join(parts, ", ") + ")"
	if r.Cut != "" {
		s += ", search cut by " + r.Cut
	}
	return s
}
