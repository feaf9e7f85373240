package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseRanks(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		want []int
	}{
		{"", 4, []int{0, 1, 2, 3}},
		{"sorted", 4, []int{0, 1, 2, 3}},
		{"sorted", 1, []int{0}},
		{"reverse", 4, []int{3, 2, 1, 0}},
		{"reverse", 1, []int{0}},
		{"3,1,2", 3, []int{3, 1, 2}},
		{" 30 , -1,7 ", 3, []int{30, -1, 7}},
		{"5", 1, []int{5}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/n%d", c.spec, c.n), func(t *testing.T) {
			got, err := ParseRanks(c.spec, c.n)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

// random:SEED is a permutation of 0..n-1 that depends on the seed alone, so
// that a scenario names the same ring on every run and every machine.
func TestParseRanksRandom(t *testing.T) {
	for n := 1; n <= 9; n++ {
		perms := map[string]bool{}
		for seed := range 30 {
			spec := fmt.Sprintf("random:%d", seed)
			r, err := ParseRanks(spec, n)
			require.NoError(t, err)
			require.Len(t, r, n)
			require.Equal(t, slices.Sorted(slices.Values(r)), identity(n), "%s n=%d: %v is not a permutation of 0..n-1", spec, n, r)
			again, err := ParseRanks(spec, n)
			require.NoError(t, err)
			require.Equal(t, r, again, "%s n=%d is not deterministic", spec, n)
			perms[fmt.Sprint(r)] = true
		}
		if n >= 4 {
			// 30 seeds over n! ≥ 24 orders: the seed matters.
			require.Greater(t, len(perms), 5, "n=%d: the seeds give too few permutations", n)
		}
	}
	// any uint64 seed
	big, err := ParseRanks("random:18446744073709551615", 6)
	require.NoError(t, err)
	require.Equal(t, identity(6), slices.Sorted(slices.Values(big)))

	// The golden verdicts and scenarios name rings by seed
	// (testdata/verdicts.golden); the permutation a seed gives must not
	// change. Note that random:1 happens to be the sorted ring up to n = 5.
	for _, c := range []struct {
		spec string
		n    int
		want []int
	}{
		{"random:1", 5, []int{0, 1, 2, 3, 4}},
		{"random:1", 6, []int{0, 4, 2, 1, 3, 5}},
		{"random:0", 5, []int{0, 1, 4, 3, 2}},
		{"random:4", 5, []int{3, 4, 2, 1, 0}},
	} {
		r, err := ParseRanks(c.spec, c.n)
		require.NoError(t, err)
		require.Equal(t, c.want, r, "%s n=%d", c.spec, c.n)
	}
}

func identity(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func TestParseInitiators(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		want []bool // nil: every node
	}{
		{"", 3, nil},
		{"all", 3, nil},
		{"0", 3, []bool{true, false, false}},
		{"0,2", 3, []bool{true, false, true}},
		{"2,0", 3, []bool{true, false, true}},
		{"n1", 3, []bool{false, true, false}},
		{" 1 , n2 ", 3, []bool{false, true, true}},
		{"1,1", 2, []bool{false, true}},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			got, err := ParseInitiators(c.spec, c.n)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
			cfg := Config{N: c.n, Initiators: got}
			require.NoError(t, cfg.Validate())
			for i := range NodeID(c.n) {
				require.Equal(t, c.want == nil || c.want[i], cfg.Initiator(i), "node %d", i)
			}
		})
	}
}

// Bad ranks and initiators are refused with an error that names the
// spec and what is wrong with it, and no value.
func TestParseRanksAndInitiatorsErrors(t *testing.T) {
	ranks := func(spec string, n int) (any, error) { return ParseRanks(spec, n) }
	initiators := func(spec string, n int) (any, error) { return ParseInitiators(spec, n) }
	cases := []struct {
		parse func(spec string, n int) (any, error)
		spec  string
		n     int
		want  string
	}{
		{ranks, "1,1,2", 3, `ranks "1,1,2": ranks must be distinct`},
		{ranks, "0, 2,2", 3, "ranks must be distinct"},
		{ranks, "1,2", 3, `ranks "1,2": want sorted, reverse, random:SEED or 3 comma-separated integers`},
		{ranks, "1,2,3,4", 3, "3 comma-separated integers"},
		{ranks, "a,b,c", 3, `ranks "a,b,c": "a" is not an integer`},
		{ranks, "1,,2", 3, `"" is not an integer`},
		{ranks, "1.5,2,3", 3, `"1.5" is not an integer`},
		{ranks, "bogus", 1, `"bogus" is not an integer`},
		{ranks, "bogus", 3, "want sorted, reverse, random:SEED or 3 comma-separated integers"},
		{ranks, "Sorted", 2, "want sorted, reverse"},
		{ranks, "random:", 3, `ranks "random:": the seed must be a non-negative integer`},
		{ranks, "random:x", 3, "the seed must be a non-negative integer"},
		{ranks, "random:-1", 3, "the seed must be a non-negative integer"},
		{ranks, "random:18446744073709551616", 3, "the seed must be a non-negative integer"},
		{initiators, "3", 3, `initiators "3": "3" is not a node id in 0..2`},
		{initiators, "-1", 3, `"-1" is not a node id in 0..2`},
		{initiators, "x", 3, `"x" is not a node id`},
		{initiators, "0,,1", 3, `"" is not a node id`},
		{initiators, "none", 3, `"none" is not a node id`},
		{initiators, "n", 3, `"n" is not a node id`},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			r, err := c.parse(c.spec, c.n)
			require.ErrorContains(t, err, c.want)
			require.Nil(t, r)
		})
	}
}

func TestParseChannelsAndTiming(t *testing.T) {
	requireParses(t, ParseChannels, map[string]Channels{"fifo": FIFO, "unordered": Unordered, "set": Set},
		"channels must be fifo, unordered or set, not %q", "", "FIFO", "fifo ", "ordered", "sync")
	requireParses(t, ParseTiming, map[string]Timing{"sync": Sync, "async": Async},
		"timing must be sync, async or bounded:D, not %q", "", "Sync", " async", "fifo", "asynchronous")
	// The zero values are the defaults docs/semantics.md documents.
	require.Equal(t, FIFO, Config{}.Channels)
	require.Equal(t, Sync, Config{}.Timing)
}

// requireParses checks that parse reads each text of good as its value,
// which prints as that text again, and refuses each of bad with the error
// wrong says, quoting it.
func requireParses[T fmt.Stringer](t *testing.T, parse func(string) (T, error), good map[string]T, wrong string, bad ...string) {
	t.Helper()
	for text, want := range good {
		got, err := parse(text)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Equal(t, text, got.String())
	}
	for _, text := range bad {
		_, err := parse(text)
		require.ErrorContains(t, err, fmt.Sprintf(wrong, text))
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string // "" when valid
	}{
		{"smallest", Config{N: 1}, ""},
		{"largest", Config{N: MaxNodes}, ""},
		{"full", Config{N: 3, Crashes: 255, Recoveries: 255, Ranks: []int{5, -1, 2}, Initiators: []bool{true, false, false}}, ""},
		{"no nodes", Config{N: 0}, "n must be between 1 and 32768, not 0"},
		{"negative n", Config{N: -2}, "not -2"},
		{"too many nodes", Config{N: MaxNodes + 1}, "not 32769"},
		{"negative crashes", Config{N: 2, Crashes: -1}, "crashes and recoveries must be between 0 and 255"},
		{"too many crashes", Config{N: 2, Crashes: 256}, "crashes and recoveries must be between 0 and 255"},
		{"negative recoveries", Config{N: 2, Recoveries: -1}, "crashes and recoveries must be between 0 and 255"},
		{"too many recoveries", Config{N: 2, Recoveries: 256}, "crashes and recoveries must be between 0 and 255"},
		{"message faults", Config{N: 1, Losses: MaxMessageFaults, Duplicates: MaxMessageFaults}, ""},
		{"negative losses", Config{N: 2, Losses: -1}, "losses must be between 0 and 255, not -1"},
		{"too many losses", Config{N: 2, Losses: 256}, "losses must be between 0 and 255, not 256"},
		{"negative duplicates", Config{N: 2, Duplicates: -1}, "duplicates must be between 0 and 255, not -1"},
		{"too many duplicates", Config{N: 2, Duplicates: 256}, "duplicates must be between 0 and 255, not 256"},
		{"too few ranks", Config{N: 3, Ranks: []int{0, 1}}, "2 ranks given for 3 nodes"},
		{"too many ranks", Config{N: 1, Ranks: []int{0, 1}}, "2 ranks given for 1 nodes"},
		{"empty ranks", Config{N: 2, Ranks: []int{}}, "0 ranks given for 2 nodes"},
		{"duplicate ranks", Config{N: 3, Ranks: []int{4, 7, 4}}, "rank 4 appears twice: ranks must be distinct"},
		{"too few initiator flags", Config{N: 3, Initiators: []bool{true}}, "1 initiator flags for 3 nodes"},
		{"empty initiator flags", Config{N: 2, Initiators: []bool{}}, "0 initiator flags for 2 nodes"},
		{"ring", Config{N: 4, Topology: "ring"}, ""},
		{"set channels", Config{N: 3, Channels: Set, Crashes: 1, Recoveries: 1, Timing: Async}, ""},
		{"set channels losing", Config{N: 3, Channels: Set, Losses: 1}, "set channels already lose, duplicate and reorder any message: run them with no losses or duplicates, not 1 and 0"},
		{"set channels duplicating", Config{N: 3, Channels: Set, Duplicates: 2}, "not 0 and 2"},
		{"set channels cut", Config{N: 3, Channels: Set, Partitions: 1}, "set channels lose no message to a cut"},
		{"set channels bounded", Config{N: 3, Channels: Set, Timing: Bounded, Delay: 2}, "set channels keep every message for ever, which bounded timing's delivery within 2 ticks cannot"},
		{"unknown topology", Config{N: 4, Topology: "hypercube"}, `topology "hypercube": want complete, ring, uniring, line, star, tree, grid:RxC, random:SEED[:P] or edges:I-J,...`},
		{"grid of other n", Config{N: 5, Topology: "grid:2x3"}, `topology "grid:2x3": a 2x3 grid has 6 nodes, not 5`},
		{"self-loop", Config{N: 3, Topology: "edges:0-1,1-1,1-2"}, `topology "edges:0-1,1-1,1-2": link "1-1" links a node to itself`},
		{"edge out of range", Config{N: 3, Topology: "edges:0-1,1-3"}, `topology "edges:0-1,1-3": link "1-3" names a node outside 0..2`},
		{"disconnected", Config{N: 4, Topology: "edges:0-1,2-3"}, `topology "edges:0-1,2-3" is not connected: n2 cannot reach n0`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Validate()
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, c.want)
		})
	}
}

func TestConfigAccessors(t *testing.T) {
	sorted := Config{N: 3}
	ranked := Config{N: 3, Ranks: []int{9, 4, 6}, Initiators: []bool{false, true, false}, Params: map[string]int{"requests": 2}}
	for i := range NodeID(3) {
		require.Equal(t, int(i), sorted.Rank(i))
		require.True(t, sorted.Initiator(i))
	}
	require.Equal(t, []int{9, 4, 6}, []int{ranked.Rank(0), ranked.Rank(1), ranked.Rank(2)})
	require.Equal(t, []bool{false, true, false}, []bool{ranked.Initiator(0), ranked.Initiator(1), ranked.Initiator(2)})
	require.Equal(t, 2, ranked.Param("requests", 7))
	require.Equal(t, 7, ranked.Param("other", 7))
	require.Equal(t, 7, sorted.Param("requests", 7), "nil Params")

	// a handler's context reads the parameters it was made with
	many := Config{N: 2, Params: map[string]int{"a": 1, "requests": 2, "zero": 0}}
	for _, c := range []struct {
		cfg  Config
		name string
		want int
	}{
		{many, "a", 1}, {many, "requests", 2}, {many, "zero", 0}, {many, "other", 7}, {sorted, "requests", 7},
	} {
		require.Equal(t, c.want, NewCtx[int](c.cfg, 1).Param(c.name, 7), c.name)
	}
}

// Graph gives the graph Validate parsed, or parses one, and says why a
// topology does not parse.
func TestConfigGraph(t *testing.T) {
	line := Config{N: 4, Topology: "line"}
	g, err := line.Graph()
	require.NoError(t, err)
	require.Equal(t, []NodeID{0, 2}, g.Neighbors(1))
	again, err := line.Graph()
	require.NoError(t, err)
	require.NotSame(t, g, again, "not validated: parsed at each call")

	require.NoError(t, line.Validate())
	g, err = line.Graph()
	require.NoError(t, err)
	again, err = line.Graph()
	require.NoError(t, err)
	require.Same(t, g, again, "validated: the graph Validate parsed")
	require.Equal(t, []NodeID{0, 2}, g.Neighbors(1))

	line.Topology = "ring" // a change Validate did not see
	g, err = line.Graph()
	require.NoError(t, err)
	require.Equal(t, []NodeID{0, 2}, g.Neighbors(3))

	_, err = (&Config{N: 4, Topology: "grid:3x3"}).Graph()
	require.Error(t, err)
}

// A Config survives JSON, with channels and timing as words, which is how
// traces store it for replay.
func TestConfigJSONRoundTrip(t *testing.T) {
	cases := []Config{
		{N: 1},
		{N: 4, Channels: Unordered, Timing: Async, Crashes: 1, Recoveries: 2,
			Ranks: []int{3, 0, 2, 1}, Initiators: []bool{true, false, true, false}, Params: map[string]int{"requests": 3}},
		{N: 2, Channels: FIFO, Timing: Sync, Ranks: []int{-5, 5}},
		{N: 3, Topology: "edges:0-1,1-2"},
		{N: 3, Losses: 1, Duplicates: 2},
	}
	for _, cfg := range cases {
		b, err := json.Marshal(cfg)
		require.NoError(t, err)
		s := string(b)
		require.Contains(t, s, fmt.Sprintf(`"channels":%q`, cfg.Channels.String()))
		require.Contains(t, s, fmt.Sprintf(`"timing":%q`, cfg.Timing.String()))
		require.Equal(t, cfg.Ranks != nil, strings.Contains(s, `"ranks"`), s)
		require.Equal(t, cfg.Initiators != nil, strings.Contains(s, `"initiators"`), s)
		require.Equal(t, cfg.Params != nil, strings.Contains(s, `"params"`), s)
		require.Equal(t, cfg.Topology != "", strings.Contains(s, `"topology"`), s)
		var back Config
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, cfg, back)
	}
	b, err := json.Marshal(Config{N: 4, Channels: Unordered, Timing: Async, Crashes: 1, Ranks: []int{3, 0, 2, 1}})
	require.NoError(t, err)
	require.JSONEq(t, `{"n":4,"channels":"unordered","timing":"async","crashes":1,"recoveries":0,"ranks":[3,0,2,1]}`, string(b))

	var cfg Config
	require.ErrorContains(t, json.Unmarshal([]byte(`{"n":2,"channels":"lossy"}`), &cfg), `channels must be fifo, unordered or set, not "lossy"`)
	require.ErrorContains(t, json.Unmarshal([]byte(`{"n":2,"timing":"eventual"}`), &cfg), `timing must be sync, async or bounded:D, not "eventual"`)
	require.Error(t, json.Unmarshal([]byte(`{"n":2,"timing":1}`), &cfg), "timing is a word, not a number")
}

// TimingSpec writes what ParseTimingSpec reads.
func TestTimingSpecRoundTrip(t *testing.T) {
	for _, c := range []Config{{Timing: Sync}, {Timing: Async}, {Timing: Bounded, Delay: 3}} {
		tm, d, err := ParseTimingSpec(c.TimingSpec())
		require.NoError(t, err)
		require.Equal(t, [2]int{int(c.Timing), c.Delay}, [2]int{int(tm), d}, c.TimingSpec())
	}
	require.Equal(t, "bounded:3", (&Config{Timing: Bounded, Delay: 3}).TimingSpec())
}
