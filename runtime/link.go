package runtime

import (
	"context"
	"io"
	"net"
	"time"
)

// link carries one node's messages to one peer, in the order sent, on one
// connection at a time; under vigil run, through the runner's proxy of the
// link, which delays it and cuts it (see network). A message the peer
// cannot take (it is down, or the link is cut: the dial or the write
// fails, or the connection was closed) is lost, as the model loses a
// message to a crashed node or across a partition; the next one dials
// again. The messages wait in a queue, so that a slow peer never holds up
// the node.
type link struct {
	self int
	addr string
	q    chan queued
}

type queued struct {
	env envelope
	dup bool
}

// linkQueue bounds the messages waiting on one link; more are lost.
const linkQueue = 4096

func newLink(ctx context.Context, self int, addr string) *link {
	l := &link{self: self, addr: addr, q: make(chan queued, linkQueue)}
	go l.carry(ctx)
	return l
}

// send queues env under its fate.
func (l *link) send(env envelope, f fate) {
	if f.drop {
		return
	}
	select {
	case l.q <- queued{env: env, dup: f.dup}:
	default: // the peer takes nothing for so long that its queue filled
	}
}

func (l *link) carry(ctx context.Context) {
	var c *peerConn
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for {
		var q queued
		select {
		case <-ctx.Done():
			return
		case q = <-l.q:
		}
		if c != nil && c.closed() {
			c.Close()
			c = nil
		}
		if c == nil {
			if c = l.dial(ctx); c == nil {
				continue
			}
		}
		copies := 1
		if q.dup {
			copies = 2
		}
		for range copies {
			if writeFrame(c, q.env) != nil {
				c.Close()
				c = nil
				break
			}
		}
	}
}

// peerConn is a connection to a peer, or to a proxy before it. The peer
// never writes on it, so a read returns only when it closes: gone is
// closed then. A write to a connection whose far end has closed succeeds
// once (the kernel takes the bytes; the far end answers with a reset), so
// without this the first message after a peer restarts, or after a proxy
// cut the link and it healed, would be lost where the model loses none.
type peerConn struct {
	net.Conn
	gone chan struct{}
}

func (c *peerConn) closed() bool {
	select {
	case <-c.gone:
		return true
	default:
		return false
	}
}

// dial connects to the peer and says who dials; nil if it cannot.
func (l *link) dial(ctx context.Context) *peerConn {
	d := net.Dialer{Timeout: time.Second}
	nc, err := d.DialContext(ctx, "tcp", l.addr)
	if err != nil {
		return nil
	}
	if writeFrame(nc, hello{From: l.self}) != nil {
		nc.Close()
		return nil
	}
	c := &peerConn{Conn: nc, gone: make(chan struct{})}
	go func() {
		defer close(c.gone)
		io.Copy(io.Discard, nc)
	}()
	return c
}
