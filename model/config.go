package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Channels selects the order in which messages between two nodes arrive.
type Channels uint8

const (
	// FIFO: messages from one node to another arrive in the order sent.
	FIFO Channels = iota
	// Unordered: any message in flight may arrive next.
	Unordered
	// Set: the messages sent form a set of (from, to, message) that only
	// grows, as a TLA+ specification keeps them: a delivery takes any
	// message of the set and leaves it there, so every message may arrive
	// any number of times, in any order, or never; sending a message the
	// set holds changes nothing. Reordering, duplication and loss are the
	// network's own, so Validate refuses the fault budgets for them, and
	// cuts and Bounded timing with them (see Validate).
	Set
)

func (c Channels) String() string {
	switch c {
	case Unordered:
		return "unordered"
	case Set:
		return "set"
	}
	return "fifo"
}

func (c Channels) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

func (c *Channels) UnmarshalText(b []byte) (err error) {
	*c, err = ParseChannels(string(b))
	return err
}

// ParseChannels reads "fifo", "unordered" or "set".
func ParseChannels(s string) (Channels, error) {
	switch s {
	case "fifo":
		return FIFO, nil
	case "unordered":
		return Unordered, nil
	case "set":
		return Set, nil
	}
	return 0, fmt.Errorf("channels must be fifo, unordered or set, not %q", s)
}

// Timing selects when timers may fire (see the package doc).
type Timing uint8

const (
	// Sync: a timer fires only when the nodes it waits on are crashed and
	// nothing from them is in flight: a perfect failure detector.
	Sync Timing = iota
	// Async: an armed timer may fire at any time: an unreliable detector.
	Async
	// Bounded: time passes in ticks and every message is delivered within
	// Config.Delay ticks of its send; a timer armed with SetTimerAfter
	// fires exactly when its ticks have passed, and one armed with
	// SetTimer behaves as under Sync (bounded delay makes failure
	// detection accurate). See the package doc.
	Bounded
)

func (t Timing) String() string {
	switch t {
	case Async:
		return "async"
	case Bounded:
		return "bounded"
	}
	return "sync"
}

func (t Timing) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

func (t *Timing) UnmarshalText(b []byte) (err error) {
	*t, err = ParseTiming(string(b))
	return err
}

// ParseTiming reads "sync", "async" or "bounded" (whose delay bound is
// Config.Delay; see ParseTimingSpec).
func ParseTiming(s string) (Timing, error) {
	switch s {
	case "sync":
		return Sync, nil
	case "async":
		return Async, nil
	case "bounded":
		return Bounded, nil
	}
	return 0, fmt.Errorf("timing must be sync, async or bounded:D, not %q", s)
}

// ParseTimingSpec reads a timing as the command line gives it: "sync",
// "async", or "bounded:D" with D the delay bound in ticks (Config.Delay;
// 0 for the others).
func ParseTimingSpec(s string) (Timing, int, error) {
	if rest, ok := strings.CutPrefix(s, "bounded:"); ok {
		d, err := strconv.Atoi(rest)
		if err != nil || d < 1 || d > MaxDelay {
			return 0, 0, fmt.Errorf("timing bounded:D needs a delay D between 1 and %d, not %q", MaxDelay, rest)
		}
		return Bounded, d, nil
	}
	if s == "bounded" {
		return 0, 0, fmt.Errorf("timing bounded needs its delay bound: bounded:D, D ticks")
	}
	t, err := ParseTiming(s)
	return t, 0, err
}

// TimingSpec is c's timing as ParseTimingSpec reads it: "bounded:D" with
// the delay bound under Bounded timing.
func (c *Config) TimingSpec() string {
	if c.Timing == Bounded {
		return fmt.Sprintf("bounded:%d", c.Delay)
	}
	return c.Timing.String()
}

// The bounds of a Config that Validate refuses to exceed: each says what
// the checker packs the figure in.
const (
	// MaxDelay bounds Config.Delay: a message's age takes 8 bits.
	MaxDelay = 100
	// MaxNodes bounds Config.N: the checker packs node ids in 16 bits.
	MaxNodes = 1 << 15
	// MaxPartitions bounds Config.Partitions: group labels take 4 bits.
	MaxPartitions = 7
	// MaxMessageFaults bounds Config.Losses and Config.Duplicates: the
	// checker counts each in 8 bits.
	MaxMessageFaults = 255
)

// Config is one run's scenario: the network and fault semantics, the
// identities of the nodes and the protocol's parameters.
type Config struct {
	N        int      `json:"n"`
	Channels Channels `json:"channels"`
	Timing   Timing   `json:"timing"`
	// Delay is the bound, in ticks, on a message's delivery under Bounded
	// timing (0 otherwise).
	Delay      int `json:"delay,omitempty"`
	Crashes    int `json:"crashes"`    // at most this many crash events per run
	Recoveries int `json:"recoveries"` // at most this many recoveries per run
	// Partitions: at most this many partition events per run; a split
	// network may heal at any time (see the package doc).
	Partitions int `json:"partitions,omitempty"`
	// Losses and Duplicates: at most this many messages in flight lost,
	// and duplicated, per run (see the package doc).
	Losses     int `json:"losses,omitempty"`
	Duplicates int `json:"duplicates,omitempty"`
	// Traitors: at most this many nodes turn traitor per run, each at any
	// point; a traitor's handlers run as written, and each message it
	// sends is one the checker chooses among those its protocol forges
	// (see Forger and the package doc). Fewer than N.
	Traitors int `json:"traitors,omitempty"`
	// Ranks[i] is the id node i's algorithm compares; distinct. Nil means
	// sorted: Ranks[i] = i.
	Ranks []int `json:"ranks,omitempty"`
	// Initiators[i] reports whether node i starts the algorithm on its own.
	// Nil means every node does.
	Initiators []bool `json:"initiators,omitempty"`
	// Params holds protocol parameters by name (for instance "requests").
	Params map[string]int `json:"params,omitempty"`
	// Topology is the network's graph, a spec ParseTopology reads; ""
	// means the complete graph. A node may send only to its neighbours.
	Topology string `json:"topology,omitempty"`

	// net caches Topology parsed for N. It is a pointer so that it
	// survives the copies of a Config (NewCtx copies one per handler
	// call), and it is checked against Topology and N before each use, so
	// a Config changed after Validate is never misread (see network).
	net *Graph
}

// Validate reports the first problem with c, in words fit for a user.
func (c *Config) Validate() error {
	if c.N < 1 || c.N > MaxNodes {
		return fmt.Errorf("n must be between 1 and %d, not %d", MaxNodes, c.N)
	}
	if c.Crashes < 0 || c.Crashes > 255 || c.Recoveries < 0 || c.Recoveries > 255 {
		return fmt.Errorf("crashes and recoveries must be between 0 and 255")
	}
	switch {
	case c.Timing == Bounded && (c.Delay < 1 || c.Delay > MaxDelay):
		return fmt.Errorf("bounded timing needs a delay between 1 and %d ticks, not %d", MaxDelay, c.Delay)
	case c.Timing != Bounded && c.Delay != 0:
		return fmt.Errorf("a delay bound (%d) needs bounded timing, not %v", c.Delay, c.Timing)
	}
	if c.Partitions < 0 || c.Partitions > MaxPartitions {
		return fmt.Errorf("partitions must be between 0 and %d, not %d", MaxPartitions, c.Partitions)
	}
	if c.Partitions > 0 && c.N < 2 {
		return fmt.Errorf("partitions need at least 2 nodes")
	}
	if c.Losses < 0 || c.Losses > MaxMessageFaults {
		return fmt.Errorf("losses must be between 0 and %d, not %d", MaxMessageFaults, c.Losses)
	}
	if c.Duplicates < 0 || c.Duplicates > MaxMessageFaults {
		return fmt.Errorf("duplicates must be between 0 and %d, not %d", MaxMessageFaults, c.Duplicates)
	}
	if c.Traitors < 0 || c.Traitors >= c.N {
		return fmt.Errorf("traitors must be between 0 and n-1 = %d (some node must stay loyal), not %d", c.N-1, c.Traitors)
	}
	if err := c.validateSet(); err != nil {
		return err
	}
	if c.Ranks != nil {
		if len(c.Ranks) != c.N {
			return fmt.Errorf("%d ranks given for %d nodes", len(c.Ranks), c.N)
		}
		seen := make(map[int]bool, c.N)
		for _, r := range c.Ranks {
			if seen[r] {
				return fmt.Errorf("rank %d appears twice: ranks must be distinct", r)
			}
			seen[r] = true
		}
	}
	if c.Initiators != nil && len(c.Initiators) != c.N {
		return fmt.Errorf("%d initiator flags for %d nodes", len(c.Initiators), c.N)
	}
	if !c.netCached() {
		g, err := ParseTopology(c.Topology, c.N)
		if err != nil {
			return err
		}
		// parsed once here, where every engine validates its Config, so
		// that handlers' Env reads the graph without parsing it again
		c.net = g
	}
	return nil
}

// validateSet refuses what set channels make meaningless. A set already
// delivers any message any number of times, later than any other, or
// never: losses and duplicates would add no run. A cut's meaning is that
// the messages across it are lost, which a set never does (they would only
// wait, as any message may), so partitions are refused rather than given
// a second meaning. Bounded timing promises every message delivered within
// D ticks, which a set that keeps its messages for ever cannot keep.
func (c *Config) validateSet() error {
	if c.Channels != Set {
		return nil
	}
	switch {
	case c.Losses > 0 || c.Duplicates > 0:
		return fmt.Errorf("set channels already lose, duplicate and reorder any message: run them with no losses or duplicates, not %d and %d", c.Losses, c.Duplicates)
	case c.Partitions > 0:
		return fmt.Errorf("set channels lose no message to a cut (a message across it only waits, as any may): run them with no partitions, not %d", c.Partitions)
	case c.Timing == Bounded:
		return fmt.Errorf("set channels keep every message for ever, which bounded timing's delivery within %d ticks cannot: use sync or async timing", c.Delay)
	case c.Traitors > 0:
		return fmt.Errorf("set channels with traitors are not supported (a forged message the set holds already would make a step a stutter for some choices and not others): use fifo or unordered channels")
	}
	return nil
}

func (c *Config) netCached() bool { return c.net != nil && c.net.n == c.N && c.net.spec == c.Topology }

// Graph returns the graph of c's Topology: the one parsed when c was
// validated (every engine validates its Config, so a property or monitor
// reading its View's Config gets it without parsing), or else parsed now.
func (c *Config) Graph() (*Graph, error) {
	if c.netCached() {
		return c.net, nil
	}
	return ParseTopology(c.Topology, c.N)
}

// network is the graph of c's Topology: the one Validate cached, or else
// parsed now. A Config whose Topology does not parse has none: it is a
// contract violation to run handlers under a Config Validate rejects.
func (c *Config) network() *Graph {
	g, err := c.Graph()
	if err != nil {
		panic("model: " + err.Error())
	}
	return g
}

// Rank returns node i's rank.
func (c *Config) Rank(i NodeID) int {
	if c.Ranks == nil {
		return int(i)
	}
	return c.Ranks[i]
}

// Initiator reports whether node i starts the algorithm on its own.
func (c *Config) Initiator(i NodeID) bool { return c.Initiators == nil || c.Initiators[i] }

// Param returns the named protocol parameter, or def when it is not set.
func (c *Config) Param(name string, def int) int {
	if v, ok := c.Params[name]; ok {
		return v
	}
	return def
}

// ParseRanks reads a rank specification for n nodes: "sorted" (rank i for
// node i), "reverse" (rank n-1-i), "random:SEED" (a seeded permutation of
// 0..n-1) or an explicit comma-separated list of n distinct integers.
func ParseRanks(spec string, n int) ([]int, error) {
	ranks := make([]int, n)
	switch {
	case spec == "" || spec == "sorted":
		for i := range ranks {
			ranks[i] = i
		}
	case spec == "reverse":
		for i := range ranks {
			ranks[i] = n - 1 - i
		}
	case strings.HasPrefix(spec, "random:"):
		seed, err := strconv.ParseUint(strings.TrimPrefix(spec, "random:"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("ranks %q: the seed must be a non-negative integer", spec)
		}
		copy(ranks, rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)).Perm(n))
	default:
		parts := strings.Split(spec, ",")
		if len(parts) != n {
			return nil, fmt.Errorf("ranks %q: want sorted, reverse, random:SEED or %d comma-separated integers", spec, n)
		}
		for i, p := range parts {
			r, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, fmt.Errorf("ranks %q: %q is not an integer", spec, p)
			}
			ranks[i] = r
		}
		if s := slices.Clone(ranks); len(slices.Compact(slices.Sorted(slices.Values(s)))) != n {
			return nil, fmt.Errorf("ranks %q: ranks must be distinct", spec)
		}
	}
	return ranks, nil
}

// ParseInitiators reads "all" or a comma-separated list of node ids.
func ParseInitiators(spec string, n int) ([]bool, error) {
	if spec == "" || spec == "all" {
		return nil, nil
	}
	init := make([]bool, n)
	for _, p := range strings.Split(spec, ",") {
		i, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(p), "n"))
		if err != nil || i < 0 || i >= n {
			return nil, fmt.Errorf("initiators %q: %q is not a node id in 0..%d", spec, p, n-1)
		}
		init[i] = true
	}
	return init, nil
}
