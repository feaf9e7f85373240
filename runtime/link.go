package runtime

import (
	"context"
	"net"
	"time"
)

// link carries one node's messages to one peer, in the order sent: each
// waits out its delay behind the one before it, so that a delay never
// reorders a channel. A message the peer cannot take (it is down: the dial
// or the write fails) is lost, as the model loses a message to a crashed
// node; the next one dials again.
type link struct {
	self int
	addr string
	q    chan queued
	last time.Time // when the last message queued leaves
	cut  func() bool
}

type queued struct {
	env envelope
	at  time.Time
	dup bool
}

// linkQueue bounds the messages waiting on one link; more are lost.
const linkQueue = 4096

func newLink(ctx context.Context, self int, addr string, cut func() bool) *link {
	l := &link{self: self, addr: addr, q: make(chan queued, linkQueue), cut: cut}
	go l.carry(ctx)
	return l
}

// send queues env under its fate.
func (l *link) send(env envelope, f fate) {
	if f.drop {
		return
	}
	at := time.Now().Add(f.delay)
	if at.Before(l.last) {
		at = l.last
	}
	l.last = at
	select {
	case l.q <- queued{env: env, at: at, dup: f.dup}:
	default: // the peer takes nothing for so long that its queue filled
	}
}

func (l *link) carry(ctx context.Context) {
	var c net.Conn
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	d := net.Dialer{Timeout: time.Second}
	for {
		var q queued
		select {
		case <-ctx.Done():
			return
		case q = <-l.q:
		}
		if wait := time.Until(q.at); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		if l.cut() {
			continue
		}
		if c == nil {
			var err error
			if c, err = d.DialContext(ctx, "tcp", l.addr); err != nil {
				c = nil
				continue
			}
			if writeFrame(c, hello{From: l.self}) != nil {
				c.Close()
				c = nil
				continue
			}
		}
		for range 1 + b2i(q.dup) {
			if writeFrame(c, q.env) != nil {
				c.Close()
				c = nil
				break
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
