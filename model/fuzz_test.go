package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fuzzN turns a fuzzed int into a node count from 1 to 64.
func fuzzN(n int) int {
	if n < 0 {
		n = -(n + 1)
	}
	return n%64 + 1
}

// A rank or initiator spec that parses gives a configuration that
// validates: n distinct ranks, n initiator flags; an explicit rank list
// is read back from its own text.
func FuzzParseRanks(f *testing.F) {
	for _, s := range []string{"", "sorted", "reverse", "random:7", "3,1,2,0", "0,0,1,2", "1, 2 ,0,3", "random:-1", "all", "0,2", "n1,n3", "4"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, spec string, n int) {
		n = fuzzN(n)
		if ranks, err := ParseRanks(spec, n); err == nil {
			cfg := Config{N: n, Ranks: ranks}
			if err := cfg.Validate(); err != nil {
				t.Fatalf("ranks %q for %d nodes parse to %v, which does not validate: %v", spec, n, ranks, err)
			}
			var parts []string
			for _, r := range ranks {
				parts = append(parts, strconv.Itoa(r))
			}
			again, err := ParseRanks(strings.Join(parts, ","), n)
			if err != nil || !slices.Equal(again, ranks) {
				t.Fatalf("ranks %v do not read back from their own list: %v, %v", ranks, again, err)
			}
		} else if strings.Contains(err.Error(), "\n") {
			t.Fatalf("a two-line error: %q", err)
		}
		if init, err := ParseInitiators(spec, n); err == nil {
			cfg := Config{N: n, Initiators: init}
			if err := cfg.Validate(); err != nil {
				t.Fatalf("initiators %q for %d nodes parse to %v, which does not validate: %v", spec, n, init, err)
			}
			if init != nil && !slices.Contains(init, true) {
				t.Fatalf("initiators %q name no node yet parse", spec)
			}
		}
	})
}

// A topology that parses is a connected graph of n nodes whose every link
// joins two of them, symmetric unless its links go one way, that reads
// back from its own spec and validates in a configuration.
func FuzzParseTopology(f *testing.F) {
	for _, s := range []string{"", "complete", "ring", "uniring", "line", "star", "tree", "grid:2x2", "grid:4x4611686018427387905",
		"random:3", "random:3:0.1", "random:3:1", "edges:0-1,1-2,2-3", "edges:n0-n1,1-2,2-3,3-0", "edges:", "edges:0-0", "hypercube"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, spec string, n int) {
		n = fuzzN(n)
		g, err := ParseTopology(spec, n)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		if g.N() != n {
			t.Fatalf("topology %q for %d nodes has %d", spec, n, g.N())
		}
		if !g.complete {
			if far := g.unreached(); far >= 0 {
				t.Fatalf("topology %q for %d nodes: n%d cannot reach n0", spec, n, far)
			}
		}
		for _, e := range g.Edges() {
			i, j := e[0], e[1]
			if i < 0 || j < 0 || int(i) >= n || int(j) >= n || i == j {
				t.Fatalf("topology %q: link %v outside 0..%d or a loop", spec, e, n-1)
			}
			if !g.Adjacent(i, j) || !g.Directed() && !g.Adjacent(j, i) {
				t.Fatalf("topology %q: link %v is not adjacent both ways", spec, e)
			}
		}
		again, err := ParseTopology(g.String(), n)
		if err != nil || !slices.Equal(again.Edges(), g.Edges()) {
			t.Fatalf("topology %q does not read back from %q: %v", spec, g.String(), err)
		}
		cfg := Config{N: n, Topology: spec}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("topology %q parses but its configuration does not validate: %v", spec, err)
		}
	})
}

// A timing spec that parses validates in a configuration and reads back
// from the configuration's TimingSpec; channels read back from their
// String.
func FuzzParseTimingSpec(f *testing.F) {
	for _, s := range []string{"sync", "async", "bounded", "bounded:1", "bounded:100", "bounded:101", "bounded:-3", "bounded:07", "fifo", "unordered", "Sync"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tm, d, err := ParseTimingSpec(s); err == nil {
			cfg := Config{N: 1, Timing: tm, Delay: d}
			if err := cfg.Validate(); err != nil {
				t.Fatalf("timing %q parses to %v, %d, which does not validate: %v", s, tm, d, err)
			}
			tm2, d2, err := ParseTimingSpec(cfg.TimingSpec())
			if err != nil || tm2 != tm || d2 != d {
				t.Fatalf("timing %q does not read back from %q: %v %d %v", s, cfg.TimingSpec(), tm2, d2, err)
			}
			var back Timing
			if b, _ := tm.MarshalText(); back.UnmarshalText(b) != nil || back != tm {
				t.Fatalf("timing %v does not read back from its text %q", tm, b)
			}
		} else if strings.Contains(err.Error(), "\n") {
			t.Fatalf("a two-line error: %q", err)
		}
		if c, err := ParseChannels(s); err == nil && c.String() != s {
			t.Fatalf("channels %q print as %q", s, c)
		}
	})
}

// A configuration read from JSON that validates stays valid through
// JSON and back, and its accessors stay within its nodes.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		`{"n":4,"channels":"fifo","timing":"sync","crashes":1,"recoveries":0,"ranks":[0,1,2,3]}`,
		`{"n":3,"channels":"unordered","timing":"bounded","delay":2,"losses":1,"duplicates":1,"partitions":1,"topology":"ring"}`,
		`{"n":5,"timing":"async","initiators":[true,false,false,false,true],"params":{"requests":2},"topology":"grid:1x5"}`,
		`{"n":2,"ranks":[7,7]}`, `{"n":0}`, `{"n":40000}`, `{"n":3,"timing":"sync","delay":3}`, `{"n":3,"topology":"random:1:0.2"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var cfg Config
		if json.Unmarshal(b, &cfg) != nil {
			return
		}
		if cfg.N > 512 {
			return // a random topology of N nodes takes N² draws: the cap is tested apart
		}
		if err := cfg.Validate(); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		out, err := json.Marshal(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		var back Config
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s does not read back: %v", out, err)
		}
		if err := back.Validate(); err != nil {
			t.Fatalf("%s validated, and not once through JSON: %v", out, err)
		}
		if again, _ := json.Marshal(&back); string(again) != string(out) {
			t.Fatalf("%s reads back as %s", out, again)
		}
		g, err := cfg.Graph()
		if err != nil || g.N() != cfg.N {
			t.Fatalf("%s: its graph: %v", out, err)
		}
		seen := map[int]bool{}
		for i := range cfg.N {
			r := cfg.Rank(NodeID(i))
			if seen[r] {
				t.Fatalf("%s: rank %d twice", out, r)
			}
			seen[r] = true
			cfg.Initiator(NodeID(i))
		}
	})
}
