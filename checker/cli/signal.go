package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupted is a check stopped by a signal: its result so far is
// printed, and the exit code is the shell's for that signal, 128+n.
type interrupted struct{ sig syscall.Signal }

func (i interrupted) Error() string { return "stopped by " + signalName(i.sig) }

func signalName(s syscall.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// exitAtOnce ends the process on a second SIGINT (a variable for tests).
var exitAtOnce = os.Exit

// interruptible returns a context that SIGINT and SIGTERM cancel, so that
// a search stops as a bound would stop it and its result so far is
// printed, and a function that stops listening and returns the signal
// that came (nil if none). A second SIGINT, for one who will not wait for
// the result, exits at once with 130.
func interruptible(ctx context.Context, stderr io.Writer) (context.Context, func() error) {
	ctx, cancel := context.WithCancel(ctx)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var (
		mu   sync.Mutex
		got  error
		done = make(chan struct{})
	)
	go func() {
		for {
			select {
			case <-done:
				return
			case s := <-ch:
				sig, _ := s.(syscall.Signal)
				if sig == 0 {
					sig = syscall.SIGINT
				}
				mu.Lock()
				first := got == nil
				if first {
					got = interrupted{sig}
				}
				mu.Unlock()
				if !first {
					if sig == syscall.SIGINT {
						fmt.Fprintln(stderr, "vigil: interrupted again: exiting without a result")
						exitAtOnce(130)
					}
					continue
				}
				fmt.Fprintf(stderr, "vigil: %s: stopping the search; what it found so far follows (Ctrl-C again quits at once)\n", signalName(sig))
				cancel()
			}
		}
	}()
	return ctx, func() error {
		signal.Stop(ch)
		close(done)
		cancel()
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}
