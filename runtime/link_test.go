package runtime

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/tracelog"
)

// numbered is the envelope of message k on a link of node 0 to node 1.
func numbered(k int) envelope {
	return envelope{Stamp: tracelog.Stamp{From: 0, Event: k, Clock: []int{k, 0}}, Msg: []byte(`{"N":1}`)}
}

// acceptFrom takes the next connection of a link of node 0 and reads its
// hello.
func acceptFrom(t *testing.T, ln net.Listener) net.Conn {
	t.Helper()
	ln.(*net.TCPListener).SetDeadline(time.Now().Add(2 * time.Second))
	c, err := ln.Accept()
	require.NoError(t, err)
	var h hello
	require.NoError(t, readFrame(c, &h))
	require.Equal(t, 0, h.From)
	return c
}

// A peer that closed the connection (it restarted, or a proxy cut the link
// and healed it) gets the next message on a new connection: none is lost
// to the old one.
func TestLinkRedialsAConnectionThePeerClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newLink(ctx, 0, ln.Addr().String())

	l.send(numbered(1), fate{})
	c := acceptFrom(t, ln)
	var env envelope
	require.NoError(t, readFrame(c, &env))
	require.Equal(t, 1, env.Stamp.Event)
	c.Close()
	time.Sleep(100 * time.Millisecond) // the close reaches the link

	l.send(numbered(2), fate{})
	c = acceptFrom(t, ln)
	defer c.Close()
	require.NoError(t, readFrame(c, &env))
	require.Equal(t, 2, env.Stamp.Event)
}
