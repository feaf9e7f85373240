// Package suite describes protocols to vigil's tools: the properties a
// protocol may be checked for and those it claims, its parameters, and
// named scenarios, each with the verdict it should give. A Registry names
// protocols for a vigil binary (see checker/cli); the test kit
// (checker/checktest) runs their scenarios in go test. vigil's own
// protocols are described the same way (see the protocols package).
//
// Scenarios may be written in Go (Protocol.Scenarios) or as text, read by
// ParseScenarios, usually from a file embedded beside the description
// (Protocol.MustAddScenarios). The text is a paragraph a scenario, with
// blank lines between them; a line that starts with # is a comment, and an
// indented line continues the line above it, folded in with one space.
// A scenario's first line is its name, a colon and the flags of vigil
// check that give its run, from a run that sets none (vigil check -scenario
// NAME runs it; the same flags given alone start from the protocol's first
// scenario, and keep what they do not set):
// -n (required), -channels, -timing, -crashes, -recoveries, -partitions,
// -losses, -duplicates, -topology, -ranks, -initiators, -depth, -props
// (none: an empty list), -sweep, -window, and the protocol's parameters as
// -NAME VALUE or -param NAME=VALUE. The lines after it are fields, each
// at most once: expect: (required) pass, or fail and the property that
// must fail (Shows); also fails: the properties that may fail with it
// (Violates), comma-separated; messages: the message figures (Messages);
// why: what the run shows (Why).
//
//	# the scenarios of vigil check bully -scenario NAME
//
//	async-crash: -n 4 -crashes 1 -timing async -depth 10 -props unique-leader,agreement
//	expect: fail unique-leader
//	also fails: agreement
//	why: with inaccurate timeouts two nodes lead at once
//	  (Vlassov and Montelius)
package suite

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Protocol describes one protocol.
type Protocol struct {
	// Name finds the protocol ("bully"), as does Family/Name
	// ("election/bully"). Family may be empty.
	Name    string
	Family  string
	Summary string // one line, for vigil list
	Source  string // the work it follows: author, title, chapter or lecture
	// Properties lists every property the protocol may be checked for,
	// by name (vigil check -props).
	Properties []*properties.Property
	// Claims names the properties the algorithm claims when every node
	// initiates, checked by default; PartialClaims, if set, replaces them
	// when only some nodes initiate.
	Claims        []string
	PartialClaims []string
	// Params declares the run parameters the protocol reads
	// (model.Env.Param): each is a flag of vigil check.
	Params []Param
	// Compile builds the protocol's Machine for cfg, checking props: see
	// Compiler. It reports a configuration the protocol cannot run, such
	// as a parameter out of range.
	Compile func(cfg model.Config, props []*properties.Property) (*checker.Machine, error)
	// Object, if set, returns the client-visible object built on the
	// protocol under cfg, whose histories random runs check with
	// porcupine, or nil when there is none under cfg.
	Object func(cfg model.Config) *properties.Object
	// EntryFigures: the protocol is a mutual exclusion, whose runs are
	// measured for messages per entry and delays (checker.EntryFigures).
	EntryFigures bool
	// Scenarios: the first is the default; the others show where the
	// algorithm's assumptions matter.
	Scenarios []Scenario
	// Binary, if set, is the command that runs a vigil binary whose
	// registry holds the protocol: "vigil" for vigil's own protocols, "go
	// run example.com/commit/cmd/commit-vigil" for one's own (see
	// checker/cli; a package path runs from any directory of its module).
	// The test kit names it where it says how to replay a trace file; the
	// stock vigil binary knows only its own protocols. A variant made from
	// a copy of the description is in no registry: clear Binary in the
	// copy.
	Binary string
}

// Compiler returns a Protocol.Compile for p, which names its Machines name
// and rejects, with validate (if not nil), a configuration p cannot run:
// validate's error is reported as it is, so it should name the protocol.
func Compiler[S, M any](name string, p model.Protocol[S, M], validate func(cfg model.Config) error) func(model.Config, []*properties.Property) (*checker.Machine, error) {
	return func(cfg model.Config, props []*properties.Property) (*checker.Machine, error) {
		if validate != nil {
			if err := validate(cfg); err != nil {
				return nil, err
			}
		}
		return checker.Compile(name, p, cfg, props...)
	}
}

// Path is the protocol's Family/Name, or Name when it has no family.
func (p *Protocol) Path() string {
	if p.Family == "" {
		return p.Name
	}
	return p.Family + "/" + p.Name
}

// Param is a run parameter a protocol reads (model.Config.Params). vigil
// check sets it with a flag of its name, -NAME VALUE, or with -param
// NAME=VALUE.
type Param struct {
	Name    string
	Doc     string // what it is, for vigil check -h
	Default int    // the value the protocol assumes when the run does not set it
	// Values, if set, names the parameter's values: Values[i] stands for
	// i, and the flag takes the name (-reads ordered).
	Values []string
}

// Parse reads a value of the parameter: an integer, or one of Values.
func (p *Param) Parse(s string) (int, error) {
	if p.Values != nil {
		if i := slices.Index(p.Values, s); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("-%s takes %s, not %q", p.Name, strings.Join(p.Values, ", "), s)
	}
	var v int
	if _, err := fmt.Sscan(s, &v); err != nil || fmt.Sprint(v) != s {
		return 0, fmt.Errorf("-%s takes an integer, not %q", p.Name, s)
	}
	return v, nil
}

// Format is value v of the parameter as a flag takes it.
func (p *Param) Format(v int) string {
	if v >= 0 && v < len(p.Values) {
		return p.Values[v]
	}
	return fmt.Sprint(v)
}

// Param returns the declared parameter of that name, or nil.
func (p *Protocol) Param(name string) *Param {
	for i := range p.Params {
		if p.Params[i].Name == name {
			return &p.Params[i]
		}
	}
	return nil
}

// ClaimsFor returns the names of the properties the algorithm claims
// under cfg.
func (p *Protocol) ClaimsFor(cfg model.Config) []string {
	if p.PartialClaims != nil && cfg.Initiators != nil && slices.Contains(cfg.Initiators, false) {
		return p.PartialClaims
	}
	return p.Claims
}

// Property returns the property of that name, or an error naming those the
// protocol has.
func (p *Protocol) Property(name string) (*properties.Property, error) {
	for _, prop := range p.Properties {
		if prop.Name == name {
			return prop, nil
		}
	}
	return nil, fmt.Errorf("%s has no property %q (it has: %s)", p.Path(), name, strings.Join(p.PropertyNames(), ", "))
}

// PropertyNames lists the names of the protocol's properties, sorted.
func (p *Protocol) PropertyNames() []string {
	var names []string
	for _, prop := range p.Properties {
		names = append(names, prop.Name)
	}
	slices.Sort(names)
	return names
}

// Props resolves property names, in order; nil means the claims under cfg,
// and an empty list no property.
func (p *Protocol) Props(cfg model.Config, names []string) ([]*properties.Property, error) {
	if names == nil {
		names = p.ClaimsFor(cfg)
	}
	var out []*properties.Property
	for _, n := range names {
		prop, err := p.Property(n)
		if err != nil {
			return nil, err
		}
		out = append(out, prop)
	}
	return out, properties.CheckNames(out)
}

// Scenario returns the named scenario ("": the first), or an error naming
// those the protocol has.
func (p *Protocol) Scenario(name string) (Scenario, error) {
	if name == "" && len(p.Scenarios) > 0 {
		return p.Scenarios[0], nil
	}
	var names []string
	for _, s := range p.Scenarios {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Scenario{}, fmt.Errorf("%s has no scenario %q (it has: %s)", p.Path(), name, strings.Join(names, ", "))
}

// Scenario is a named run configuration with the verdict it should give.
type Scenario struct {
	Name string
	Why  string // what the run shows, and the claim of the source it bears on
	N    int
	// Channels, Timing and the fault budgets are those of model.Config.
	Channels   model.Channels
	Timing     model.Timing
	Delay      int // the delay bound under model.Bounded timing
	Crashes    int
	Recoveries int
	Partitions int
	// Topology is the network's graph: see model.ParseTopology ("" is
	// the complete graph).
	Topology   string
	Losses     int
	Duplicates int
	// Traitors: at most this many nodes turn traitor per run (see
	// model.Config.Traitors).
	Traitors int
	// Ranks and Initiators are specifications for N nodes: see
	// model.ParseRanks ("" is sorted) and model.ParseInitiators ("" is
	// all).
	Ranks      string
	Initiators string
	Params     map[string]int // run parameters (see Protocol.Params)
	Props      []string       // the properties to check; nil: the protocol's claims; empty: none, the protocol's own states (vigil check -props none)
	// MaxDepth bounds the search (0: none); needed where runs go on for
	// ever and the state space is not finite.
	MaxDepth int
	// Sweep and Window: see checker.Options.
	Sweep  bool
	Window int
	// Expect is checker.Pass, or checker.Fail when the run shows a
	// counterexample: then Shows names the property that must fail, and
	// Violates those that may fail with it.
	Expect   checker.Verdict
	Shows    string
	Violates []string
	// Messages asserts the message figures of an exhaustive search's
	// complete runs, as vigil prints them: "election 21" or "total 15..49,
	// answer 3..15" (a kind and its range, comma-separated): the source's
	// message count, checked. Where the scenario fails, some property must
	// hold, or the search stops at its counterexamples, short of figures.
	Messages string
}

// Config turns the scenario into a model.Config.
func (s *Scenario) Config() (model.Config, error) {
	cfg := model.Config{N: s.N, Channels: s.Channels, Timing: s.Timing, Delay: s.Delay, Crashes: s.Crashes,
		Recoveries: s.Recoveries, Partitions: s.Partitions, Params: s.Params, Topology: s.Topology}
	cfg.Losses, cfg.Duplicates, cfg.Traitors = s.Losses, s.Duplicates, s.Traitors
	var err error
	if cfg.Ranks, err = model.ParseRanks(s.Ranks, s.N); err != nil {
		return cfg, err
	}
	if cfg.Initiators, err = model.ParseInitiators(s.Initiators, s.N); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// figures splits Messages into its "kind range" parts.
func (s *Scenario) figures() []string {
	if s.Messages == "" {
		return nil
	}
	return strings.Split(s.Messages, ", ")
}

// Compile builds the Machine of scenario s of p, checking the scenario's
// properties (its Props, or p's claims), and returns it with them.
func Compile(p *Protocol, s *Scenario) (*checker.Machine, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	props, err := p.Props(cfg, s.Props)
	if err != nil {
		return nil, err
	}
	return p.Compile(cfg, props)
}

// Exhaustive checks scenario s of p exhaustively: opt with the scenario's
// depth bound and sweep settings.
func Exhaustive(ctx context.Context, p *Protocol, s *Scenario, opt checker.Options) (*checker.Result, error) {
	m, err := Compile(p, s)
	if err != nil {
		return nil, err
	}
	if opt.MaxDepth == 0 {
		opt.MaxDepth = s.MaxDepth
	}
	opt.Sweep = opt.Sweep || s.Sweep
	opt.Window = max(opt.Window, s.Window)
	opt.Messages = opt.Messages || s.Messages != "" // figures the scenario asserts
	return checker.Exhaustive(ctx, m, opt), nil
}

// Judge compares a result with the scenario's expectation and returns ""
// when they agree, else what differs.
func Judge(s *Scenario, r *checker.Result) string {
	switch s.Expect {
	case checker.Pass:
		if r.Verdict != checker.Pass {
			return fmt.Sprintf("expected pass, got %s", Describe(r))
		}
	case checker.Fail:
		if p := r.Property(s.Shows); p == nil || p.Verdict != checker.Fail {
			return fmt.Sprintf("expected a counterexample to %s, got %s", s.Shows, Describe(r))
		}
		for _, f := range r.Failed() {
			if f.Name != s.Shows && !slices.Contains(s.Violates, f.Name) {
				return fmt.Sprintf("%s failed, which the scenario does not expect: %s", f.Name, f.Detail)
			}
		}
	default:
		return fmt.Sprintf("scenario %s expects %q, neither pass nor fail", s.Name, s.Expect)
	}
	if r.Mode != checker.ModeExhaustive {
		return "" // a random search's figures are those of the runs it sampled
	}
	if s.Messages != "" && (r.Stopped || r.StoppedFirst) {
		return fmt.Sprintf("expected messages %s, and the search stopped early, at its counterexamples", s.Messages)
	}
	for _, want := range s.figures() {
		kind := strings.Fields(want)[0]
		i := slices.IndexFunc(r.Messages, func(m checker.MessageRange) bool { return m.Kind == kind })
		switch {
		case r.Messages == nil:
			return fmt.Sprintf("expected messages %s, and no complete run was explored", want)
		case i < 0:
			return fmt.Sprintf("expected messages %s, and no run sent one", want)
		case r.Messages[i].String() != want:
			return fmt.Sprintf("expected messages %s, got %s", want, r.Messages[i])
		}
	}
	return ""
}

// Describe sums a result up in a line: the verdict, each property's, and
// the bound that cut the search, if any.
func Describe(r *checker.Result) string {
	var parts []string
	for _, p := range r.Properties {
		parts = append(parts, p.Name+" "+string(p.Verdict))
	}
	s := string(r.Verdict) + " (" + strings.Join(parts, ", ") + ")"
	if r.Cut != checker.CutNone {
		s += ", search cut by " + string(r.Cut)
	}
	return s
}

// Registry names the protocols a vigil binary knows.
type Registry struct {
	ps []*Protocol
}

// Register adds protocols, after checking that each is complete and
// consistent (see Protocol.Validate), that each has a scenario, its
// default run for vigil check, and that no name is taken.
func (r *Registry) Register(ps ...*Protocol) error {
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return err
		}
		if len(p.Scenarios) == 0 {
			return fmt.Errorf("protocol %s has no scenario: give it at least its default run", p.Path())
		}
		for _, q := range r.ps {
			if q.Path() == p.Path() || q.Name == p.Path() || q.Path() == p.Name {
				return fmt.Errorf("protocol %s registered twice", p.Path())
			}
		}
		r.ps = append(r.ps, p)
	}
	slices.SortStableFunc(r.ps, func(a, b *Protocol) int { return strings.Compare(a.Path(), b.Path()) })
	return nil
}

// MustRegister is Register for package-level registries: it panics on
// an error, and returns r.
func (r *Registry) MustRegister(ps ...*Protocol) *Registry {
	if err := r.Register(ps...); err != nil {
		panic(err)
	}
	return r
}

// All lists the protocols, sorted by path.
func (r *Registry) All() []*Protocol { return slices.Clone(r.ps) }

// Lookup finds a protocol by path ("election/bully") or, when only one
// has it, by name ("bully").
func (r *Registry) Lookup(name string) (*Protocol, error) {
	var found []*Protocol
	for _, p := range r.ps {
		if name == p.Path() {
			return p, nil
		}
		if name == p.Name {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var names []string
		for _, p := range r.ps {
			names = append(names, p.Path())
		}
		return nil, fmt.Errorf("unknown protocol %q (known: %s)", name, strings.Join(names, ", "))
	}
	var paths []string
	for _, p := range found {
		paths = append(paths, p.Path())
	}
	return nil, fmt.Errorf("protocol name %q is ambiguous: say %s", name, strings.Join(paths, " or "))
}
