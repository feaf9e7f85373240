package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vigil-check/vigil/checker"
)

// autoSearch runs the auto search (checker.Auto) with the exhaustive and
// random options f asked for: -time bounds the whole search, not a part;
// -depth bounds every part, as the user asked (a scenario's own depth
// bound, sc.MaxDepth, bounds the exhaustive part alone, and walks after a
// cut by it go on past it).
func autoSearch(ctx context.Context, m *checker.Machine, f *checkFlags, eo checker.Options, ro checker.RandomOptions, stderr io.Writer) *checker.Result {
	eo.Time, ro.Time = 0, 0
	opt := checker.AutoOptions{Exhaustive: eo, Random: ro, Time: f.timeLimit, Probe: f.probe}
	// The walks after a cut run with the collector set for walks (see
	// walkGC); the exhaustive part, whose heap is live data, without.
	restore := func() {}
	opt.OnPart = func(ps checker.PartStats) {
		if ps.Part == "exhaustive" {
			restore = walkGC()
			if ps.Cut != checker.CutNone && ps.Cut != checker.CutCanceled && !f.json {
				fmt.Fprintf(stderr, "vigil: the exhaustive search was cut by %s after %d states at depth %d\n",
					partCut(ps), ps.Stats.States, ps.Stats.Depth)
			}
		}
	}
	res := checker.Auto(ctx, m, opt)
	restore()
	return res
}

// partCut names the bound that cut a part of an auto search.
func partCut(ps checker.PartStats) string {
	if ps.Cut == checker.CutTime && ps.Part == "exhaustive" {
		return fmt.Sprintf("the time budget of %v", seconds(ps.TimeBound))
	}
	return cutWords[ps.Cut]
}

// seconds is a time in seconds as a duration, to the millisecond.
func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond)
}

// autoParts says what an auto search ran, e.g. "random probe, exhaustive
// (cut by the time budget of 1m0s after 812345 states at depth 21),
// 1000 random walks".
func autoParts(r *checker.Result) string {
	var parts []string
	for _, ps := range r.Parts {
		var s string
		switch ps.Part {
		case "probe":
			s = "random probe"
		case "exhaustive":
			s = "exhaustive"
			if r.Sweep {
				s = "exhaustive sweep"
			}
			if ps.Cut != checker.CutNone {
				s += fmt.Sprintf(" (cut by %s after %d states at depth %d)", partCut(ps), ps.Stats.States, ps.Stats.Depth)
			}
		case "walks":
			s = fmt.Sprintf("%d random walks", ps.Stats.Walks)
		}
		if ps.Part != "exhaustive" && ps.Cut != checker.CutNone {
			s += " (cut by " + partCut(ps) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// byWords says which part of an auto search decided a property.
var byWords = map[string]string{
	"probe":      "found by the random probe",
	"exhaustive": "found by the exhaustive search",
	"walks":      "found by the random walks",
}

// printParts prints the stats of each part of an auto search, or, for an
// exhaustive search an auto search ended with, that a probe ran first.
func printParts(out io.Writer, r *checker.Result) {
	for _, ps := range r.Parts {
		switch {
		case ps.Part == "probe" && r.Mode == checker.ModeExhaustive:
			fmt.Fprintf(out, "  a random probe ran first (%d walks, %.2fs); the verdicts are the exhaustive search's\n", ps.Stats.Walks, ps.Stats.Seconds)
		case r.Mode != checker.ModeAuto:
		case ps.Part == "exhaustive":
			fmt.Fprintf(out, "  exhaustive: %s\n", stateStats(r, ps.Stats))
		default:
			fmt.Fprintf(out, "  %s: %s\n", ps.Part, walkStats(ps.Stats))
		}
	}
}

// autoSearched is what an auto search searched without a counterexample.
func autoSearched(r *checker.Result) string {
	return "no counterexample in " + strings.Join(autoExplored(r), " nor in ")
}

// autoExplored is what the parts of an auto search explored: the states
// of its exhaustive part, if it ran, and the walks of the others.
func autoExplored(r *checker.Result) []string {
	var where []string
	walks := 0
	for _, ps := range r.Parts {
		if ps.Part == "exhaustive" {
			where = append(where, fmt.Sprintf("%d states of the exhaustive search", ps.Stats.States))
		} else {
			walks += ps.Stats.Walks
		}
	}
	return append(where, fmt.Sprintf("%d random walks", walks))
}
