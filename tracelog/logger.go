package tracelog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// Logger writes one node's log. Each line reaches the file (the kernel,
// not a buffer) when its Entry is done, so that a process killed at any
// moment leaves every event it finished logged. A node takes one event at
// a time: begin the next event once the last Entry is done.
type Logger struct {
	mu    sync.Mutex
	f     *os.File
	node  int
	clock []int
	pid   int
	last  *Record
	// Sink, if set, is handed every record written, after it is: vigil's
	// runtime streams them to the runner that watches the run.
	Sink func(Record)
}

// Create starts the log of node (of n) at path, replacing any file there.
func Create(path string, node, n int) (*Logger, error) {
	if node < 0 || node >= n {
		return nil, fmt.Errorf("tracelog: node %d is outside 0..%d", node, n-1)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Logger{f: f, node: node, clock: make([]int, n), pid: os.Getpid()}, nil
}

// Open continues the log of node (of n) at path, as a node that restarts
// does: its clock goes on from the last record's, which Last returns.
func Open(path string, node, n int) (*Logger, error) {
	recs, err := ReadFile(path, n)
	if err != nil {
		return nil, err
	}
	l, err := openAppend(path, node, n)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		last := recs[len(recs)-1].Record
		if last.Node != node {
			l.f.Close()
			return nil, fmt.Errorf("tracelog: %s is the log of n%d, not n%d", path, last.Node, node)
		}
		l.last, l.clock = &last, slices.Clone(last.Clock)
	}
	return l, nil
}

func openAppend(path string, node, n int) (*Logger, error) {
	if node < 0 || node >= n {
		return nil, fmt.Errorf("tracelog: node %d is outside 0..%d", node, n-1)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Logger{f: f, node: node, clock: make([]int, n), pid: os.Getpid()}, nil
}

// Last is the last record of the log Open continued, or nil.
func (l *Logger) Last() *Record { return l.last }

// Close closes the file.
func (l *Logger) Close() error { return l.f.Close() }

// Start begins the node's start-up.
func (l *Logger) Start() *Entry { return l.begin(Start, nil) }

// Receive begins the receipt of msg (the JSON of the model's message, or a
// value that encodes to it), which came with stamp st.
func (l *Logger) Receive(st Stamp, msg any) *Entry {
	e := l.begin(Receive, &st)
	from := st.From
	e.r.From, e.r.Sent = &from, st.Event
	e.r.Msg = e.encode(msg)
	return e
}

// Timeout begins the firing of timer, as the model prints it.
func (l *Logger) Timeout(timer string) *Entry {
	e := l.begin(Timeout, nil)
	e.r.Timer = timer
	return e
}

// Action begins local action a, as the model prints it.
func (l *Logger) Action(a string) *Entry {
	e := l.begin(Action, nil)
	e.r.Action = a
	return e
}

// Recover begins the node's restart after a crash.
func (l *Logger) Recover() *Entry { return l.begin(Recover, nil) }

// begin ticks the clock for a new event, merging in a received stamp.
func (l *Logger) begin(event string, st *Stamp) *Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := &Entry{l: l}
	if st != nil {
		if len(st.Clock) != len(l.clock) {
			e.err = fmt.Errorf("tracelog: a stamp with %d clock entries for %d nodes", len(st.Clock), len(l.clock))
		} else {
			for j, c := range st.Clock {
				l.clock[j] = max(l.clock[j], c)
			}
		}
	}
	l.clock[l.node]++
	e.r = Record{Node: l.node, Clock: slices.Clone(l.clock), PID: l.pid, Event: event}
	return e
}

// write appends r to the file as one line.
func (l *Logger) write(r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	l.mu.Lock()
	_, err = l.f.Write(append(b, '\n'))
	l.mu.Unlock()
	if err == nil && l.Sink != nil {
		l.Sink(r)
	}
	return err
}

// Entry is one event under way: record its effects, then call Done.
type Entry struct {
	l   *Logger
	r   Record
	err error
}

// Clock is the event's vector clock.
func (e *Entry) Clock() []int { return slices.Clone(e.r.Clock) }

// Send records msg (the JSON of the model's message, or a value that
// encodes to it) sent to node to, and returns the stamp to send with it.
func (e *Entry) Send(to int, msg any) Stamp {
	e.r.Sends = append(e.r.Sends, Send{To: to, Msg: e.encode(msg)})
	return Stamp{From: e.r.Node, Event: e.r.Clock[e.r.Node], Clock: slices.Clone(e.r.Clock)}
}

// SetTimer records timer set to wait on the nodes of waitOn (the model's
// SetTimer).
func (e *Entry) SetTimer(timer string, waitOn ...int) {
	e.r.Timers = append(e.r.Timers, TimerOp{Op: "set", Timer: timer, WaitOn: slices.Clone(waitOn)})
}

// SetTimerAfter records timer set to fire after ticks ticks (the model's
// SetTimerAfter).
func (e *Entry) SetTimerAfter(timer string, ticks int) {
	e.r.Timers = append(e.r.Timers, TimerOp{Op: "set", Timer: timer, Ticks: ticks})
}

// CancelTimer records timer cancelled.
func (e *Entry) CancelTimer(timer string) {
	e.r.Timers = append(e.r.Timers, TimerOp{Op: "cancel", Timer: timer})
}

// Observe records an observation, as the model prints it (model.Obs's
// String: "leader=n2", "enter", ...).
func (e *Entry) Observe(text string) { e.r.Observed = append(e.r.Observed, text) }

// State records the node's state after the event (the JSON of the model's
// state, or a value that encodes to it).
func (e *Entry) State(s any) { e.r.State = e.encode(s) }

// Done writes the event's line. It reports the first error met since the
// event began: a value that did not encode, a bad stamp, a failed write.
func (e *Entry) Done() error {
	if e.err != nil {
		return e.err
	}
	e.r.Time = time.Now()
	return e.l.write(e.r)
}

func (e *Entry) encode(v any) json.RawMessage {
	switch v := v.(type) {
	case json.RawMessage:
		return v
	case []byte:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.err = errors.Join(e.err, err)
	}
	return b
}

// AppendCrash appends a crash to the log at path of a node that stopped
// (process pid), as whoever saw it stop writes it: the node itself cannot.
// Its clock is the last record's, one event on.
func AppendCrash(path string, n, pid int) error {
	recs, err := ReadFile(path, n)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("tracelog: %s holds no event: a node that never started cannot crash", path)
	}
	last := recs[len(recs)-1].Record
	l, err := openAppend(path, last.Node, n)
	if err != nil {
		return err
	}
	defer l.Close()
	r := Record{Node: last.Node, Clock: slices.Clone(last.Clock), PID: pid, Time: time.Now(), Event: Crash}
	r.Clock[r.Node]++
	return l.write(r)
}
