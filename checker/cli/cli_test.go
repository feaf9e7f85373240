package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// builtins is the registry of cmd/vigil.
var builtins = protocols.Registry()

func vigil(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(builtins, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// -h of a command with flags prints its usage line and flags to stderr and
// exits 0 (a flag it does not know is among the bad inputs below).
func TestHelp(t *testing.T) {
	for _, c := range []struct{ cmd, usage, flag string }{
		{"check", "usage: vigil check PROTOCOL [flags]", "-walks"},
		{"explore", "usage: vigil explore PROTOCOL [-port N]", "-port"},
		{"validate", "usage: vigil validate [PROTOCOL [check flags]]", "-props"},
		{"merge", "usage: vigil merge [flags] SHARD.json ...", "-trace"},
		{"uncovered", "usage: vigil uncovered [-only PATH] [-all] PROFILE", "-only"},
	} {
		code, out, errOut := vigil(c.cmd, "-h")
		require.Equal(t, 0, code, c.cmd)
		require.Empty(t, out, c.cmd)
		require.True(t, strings.HasPrefix(errOut, c.usage), "%s -h:\n%s", c.cmd, errOut)
		require.Contains(t, errOut, "\n  "+c.flag+" ", c.cmd)
	}
}

func TestBadInputIsOneLineAndExit2(t *testing.T) {
	corrupt := filepath.Join(t.TempDir(), "corrupt.json")
	require.NoError(t, os.WriteFile(corrupt, []byte(`{"protocol": "election/bully", "trace": [`), 0o644))
	unknownProto := filepath.Join(t.TempDir(), "unknown.json")
	require.NoError(t, os.WriteFile(unknownProto, []byte(`{"protocol":"election/nope","config":{"n":3},"trace":{"events":[]}}`), 0o644))
	badStep := filepath.Join(t.TempDir(), "badstep.json")
	require.NoError(t, os.WriteFile(badStep, []byte(`{"protocol":"election/bully","config":{"n":3,"channels":"fifo","timing":"sync"},
		"properties":["unique-leader"],"trace":{"events":[{"kind":"deliver","node":0,"from":2,"msg":"answer"}]}}`), 0o644))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "nosuch"}, `unknown protocol "nosuch"`},
		{[]string{"check", "bully", "-n", "0"}, "n must be between 1"},
		{[]string{"check", "bully", "-n", "100000", "-mode", "exhaustive"}, "n must be between 1"},
		{[]string{"check", "bully", "-n", "30", "-mode", "exhaustive"}, "too large for an exhaustive search"},
		{[]string{"check", "bully", "-n", "12", "-sweep"}, "-sweep is a way of searching exhaustively; it does not apply to -mode random"},
		{[]string{"check", "bully", "-timing", "sometimes"}, "timing must be sync, async or bounded:D"},
		{[]string{"check", "bully", "-timing", "bounded"}, "timing bounded needs its delay bound: bounded:D, D ticks"},
		{[]string{"check", "bully", "-timing", "bounded:0"}, "timing bounded:D needs a delay D between 1 and 100"},
		{[]string{"check", "bully", "-ranks", "1,1,2,3"}, "distinct"},
		{[]string{"check", "bully", "-props", "mutual-exclusion"}, `election/bully has no property "mutual-exclusion" (it has: agreement,`},
		{[]string{"check", "bully", "-props", "no-such-property"}, `has no property "no-such-property"`},
		{[]string{"check", "bully", "-props", "agreement,agreement"}, "two properties are named agreement"},
		{[]string{"check", "bully", "-props", "agreement,,termination"}, "want comma-separated property names, or none"},
		{[]string{"check", "bully", "-mode", "fast"}, "mode must be"},
		{[]string{"check", "invitation", "-partitions", "8"}, "partitions must be between 0 and 7"},
		{[]string{"check", "invitation", "-n", "1", "-partitions", "1"}, "partitions need at least 2 nodes"},
		{[]string{"check", "bully", "-topology", "hypercube"}, `topology "hypercube": want complete, ring, uniring, line, star, tree, grid:RxC, random:SEED[:P] or edges:I-J,...`},
		{[]string{"check", "bully", "-topology", "grid:2x3"}, `topology "grid:2x3": a 2x3 grid has 6 nodes, not 4`},
		{[]string{"check", "bully", "-topology", "edges:0-1,1-2,2-2"}, `topology "edges:0-1,1-2,2-2": link "2-2" links a node to itself`},
		{[]string{"check", "bully", "-topology", "edges:0-1,1-4"}, `topology "edges:0-1,1-4": link "1-4" names a node outside 0..3`},
		{[]string{"check", "bully", "-topology", "edges:0-1,2-3"}, `topology "edges:0-1,2-3" is not connected: n2 cannot reach n0`},
		{[]string{"check", "bully", "-topology", "random:x"}, `topology "random:x": the seed must be a non-negative integer`},
		{[]string{"check", "changroberts", "-n", "5", "-topology", "grid:2x2"}, `a 2x2 grid has 4 nodes, not 5`},
		{[]string{"check", "central", "-losses", "256"}, "losses must be between 0 and 255, not 256"},
		{[]string{"check", "central", "-losses", "-1"}, "losses must be between 0 and 255, not -1"},
		{[]string{"check", "basic", "-duplicates", "300"}, "duplicates must be between 0 and 255, not 300"},
		{[]string{"check", "basic", "-duplicates", "-2"}, "duplicates must be between 0 and 255, not -2"},
		{[]string{"check", "basic", "-duplicates", "one"}, "invalid value"},
		{[]string{"check", "emergent", "-param", "pool-min"}, "want name=value"},
		{[]string{"check", "emergent", "-param", "pool-mni=2"}, "election/emergent has no parameter pool-mni (it has: pool-min, pool-max)"},
		{[]string{"check", "emergent", "-param", "pool-min=two"}, `-pool-min takes an integer, not "two"`},
		{[]string{"check", "bully", "-requests", "2"}, "election/bully has no parameter requests (it has: none)"},
		{[]string{"check", "bully", "-scenario", "nope"}, "has no scenario"},
		{[]string{"check", "central", "-fairness", "sometimes"}, `unknown fairness "sometimes"`},
		{[]string{"check", "reliable", "-crashes", "1", "-recoveries", "1"}, "multicast/reliable: crash-stop protocol (it has no Recover method): run it with no recoveries, not 1"},
		{[]string{"check", "lelann", "-channels", "set"}, `election/lelann: channels the protocol does not assume: it needs FIFO channels (the Leader Election notes: "assuming FIFO channels"`},
		{[]string{"check", "central", "-channels", "set"}, "mutex/central: channels the protocol does not assume: it needs exactly-once delivery"},
		{[]string{"explore", "basic", "-channels", "set"}, "multicast/basic: channels the protocol does not assume: it needs exactly-once delivery"},
		{[]string{"check", "changroberts", "-channels", "set", "-losses", "1"}, "set channels already lose, duplicate and reorder any message: run them with no losses or duplicates, not 1 and 0"},
		{[]string{"check", "changroberts", "-channels", "set", "-duplicates", "1"}, "not 0 and 1"},
		{[]string{"check", "bully", "-channels", "set", "-partitions", "1"}, "set channels lose no message to a cut"},
		{[]string{"check", "changroberts", "-channels", "set", "-timing", "bounded:2"}, "set channels keep every message for ever"},
		{[]string{"check", "changroberts", "-channels", "bag"}, `channels must be fifo, unordered or set, not "bag"`},
		{[]string{"check", "central", "-requests", "-1"}, "requests must be at least 0"},
		{[]string{"check", "ricartagrawala", "-requests", "0"}, "requests must be at least 1 here"},
		{[]string{"check", "basic", "-msgs", "0"}, "msgs must be between 1 and 65535, not 0"},
		{[]string{"check", "sequencer", "-reads", "often"}, `-reads takes none, local, ordered, not "often"`},
		{[]string{"check", "fifo", "-reads", "local"}, "multicast/fifo has no parameter reads (it has: msgs)"},
		{[]string{"check", "basic", "-props", "agreement,no-deadlock"}, `multicast/basic has no property "no-deadlock"`},
		{[]string{"check"}, "needs a protocol name"},
		{[]string{"check", "--all", "-first"}, "-first leaves verdicts unknown, and --all compares every verdict"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"list", "-format", "bogus"}, `list -format takes text or markdown, not "bogus"`},
		{[]string{"list", "bully"}, `list takes no arguments, not "bully"`},
		{[]string{"list", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"replay", corrupt}, "not a vigil trace"},
		{[]string{"replay", filepath.Join(t.TempDir(), "missing.json")}, "cannot read"},
		{[]string{"replay", unknownProto}, "unknown protocol"},
		{[]string{"replay", badStep}, "is not enabled"},
		{[]string{"check", "lelann", "-shard", "1/2"}, "-shard splits a random search; it does not apply to -mode auto"},
		{[]string{"check", "lelann", "-mode", "random", "-shard", "2/2"}, `shard "2/2": want I/K, the shard I from 0 to K-1 of K`},
		{[]string{"check", "lelann", "-mode", "random", "-shard", "0/2", "-trace", "x.json"}, "-trace and -linearizability-html go to vigil merge"},
		{[]string{"check", "--all", "-shard", "0/2"}, "give a protocol, not --all"},
		{[]string{"check", "bully", "-format", "svg"}, `-format takes text, json or mermaid, not "svg"`},
		{[]string{"check", "bully", "-json", "-format", "mermaid"}, "-json and -format mermaid ask for two formats"},
		{[]string{"replay", "-format", "svg", corrupt}, `replay -format takes text or mermaid, not "svg"`},
		{[]string{"replay", "-format", "mermaid"}, "replay needs exactly one trace file"},
		{[]string{"merge"}, "merge needs the files of the shards"},
		{[]string{"merge", corrupt}, "not a shard of a vigil search"},
		{[]string{"merge", filepath.Join(t.TempDir(), "missing.json")}, "cannot read"},
		{[]string{"check", "bully", "-workers", "99999999999"}, "workers must be from 1 to"},
		{[]string{"check", "bully", "-mode", "random", "-workers", "-1"}, "-workers must not be negative, not -1"},
		{[]string{"check", "--all", "-workers", "10000"}, "workers must be from 1 to"},
		{[]string{"check", "bully", "-mode", "random", "-walks", "-3"}, "-walks must be at least 1, not -3"},
		{[]string{"check", "bully", "-mode", "random", "-walks", "0"}, "-walks must be at least 1, not 0"},
		{[]string{"check", "bully", "-mode", "random", "-depth", "-5"}, "-depth must not be negative, not -5"},
		{[]string{"check", "bully", "-time", "-1s"}, "-time must not be negative, not -1s"},
		{[]string{"check", "bully", "-crashes", "-1"}, "crashes and recoveries must be between 0 and 255"},
		{[]string{"check", "bully", "-n", "32768", "-mode", "random", "-walks", "1", "-memory", "1000"},
			"n = 32768 needs about 16.0 GiB for the channel tables of its random walker, more than the memory bound of 1000 MiB, as the options ask; the largest n that fits is 8191"},
		{[]string{"check", "bully", "-memory", "1000000000"}, "is more than this process may hold"},
		{[]string{"check", "lelann", "-mode", "random", "-scheduler", "pct:0"}, "the depth of pct:D is a whole number from 1 to 100"},
		{[]string{"check", "lelann", "-mode", "exhaustive", "-scheduler", "swarm"}, "-scheduler chooses the events of random walks"},
		{[]string{"check", "central", "-mode", "exhaustive", "-shrink-time", "1s"}, "-shrink-time shortens the counterexamples of random walks"},
		{[]string{"check", "central", "-mode", "random", "-shrink-time", "-1s"}, "-shrink-time must not be negative"},
		{[]string{"check", "paxos", "-mode", "random", "-hot-bound", "-1"}, "-hot-bound must not be negative, not -1"},
		{[]string{"check", "paxos", "-mode", "exhaustive", "-hot-bound", "100"}, "-hot-bound bounds how long random walks stay hot"},
		{[]string{"check", "central", "-mode", "exhaustive", "-probe", "1s"}, "-probe sets the time of the auto mode's random probe"},
		{[]string{"check", "central", "-probe", "-1s"}, "-probe must not be negative"},
		{[]string{"check", "-no-such-flag"}, "vigil: flag provided but not defined: -no-such-flag"},
		{[]string{"explore", "-no-such-flag"}, "vigil: flag provided but not defined: -no-such-flag"},
		{[]string{"merge", "-no-such-flag"}, "vigil: flag provided but not defined: -no-such-flag"},
		{[]string{"uncovered", "-no-such-flag"}, "vigil: flag provided but not defined: -no-such-flag"},
	}
	for _, c := range cases {
		code, stdout, stderr := vigil(c.args...)
		require.Equal(t, 2, code, "%v: %s%s", c.args, stdout, stderr)
		require.Contains(t, stderr, c.want, "%v", c.args)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "%v: one line, got %q", c.args, stderr)
		require.NotContains(t, stderr, "panic")
	}
}

// The shards of a random search, merged, print what the search prints on
// one machine, save the time, with its exit code; the merged trace file
// replays. Shards of different searches are not merged.
func TestShardsAndMerge(t *testing.T) {
	dir := t.TempDir()
	seconds := regexp.MustCompile(`[0-9.]+s\b`)
	for _, c := range []struct {
		args    []string
		code    int
		replays bool // a property fails: the trace file replays to it
	}{
		{[]string{"check", "bully", "-n", "9", "-crashes", "1", "-timing", "async", "-walks", "40", "-depth", "300"}, 1, true},
		{[]string{"check", "lelann", "-n", "10", "-walks", "30", "-rounds"}, 0, false},
		{[]string{"check", "isis", "-n", "8", "-initiators", "all", "-msgs", "2", "-reads", "local", "-walks", "40"}, 1, false},
	} {
		code, whole, _ := vigil(c.args...)
		require.Equal(t, c.code, code, whole)
		var files []string
		for i := range 3 {
			code, part, errOut := vigil(append(c.args, "-shard", fmt.Sprintf("%d/3", i))...)
			require.Equal(t, 0, code, errOut)
			files = append(files, filepath.Join(dir, fmt.Sprintf("%s-%d.json", c.args[1], i)))
			require.NoError(t, os.WriteFile(files[i], []byte(part), 0o644))
		}
		trace := filepath.Join(dir, c.args[1]+"-trace.json")
		code, merged, errOut := vigil(append([]string{"merge", "-trace", trace}, files...)...)
		require.Equal(t, c.code, code, errOut)
		require.Equal(t, seconds.ReplaceAllString(whole, "T"), seconds.ReplaceAllString(merged, "T"))
		if c.replays {
			code, out, _ := vigil("replay", trace)
			require.Equal(t, 1, code, out)
		}
	}
	code, _, errOut := vigil("merge", filepath.Join(dir, "bully-0.json"), filepath.Join(dir, "lelann-1.json"))
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "is a shard of another search")
	code, _, errOut = vigil("merge", filepath.Join(dir, "bully-0.json"), filepath.Join(dir, "bully-0.json"), filepath.Join(dir, "bully-2.json"))
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "shard 0/3 is given twice")
}

// The register over total order, from the command line: stale local
// reads fail (exit 1) with porcupine's drawing written; ordered reads pass.
func TestRegisterFromTheCommandLine(t *testing.T) {
	html := filepath.Join(t.TempDir(), "register.html")
	code, out, _ := vigil("check", "isis", "-n", "8", "-initiators", "all", "-msgs", "2", "-reads", "local", "-walks", "100", "-linearizability-html", html)
	require.Equal(t, 1, code, out)
	require.Regexp(t, `register client histories \(porcupine\): fail, 100 histories of \d+ operations; the history of walk -seed \d+ is not linearizable`, out)
	b, err := os.ReadFile(html)
	require.NoError(t, err)
	require.Contains(t, string(b), "<html")

	code, out, _ = vigil("check", "isis", "-n", "8", "-initiators", "all", "-msgs", "2", "-reads", "ordered", "-walks", "100")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "register client histories (porcupine): pass, 100 histories of 1600 operations")
}

func TestVerdictExitCodes(t *testing.T) {
	code, out, _ := vigil("check", "bully")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "verdict: pass")

	// random walks that find nothing prove nothing, and say so; CI still
	// gets 0
	code, out, _ = vigil("check", "bully", "-mode", "random", "-walks", "20")
	require.Equal(t, 0, code, out)
	require.Regexp(t, `unique-leader +no counterexample\n`, out)
	require.Regexp(t, `verdict: no counterexample in 20 walks \(\d+ steps\): not a proof\n$`, out)
	require.Regexp(t, `elected +pass\n`, out, "a walk that reaches the goal proves a sometimes-property")
	require.Equal(t, 1, strings.Count(out, "pass"), out)

	// JSON says which searches are complete
	for _, c := range []struct {
		args     []string
		code     int
		complete bool
	}{
		{[]string{"check", "bully", "-json"}, 0, true},
		{[]string{"check", "bully", "-json", "-mode", "random", "-walks", "20"}, 0, false},
		{[]string{"check", "bully", "-json", "-max-states", "50"}, 2, false},
	} {
		code, out, _ = vigil(c.args...)
		require.Equal(t, c.code, code, out)
		var doc struct{ Complete *bool }
		require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
		require.NotNil(t, doc.Complete, out)
		require.Equal(t, c.complete, *doc.Complete, c.args)
	}

	code, out, _ = vigil("check", "election/bully", "-scenario", "async-crash")
	require.Equal(t, 1, code, out)
	require.Contains(t, out, "counterexample to unique-leader")
	require.Contains(t, out, "timeout answer")
}

// A sweep of runs that end gives the full search's verdicts and counts, or
// the reduced search's; a sweep of a token that circulates forever cannot
// end, and says so.
func TestSweep(t *testing.T) {
	for _, c := range []struct{ reduce, counts, partialOrder string }{
		{"none", "  42085 states, 112734 transitions, depth 36", "  no partial-order reduction: as asked\n"},
		{"all", "  33490 states, 76661 transitions, depth 36", "  partial order: some nodes' steps alone from 7251 of 33490 states\n"},
	} {
		code, out, _ := vigil("check", "ricartagrawala", "-n", "3", "-requests", "2", "-sweep", "-reduce", c.reduce)
		require.Equal(t, 0, code, out)
		require.Contains(t, out, "exhaustive (sweep) search\n")
		require.Contains(t, out, "  no-starvation    pass\n")
		require.Contains(t, out, c.counts)
		require.Contains(t, out, c.partialOrder)
		require.Contains(t, out, "messages per complete run: total 24, request 12, reply 12\n")
	}

	code, out, _ := vigil("check", "tokenring", "-n", "3", "-requests", "0", "-sweep", "-depth", "60", "-mode", "exhaustive")
	require.Equal(t, 2, code, out)
	require.Contains(t, out, "  no-starvation    unknown\n")
	require.Contains(t, out, "search cut by the depth bound (-depth)")
	require.NotContains(t, out, "-mode random", "a depth bound is the user's choice, not a sign of too many states")
}

// -first stops at the first violation: fewer states, the same first
// counterexample, the properties not yet failed unknown, in text and JSON,
// in both modes; still exit 1.
func TestFirst(t *testing.T) {
	type doc struct {
		Verdict        string
		StoppedFirst   bool `json:"stopped_at_first"`
		Properties     []struct{ Name, Result string }
		Stats          struct{ States, Transitions, Walks int }
		Counterexample *struct {
			Property string
			Events   []struct{ Kind string }
		}
	}
	base := []string{"check", "lelann", "-scenario", "unordered", "-props", "unique-leader,agreement,highest-leader,termination"}
	for _, c := range []struct {
		mode    string
		unknown []string // the properties -first leaves unknown
	}{
		{"exhaustive", []string{"highest-leader", "termination"}},
		{"random", []string{"highest-leader", "termination"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			args := append(slices.Clone(base), "-mode", c.mode, "-walks", "200")
			code, out, _ := vigil(append(args, "-json")...)
			require.Equal(t, 1, code, out)
			var full doc
			require.NoError(t, json.Unmarshal([]byte(out), &full), out)
			require.False(t, full.StoppedFirst)

			code, out, _ = vigil(append(args, "-json", "-first")...)
			require.Equal(t, 1, code, out)
			var first doc
			require.NoError(t, json.Unmarshal([]byte(out), &first), out)
			require.Equal(t, "fail", first.Verdict)
			require.True(t, first.StoppedFirst)
			for _, pr := range first.Properties {
				if slices.Contains(c.unknown, pr.Name) {
					require.Equal(t, "unknown", pr.Result, pr.Name)
				} else {
					require.Equal(t, "fail", pr.Result, pr.Name)
				}
			}
			if c.mode == "exhaustive" {
				require.Less(t, first.Stats.States, full.Stats.States)
			} else {
				require.Less(t, first.Stats.Walks, full.Stats.Walks)
			}
			require.Equal(t, full.Counterexample, first.Counterexample)

			code, out, _ = vigil(append(args, "-first")...)
			require.Equal(t, 1, code, out)
			require.Contains(t, out, "\n  highest-leader   unknown: not judged to the end: the search stopped at the first violation\n")
			require.Contains(t, out, "\n  stopped at the first violation (-first): the other verdicts are unknown")
			require.Contains(t, out, "verdict: fail\n")
		})
	}
}

// crashy is a protocol whose Receive panics: n0 greets n1, and n1 fails.
type crashy struct{}

type hello struct{ Hello int }

func (crashy) Init(ctx *model.Ctx[hello]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, hello{1})
	}
	return 0
}
func (crashy) Receive(_ *model.Ctx[hello], _ int, _ model.NodeID, m hello) int {
	panic(fmt.Sprintf("cannot take hello %d", m.Hello))
}
func (crashy) Timeout(_ *model.Ctx[hello], s int, _ model.Timer) int { return s }
func (crashy) Recover(_ *model.Ctx[hello], s int) int                { return s }

// mutator counts the hellos it gets in place, in its input state.
type mutator struct{}

func (mutator) Init(ctx *model.Ctx[hello]) []int {
	if ctx.Self() == 0 {
		ctx.Send(1, hello{1})
	}
	return []int{0}
}
func (mutator) Receive(_ *model.Ctx[hello], s []int, _ model.NodeID, _ hello) []int {
	s[0]++
	return s
}
func (mutator) Timeout(_ *model.Ctx[hello], s []int, _ model.Timer) []int { return s }
func (mutator) Recover(_ *model.Ctx[hello], s []int) []int                { return s }

// greeter is crashy mended: n1 takes n0's hello and follows n0.
type greeter struct{ crashy }

func (greeter) Receive(ctx *model.Ctx[hello], s int, from model.NodeID, _ hello) int {
	ctx.Observe(model.Leader(from))
	return s + 1
}

// counting is a monitor that counts each node's observations in place.
var counting = properties.NewMonitor("counting",
	func(cfg *model.Config) []int { return make([]int, cfg.N) },
	func(_ *model.Config, st []int, node model.NodeID, _ model.Obs) []int {
		st[node]++
		return st
	})

var counted = &properties.Property{Name: "counted", Doc: "the counting monitor's state", When: properties.Always,
	Monitor: counting, Check: func(properties.View) string { return "" }}

// faulty is the built-in registry with protocols that fail: a handler that
// panics, a handler that mutates its input state, and a protocol fine in
// itself whose monitor mutates its state.
func faulty(t *testing.T) *suite.Registry {
	r := protocols.Registry()
	hello := []suite.Scenario{{Name: "hello", N: 2, Expect: checker.Pass}}
	require.NoError(t, r.Register(
		&suite.Protocol{Name: "crashy", Family: "test", Properties: []*properties.Property{properties.UniqueLeader},
			Claims: []string{"unique-leader"}, Compile: suite.Compiler("test/crashy", crashy{}, nil), Scenarios: hello},
		&suite.Protocol{Name: "mutator", Family: "test", Properties: []*properties.Property{properties.UniqueLeader},
			Claims: []string{"unique-leader"}, Compile: suite.Compiler("test/mutator", mutator{}, nil), Scenarios: hello},
		&suite.Protocol{Name: "counted", Family: "test", Properties: []*properties.Property{counted},
			Claims: []string{"counted"}, Compile: suite.Compiler("test/counted", greeter{}, nil), Scenarios: hello},
	))
	return r
}

// A handler that panics, a handler that mutates its input and a monitor
// that mutates its state are each reported with the run to the fault, exit
// 2, in text and JSON, in both modes; the trace replays to the same fault.
func TestFaultsAreReported(t *testing.T) {
	r := faulty(t)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := Main(r, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	cases := []struct {
		protocol, handler string
		fault, last       string
	}{
		{"crashy", "Receive", "fault: protocol test/crashy: Receive on n1 panicked: cannot take hello 1\n",
			"   1. n0 → n1  {Hello:1}\n  (the fault is in this last step: nothing came of it)\n"},
		{"mutator", "Receive", "fault: protocol test/mutator: Receive on n1 mutated its input state",
			"   1. n0 → n1  {Hello:1}\n  (the fault is in this last step: nothing came of it)\n"},
		{"counted", "Observe", "fault: monitor counting",
			"(the fault is in this last step: nothing came of it)\n"},
	}
	for _, c := range cases {
		for _, mode := range []string{"exhaustive", "random"} {
			what := c.protocol + " " + mode
			file := filepath.Join(t.TempDir(), "fault.json")
			code, out, stderr := run("check", c.protocol, "-mode", mode, "-trace", file)
			require.Equal(t, 2, code, out+stderr)
			require.Contains(t, out, c.fault, what)
			require.Contains(t, out, c.last, what)
			require.Contains(t, out, "verdict: error\n", what)
			require.NotContains(t, stderr, "panic:", what)
			if c.protocol == "crashy" {
				require.Regexp(t, `  panicked in github.com/vigil-check/vigil/checker/cli.crashy.Receive at .*cli_test.go:\d+\n`, out)
			}

			code, out, _ = run("check", c.protocol, "-mode", mode, "-json")
			require.Equal(t, 2, code, out)
			var doc struct {
				Verdict string
				Fault   *struct {
					Handler string
					Trace   struct{ Events []struct{ Kind string } }
				}
			}
			require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
			require.Equal(t, "error", doc.Verdict, what)
			require.NotNil(t, doc.Fault, what)
			require.Equal(t, c.handler, doc.Fault.Handler, what)
			require.NotEmpty(t, doc.Fault.Trace.Events, what)

			code, replayed, stderr := run("replay", file)
			require.Equal(t, 2, code, replayed+stderr)
			require.Contains(t, replayed, c.fault, what)
		}
	}
}

// -topology restricts the network: a ring election, whose scenario runs on
// the unidirectional ring, finds the same states on the ring and on the
// complete graph, and on its own ring with -reduce none (partial order
// reduces it there to one run), and the header says which graph it ran on;
// bully, which sends to every node, faults on a star, and its trace
// replays on the star to the same fault.
func TestTopologyFlag(t *testing.T) {
	counts := regexp.MustCompile(`\n  \d+ states, \d+ transitions, depth \d+`)
	code, uniring, _ := vigil("check", "changroberts")
	require.Equal(t, 0, code, uniring)
	require.Contains(t, uniring, "[worst-ring] n=6 fifo sync crashes=0 recoveries=0 topology=uniring ranks=")
	require.Contains(t, uniring, "\n  28 states, 27 transitions, depth 27")
	code, full, _ := vigil("check", "changroberts", "-reduce", "none")
	require.Equal(t, 0, code, full)
	code, ring, _ := vigil("check", "changroberts", "-topology", "ring")
	require.Equal(t, 0, code, ring)
	require.Contains(t, ring, "[worst-ring with flags] n=6 fifo sync crashes=0 recoveries=0 topology=ring ranks=")
	code, complete, _ := vigil("check", "changroberts", "-topology", "complete")
	require.Equal(t, 0, code, complete)
	require.Contains(t, complete, "[worst-ring with flags] n=6 fifo sync crashes=0 recoveries=0 topology=complete ranks=")
	require.Equal(t, counts.FindString(complete), counts.FindString(ring))
	require.Equal(t, counts.FindString(complete), counts.FindString(full))
	require.Contains(t, full, "\n  435 states, ")

	code, out, _ := vigil("check", "changroberts", "-json")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, `"topology": "uniring"`)

	file := filepath.Join(t.TempDir(), "star.json")
	code, out, stderr := vigil("check", "bully", "-topology", "star", "-trace", file)
	require.Equal(t, 2, code, out+stderr)
	require.Regexp(t, `fault: protocol election/bully: \w+ on n(\d) sent to n(\d), which is not a neighbour of n\d on topology star\n`, out)
	require.Contains(t, out, "verdict: error\n")
	code, replayed, stderr := vigil("replay", file)
	require.Equal(t, 2, code, replayed+stderr)
	require.Contains(t, replayed, "which is not a neighbour of")
}

func TestCutSearchSaysSoAndExits2(t *testing.T) {
	code, out, _ := vigil("check", "changroberts", "-n", "9", "-ranks", "reverse", "-mode", "exhaustive", "-max-states", "5000", "-reduce", "none")
	require.Equal(t, 2, code, out)
	require.Contains(t, out, "search cut by the state limit (-max-states)")
	require.Contains(t, out, "random walks check this N without keeping its states: -mode random\n")
	require.Contains(t, out, "unknown")
	require.Regexp(t, `\n  \d{4,} states`, out)
}

func TestJSONOutput(t *testing.T) {
	code, out, _ := vigil("check", "lelann", "-scenario", "unordered", "-json")
	require.Equal(t, 1, code)
	var doc struct {
		Protocol   string
		Verdict    string
		Properties []struct{ Name, Result string }
		Stats      struct {
			States, Transitions, Depth int
			Seconds                    float64
		}
		Messages []struct {
			Kind     string
			Min, Max int
		}
		Counterexample *struct {
			Property string
			Events   []struct{ Kind string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	require.Equal(t, "election/lelann", doc.Protocol)
	require.Equal(t, "fail", doc.Verdict)
	require.Equal(t, "elected", doc.Properties[0].Name)
	require.Equal(t, "pass", doc.Properties[0].Result)
	require.Equal(t, "unique-leader", doc.Properties[1].Name)
	require.Equal(t, "fail", doc.Properties[1].Result)
	require.Positive(t, doc.Stats.States)
	require.Positive(t, doc.Stats.Transitions)
	require.Equal(t, "total", doc.Messages[0].Kind)
	require.Equal(t, 9, doc.Messages[0].Max)
	require.NotNil(t, doc.Counterexample)
	require.Equal(t, "unique-leader", doc.Counterexample.Property)
	require.NotEmpty(t, doc.Counterexample.Events)
}

// A counterexample written by -trace replays to the same violation, with
// the same steps.
func TestTraceReplays(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cx.json")
	code, out, _ := vigil("check", "bully", "-scenario", "sync-recovery", "-trace", file)
	require.Equal(t, 1, code, out)
	code, replayed, stderr := vigil("replay", file)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, replayed, "counterexample to unique-leader: n2 and n3 both believe they are the leader")
	// the steps printed by check and by replay are the same
	steps := func(s string) string {
		i := strings.Index(s, "counterexample to unique-leader")
		j := strings.Index(s[i:], "(violation")
		return s[i : i+j]
	}
	require.Equal(t, steps(out), steps(replayed))
}

// -format mermaid draws the first counterexample; replay draws the same
// diagram from the trace file; a check that passes draws the lifelines and
// says there is nothing more.
func TestMermaidFormat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cx.json")
	code, out, _ := vigil("check", "bully", "-scenario", "async-crash", "-format", "mermaid", "-trace", file)
	require.Equal(t, 1, code, out)
	require.True(t, strings.HasPrefix(out, "%% election/bully [async-crash] n=4 fifo async crashes=1"), out)
	require.Contains(t, out, "\nsequenceDiagram\n    participant n0\n")
	require.Contains(t, out, "    Note over n0: 1. timeout answer\n")
	require.Contains(t, out, "Note over n0,n3: unique-leader fails: n0 and n3 both believe they are the leader")
	code, replayed, stderr := vigil("replay", "-format", "mermaid", file)
	require.Equal(t, 1, code, stderr)
	body := func(s string) string { return s[strings.Index(s, "sequenceDiagram"):] }
	require.Equal(t, body(out), body(replayed))

	code, out, _ = vigil("check", "lelann", "-format", "mermaid")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "sequenceDiagram\n    participant n0\n")
	require.Contains(t, out, ": pass: no counterexample to draw")
}

// -html writes the report of a check, and replay -html that of the run it
// replays; both hold the chart and the violation.
func TestHTMLReports(t *testing.T) {
	dir := t.TempDir()
	trace, checked, replayed := filepath.Join(dir, "cx.json"), filepath.Join(dir, "check.html"), filepath.Join(dir, "replay.html")
	code, out, _ := vigil("check", "central", "-scenario", "loss", "-trace", trace, "-html", checked)
	require.Equal(t, 1, code, out)
	code, out, stderr := vigil("replay", "-html", replayed, trace)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, out, "counterexample to no-deadlock")
	for _, f := range []string{checked, replayed} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		page := string(b)
		require.Contains(t, page, `<svg xmlns="http://www.w3.org/2000/svg" class="msc"`, f)
		require.Contains(t, page, "no-deadlock fails: deadlock: nothing can happen, and n0, n1, n2 wait for the critical section", f)
	}
	// a directory that is not there yet is made (one that cannot be is
	// refused before the search: TestOutputsComeFirst)
	made := filepath.Join(dir, "no-such-dir", "x.html")
	code, _, stderr = vigil("check", "central", "-html", made)
	require.Equal(t, 0, code, stderr)
	require.FileExists(t, made)
}

// A lasso written by -trace replays to the same cycle; without the
// fairness it was found under, the cycle is not a counterexample.
func TestLassoReplays(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lasso.json")
	// with no fairness assumed, the server may serve n1 forever while
	// n0's own request waits in flight
	code, out, _ := vigil("check", "central", "-n", "2", "-requests", "0", "-fairness", "none", "-props", "no-starvation", "-trace", file)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, "n0 waits for the critical section forever, on a cycle")
	require.Contains(t, out, "-- from here the run goes round a cycle forever --")
	code, replayed, stderr := vigil("replay", file)
	require.Equal(t, 1, code, stderr)
	lasso := func(s string) string { return s[strings.Index(s, "counterexample to"):] }
	require.Equal(t, lasso(out[:strings.Index(out, "verdict:")]), lasso(replayed))

	// under weak fairness the same cycle starves no one: replay rejects it
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	weak := filepath.Join(t.TempDir(), "weak.json")
	require.NoError(t, os.WriteFile(weak, []byte(strings.Replace(string(b), `"fairness": "none"`, `"fairness": "weak"`, 1)), 0o644))
	code, _, stderr = vigil("replay", weak)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "the cycle is not fair (weak fairness)")

	// and a weakly fair check passes
	code, out, _ = vigil("check", "central", "-n", "2", "-requests", "0", "-props", "no-starvation")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "weak fairness")
}

// TestCheckAllAndList runs check --all on one protocol's scenarios in the
// quick tier and on every protocol's with -long (CI also runs vigil check
// --all itself).
func TestCheckAllAndList(t *testing.T) {
	code, out, _ := vigil(tier.Pick([]string{"check", "--all", "election/lelann"}, []string{"check", "--all"})...)
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "every verdict is the expected one")
	require.Contains(t, out, "election/lelann")

	code, out, _ = vigil("list")
	require.Equal(t, 0, code)
	for _, name := range []string{"election/bully", "election/changroberts", "election/lelann"} {
		require.Contains(t, out, name)
	}
}

// list -format text is the default; -format markdown is a table with a
// row per protocol, each with all seven cells, whatever its text holds.
func TestListFormats(t *testing.T) {
	_, plain, _ := vigil("list")
	cases := []struct {
		args []string
		rows int // lines after the header
		want []string
	}{
		{[]string{"list", "-format", "text"}, len(builtins.All()), []string{plain}},
		{[]string{"list", "-format", "markdown"}, 2 + len(builtins.All()), []string{
			"| protocol | what it does | follows | claims | other properties | scenarios (expected verdict) | parameters |",
			"| `election/bully` | Garcia-Molina's bully election",
			"`async-crash` N=4 (unique-leader fails)",
			"`sync-crash` N=4 (pass)",
			"; when only some nodes initiate: `unique-leader`, `agreement`, `termination`",
			"`-reads` (default none; none, local, ordered)",
			"`-requests` (default 1)",
		}},
	}
	for _, c := range cases {
		code, out, stderr := vigil(c.args...)
		require.Equal(t, 0, code, stderr)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		require.Len(t, lines, c.rows, "%v", c.args)
		for _, w := range c.want {
			require.Contains(t, out, w, "%v", c.args)
		}
		if c.args[2] != "markdown" {
			continue
		}
		for _, line := range lines {
			cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
			require.Equal(t, 8, cells, "a row of seven cells: %s", line)
		}
	}
	require.Equal(t, `a \| b c`, markdownCell("a | b\n  c"))
}

// -rounds: the time of complete runs, in text and JSON, exhaustively and
// by random walks; a bound that stops the clocked search says so.
func TestRounds(t *testing.T) {
	code, out, _ := vigil("check", "changroberts", "-n", "4", "-rounds")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "time per complete run: rounds 8 (")

	code, out, _ = vigil("check", "changroberts", "-n", "4", "-rounds", "-json")
	require.Equal(t, 0, code, out)
	var doc struct {
		Rounds *struct{ Min, Max, States int }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	require.NotNil(t, doc.Rounds)
	require.Equal(t, [2]int{8, 8}, [2]int{doc.Rounds.Min, doc.Rounds.Max})
	require.Positive(t, doc.Rounds.States)

	code, out, _ = vigil("check", "changroberts", "-n", "6", "-mode", "random", "-walks", "20", "-rounds")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "time per complete run: rounds 12 (over the walks that ended)")

	code, out, _ = vigil("check", "sync/bfs-alpha", "-rounds", "-max-states", "20000")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "time per complete run: not measured, the search was cut by the state limit (-max-states)")

	code, out, _ = vigil("check", "changroberts", "-n", "4")
	require.Equal(t, 0, code, out)
	require.NotContains(t, out, "rounds")
}

// -scheduler: PCT finds the basic multicast's lost message after a sender
// crash at N = 10, which 100 uniform walks miss. (A bad scheduler, or one
// in exhaustive mode, is among the bad inputs above.)
func TestScheduler(t *testing.T) {
	args := []string{"check", "basic", "-scenario", "sender-crash", "-n", "10", "-mode", "random", "-walks", "100", "-props", "agreement"}
	code, out, _ := vigil(args...)
	require.Equal(t, 0, code, out)
	code, out, _ = vigil(append(args, "-scheduler", "pct:3")...)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, "agreement        fail")
	require.Contains(t, out, "random search, pct:3 scheduler\n")
}

// -shrink-time: a counterexample whose shrinking ran out of time says so,
// in text and JSON. (The flag is for random mode only: see the bad inputs
// above.)
func TestShrinkTime(t *testing.T) {
	args := []string{"check", "central", "-scenario", "loss", "-n", "30", "-mode", "random", "-walks", "50", "-first"}
	code, out, _ := vigil(args...)
	require.Equal(t, 1, code, out)
	require.NotContains(t, out, "shrinking stopped")
	code, out, _ = vigil(append(args, "-shrink-time", "1ns")...)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, "shrinking stopped at its time budget (-shrink-time)")
	code, out, _ = vigil(append(args, "-shrink-time", "1ns", "-json")...)
	require.Equal(t, 1, code, out)
	require.Contains(t, out, `"shrink_cut": true`)
}

// -props none explores the protocol's own states: no property, so no
// monitor tells apart worlds the protocol does not, and the message
// figures, which the monitors do not enter, are the same.
func TestPropsNone(t *testing.T) {
	type doc struct {
		Verdict    string
		Properties []struct{ Name string }
		Stats      struct{ States int }
		Messages   []struct {
			Kind     string
			Min, Max int
		}
	}
	search := func(args ...string) doc {
		code, out, _ := vigil(append([]string{"check", "bully", "-scenario", "sync-crash", "-json"}, args...)...)
		require.Equal(t, 0, code, out)
		var d doc
		require.NoError(t, json.Unmarshal([]byte(out), &d), out)
		return d
	}
	claims, none := search(), search("-props", "none")
	require.Equal(t, "pass", none.Verdict)
	require.Empty(t, none.Properties)
	require.NotEmpty(t, claims.Properties)
	require.Positive(t, none.Stats.States)
	require.LessOrEqual(t, none.Stats.States, claims.Stats.States)
	require.NotEmpty(t, none.Messages)
	require.Equal(t, claims.Messages, none.Messages)
}

// Nobody waits in silence: check --all tells of each scenario as it ends,
// and a search of each property's first violation as it finds it, before
// the search goes on.
func TestProgressOfResults(t *testing.T) {
	_, out, errOut := vigil("check", "--all", "tokenring")
	lines := regexp.MustCompile(`(?m)^vigil: mutex/tokenring \[[a-z-]+\]: .*, as expected \(\d+ states, `).FindAllString(errOut, -1)
	require.Len(t, lines, len(builtinScenarios(t, "tokenring")), errOut)
	require.Contains(t, errOut, "vigil: mutex/tokenring [order]: fail request-order, as expected")
	require.Contains(t, out, "every verdict is the expected one")

	for _, mode := range []string{"exhaustive", "random"} {
		code, out, errOut := vigil("check", "bully", "-scenario", "async-crash", "-mode", mode)
		require.Equal(t, 1, code, out)
		require.Regexp(t, `vigil: unique-leader fails (at depth \d+|on a walk shrunk to \d+ steps?): .*; the search goes on`, errOut, mode)
		require.Equal(t, 1, strings.Count(errOut, "vigil: unique-leader fails"), "told once: %s", errOut)
	}
	_, _, errOut = vigil("check", "bully", "-scenario", "async-crash", "-json")
	require.NotContains(t, errOut, "fails", "JSON output is quiet")
}

func builtinScenarios(t *testing.T, name string) []suite.Scenario {
	p, err := builtins.Lookup(name)
	require.NoError(t, err)
	return p.Scenarios
}

// flagLine is a flag as the flag package prints it under -h.
var flagLine = regexp.MustCompile(`(?m)^  -(\S+)`)

// A protocol parameter is a flag of vigil check, explore, run and node,
// so suite refuses the names of their own flags; its list must hold every
// flag they define, as their -h prints them over a registry without
// parameters, or a parameter could take a flag's name again.
func TestEveryCheckFlagIsAReservedParamName(t *testing.T) {
	reserved := suite.ReservedParamNames()
	for _, cmd := range []string{"check", "explore", "run", "node"} {
		var out, errOut bytes.Buffer
		require.Equal(t, 0, Main(&suite.Registry{}, []string{cmd, "-h"}, &out, &errOut))
		var flags []string
		for _, m := range flagLine.FindAllStringSubmatch(errOut.String(), -1) {
			flags = append(flags, m[1])
		}
		require.Greater(t, len(flags), 30, "vigil %s -h lists its flags:\n%s", cmd, errOut.String())
		for _, f := range flags {
			require.Contains(t, reserved, f, "vigil %s -%s is not in suite's reserved parameter names", cmd, f)
		}
	}
}

// A parameter named like one of vigil check's flags is refused when it is
// registered, naming the clash, rather than breaking every check of the
// binary; a parameter of another name is a flag of vigil check.
func TestRegisterRefusesParamsNamedLikeFlags(t *testing.T) {
	described := func(param string) *suite.Protocol {
		return &suite.Protocol{Name: "greeter", Family: "test", Properties: []*properties.Property{properties.UniqueLeader},
			Claims: []string{"unique-leader"}, Params: []suite.Param{{Name: param, Doc: "unused"}},
			Compile:   suite.Compiler("test/greeter", greeter{}, func(model.Config) error { return nil }),
			Scenarios: []suite.Scenario{{Name: "hello", N: 2, Expect: checker.Pass}}}
	}
	for _, name := range []string{"rounds", "seed", "n", "port", "param", "help"} {
		var r suite.Registry
		err := r.Register(described(name))
		require.EqualError(t, err, `protocol test/greeter: parameter "`+name+`" is named like a vigil check flag (-`+name+`); rename it`)
	}
	var r suite.Registry
	require.NoError(t, r.Register(described("greetings")))
	var out, errOut bytes.Buffer
	code := Main(&r, []string{"check", "greeter", "-greetings", "2", "-seed", "3", "-rounds"}, &out, &errOut)
	require.Equal(t, 0, code, out.String()+errOut.String())
	require.Contains(t, out.String(), "params=map[greetings:2]")
}
