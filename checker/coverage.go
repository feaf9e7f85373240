package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/internal/sim"
)

// Coverage is how often a search took each kind of event: the messages
// received by kind, the timers fired, the local actions taken and the
// faults, as the protocol names them (see model.Kinder); and what it never
// took of the protocol's declared vocabulary (model.Declarer) and of the
// faults its configuration allows. A rule no explored run reaches is where
// a wrong "pass" hides: a scenario that reaches it is missing.
type Coverage struct {
	// Unit is what Events count: "transitions" (an exhaustive search: the
	// distinct transitions of the worlds it explored) or "steps" (the
	// steps of random walks).
	Unit   string       `json:"unit"`
	Events []EventCount `json:"events"`
	// Never lists the declared kinds and the allowed faults no
	// transition took.
	Never []string `json:"never,omitempty"`
	// Undeclared lists kinds taken that a protocol which declares its
	// vocabulary left out of it.
	Undeclared []string `json:"undeclared,omitempty"`
}

// EventCount is how many transitions (or steps) took one kind of event.
type EventCount struct {
	Event string `json:"event"`
	N     int64  `json:"n"`
}

func (c *Coverage) String() string {
	var parts []string
	for _, e := range c.Events {
		parts = append(parts, fmt.Sprintf("%s %d", e.Event, e.N))
	}
	s := fmt.Sprintf("events taken (%s): %s", c.Unit, strings.Join(parts, ", "))
	if len(c.Events) == 0 {
		s = fmt.Sprintf("events taken (%s): none", c.Unit)
	}
	if len(c.Never) > 0 {
		s += "\n  never taken: " + strings.Join(c.Never, ", ")
	}
	if len(c.Undeclared) > 0 {
		s += "\n  taken but not declared (model.Vocabulary): " + strings.Join(c.Undeclared, ", ")
	}
	return s
}

// eventCounts counts events by label, an index into a Machine's Labels.
type eventCounts []int64

func (c *eventCounts) add(label uint16, n int64) {
	for len(*c) <= int(label) {
		*c = append(*c, 0)
	}
	(*c)[label] += n
}

// addAll adds the counts of o.
func (c *eventCounts) addAll(o eventCounts) {
	for label, n := range o {
		if n > 0 {
			c.add(uint16(label), n)
		}
	}
}

// byName gives the counts by label name, as newCoverage takes them.
func (c eventCounts) byName(labels []string) map[string]int64 {
	counts := map[string]int64{}
	for _, e := range c.named(labels) {
		counts[e.Event] += e.N
	}
	return counts
}

// named gives the counts by label name.
func (c eventCounts) named(labels []string) []EventCount {
	var out []EventCount
	for i, n := range c {
		if n > 0 {
			out = append(out, EventCount{labels[i], n})
		}
	}
	return out
}

// labelOrder ranks labels for printing: receipts, timeouts and actions,
// then faults, each by name.
func labelOrder(l string) int {
	for i, prefix := range []string{"receive ", "timeout ", "action ", "recover"} {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return 4
}

// newCoverage makes the coverage of counts, by name, against what m's
// protocol declares.
func newCoverage(m *sim.Machine, unit string, counts map[string]int64) *Coverage {
	c := &Coverage{Unit: unit, Events: []EventCount{}}
	for l, n := range counts {
		if n > 0 {
			c.Events = append(c.Events, EventCount{l, n})
		}
	}
	slices.SortFunc(c.Events, func(a, b EventCount) int {
		if d := labelOrder(a.Event) - labelOrder(b.Event); d != 0 {
			return d
		}
		return strings.Compare(a.Event, b.Event)
	})
	expected, declared := m.Expected()
	for _, l := range expected {
		if counts[l] == 0 && !slices.Contains(c.Never, l) {
			c.Never = append(c.Never, l)
		}
	}
	if declared {
		for _, e := range c.Events {
			if labelOrder(e.Event) < 3 && !slices.Contains(expected, e.Event) {
				c.Undeclared = append(c.Undeclared, e.Event)
			}
		}
	}
	return c
}
