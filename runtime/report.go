package runtime

import (
	"context"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/vigil-check/vigil/tracelog"
)

// control is what the runner tells a node about its links: the faults
// Run injects, each one message or one stretch of time.
type control struct {
	// Drop and Dup: the next message to each of these peers is lost, or
	// arrives twice.
	Drop []int `json:"drop,omitempty"`
	Dup  []int `json:"dup,omitempty"`
	// Cut, if set, are the peers cut off from this node from now on (an
	// empty list heals the node's side of a partition).
	Cut *[]int `json:"cut,omitempty"`
	// Delay, if set, is the range of ticks a message waits on its link.
	Delay *[2]float64 `json:"delay,omitempty"`
}

// fate is what happens to one message on its link.
type fate struct {
	drop, dup bool
	delay     time.Duration
}

// reporter is a node's connection to the runner: records go up, controls
// come down. A nil reporter (no runner) changes no message's fate.
type reporter struct {
	mu    sync.Mutex
	c     net.Conn
	tick  time.Duration
	rng   *rand.Rand
	drop  map[int]int
	dup   map[int]int
	cut   []int
	delay [2]float64
}

// dialReporter connects node self to the runner at addr. When the runner
// goes away, stop is called: a node outlives no runner.
func dialReporter(ctx context.Context, addr string, self int, tick time.Duration, seed uint64, stop func()) (*reporter, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := writeFrame(c, hello{From: self, PID: os.Getpid()}); err != nil {
		c.Close()
		return nil, err
	}
	r := &reporter{c: c, tick: tick, rng: rand.New(rand.NewPCG(seed, uint64(self)^0x5eed)), drop: map[int]int{}, dup: map[int]int{}}
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
	if ctl.Cut != nil {
		r.cut = slices.Clone(*ctl.Cut)
	}
	if ctl.Delay != nil {
		r.delay = *ctl.Delay
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
	ticks := r.delay[0] + r.rng.Float64()*(r.delay[1]-r.delay[0])
	f.delay = time.Duration(ticks * float64(r.tick))
	return f
}

// cutOff reports whether peer to is cut off from this node now.
func (r *reporter) cutOff(to int) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.cut, to)
}
