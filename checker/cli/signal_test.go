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

var progressLine = regexp.MustCompile(`^vigil: .* (states|walks)`)

// vigilProcess starts vigil with args as a process, and returns it once
// its search has begun (its first progress line), with its output.
func vigilProcess(t *testing.T, args ...string) (cmd *exec.Cmd, stdout *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asVigil+"=1")
	stdout = &bytes.Buffer{}
	cmd.Stdout = stdout
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(pipe)
	t.Cleanup(func() { cmd.Process.Kill() })
	for lines.Scan() && !progressLine.MatchString(lines.Text()) { // it is searching
	}
	go io.Copy(io.Discard, pipe)
	return cmd, stdout
}

// A signal stops a search that would run for minutes: the result so far
// is printed, counterexamples included, and the exit code is the shell's
// for the signal.
func TestSignalPrintsTheResultSoFar(t *testing.T) {
	cases := []struct {
		args []string
		sig  syscall.Signal
		code int
		want []string
	}{
		{[]string{"check", "ricartagrawala", "-n", "5", "-workers", "1"}, syscall.SIGINT, 130,
			[]string{"mutual-exclusion unknown", "search cut by a signal (SIGINT or SIGTERM) after", "verdict: unknown"}},
		{[]string{"check", "ricartagrawala", "-n", "5", "-workers", "1", "-mode", "random", "-walks", "100000000"}, syscall.SIGTERM, 143,
			[]string{"mutual-exclusion unknown", "search cut by a signal (SIGINT or SIGTERM) after", "walks"}},
		// unique-leader fails at once; the rest of the search goes on
		// until the signal, and the counterexample is still shown
		{[]string{"check", "bully", "-n", "4", "-crashes", "1", "-timing", "async", "-workers", "1"}, syscall.SIGINT, 130,
			[]string{"unique-leader    fail", "counterexample to unique-leader", "search cut by a signal"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " ")+" "+signalName(c.sig), func(t *testing.T) {
			cmd, stdout := vigilProcess(t, c.args...)
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
