package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Range is a range of ticks, Lo to Hi: a duration is drawn uniformly
// within it.
type Range struct{ Lo, Hi float64 }

func (r Range) String() string {
	return strconv.FormatFloat(r.Lo, 'g', -1, 64) + "-" + strconv.FormatFloat(r.Hi, 'g', -1, 64)
}

// Chaos sets the ranges, in ticks, of the faults Run draws; a nil range
// takes Run's default. The budgets of the run's configuration still say
// how many faults there are.
type Chaos struct {
	// Delay is how long a message waits on its link. By default it is
	// below half a tick under sync and bounded timing, and up to 1.5
	// times the longest wait of a SetTimer timer under async timing (see
	// Run). {0, 0} is no delay.
	Delay *Range
	// Partition is how long a partition lasts before it heals: by
	// default 5 to 20 ticks.
	Partition *Range
	// Restart is how long a killed node stays down before it restarts,
	// while the recoveries budget allows: by default 2 to 10 ticks.
	Restart *Range
}

// The defaults of Chaos's ranges.
var (
	defaultPartition = Range{5, 20}
	defaultRestart   = Range{2, 10}
)

// ParseChaos reads the ranges of a run's faults, as vigil run's -chaos
// takes them: comma-separated delay=LO-HI, delay=none, partition=LO-HI and
// restart=LO-HI, in ticks (decimals allowed). "" leaves every default.
func ParseChaos(spec string) (Chaos, error) {
	var c Chaos
	if spec == "" {
		return c, nil
	}
	fields := map[string]**Range{"delay": &c.Delay, "partition": &c.Partition, "restart": &c.Restart}
	for item := range strings.SplitSeq(spec, ",") {
		name, val, ok := strings.Cut(item, "=")
		field, known := fields[name]
		switch {
		case !ok:
			return Chaos{}, fmt.Errorf("%q: want NAME=LO-HI, NAME one of delay, partition or restart", item)
		case !known:
			return Chaos{}, fmt.Errorf("%q: no fault is named %q: want delay, partition or restart", item, name)
		case *field != nil:
			return Chaos{}, fmt.Errorf("%s is given twice", name)
		}
		if val == "none" {
			if name != "delay" {
				return Chaos{}, fmt.Errorf("%q: only delay can be none", item)
			}
			*field = &Range{}
			continue
		}
		r, err := parseRange(val)
		if err != nil {
			return Chaos{}, fmt.Errorf("%q: %w", item, err)
		}
		if name == "partition" && r.Hi == 0 {
			return Chaos{}, fmt.Errorf("%q: a partition must last: HI must be above 0", item)
		}
		*field = &r
	}
	return c, nil
}

// parseRange reads LO-HI, two numbers of ticks, 0 ≤ LO ≤ HI.
func parseRange(s string) (Range, error) {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		return Range{}, fmt.Errorf("want a range of ticks LO-HI, such as 0-0.5, not %q", s)
	}
	var r Range
	for _, b := range []struct {
		text string
		to   *float64
	}{{lo, &r.Lo}, {hi, &r.Hi}} {
		v, err := strconv.ParseFloat(b.text, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return Range{}, fmt.Errorf("%q is not a number of ticks (want LO-HI, 0 ≤ LO ≤ HI)", b.text)
		}
		*b.to = v
	}
	if r.Lo > r.Hi {
		return Range{}, fmt.Errorf("LO %v is above HI %v", r.Lo, r.Hi)
	}
	return r, nil
}

// delay is the range of the delays on every link of a run.
func (c Chaos) delay(cfg RunConfig) Range {
	if c.Delay != nil {
		return *c.Delay
	}
	return Range{0, maxDelay(cfg)}
}

func (c Chaos) partition() Range {
	if c.Partition != nil {
		return *c.Partition
	}
	return defaultPartition
}

func (c Chaos) restart() Range {
	if c.Restart != nil {
		return *c.Restart
	}
	return defaultRestart
}

// ticks is d ticks of tick as a duration.
func ticks(d float64, tick time.Duration) time.Duration {
	return time.Duration(d * float64(tick))
}
