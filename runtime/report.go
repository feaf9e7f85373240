package runtime

import (
	"context"
	"net"
	"os"
	"sync"
	"time"

	"github.com/vigil-check/vigil/tracelog"
)

// control is what the runner tells a node about its links: the faults
// Run injects into one message. The runner's Toxiproxy delays and cuts the
// links (see network), but it carries bytes, not messages: it cannot lose
// or duplicate one message of a framed stream without breaking the frames
// around it, so the node's link does that, on the runner's orders.
type control struct {
	// Drop and Dup: the next message to each of these peers is lost, or
	// arrives twice.
	Drop []int `json:"drop,omitempty"`
	Dup  []int `json:"dup,omitempty"`
}

// fate is what happens to one message on its link.
type fate struct{ drop, dup bool }

// reporter is a node's connection to the runner: records go up, controls
// come down. A nil reporter (no runner) changes no message's fate.
type reporter struct {
	mu   sync.Mutex
	c    net.Conn
	drop map[int]int
	dup  map[int]int
}

// dialReporter connects node self to the runner at addr. When the runner
// goes away, stop is called: a node outlives no runner.
func dialReporter(ctx context.Context, addr string, self int, stop func()) (*reporter, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := writeFrame(c, hello{From: self, PID: os.Getpid()}); err != nil {
		c.Close()
		return nil, err
	}
	r := &reporter{c: c, drop: map[int]int{}, dup: map[int]int{}}
	go func() {
		defer stop()
		for {
			var ctl control
			if err := readFrame(c, &ctl); err != nil {
				return
			}
			r.apply(ctl)
		}
	}()
	return r, nil
}

func (r *reporter) apply(ctl control) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, j := range ctl.Drop {
		r.drop[j]++
	}
	for _, j := range ctl.Dup {
		r.dup[j]++
	}
}

// send reports a record to the runner. A runner that cannot take it is
// gone, and the node stops on its own (see dialReporter).
func (r *reporter) send(rec tracelog.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	writeFrame(r.c, rec)
}

func (r *reporter) close() { r.c.Close() }

// fate decides what happens to the next message to peer to.
func (r *reporter) fate(to int) fate {
	if r == nil {
		return fate{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var f fate
	if r.drop[to] > 0 {
		r.drop[to]--
		f.drop = true
	} else if r.dup[to] > 0 {
		r.dup[to]--
		f.dup = true
	}
	return f
}
