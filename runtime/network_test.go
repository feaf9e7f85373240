package runtime

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// arrival is message k of a link, as its peer read it.
type arrival struct {
	k  int
	at time.Time
}

// receive reads the messages of every connection that comes to ln, as a
// node does, until the test ends.
func receive(t *testing.T, ln net.Listener) <-chan arrival {
	out := make(chan arrival, 1024)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				var h hello
				if readFrame(c, &h) != nil {
					return
				}
				for {
					var env envelope
					if readFrame(c, &env) != nil {
						return
					}
					out <- arrival{env.Stamp.Event, time.Now()}
				}
			}()
		}
	}()
	return out
}

// proxied starts a network between node 0 and node 1, which listens at
// the listener returned, and node 0's link to it, until the test ends.
func proxied(t *testing.T, delay [2]time.Duration) (*network, *link, <-chan arrival) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	nw, err := newNetwork([]string{"127.0.0.1:1", ln.Addr().String()}, delay)
	require.NoError(t, err)
	t.Cleanup(nw.close)
	require.NotEqual(t, ln.Addr().String(), nw.links(0)[1], "node 0 dials the proxy")
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return nw, newLink(ctx, 0, nw.links(0)[1]), receive(t, ln)
}

func next(t *testing.T, in <-chan arrival) arrival {
	t.Helper()
	select {
	case a := <-in:
		return a
	case <-time.After(2 * time.Second):
		require.FailNow(t, "no message came through the proxy")
		return arrival{}
	}
}

// Each message waits at least the least delay on its link, and they
// arrive in the order sent although each draws its own delay, spread far
// wider than the time between two sends.
func TestProxiedLinkDelaysMessagesInOrder(t *testing.T) {
	const lo, hi, count = 20 * time.Millisecond, 60 * time.Millisecond, 40
	_, l, in := proxied(t, [2]time.Duration{lo, hi})
	sent := make([]time.Time, count+1)
	for k := 1; k <= count; k++ {
		sent[k] = time.Now()
		l.send(numbered(k), fate{})
		time.Sleep(time.Millisecond)
	}
	for k := 1; k <= count; k++ {
		a := next(t, in)
		require.Equal(t, k, a.k, "in the order sent")
		require.GreaterOrEqual(t, a.at.Sub(sent[k]), lo, "message %d", k)
	}
}

// The messages sent across a partition are lost; once it heals the link
// carries messages again, and none of those sent across the cut.
func TestProxiedLinkIsCutByAPartitionAndHealed(t *testing.T) {
	nw, l, in := proxied(t, [2]time.Duration{})
	l.send(numbered(1), fate{})
	require.Equal(t, 1, next(t, in).k)

	require.NoError(t, nw.split(func(i, j int) bool { return i != j }))
	for k := 2; k <= 4; k++ {
		l.send(numbered(k), fate{})
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case a := <-in:
		require.FailNow(t, "a message crossed the partition", "message %d", a.k)
	case <-time.After(100 * time.Millisecond):
	}

	require.NoError(t, nw.split(nil))
	l.send(numbered(5), fate{})
	require.Equal(t, 5, next(t, in).k)
	l.send(numbered(6), fate{})
	require.Equal(t, 6, next(t, in).k)
}

func TestLatencyToxicSpansTheDelayInWholeMilliseconds(t *testing.T) {
	for _, c := range []struct {
		delay [2]time.Duration
		want  string
	}{
		{[2]time.Duration{}, ""},
		{[2]time.Duration{0, 10 * time.Millisecond}, `"attributes":{"jitter":5,"latency":5}`},
		{[2]time.Duration{1500 * time.Microsecond, 4900 * time.Microsecond}, `"attributes":{"jitter":1,"latency":3}`},
		{[2]time.Duration{30 * time.Millisecond, 30 * time.Millisecond}, `"attributes":{"jitter":0,"latency":30}`},
	} {
		got, err := latencyToxic(c.delay)
		require.NoError(t, err)
		if c.want == "" {
			require.Empty(t, got)
			continue
		}
		require.Contains(t, got, c.want, "%v", c.delay)
	}
}
