package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Exhaustive search beyond this many nodes is hopeless; say so up front.
const (
	maxExhaustiveN = 24
	// An exhaustive check of a mutex protocol times this many random runs
	// of at most figureDepth steps for its evaluation figures.
	figureWalks, figureDepth = 500, 1000
)

type checkFlags struct {
	all                                bool
	scenario                           string
	n, crashes, recoveries, partitions int
	losses, duplicates, traitors       int
	protoParams                        map[string]string // -NAME VALUE for declared parameters, parsed once the protocol is known
	reduce                             string
	fairness                           string
	sweep                              bool
	rounds                             bool
	scheduler                          string
	window                             int
	first                              bool
	witness                            bool // print each sometimes-property's witness run
	timing, channels, topology         string
	ranks, initiators                  string
	mode                               string
	depth                              int
	hotBound                           int
	maxStates                          int64
	timeLimit, shrinkTime, probe       time.Duration
	memoryMB                           uint64
	walks, workers                     int
	seed                               uint64
	props                              string
	json                               bool
	format                             string // text, json or mermaid
	html                               string
	port                               int // vigil explore
	trace                              string
	linHTML                            string
	shard                              string
	set                                map[string]bool
	real                               realFlags // vigil run and vigil node
}

func parseCheck(r *suite.Registry, cmd string, args []string, stderr io.Writer) (*checkFlags, string, error) {
	f := &checkFlags{protoParams: map[string]string{}}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line; -h prints the flags
	if cmd == "explore" {
		fs.IntVar(&f.port, "port", 0, "the port to serve on, on 127.0.0.1 (0: any free port)")
	}
	if cmd == "run" || cmd == "node" {
		f.real.register(cmd, fs)
	}
	fs.BoolVar(&f.all, "all", false, "check every scenario of every protocol (or of the one named) and compare with the expected verdicts")
	fs.StringVar(&f.scenario, "scenario", "", "start from this named scenario (default: the protocol's first)")
	fs.IntVar(&f.n, "n", 0, "number of nodes")
	fs.IntVar(&f.crashes, "crashes", 0, "crash events allowed per run")
	fs.IntVar(&f.recoveries, "recoveries", 0, "recoveries allowed per run")
	fs.IntVar(&f.partitions, "partitions", 0, fmt.Sprintf("network partitions allowed per run (0..%d); a split network may heal at any time", model.MaxPartitions))
	fs.IntVar(&f.losses, "losses", 0, fmt.Sprintf("messages in flight that may be lost per run (0..%d); under FIFO any message of a channel", model.MaxMessageFaults))
	fs.IntVar(&f.duplicates, "duplicates", 0, fmt.Sprintf("messages in flight that may be duplicated per run (0..%d)", model.MaxMessageFaults))
	fs.IntVar(&f.traitors, "traitors", 0, "nodes that may turn traitor per run (0..n-1): each message a traitor sends is chosen among those its protocol's Forge lists")
	for _, prm := range declaredParams(r) {
		// no clash with vigil's flags: Register refuses such names
		// (suite.ReservedParamNames)
		fs.Func(prm.name, prm.usage, func(v string) error {
			f.protoParams[prm.name] = v
			return nil
		})
	}
	fs.StringVar(&f.fairness, "fairness", "weak", "exhaustive: runs that count against eventually-properties: weak, strong or none")
	fs.StringVar(&f.reduce, "reduce", "all", "exhaustive: the reductions to apply where they are sound: all (symmetry, where the protocol declares interchangeable nodes; partial order, where FIFO channels and untimed steps allow) or none")
	fs.BoolVar(&f.sweep, "sweep", false, "exhaustive: keep two levels of the search in memory, not every state; for runs that all end")
	fs.StringVar(&f.scheduler, "scheduler", "uniform", "random: how walks choose events: uniform, pct:D (PCT with bug depth D) or swarm (each walk leaves out some kinds of events)")
	fs.BoolVar(&f.rounds, "rounds", false, "measure the time of complete runs in asynchronous rounds (exhaustive: by a second search whose worlds carry causal clocks)")
	fs.IntVar(&f.window, "window", 0, "with -sweep: levels of visited states kept, so that a state met again within them is not expanded again")
	fs.Func("param", "a protocol parameter name=value, e.g. pool-min=2 (repeatable; vigil list shows each protocol's)", func(v string) error {
		name, val, ok := strings.Cut(v, "=")
		if !ok || name == "" || val == "" {
			return fmt.Errorf("want name=value, not %q", v)
		}
		f.protoParams[name] = val
		return nil
	})
	fs.StringVar(&f.timing, "timing", "", "sync (perfect failure detector) or async (timers fire any time)")
	fs.StringVar(&f.channels, "channels", "", "fifo, unordered or set")
	fs.StringVar(&f.topology, "topology", "", "the network's graph: complete, ring, uniring, line, star, tree, grid:RxC, random:SEED[:P] or edges:I-J,...; a node sends only to its neighbours")
	fs.StringVar(&f.ranks, "ranks", "", "sorted, reverse, random:SEED or a comma-separated list")
	fs.StringVar(&f.initiators, "initiators", "", "all, or a comma-separated list of node ids")
	fs.StringVar(&f.mode, "mode", "auto", fmt.Sprintf("exhaustive, random, or auto (below n = %d: a random probe, an exhaustive search within %v or 3/4 of -time, random walks if a bound cut it; from n = %[1]d: random)", checker.AutoWalksN, checker.DefaultBudget))
	fs.IntVar(&f.depth, "depth", 0, "exhaustive: depth bound; random: steps per walk; auto: both (0: default)")
	fs.IntVar(&f.hotBound, "hot-bound", 0, "random: steps an eventually-property's obligation may stay outstanding on a walk before the walk is reported as a possible livelock (default: 20000, or 200·n² above n = 10; 0: off)")
	fs.Int64Var(&f.maxStates, "max-states", 0, "stop an exhaustive search after this many states (0: no bound)")
	fs.DurationVar(&f.timeLimit, "time", 0, "stop after this long, e.g. 30s (0: no bound); in auto mode, the whole search's bound")
	fs.Uint64Var(&f.memoryMB, "memory", 0, "stop a search when the heap exceeds this many MiB (0: half of the least limit on memory, at most 16 GiB)")
	fs.IntVar(&f.walks, "walks", 1000, "random: number of walks")
	fs.DurationVar(&f.probe, "probe", 0, fmt.Sprintf("auto: the time of the random probe before the exhaustive search; it also stops after %d walks (0: %v)", checker.ProbeWalks, checker.DefaultProbe))
	fs.DurationVar(&f.shrinkTime, "shrink-time", 0, "random: time spent shortening each counterexample; one cut short says so (0: 2s)")
	fs.Uint64Var(&f.seed, "seed", 1, "random: seed of the first walk (walk i uses seed+i)")
	fs.IntVar(&f.workers, "workers", 0, "parallel workers (0: one per core)")
	fs.StringVar(&f.props, "props", "", "comma-separated properties to check (default: those the protocol claims), or none: explore the protocol's states alone, with no monitor in them")
	fs.BoolVar(&f.first, "first", false, "stop at the first violation of any property; the others are then unknown")
	fs.BoolVar(&f.witness, "witness", false, "print the run that reaches the goal of each sometimes-property that passed, as counterexamples are printed")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON (as -format json)")
	fs.StringVar(&f.format, "format", "text", "how to print the result: text, json, or mermaid (the first counterexample as a Mermaid sequence diagram)")
	fs.StringVar(&f.trace, "trace", "", "write the first counterexample to this file, for vigil replay")
	fs.StringVar(&f.html, "html", "", "write the result as a self-contained HTML report to this file: verdicts, figures, and each counterexample as a chart with a step slider")
	fs.StringVar(&f.linHTML, "linearizability-html", "", "random: write porcupine's visualization of the first non-linearizable client history to this file")
	fs.StringVar(&f.shard, "shard", "", "random: run shard I/K of the search alone (the walks whose index is I mod K) and print its part as JSON, for vigil merge")
	var protocol string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		protocol, args = args[0], args[1:]
	}
	usage := "vigil check PROTOCOL [flags] | vigil check --all [PROTOCOL] [-json]"
	switch cmd {
	case "explore":
		usage = "vigil explore PROTOCOL [-port N] [the flags of vigil check]"
	case "run":
		usage = "vigil run PROTOCOL [-for D] [-log DIR] [-tick D] [-chaos delay=LO-HI,partition=LO-HI,restart=LO-HI] [the flags of vigil check]"
	case "node":
		usage = "vigil node (PROTOCOL [the flags of vigil check] | -run run.json) -id I -peers HOST:PORT,... -log FILE [-links HOST:PORT,...] [-runner HOST:PORT] [-tick D]"
	case "validate":
		usage = validateUsage + "\n  (the flags give the run when DIR holds no run.json, as they give vigil check's)"
	}
	if err := parseFlags(fs, args, usage, stderr); err != nil {
		return nil, "", err
	}
	if fs.NArg() > 0 && protocol == "" {
		// vigil check --all bully -json: the flags after the name count too
		protocol = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return nil, "", usageError{err}
		}
	}
	if fs.NArg() > 0 {
		return nil, "", badInput("unexpected argument %q", fs.Arg(0))
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if err := f.checkCounts(); err != nil {
		return nil, "", err
	}
	switch {
	case f.json && f.set["format"] && f.format != "json":
		return nil, "", badInput("-json and -format %s ask for two formats", f.format)
	case f.json:
		f.format = "json"
	case f.format == "json":
		f.json = true
	case f.format != "text" && f.format != "mermaid":
		return nil, "", badInput("-format takes text, json or mermaid, not %q", f.format)
	}
	return f, protocol, nil
}

// checkCounts refuses counts, bounds and durations that cannot be meant,
// in the words of the flags (the engines refuse them too, in the words of
// their options).
func (f *checkFlags) checkCounts() error {
	for _, c := range []struct {
		flag     string
		negative bool
		v        any
	}{
		// (the fault budgets are the configuration's, which says their range)
		{"depth", f.depth < 0, f.depth}, {"hot-bound", f.hotBound < 0, f.hotBound},
		{"max-states", f.maxStates < 0, f.maxStates}, {"window", f.window < 0, f.window},
		{"workers", f.workers < 0, f.workers}, {"time", f.timeLimit < 0, f.timeLimit},
		{"shrink-time", f.shrinkTime < 0, f.shrinkTime}, {"probe", f.probe < 0, f.probe},
	} {
		if c.negative {
			return badInput("-%s must not be negative, not %v", c.flag, c.v)
		}
	}
	if f.walks < 1 {
		return badInput("-walks must be at least 1, not %d", f.walks)
	}
	return nil
}

func check(r *suite.Registry, args []string, stdout, stderr io.Writer) error {
	f, name, err := parseCheck(r, "check", args, stderr)
	if err != nil {
		return err
	}
	if f.all {
		if f.shard != "" {
			return badInput("-shard runs a part of one protocol's random search; give a protocol, not --all")
		}
		if f.first {
			// --all compares every verdict with the expected one, and a
			// search stopped at its first violation leaves some unknown.
			return badInput("-first leaves verdicts unknown, and --all compares every verdict with the one expected: give one or the other")
		}
		ctx, stopped := interruptible(context.Background(), stderr)
		err := checkAll(ctx, r, name, stdout, stderr, f)
		if sig := stopped(); sig != nil {
			return sig
		}
		return err
	}
	if name == "" {
		return badInput("check needs a protocol name; vigil list shows them")
	}
	outs, err := openCheckOutputs(f)
	if err != nil {
		return err
	}
	defer outs.close()
	ctx, stopped := interruptible(context.Background(), stderr)
	c, err := search(ctx, r, name, f, stderr)
	sig := stopped()
	if err != nil {
		return err
	}
	if c.res.Shard != nil {
		if sig != nil {
			// a shard cut short would merge as a shorter search
			return sig
		}
		return printShard(stdout, c.p, c.sc.Name, c.cfg, c.props, c.res.Shard)
	}
	err = present(stdout, c.p, c.sc.Name, c.cfg, c.props, c.res, f)
	outs.write(stderr, c)
	if sig != nil {
		return sig // the shell's code for the signal, whatever was found so far
	}
	return err
}

// progressTo prints a search's progress on w, a line at a time.
func progressTo(w io.Writer) func(checker.Progress) {
	return func(p checker.Progress) { fmt.Fprintln(w, p) }
}

// announce prints each property's first violation on w as the search
// finds it (once, though a search may meet it again in a later pass), so
// that nobody waits for the end of a long search to learn that a property
// fails.
func announce(w io.Writer, mode checker.Mode) func(checker.FirstViolation) {
	told := map[string]bool{}
	return func(v checker.FirstViolation) {
		if told[v.Property] {
			return
		}
		told[v.Property] = true
		run := fmt.Sprintf("at depth %d", v.Depth)
		if mode == checker.ModeRandom || v.Part == "probe" || v.Part == "walks" {
			run = fmt.Sprintf("on a walk shrunk to %d step%s", v.Depth, map[bool]string{true: "s"}[v.Depth != 1])
		}
		rest := "the search goes on for the other properties, and its counterexample is printed at the end"
		switch v.Part {
		case "probe":
			rest = "the exhaustive search goes on for the other properties and for a shortest run of this one, printed at the end"
		case "walks":
			rest = "the walks go on for the other properties, and its counterexample is printed at the end"
		}
		fmt.Fprintf(w, "vigil: %s fails %s: %s; %s (Ctrl-C stops here and prints it)\n", v.Property, run, v.Detail, rest)
	}
}

// searched is a check's search and what it was run on.
type searched struct {
	p     *suite.Protocol
	sc    suite.Scenario
	cfg   model.Config
	props []*properties.Property
	m     *checker.Machine
	res   *checker.Result
}

// search runs the search that f asks for on the protocol of that name,
// reporting progress on stderr unless the output is JSON.
func search(ctx context.Context, r *suite.Registry, name string, f *checkFlags, stderr io.Writer) (*searched, error) {
	p, err := r.Lookup(name)
	if err != nil {
		return nil, usageError{err}
	}
	sc, err := f.scenarioFor(p)
	if err != nil {
		return nil, err
	}
	cfg, err := sc.Config()
	if err != nil {
		return nil, usageError{err}
	}
	props, err := p.Props(cfg, sc.Props)
	if err != nil {
		return nil, usageError{err}
	}
	mode := checker.Mode(f.mode)
	if mode == checker.ModeAuto && cfg.N >= checker.AutoWalksN {
		mode = checker.ModeRandom // (see checker.Auto)
	}
	if err := f.checkModeFlags(mode, sc, cfg); err != nil {
		return nil, err
	}
	m, err := p.Compile(cfg, props)
	if err != nil {
		return nil, usageError{err}
	}
	eo, err := f.exhaustiveOptions(sc)
	if err != nil {
		return nil, err
	}
	ro, err := f.randomOptions(p, cfg)
	if err != nil {
		return nil, err
	}
	if mode != checker.ModeRandom {
		if err := checker.CheckExhaustiveFits(eo); err != nil {
			return nil, badInput("%v", err)
		}
	}
	if mode != checker.ModeExhaustive {
		if err := checker.CheckRandomFits(m, ro); err != nil {
			return nil, badInput("%v", err)
		}
	}
	if !f.json && f.shard == "" {
		eo.Progress, ro.Progress = progressTo(stderr), progressTo(stderr)
		eo.OnViolation = announce(stderr, mode)
		ro.OnViolation = eo.OnViolation
	}
	var res *checker.Result
	switch mode {
	case checker.ModeExhaustive:
		res = checker.Exhaustive(ctx, m, eo)
	case checker.ModeRandom:
		restore := walkGC()
		res = checker.Random(ctx, m, ro)
		restore()
	case checker.ModeAuto:
		res = autoSearch(ctx, m, f, eo, ro, stderr)
	}
	if p.EntryFigures && res.Mode == checker.ModeExhaustive && res.Cut == checker.CutNone {
		// the figures are timed runs: sample them (the properties are
		// judged already)
		figures, err := m.WithProperties()
		if err != nil {
			return nil, err
		}
		sample := checker.Random(ctx, figures, checker.RandomOptions{Walks: figureWalks, Seed: f.seed,
			MaxDepth: figureDepth, Workers: f.workers, EntryFigures: true})
		res.Entry = sample.Entry
	}
	return &searched{p: p, sc: sc, cfg: cfg, props: props, m: m, res: res}, nil
}

// walkGC sets the collector for random walks, which make short-lived
// garbage over a small live heap: the heap may grow to five times its
// live data between collections (GOGC=400) rather than twice, unless the
// GOGC variable says otherwise. At the default a quarter of a walk's time
// went to the collector. It returns the function that restores the
// setting.
func walkGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(WalkGCPercent)
	return func() { debug.SetGCPercent(prev) }
}

// WalkGCPercent is the GOGC the command runs random walks with (see walkGC).
const WalkGCPercent = 400

// scenarioFor starts from the named (or first) scenario and applies the
// flags the user set.
func (f *checkFlags) scenarioFor(p *suite.Protocol) (suite.Scenario, error) {
	sc, err := p.Scenario(f.scenario)
	if err != nil {
		return sc, usageError{err}
	}
	sc.Params = maps.Clone(sc.Params)
	if sc.Params == nil {
		sc.Params = map[string]int{}
	}
	for _, name := range slices.Sorted(maps.Keys(f.protoParams)) {
		prm := p.Param(name)
		if prm == nil {
			return sc, badInput("%s has no parameter %s (it has: %s)", p.Path(), name, p.ParamNames())
		}
		v, err := prm.Parse(f.protoParams[name])
		if err != nil {
			return sc, usageError{err}
		}
		sc.Params[name] = v
	}
	var bad error
	parse := func(err error) {
		if err != nil && bad == nil {
			bad = usageError{err}
		}
	}
	// the flags that change the run; the scenario's name says so
	overrides := []struct {
		flag  string
		apply func()
	}{
		{"n", func() { sc.N = f.n }},
		{"crashes", func() { sc.Crashes = f.crashes }},
		{"recoveries", func() { sc.Recoveries = f.recoveries }},
		{"partitions", func() { sc.Partitions = f.partitions }},
		{"losses", func() { sc.Losses = f.losses }},
		{"duplicates", func() { sc.Duplicates = f.duplicates }},
		{"traitors", func() { sc.Traitors = f.traitors }},
		{"timing", func() { sc.Timing, sc.Delay, err = model.ParseTimingSpec(f.timing); parse(err) }},
		{"channels", func() { sc.Channels, err = model.ParseChannels(f.channels); parse(err) }},
		{"topology", func() { sc.Topology = f.topology }}, // checked with the rest of the Config, whose N it needs
		{"ranks", func() { sc.Ranks = f.ranks }},
		{"initiators", func() { sc.Initiators = f.initiators }},
		{"depth", func() { sc.MaxDepth = f.depth }},
	}
	changed := len(f.protoParams) > 0
	for _, o := range overrides {
		if f.set[o.flag] {
			o.apply()
			changed = true
		}
	}
	if bad != nil {
		return sc, bad
	}
	if changed {
		sc.Name += " with flags"
	}
	if f.set["props"] {
		if sc.Props, err = suite.ParseProps(f.props); err != nil {
			return sc, usageError{err}
		}
	}
	if sc.N < 1 || sc.N > model.MaxNodes {
		return sc, badInput("n must be between 1 and %d, not %d", model.MaxNodes, sc.N)
	}
	return sc, nil
}

// declared is a parameter flag: one name, whichever protocols declare it.
type declared struct{ name, usage string }

// declaredParams lists the parameters r's protocols declare, each once,
// with the protocols that read it, as flags of vigil check.
func declaredParams(r *suite.Registry) []declared {
	users := map[string][]string{}
	docs := map[string]string{}
	for _, p := range r.All() {
		for _, prm := range p.Params {
			users[prm.Name] = append(users[prm.Name], p.Path())
			if docs[prm.Name] == "" {
				docs[prm.Name] = prm.Doc
				if prm.Values != nil {
					docs[prm.Name] += ": " + strings.Join(prm.Values, ", ")
				}
			}
		}
	}
	var out []declared
	for _, name := range slices.Sorted(maps.Keys(users)) {
		out = append(out, declared{name, fmt.Sprintf("%s (%s)", docs[name], strings.Join(users[name], ", "))})
	}
	return out
}
