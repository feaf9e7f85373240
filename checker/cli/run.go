package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/checker/validate"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/runtime"
)

// realRunFlags are vigil run's own flags (see realFlags), and the seed of
// its faults.
var realRunFlags = []string{"for", "log", "tick", "chaos", "seed"}

// realFlags are the flags of vigil run and vigil node beyond vigil check's.
type realFlags struct {
	runFor time.Duration
	log    string
	tick   time.Duration
	chaos  string
	// vigil node
	id     int
	peers  string
	links  string
	report string
	run    string
}

func (rf *realFlags) register(cmd string, fs interface {
	DurationVar(*time.Duration, string, time.Duration, string)
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
}) {
	fs.DurationVar(&rf.tick, "tick", runtime.DefaultTiming.Tick, "the real duration of one model tick: timers wait a few (sync: 10, async: 0.2 to 2)")
	if cmd == "run" {
		fs.DurationVar(&rf.runFor, "for", 8*time.Second, "how long the nodes run")
		fs.StringVar(&rf.log, "log", "", "the directory of the nodes' logs (default: a new one under the system's temporary directory)")
		fs.StringVar(&rf.chaos, "chaos", "", "the ranges of the faults in ticks, comma-separated: delay=LO-HI (a message's delay on its link; default below half a tick, under async timing up to 3) or delay=none, partition=LO-HI (how long a partition lasts; default 5-20), restart=LO-HI (how long a killed node stays down; default 2-10)")
		return
	}
	fs.StringVar(&rf.log, "log", "", "the file of the node's log (tracelog's format); one that holds events is continued, and the node recovers")
	fs.IntVar(&rf.id, "id", -1, "the node's id, 0..n-1")
	fs.StringVar(&rf.peers, "peers", "", "every node's host:port, comma-separated, by id (this node listens at its own)")
	fs.StringVar(&rf.links, "links", "", "the host:port this node dials to reach each peer, comma-separated, by id (its own is not used), when a proxy stands in between (default: -peers)")
	fs.StringVar(&rf.report, "runner", "", "host:port of the runner that watches the run (vigil run sets it)")
	fs.StringVar(&rf.run, "run", "", "a run.json that gives the protocol and its configuration, in place of PROTOCOL and check's flags")
}

// realRun resolves the protocol, configuration and properties of vigil run
// and vigil node.
func realRun(r *suite.Registry, name string, f *checkFlags) (*suite.Protocol, model.Config, []*properties.Property, error) {
	p, err := r.Lookup(name)
	if err != nil {
		return nil, model.Config{}, nil, usageError{err}
	}
	sc, err := f.scenarioFor(p)
	if err != nil {
		return nil, model.Config{}, nil, err
	}
	cfg, err := sc.Config()
	if err != nil {
		return nil, model.Config{}, nil, usageError{err}
	}
	if cfg.Traitors > 0 {
		return nil, model.Config{}, nil, badInput("a real run has no traitors: run %s with -traitors 0", p.Path())
	}
	props, err := p.Props(cfg, sc.Props)
	if err != nil {
		return nil, model.Config{}, nil, usageError{err}
	}
	return p, cfg, props, nil
}

// nodeCmd runs one node: vigil node PROTOCOL [check flags] -id I -peers
// A,B,... -log FILE, or vigil node -run run.json -id I ...
func nodeCmd(r *suite.Registry, args []string, stderr io.Writer) error {
	f, name, err := parseCheck(r, "node", args, stderr)
	if err != nil {
		return err
	}
	rf := f.real
	var p *suite.Protocol
	var cfg model.Config
	switch {
	case rf.run != "" && name != "":
		return badInput("give the protocol either by name or by -run, not both")
	case rf.run != "":
		file, err := validate.ReadRunFile(rf.run)
		if err != nil {
			return usageError{err}
		}
		if p, err = r.Lookup(file.Protocol); err != nil {
			return usageError{err}
		}
		cfg = file.Config
	case name == "":
		return badInput("vigil node needs a protocol, or -run run.json")
	default:
		if p, cfg, _, err = realRun(r, name, f); err != nil {
			return err
		}
	}
	peers := strings.Split(rf.peers, ",")
	switch {
	case rf.peers == "" || len(peers) != cfg.N:
		return badInput("-peers needs %d host:port, one per node, not %q", cfg.N, rf.peers)
	case rf.links != "" && len(strings.Split(rf.links, ",")) != cfg.N:
		return badInput("-links needs %d host:port, one per node, not %q", cfg.N, rf.links)
	case rf.id < 0 || rf.id >= cfg.N:
		return badInput("-id must be in 0..%d, not %d", cfg.N-1, rf.id)
	case rf.log == "":
		return badInput("-log needs the file of the node's log")
	case rf.tick <= 0:
		return badInput("-tick must be positive, not %v", rf.tick)
	}
	m, err := p.Compile(cfg, nil)
	if err != nil {
		return usageError{err}
	}
	var links []string
	if rf.links != "" {
		links = strings.Split(rf.links, ",")
	}
	timing := runtime.DefaultTiming
	timing.Tick = rf.tick
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runtime.RunNode(ctx, runtime.NodeConfig{Machine: m, Self: model.NodeID(rf.id), Peers: peers, Links: links, Log: rf.log,
		Report: rf.report, Timing: timing, Seed: f.seed})
}

// runCmd runs a protocol's nodes as processes on this machine: vigil run
// PROTOCOL [check flags] -for D -log DIR. The run is watched as it goes:
// its records are followed through the model (checker/validate), and the
// run stops at the first property violated or record the model disagrees
// with, which it shows as vigil validate does.
func runCmd(r *suite.Registry, args []string, stdout, stderr io.Writer) error {
	f, name, err := parseCheck(r, "run", args, stderr)
	if err != nil {
		return err
	}
	if name == "" {
		return badInput("vigil run needs a protocol")
	}
	if f.json {
		return badInput("run prints text or mermaid, not json")
	}
	for flag := range f.set {
		param := slices.ContainsFunc(declaredParams(r), func(d declared) bool { return d.name == flag })
		if !slices.Contains(validateFlags, flag) && !slices.Contains(runFlags, flag) && !slices.Contains(realRunFlags, flag) && !param {
			return badInput("-%s is a flag of check's search: it does not apply to run", flag)
		}
	}
	rf := f.real
	if rf.runFor <= 0 || rf.tick <= 0 {
		return badInput("-for and -tick must be positive, not %v and %v", rf.runFor, rf.tick)
	}
	chaos, err := runtime.ParseChaos(rf.chaos)
	if err != nil {
		return badInput("-chaos %s", err)
	}
	p, cfg, props, err := realRun(r, name, f)
	if err != nil {
		return err
	}
	m, err := p.Compile(cfg, nil)
	if err != nil {
		return usageError{err}
	}
	dir := rf.log
	if dir == "" {
		if dir, err = os.MkdirTemp("", "vigil-run-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageError{err}
	}
	var names []string
	for _, q := range props {
		names = append(names, q.Name)
	}
	file := filepath.Join(dir, validate.RunFileName)
	if err := (&validate.RunFile{Protocol: p.Path(), Config: cfg, Properties: names}).Write(file); err != nil {
		return usageError{err}
	}
	watched, err := p.Compile(validate.Widen(cfg), props)
	if err != nil {
		return usageError{err}
	}
	watcher := validate.New(watched, cfg.N)
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	timing := runtime.DefaultTiming
	timing.Tick = rf.tick
	fmt.Fprintf(stderr, "running %s: %d nodes for %v, logs in %s\n", p.Path(), cfg.N, rf.runFor, dir)
	if d := chaos.Delay; d != nil && cfg.Timing != model.Async && d.Hi >= timing.SyncWait {
		fmt.Fprintf(stderr, "  delays up to %v ticks reach the %v ticks a SetTimer timer waits under %s timing: a live node may look crashed, which the model's failure detector does not allow\n", d.Hi, timing.SyncWait, cfg.Timing)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out, err := runtime.Run(ctx, runtime.RunConfig{
		Config: cfg, Recoverable: m.Recoverable(), Dir: dir, For: rf.runFor, Timing: timing, Seed: f.seed, Chaos: chaos, Watch: watcher,
		Say: func(line string) { fmt.Fprintln(stderr, "  "+line) },
		Command: func(i int, peers, links []string, log, report string) *exec.Cmd {
			return exec.Command(exe, "node", "-run", file, "-id", strconv.Itoa(i), "-peers", strings.Join(peers, ","),
				"-links", strings.Join(links, ","), "-log", log, "-runner", report, "-tick", rf.tick.String(), "-seed", strconv.FormatUint(f.seed, 10))
		},
	})
	if err != nil {
		return err
	}
	if out.Stopped != nil && !watcher.Stopped() {
		return usageError{out.Stopped} // a record that is not one
	}
	rep := watcher.Finish()
	head := fmt.Sprintf("%s %s: a run of %v, processes %v; logs in %s", p.Path(), describeConfig(cfg), rf.runFor, out.PIDs, dir)
	if out.Stopped != nil {
		head += "\n  the run was stopped as the watcher found what follows"
	}
	return showValidation(f, p, watched, cfg, props, rep, head, stdout, stderr)
}
