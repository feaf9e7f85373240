package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/tracelog"
)

// Watcher judges a run as its records come in, each node's in order (see
// package checker/validate's Watcher). Watermark tells it that no record
// logged before t is still to come. Once Stopped, it has found a property
// violated or the logs disagreeing with the model, and the run stops; an
// error from Add (a malformed record) stops it too.
type Watcher interface {
	Add(rec tracelog.Logged, file string) error
	Watermark(t time.Time)
	Stopped() bool
}

// watermarkLag is how far behind the clock the runner's watermark runs: a
// record reaches the runner well within it.
const watermarkLag = time.Second

// RunConfig is a run of N node processes on this machine.
type RunConfig struct {
	// Config is the run's configuration: N, timing, and the budgets of
	// faults Run injects (Crashes, Recoveries, Losses, Duplicates,
	// Partitions). Recoverable: the protocol's nodes restart after a
	// crash, so that Run restarts them while Recoveries allows.
	Config      model.Config
	Recoverable bool
	// Command returns the command that runs node i (vigil node ...),
	// listening at peers[i], dialing links[j] to reach node j (the
	// runner's proxy of that link), logging to log and reporting to the
	// runner at report.
	Command func(i int, peers, links []string, log, report string) *exec.Cmd
	// Dir receives the logs, FileName(i) each.
	Dir    string
	For    time.Duration
	Timing Timing
	Seed   uint64
	// Chaos sets the ranges of the delays, of how long partitions last and
	// of how long a killed node stays down.
	Chaos Chaos
	// Watch, if set, judges the run as it happens.
	Watch Watcher
	// Say, if set, is told of each fault injected, as a line.
	Say func(string)
}

// Outcome is what a run did.
type Outcome struct {
	// PIDs: every process that ran node i, in order.
	PIDs [][]int
	// Faults: the faults injected, as lines, in order.
	Faults []string
	// Stopped: why the run stopped early, if the watcher stopped it: a
	// malformed record, or errWatcherStopped (see Watcher.Stopped).
	Stopped error
}

// proc is one node's process under way.
type proc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan struct{} // closed when it exited
	err    error         // its exit, once done
	killed bool          // by the runner
	// reported is closed when the runner has read every record it sent
	reported chan struct{}
}

// runner is a run under way.
type runner struct {
	cfg    RunConfig
	n      int
	peers  []string
	net    *network
	report net.Listener
	rng    *rand.Rand
	out    Outcome

	mu    sync.Mutex
	procs []*proc
	lines []int // records of each node fed to the watcher
	// conns: the runner's end of each node's report connection, by pid,
	// as it comes
	conns   map[int]net.Conn
	connsUp chan struct{} // signalled when a connection comes
	stopped error
	stop    context.CancelFunc
	// quit is closed when the run is over: the readers of reports and
	// the watcher's feed stop
	quit chan struct{}
}

// Run runs cfg.Config.N node processes for cfg.For, injecting faults at
// random times drawn from cfg.Seed within the configuration's budgets:
// a crash is a SIGKILL of the node's process (and a crash record
// appended to its log), a recovery starts it again; a loss or a duplicate
// is one message on one link; a partition cuts the nodes in two groups for
// a while, then heals. The links go through an in-process Toxiproxy (see
// network), which delays them and cuts them across partitions; by default
// its delays are bounded well below the timers' waits under sync timing
// and are not under async timing. cfg.Chaos sets the ranges of the delays,
// of the partitions' lengths and of the nodes' time down. It returns an
// error when the run could not take place as asked: a node that could not
// start or exited on its own, with its error output, or a link that could
// not listen again when a partition healed.
func Run(ctx context.Context, cfg RunConfig) (*Outcome, error) {
	n := cfg.Config.N
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	peers, err := freePorts(n)
	if err != nil {
		return nil, err
	}
	d := cfg.Chaos.delay(cfg)
	nw, err := newNetwork(peers, [2]time.Duration{ticks(d.Lo, cfg.Timing.Tick), ticks(d.Hi, cfg.Timing.Tick)})
	if err != nil {
		return nil, err
	}
	defer nw.close() // once the nodes have stopped (see below)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	r := &runner{cfg: cfg, n: n, peers: peers, net: nw, report: ln, rng: rand.New(rand.NewPCG(cfg.Seed, 0x7275)),
		procs: make([]*proc, n), lines: make([]int, n), conns: map[int]net.Conn{}, connsUp: make(chan struct{}, 1), stop: stop, quit: make(chan struct{})}
	r.out.PIDs = make([][]int, n)
	records := make(chan reported, 256)
	go r.acceptReports(ctx, records)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		r.watch(records)
	}()
	defer func() {
		r.shutdown()
		close(r.quit)
		<-watched
	}()
	for i := range n {
		os.Remove(r.logPath(i))
		if err := r.start(ctx, i); err != nil {
			return nil, err
		}
	}
	if err := r.inject(ctx); err != nil {
		return nil, err
	}
	r.shutdown()
	r.mu.Lock()
	r.out.Stopped = r.stopped
	r.mu.Unlock()
	return &r.out, nil
}

// maxDelay is the bound of the delays on links, in ticks: under sync and
// bounded timing a fraction of a timer's wait; under async timing more than
// its longest waits, so that a live node may be suspected.
func maxDelay(cfg RunConfig) float64 {
	if cfg.Config.Timing == model.Async {
		return 1.5 * cfg.Timing.AsyncWait[1]
	}
	return cfg.Timing.SyncWait / 20
}

func (r *runner) logPath(i int) string { return filepath.Join(r.cfg.Dir, tracelog.FileName(i)) }

// nodePorts is the range of ports the nodes listen on: below the kernel's
// ephemeral ports (from 32768 on Linux), which the runner's proxies and
// every connection take, so that none of them can take a node's port
// between the moment it is chosen and the moment the node binds it, nor
// while a killed node is down.
var nodePorts = [2]int{20000, 32000}

// freePorts finds n ports on 127.0.0.1 that nothing listens on now, drawn
// at random from nodePorts, so that runs side by side seldom draw alike.
func freePorts(n int) ([]string, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	var addrs []string
	for tries := 0; len(addrs) < n; tries++ {
		if tries == 1000 {
			return nil, fmt.Errorf("no free port for %d nodes in %d..%d", n, nodePorts[0], nodePorts[1]-1)
		}
		port := nodePorts[0] + rand.IntN(nodePorts[1]-nodePorts[0])
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		lns = append(lns, ln)
		addrs = append(addrs, ln.Addr().String())
	}
	return addrs, nil
}

// start starts node i's process.
func (r *runner) start(ctx context.Context, i int) error {
	cmd := r.cfg.Command(i, r.peers, r.net.links(i), r.logPath(i), r.report.Addr().String())
	p := &proc{cmd: cmd, done: make(chan struct{}), reported: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = io.Discard, &p.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("n%d does not start: %w", i, err)
	}
	pid := cmd.Process.Pid
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	r.mu.Lock()
	r.procs[i] = p
	r.out.PIDs[i] = append(r.out.PIDs[i], pid)
	r.mu.Unlock()
	// a node is up once it has reported in: until then a control sent
	// to it would be lost
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		_, up := r.conns[pid]
		r.mu.Unlock()
		if up {
			return nil
		}
		select {
		case <-r.connsUp:
		case <-p.done:
			return fmt.Errorf("n%d exited as it started (%v): %s", i, p.err, strings.TrimSpace(p.stderr.String()))
		case <-deadline:
			return fmt.Errorf("n%d did not report to the runner within 10 s", i)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// reported is a record a node reported, or the end of one process's
// reports (end).
type reported struct {
	rec tracelog.Record
	pid int
	end *proc
}

// acceptReports takes the nodes' report connections.
func (r *runner) acceptReports(ctx context.Context, out chan<- reported) {
	go func() { <-ctx.Done(); r.report.Close() }()
	for {
		c, err := r.report.Accept()
		if err != nil {
			return
		}
		go r.readReports(c, out)
	}
}

func (r *runner) readReports(c net.Conn, out chan<- reported) {
	defer c.Close()
	var h hello
	if readFrame(c, &h) != nil || h.From < 0 || h.From >= r.n {
		return
	}
	r.mu.Lock()
	r.conns[h.PID] = c
	p := r.procs[h.From]
	r.mu.Unlock()
	select {
	case r.connsUp <- struct{}{}:
	default:
	}
	defer func() {
		if p != nil && p.cmd.Process.Pid == h.PID {
			close(p.reported)
		}
	}()
	for {
		var rec tracelog.Record
		if readFrame(c, &rec) != nil {
			return
		}
		select {
		case out <- reported{rec: rec, pid: h.PID}:
		case <-r.quit:
			return
		}
	}
}

// watch feeds the watcher, in each node's order, and moves its watermark
// on, until the run is over.
func (r *runner) watch(records <-chan reported) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-r.quit:
			return
		case rep := <-records:
			r.feed(rep.rec)
		case now := <-tick.C:
			r.mu.Lock()
			if r.stopped == nil && r.cfg.Watch != nil {
				r.cfg.Watch.Watermark(now.Add(-watermarkLag))
				r.checkStopped()
			}
			r.mu.Unlock()
		}
	}
}

// checkStopped stops the run once the watcher has stopped; r.mu is held.
func (r *runner) checkStopped() {
	if r.stopped == nil && r.cfg.Watch.Stopped() {
		r.stopped = errWatcherStopped
		r.stop()
	}
}

// errWatcherStopped: the watcher found a violation or a discrepancy.
var errWatcherStopped = errors.New("the watcher stopped the run")

// feed gives the watcher node rec.Node's next record, unless the run has
// stopped; the first error stops the run.
func (r *runner) feed(rec tracelog.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped != nil || r.cfg.Watch == nil {
		return
	}
	i := rec.Node
	if i < 0 || i >= r.n || rec.Clock == nil || len(rec.Clock) != r.n || rec.Clock[i] != r.lines[i]+1 {
		return // already fed from the log (see catchUp), or not a record of this run
	}
	r.lines[i]++
	if err := r.cfg.Watch.Add(tracelog.Logged{Record: rec, Line: r.lines[i]}, r.logPath(i)); err != nil {
		r.stopped = err
		r.stop()
		return
	}
	r.checkStopped()
}

// catchUp feeds the watcher the records of node i's log that its process
// wrote but did not report before it was killed.
func (r *runner) catchUp(i int) error {
	recs, err := tracelog.ReadFile(r.logPath(i), r.n)
	if err != nil {
		return err
	}
	r.mu.Lock()
	from := r.lines[i]
	r.mu.Unlock()
	for _, rec := range recs[min(from, len(recs)):] {
		r.feed(rec.Record)
	}
	return nil
}

// control sends ctl to the nodes of to that are up.
func (r *runner) control(ctl control, to ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, i := range to {
		p := r.procs[i]
		if p == nil || p.killed {
			continue
		}
		if c := r.conns[p.cmd.Process.Pid]; c != nil {
			writeFrame(c, ctl)
		}
	}
}

// a fault is one injection at a time into the run
type fault struct {
	at time.Duration
	do func(ctx context.Context) error
}

// inject runs the faults of the run's budgets at their times, then waits
// out the run.
func (r *runner) inject(ctx context.Context) error {
	c, d := r.cfg.Config, r.cfg.For
	var faults []fault
	at := func(lo, hi float64) time.Duration {
		return time.Duration((lo + r.rng.Float64()*(hi-lo)) * float64(d))
	}
	crashed := map[int]bool{}
	recoveries := c.Recoveries
	for range c.Crashes {
		i := r.rng.IntN(r.n)
		for crashed[i] && len(crashed) < r.n {
			i = r.rng.IntN(r.n)
		}
		crashed[i] = true
		t := at(0.1, 0.5)
		faults = append(faults, fault{t, func(context.Context) error { return r.crash(i) }})
		if r.cfg.Recoverable && recoveries > 0 {
			recoveries--
			down := r.draw(r.cfg.Chaos.restart())
			faults = append(faults, fault{t + ticks(down, r.cfg.Timing.Tick), func(ctx context.Context) error { return r.recover(ctx, i, down) }})
		}
	}
	for range c.Losses {
		i, j := r.link()
		faults = append(faults, fault{at(0.05, 0.8), func(context.Context) error {
			r.say(fmt.Sprintf("the next message from n%d to n%d is lost", i, j))
			r.control(control{Drop: []int{j}}, i)
			return nil
		}})
	}
	for range c.Duplicates {
		i, j := r.link()
		faults = append(faults, fault{at(0.05, 0.8), func(context.Context) error {
			r.say(fmt.Sprintf("the next message from n%d to n%d arrives twice", i, j))
			r.control(control{Dup: []int{j}}, i)
			return nil
		}})
	}
	for range c.Partitions {
		t := at(0.1, 0.6)
		group := r.rng.Perm(r.n)[:1+r.rng.IntN(r.n-1)]
		lasts := r.draw(r.cfg.Chaos.partition())
		faults = append(faults, fault{t, func(context.Context) error { return r.partition(group, lasts) }},
			fault{t + ticks(lasts, r.cfg.Timing.Tick), func(context.Context) error { return r.partition(nil, 0) }})
	}
	sort.SliceStable(faults, func(a, b int) bool { return faults[a].at < faults[b].at })
	start := time.Now()
	for _, f := range append(faults, fault{d, func(context.Context) error { return nil }}) {
		select {
		case <-ctx.Done():
			return nil // the watcher stopped the run, or the caller did
		case <-time.After(time.Until(start.Add(f.at))):
		}
		if err := r.unexpectedExit(); err != nil {
			return err
		}
		if err := f.do(ctx); err != nil {
			return err
		}
	}
	return r.unexpectedExit()
}

// draw draws a number of ticks in rg.
func (r *runner) draw(rg Range) float64 { return rg.Lo + r.rng.Float64()*(rg.Hi-rg.Lo) }

// link draws a link i → j, i ≠ j.
func (r *runner) link() (int, int) {
	i := r.rng.IntN(r.n)
	j := (i + 1 + r.rng.IntN(r.n-1)) % r.n
	return i, j
}

func (r *runner) say(line string) {
	r.out.Faults = append(r.out.Faults, line)
	if r.cfg.Say != nil {
		r.cfg.Say(line)
	}
}

// unexpectedExit is the error of a node that exited without being killed.
func (r *runner) unexpectedExit() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, p := range r.procs {
		if p == nil || p.killed {
			continue
		}
		select {
		case <-p.done:
			return fmt.Errorf("n%d exited on its own (%v): %s", i, p.err, strings.TrimSpace(p.stderr.String()))
		default:
		}
	}
	return nil
}

// crash kills node i's process with SIGKILL and logs its crash, once
// every record it wrote has reached the watcher.
func (r *runner) crash(i int) error {
	r.mu.Lock()
	p := r.procs[i]
	p.killed = true
	r.mu.Unlock()
	pid := p.cmd.Process.Pid
	r.say(fmt.Sprintf("n%d (pid %d) is killed", i, pid))
	p.cmd.Process.Kill()
	<-p.done
	select {
	case <-p.reported:
	case <-time.After(5 * time.Second):
	}
	if err := r.catchUp(i); err != nil {
		return err
	}
	if err := tracelog.AppendCrash(r.logPath(i), r.n, pid); err != nil {
		return err
	}
	return r.catchUp(i)
}

// recover starts node i's process again, down ticks after its crash: it
// recovers from its log.
func (r *runner) recover(ctx context.Context, i int, down float64) error {
	r.say(fmt.Sprintf("n%d restarts after %.1f ticks down", i, down))
	return r.start(ctx, i)
}

// partition cuts group off from the other nodes, in both directions, for
// lasts ticks, or heals (group nil): the proxies of the links across are
// disabled, and enabled again at the heal.
func (r *runner) partition(group []int, lasts float64) error {
	if group == nil {
		r.say("the partition heals")
		if err := r.net.split(nil); err != nil {
			return fmt.Errorf("the partition cannot heal: %w", err)
		}
		return nil
	}
	in := func(i int) bool { return slices.Contains(group, i) }
	var a, b []int
	for i := range r.n {
		if in(i) {
			a = append(a, i)
		} else {
			b = append(b, i)
		}
	}
	r.say(fmt.Sprintf("the network splits into %v and %v for %.1f ticks", a, b, lasts))
	return r.net.split(func(i, j int) bool { return in(i) != in(j) })
}

// shutdown stops every node that runs, with SIGTERM, and waits for them:
// the end of a run is no crash.
func (r *runner) shutdown() {
	r.mu.Lock()
	procs := slices.Clone(r.procs)
	r.mu.Unlock()
	for _, p := range procs {
		if p != nil && !p.killed {
			p.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	for i, p := range procs {
		if p == nil || p.killed {
			continue
		}
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
		}
		select {
		case <-p.reported:
		case <-time.After(5 * time.Second):
		}
		r.catchUp(i)
		r.mu.Lock()
		p.killed = true // gone, not to be signalled again
		r.mu.Unlock()
	}
}
