// Command twopc-service runs the two-phase commit service of package
// service on this machine, one goroutine and TCP listener per node, for a
// while, and leaves the nodes' logs and a run.json in a directory, for
// vigil validate to judge with this module's model:
//
//	twopc-service -n 4 -dir DIR -for 2s [-yes-votes 1] [-no-votes 1] [-divergent]
//	go run ./cmd/commit-vigil validate DIR
//
// -yes-votes and -no-votes say which votes the participants may cast, as
// the model's parameters of those names do. -divergent runs a coordinator
// that commits once a majority of the participants voted yes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.com/commit/service"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command with args and returns its exit code: 0 when the run
// went through, 1 when it failed, 2 for bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("twopc-service", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 4, "the number of nodes; node 0 coordinates")
	dir := fs.String("dir", "", "the directory of the logs and run.json (default: a new one under the system's temporary directory)")
	runFor := fs.Duration("for", 2*time.Second, "how long the nodes run")
	yes := fs.Int("yes-votes", 1, "whether a participant may vote yes (0: every vote is no)")
	no := fs.Int("no-votes", 1, "whether a participant may vote no (0: every vote is yes)")
	divergent := fs.Bool("divergent", false, "the coordinator commits once a majority of the participants voted yes")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seeds the participants' votes and delays")
	voteTimeout := fs.Duration("vote-timeout", service.DefaultVoteTimeout, "how long the coordinator waits for a vote before it aborts")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "twopc-service: "+format+"\n", a...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected arguments %q", fs.Args())
	case *n < 1:
		return bad("-n must be at least 1, not %d", *n)
	case *yes != 0 && *yes != 1 || *no != 0 && *no != 1:
		return bad("-yes-votes and -no-votes are 0 or 1, not %d and %d", *yes, *no)
	case *yes == 0 && *no == 0:
		return bad("-yes-votes 0 and -no-votes 0 leave the participants no vote")
	case *runFor <= 0 || *voteTimeout <= 0:
		return bad("-for and -vote-timeout must be positive, not %v and %v", *runFor, *voteTimeout)
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "twopc-service-")
		if err != nil {
			fmt.Fprintln(stderr, "twopc-service:", err)
			return 1
		}
		*dir = d
	}
	opts := service.Options{N: *n, Dir: *dir, YesVotes: *yes == 1, NoVotes: *no == 1, Seed: *seed,
		Divergent: *divergent, VoteTimeout: *voteTimeout}
	if err := service.WriteRunFile(opts); err != nil {
		fmt.Fprintln(stderr, "twopc-service:", err)
		return 1
	}
	c, err := service.Start(opts)
	if err != nil {
		fmt.Fprintln(stderr, "twopc-service:", err)
		return 1
	}
	fmt.Fprintf(stderr, "running two-phase commit: %d nodes for %v (seed %d), logs in %s\n", *n, *runFor, *seed, *dir)
	start := time.Now()
	timer := time.NewTimer(*runFor)
	defer timer.Stop()
	quiet := c.Quiet()
	for waiting := true; waiting; {
		select {
		case <-quiet:
			fmt.Fprintf(stderr, "  the run is over after %v: every node decided\n", time.Since(start).Round(time.Millisecond))
			quiet = nil
		case <-timer.C:
			waiting = false
		case <-ctx.Done():
			waiting = false
		}
	}
	if err := c.Stop(); err != nil {
		fmt.Fprintln(stderr, "twopc-service:", err)
		return 1
	}
	fmt.Fprintf(stdout, "ran two-phase commit: %d nodes for %v; logs in %s\n", *n, time.Since(start).Round(time.Millisecond), *dir)
	return 0
}
