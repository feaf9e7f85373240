package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// walksProgress is a progress line of a random search.
var walksProgress = regexp.MustCompile(`^vigil: \d+ of \d+ walks, \d+ steps`)

// vigilProcess starts vigil with args as a process, reporting its
// searches' progress every few milliseconds, and returns it once its
// stderr has a line that underWay matches (the search is under way), with
// its output.
func vigilProcess(t *testing.T, underWay *regexp.Regexp, args ...string) (cmd *exec.Cmd, stdout *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asVigil+"=1", progressEvery+"=10ms")
	stdout = &bytes.Buffer{}
	cmd.Stdout = stdout
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(pipe)
	t.Cleanup(func() { cmd.Process.Kill() })
	under := false
	var before []string // the lines before
	for !under && lines.Scan() {
		under = underWay.MatchString(lines.Text())
		if !under {
			before = append(before, lines.Text())
		}
	}
	require.True(t, under, "vigil %s: no line matches %v: %q", strings.Join(args, " "), underWay, before)
	go io.Copy(io.Discard, pipe)
	return cmd, stdout
}

// A signal stops a search that would run for minutes: the result so far
// is printed, counterexamples included, and the exit code is the shell's
// for the signal. Each search is stopped once it reports its progress, in
// its exhaustive part where it has one.
func TestSignalPrintsTheResultSoFar(t *testing.T) {
	cases := []struct {
		args     []string
		underWay *regexp.Regexp
		sig      syscall.Signal
		code     int
		want     []string
	}{
		{[]string{"check", "ricartagrawala", "-n", "5", "-workers", "1"}, exhaustiveProgress, syscall.SIGINT, 130,
			[]string{"mutual-exclusion unknown", "search cut by a signal (SIGINT or SIGTERM) after", "verdict: unknown"}},
		{[]string{"check", "ricartagrawala", "-n", "5", "-workers", "1", "-mode", "random", "-walks", "100000000"}, walksProgress, syscall.SIGTERM, 143,
			[]string{"mutual-exclusion unknown", "search cut by a signal (SIGINT or SIGTERM) after", "walks"}},
		// unique-leader fails at once; the rest of the search goes on
		// until the signal, and the counterexample is still shown
		{[]string{"check", "bully", "-n", "4", "-crashes", "1", "-timing", "async", "-workers", "1"}, exhaustiveProgress, syscall.SIGINT, 130,
			[]string{"unique-leader    fail", "counterexample to unique-leader", "search cut by a signal"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " ")+" "+signalName(c.sig), func(t *testing.T) {
			cmd, stdout := vigilProcess(t, c.underWay, c.args...)
			require.NoError(t, cmd.Process.Signal(c.sig))
			err := cmd.Wait()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			require.Equal(t, c.code, exit.ExitCode(), stdout.String())
			for _, w := range c.want {
				require.Contains(t, stdout.String(), w)
			}
		})
	}
}

// The first signal cancels the context; a second SIGINT exits at once,
// with 130, for one who will not wait.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	exited := make(chan int, 1)
	exitAtOnce = func(code int) { exited <- code }
	defer func() { exitAtOnce = os.Exit }()
	var stderr syncBuffer
	ctx, stop := interruptible(context.Background(), &stderr)
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("SIGINT did not cancel the search")
	}
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	select {
	case code := <-exited:
		require.Equal(t, 130, code)
	case <-time.After(time.Minute):
		t.Fatal("a second SIGINT did not exit")
	}
	require.Equal(t, interrupted{syscall.SIGINT}, stop())
	require.Contains(t, stderr.String(), "SIGINT: stopping the search")
	require.Contains(t, stderr.String(), "interrupted again")
}

// syncBuffer is a buffer one goroutine writes while another reads.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
