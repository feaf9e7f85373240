package checker

import (
	"fmt"
	"time"
)

// Progress is how far a search has got. Both engines report it about once
// a second to Options.Progress or RandomOptions.Progress.
type Progress struct {
	Mode    Mode          `json:"mode"` // ModeExhaustive or ModeRandom
	Elapsed time.Duration `json:"elapsed"`
	// States: the worlds explored so far (random: the steps taken).
	States int64 `json:"states"`
	// Depth and Frontier (exhaustive): the level reached, and the worlds
	// of it still to expand.
	Depth    int `json:"depth,omitempty"`
	Frontier int `json:"frontier,omitempty"`
	// Walks (random): the walks done, of Of asked for.
	Walks int `json:"walks,omitempty"`
	Of    int `json:"of,omitempty"`
}

// String is a status line, e.g. "vigil: depth 12, 81034 states (402113/s),
// 9120 in frontier".
func (p Progress) String() string {
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.States) / s
	}
	if p.Mode == ModeRandom {
		return fmt.Sprintf("vigil: %d of %d walks, %d steps (%.0f/s)", p.Walks, p.Of, p.States, rate)
	}
	return fmt.Sprintf("vigil: depth %d, %d states (%.0f/s), %d in frontier", p.Depth, p.States, rate, p.Frontier)
}

// FirstViolation is a property's first counterexample, reported as soon
// as a search finds it (Options.OnViolation, RandomOptions.OnViolation)
// while the search goes on; the counterexample itself comes with the
// result.
type FirstViolation struct {
	Property string
	Detail   string
	// Depth is the number of steps of its run: the least there is for an
	// exhaustive search, which finds the shortest first; a random one's
	// after shrinking.
	Depth int
	// Part is the part of an auto search that found it: "probe",
	// "exhaustive" or "walks" (see Auto); "" in a search of one mode.
	Part string
}

// progressEvery is the least time between two reports of a search's
// progress; tests that wait for a search to be under way shorten it.
var progressEvery = time.Second

// reporter passes a search's progress to fn about once a second.
type reporter struct {
	fn          func(Progress)
	start, last time.Time
}

func newReporter(fn func(Progress)) *reporter {
	now := time.Now()
	return &reporter{fn: fn, start: now, last: now}
}

// report calls fn with the progress p fills in, if a second has passed
// since the last report.
func (r *reporter) report(p func(*Progress)) {
	if r.fn == nil || time.Since(r.last) < progressEvery {
		return
	}
	r.last = time.Now()
	pr := Progress{Elapsed: r.last.Sub(r.start)}
	p(&pr)
	r.fn(pr)
}
