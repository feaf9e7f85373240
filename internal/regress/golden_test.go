// The golden files of the shipped scenarios: their verdicts, counts and
// figures, the traces shown, and the sequence charts drawn of them.

package regress

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

type goldenCase struct {
	protocol string
	sc       suite.Scenario
}

// shippedCases are every built-in protocol's scenarios, in the order of
// the registry: the first blocks of testdata/verdicts.golden.
func shippedCases() []goldenCase {
	var cases []goldenCase
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			cases = append(cases, goldenCase{p.Name, s})
		}
	}
	return cases
}

// goldenCases are the exhaustive verdicts kept in testdata/verdicts.golden:
// every shipped scenario, and the sweeps the textbook claims are about.
func goldenCases() []goldenCase {
	type c = goldenCase
	cases := shippedCases()
	for n := 2; n <= 7; n++ {
		for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
			for _, ranks := range []string{"sorted", "reverse"} {
				cases = append(cases, c{"changroberts", suite.Scenario{Name: "sweep", N: n, Channels: ch, Ranks: ranks, Expect: checker.Pass}})
			}
		}
	}
	for n := 2; n <= 6; n++ {
		cases = append(cases, c{"lelann", suite.Scenario{Name: "sweep", N: n, Expect: checker.Pass}})
	}
	for n := 2; n <= 6; n++ {
		for _, init := range []string{"all", "0"} {
			cases = append(cases, c{"ringbased", suite.Scenario{Name: "sweep", N: n, Initiators: init, Ranks: "reverse", Expect: checker.Pass}})
			cases = append(cases, c{"activelist", suite.Scenario{Name: "sweep", N: n, Initiators: init, Ranks: "reverse", Expect: checker.Pass}})
		}
	}
	for n := 2; n <= 6; n++ {
		for _, init := range []string{"all", "0"} {
			cases = append(cases, c{"ring", suite.Scenario{Name: "sweep", N: n, Initiators: init, Ranks: "reverse", Expect: checker.Pass}})
		}
	}
	// Kesden's ring election skips failed nodes: one crash at any point
	// (N = 4 with one initiator is the crash scenario)
	for _, n := range []int{2, 3} {
		for _, init := range []string{"all", "0"} {
			cases = append(cases, c{"ring", suite.Scenario{Name: "sweep", N: n, Crashes: 1, Initiators: init, Expect: checker.Pass}})
		}
	}
	// some nodes do not initiate: the highest initiator wins (ClaimsFor)
	for _, name := range []string{"changroberts", "lelann", "bully"} {
		cases = append(cases, c{name, suite.Scenario{Name: "partial", N: 4, Initiators: "0,2", Ranks: "reverse", Expect: checker.Pass}})
	}
	for _, n := range []int{2, 3, 4} {
		for crashes := range 2 {
			cases = append(cases, c{"bully", suite.Scenario{Name: "sweep", N: n, Crashes: crashes, Expect: checker.Pass}})
		}
	}
	// mutual exclusion, each node asking twice; Ricart-Agrawala at N = 4
	// asks once here, twice in the long cases
	for n := 2; n <= 4; n++ {
		two := map[string]int{"requests": 2}
		cases = append(cases,
			c{"central", suite.Scenario{Name: "sweep", N: n, Params: two, Expect: checker.Pass}},
			c{"tokenring", suite.Scenario{Name: "sweep", N: n, Params: two, Expect: checker.Pass}})
		if n == 4 {
			two = map[string]int{"requests": 1}
		}
		cases = append(cases, c{"ricartagrawala", suite.Scenario{Name: "sweep", N: n, Params: two, Expect: checker.Pass}})
	}
	// group communication at N = 3 on unordered channels, 1 or 2
	// messages per sender, with and without a crash: every node sends
	// where the state space allows, else two senders or one
	type mc struct {
		protocol, init string
		msgs, crashes  int
		expect, shows  string
	}
	for _, m := range []mc{
		{"basic", "all", 1, 0, "pass", ""}, {"basic", "all", 2, 0, "pass", ""},
		{"basic", "all", 1, 1, "fail", "agreement"}, {"basic", "0,1", 2, 1, "fail", "agreement"},
		{"reliable", "0", 1, 0, "pass", ""}, {"reliable", "0", 2, 0, "pass", ""}, {"reliable", "0,1", 1, 0, "pass", ""},
		{"reliable", "0", 1, 1, "pass", ""}, {"reliable", "0", 2, 1, "pass", ""}, {"reliable", "0,1", 1, 1, "pass", ""},
		{"fifo", "all", 1, 0, "pass", ""}, {"fifo", "all", 2, 0, "pass", ""},
		{"fifo", "all", 1, 1, "pass", ""}, {"fifo", "0,1", 2, 1, "pass", ""},
		{"causal", "all", 1, 0, "pass", ""}, {"causal", "all", 2, 0, "pass", ""},
		{"causal", "all", 1, 1, "pass", ""}, {"causal", "0,1", 2, 1, "pass", ""},
		{"sequencer", "all", 1, 0, "pass", ""}, {"sequencer", "1", 2, 0, "pass", ""},
		{"sequencer", "0,1", 1, 1, "fail", "validity"}, {"sequencer", "1", 2, 1, "fail", "validity"},
		{"isis", "all", 1, 0, "pass", ""}, {"isis", "0", 2, 0, "pass", ""},
		{"isis", "0,1", 1, 1, "fail", "validity"}, {"isis", "1", 2, 1, "fail", "validity"},
	} {
		cases = append(cases, c{m.protocol, suite.Scenario{Name: "sweep", N: 3, Channels: model.Unordered, Crashes: m.crashes,
			Initiators: m.init, Params: map[string]int{"msgs": m.msgs}, Expect: checker.Verdict(m.expect), Shows: m.shows}})
	}
	return cases
}

// longGoldenCases are verdicts whose searches take minutes: they are kept
// in testdata/verdicts-long.golden and checked with -long (CI does).
func longGoldenCases() []goldenCase {
	return []goldenCase{
		// hundreds of millions of states, every run ending after 64 steps
		{"ricartagrawala", suite.Scenario{Name: "sweep", N: 4, Params: map[string]int{"requests": 2}, Sweep: true, Expect: checker.Pass}},
	}
}

// TestGoldenVerdicts keeps the verdict, counts and figures of every
// shipped scenario and of the sweeps in testdata/verdicts.golden, and the
// counterexample each failing scenario shows, as a chart (testdata/mermaid)
// and as text (testdata/traces), and each shipped scenario's event
// coverage (testdata/coverage.golden). The quick tier searches the shipped
// scenarios of quickCases(quickTransitions), compares their blocks,
// charts and traces, and leaves the rest to -long.
func TestGoldenVerdicts(t *testing.T) {
	t.Parallel()
	shown := map[string]*checker.Trace{}
	opt := checker.Options{Messages: true}
	if !tier.IsLong() {
		small, want := quickCases(t, quickTransitions)
		got := verdicts(t, small, opt, nil, shown)
		if want != string(got) {
			t.Fatalf("verdicts.golden changed in the quick tier's shipped scenarios (of up to %d transitions, and each protocol's smallest); if intended, run go test ./internal/regress -long -update and review the diff:\n%s",
				quickTransitions, lineDiff(want, string(got)))
		}
		charts(t, shown, false)
		goldenTraces(t, shown, false)
		return
	}
	var cover bytes.Buffer
	golden(t, "verdicts.golden", verdicts(t, goldenCases(), opt, &cover, shown))
	golden(t, "coverage.golden", cover.Bytes())
	charts(t, shown, true)
	goldenTraces(t, shown, true)
}

// quickTransitions bounds the searches of the quick tier's golden
// scenarios (see quickCases): two in three shipped scenarios take fewer
// transitions, and the few that take millions (Maekawa's deadlock, the
// invitation election's duplicates) or tens and hundreds of thousands
// would take most of the time, with the searches without reduction that
// some blocks compare with: the seven of 15 000 to 30 000 transitions
// alone take half as long as the 105 below.
const quickTransitions = 15_000

// quickCases are the shipped scenarios whose golden search took at most
// most transitions, and of a protocol that has none, the one whose search
// took fewest (Ricart-Agrawala's, 26 760 transitions), so that the quick
// tier takes every protocol; and their golden blocks. The shipped
// scenarios are the first blocks of testdata/verdicts.golden, in order.
func quickCases(t *testing.T, most int64) ([]goldenCase, string) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "verdicts.golden"))
	require.NoError(t, err)
	blocks := splitBlocks(string(b))
	shipped := shippedCases()
	require.GreaterOrEqual(t, len(blocks), len(shipped), "verdicts.golden lacks shipped scenarios (go test ./internal/regress -long -update)")
	transitions := make([]int64, len(shipped))
	fewest := map[string]int{} // protocol -> the shipped case of fewest transitions
	for i, gc := range shipped {
		var states int64
		_, err := fmt.Sscanf(strings.SplitN(blocks[i], "\n", 3)[1], "  %s %d states, %d transitions", new(string), &states, &transitions[i])
		require.NoError(t, err, "block %d of verdicts.golden: %q", i, blocks[i])
		if f, ok := fewest[gc.protocol]; !ok || transitions[i] < transitions[f] {
			fewest[gc.protocol] = i
		}
	}
	var small []goldenCase
	var want strings.Builder
	for i, gc := range shipped {
		if f := fewest[gc.protocol]; transitions[i] <= most || i == f && transitions[f] > most {
			small = append(small, gc)
			want.WriteString(blocks[i])
		}
	}
	return small, want.String()
}

// splitBlocks splits a golden file into blocks: an unindented line and the
// indented lines after it.
func splitBlocks(s string) []string {
	var blocks []string
	for line := range strings.SplitAfterSeq(s, "\n") {
		if line != "" && line[0] != ' ' || len(blocks) == 0 {
			blocks = append(blocks, "")
		}
		blocks[len(blocks)-1] += line
	}
	return blocks
}

func TestGoldenVerdictsLong(t *testing.T) {
	tier.Long(t, "searches of hundreds of millions of states")
	// 313 million states, about 6 GiB live at the widest levels; the bound
	// leaves the collector room (the default is half of the machine)
	golden(t, "verdicts-long.golden", verdicts(t, longGoldenCases(), checker.Options{Messages: true, MaxMemory: 18 << 30}, nil, nil))
}

// verdicts runs each case's exhaustive search, requires the verdict it
// expects, and returns the verdicts, counts and figures as golden lines.
// It writes to cover, if not nil, the event coverage of each shipped
// scenario and, for each protocol, the declared kinds of events that none
// of them took; every kind taken must be declared, and every property of
// every protocol must fail (a sometimes-property: be reached) in some
// shipped scenario. It records in shown,
// if not nil, the counterexample each shipped scenario shows, by
// family-protocol-scenario.
func verdicts(t *testing.T, cases []goldenCase, opt checker.Options, cover *bytes.Buffer, shown map[string]*checker.Trace) []byte {
	var out bytes.Buffer
	never := map[string]map[string]int{} // protocol → kind → scenarios that never took it
	shipped := map[string]int{}
	failed := map[string]bool{} // the property's family/name: shown failing by a shipped scenario
	var order []string
	for _, gc := range cases {
		p := lookup(t, gc.protocol)
		r, err := suite.Exhaustive(context.Background(), p, &gc.sc, opt)
		require.NoError(t, err)
		require.Empty(t, suite.Judge(&gc.sc, r), "%s %+v", p.Path(), gc.sc)
		require.Empty(t, r.Coverage.Undeclared, "%s %s: kinds taken that the protocol does not declare", p.Path(), gc.sc.Name)
		if r.Cut == checker.CutNone {
			took := int64(0)
			for _, e := range r.Coverage.Events {
				took += e.N
			}
			require.Equal(t, r.Stats.Transitions, took, "%s %s: every transition takes one kind of event", p.Path(), gc.sc.Name)
		}
		isShipped := slices.ContainsFunc(p.Scenarios, func(s suite.Scenario) bool { return reflect.DeepEqual(s, gc.sc) })
		if shown != nil && isShipped && gc.sc.Shows != "" {
			shown[strings.ReplaceAll(p.Path(), "/", "-")+"-"+gc.sc.Name] = r.Property(gc.sc.Shows).Counterexample
		}
		if cover != nil && isShipped {
			if never[p.Path()] == nil {
				never[p.Path()] = map[string]int{}
				order = append(order, p.Path())
			}
			shipped[p.Path()]++
			for _, k := range r.Coverage.Never {
				never[p.Path()][k]++
			}
			fmt.Fprintf(cover, "%s %s: %s\n", p.Path(), gc.sc.Name, r.Coverage)
			for _, f := range r.Properties {
				prop, err := p.Property(f.Name)
				require.NoError(t, err)
				if f.Verdict == checker.Fail || f.Witness != nil {
					failed[prop.Family+"/"+prop.Name] = true
				}
			}
		}
		cfg, _ := gc.sc.Config()
		parts := ""
		if cfg.Partitions > 0 {
			parts = fmt.Sprintf(" partitions=%d", cfg.Partitions)
		}
		if cfg.Topology != "" {
			parts += " topology=" + cfg.Topology
		}
		if cfg.Losses > 0 {
			parts += fmt.Sprintf(" losses=%d", cfg.Losses)
		}
		if cfg.Duplicates > 0 {
			parts += fmt.Sprintf(" duplicates=%d", cfg.Duplicates)
		}
		if len(cfg.Params) > 0 {
			parts += fmt.Sprintf(" params=%v", cfg.Params)
		}
		if gc.sc.Sweep {
			parts += " sweep"
		}
		if gc.sc.Window > 1 {
			parts += fmt.Sprintf(" window=%d", gc.sc.Window)
		}
		fmt.Fprintf(&out, "%s %s n=%d %v %s crashes=%d recoveries=%d%s ranks=%s initiators=%s depth≤%d\n",
			p.Path(), gc.sc.Name, cfg.N, cfg.Channels, cfg.TimingSpec(), cfg.Crashes, cfg.Recoveries, parts,
			or(gc.sc.Ranks, "sorted"), or(gc.sc.Initiators, "all"), gc.sc.MaxDepth)
		fmt.Fprintf(&out, "  %s: %d states, %d transitions, depth %d", r.Verdict, r.Stats.States, r.Stats.Transitions, r.Stats.Depth)
		if r.Messages != nil {
			var ms []string
			for _, m := range r.Messages {
				ms = append(ms, m.String())
			}
			fmt.Fprintf(&out, "; messages %s", strings.Join(ms, ", "))
		}
		fmt.Fprintln(&out)
		for _, f := range r.Properties {
			switch {
			case f.Counterexample != nil:
				fmt.Fprintf(&out, "  %s fails in %d steps: %s\n", f.Name, len(f.Counterexample.Events), f.Detail)
			case f.Witness != nil:
				fmt.Fprintf(&out, "  %s reached in %d steps: %s\n", f.Name, len(f.Witness.Events), f.Detail)
			case f.Sometimes && f.Verdict != checker.Pass:
				fmt.Fprintf(&out, "  %s %s: %s\n", f.Name, f.Verdict, f.Detail)
			}
		}
		for _, v := range r.Vacuous {
			fmt.Fprintf(&out, "  warning: %s\n", v)
		}
		if r.Reduction.Kind != checker.NoSymmetry {
			fmt.Fprintf(&out, "  %s\n", withoutReduction(t, p, &gc.sc, opt, r))
		}
		if r.PartialOrder != "" {
			fmt.Fprintf(&out, "  %s\n", withoutPartialOrder(t, p, &gc.sc, opt, r))
		}
	}
	if cover != nil {
		// a property no run shows failing could be one that cannot fail; a
		// sometimes-property no run reaches, one that cannot hold
		for _, p := range protocols.All() {
			for _, prop := range p.Properties {
				require.True(t, failed[prop.Family+"/"+prop.Name], "%s: no scenario shows property %s failing (or, a sometimes-property, reached) on a real run", p.Path(), prop.Name)
			}
		}
		fmt.Fprintln(cover, "\nkinds of events no scenario takes:")
		for _, path := range order {
			var none []string
			for k, n := range never[path] {
				if n == shipped[path] {
					none = append(none, k)
				}
			}
			slices.Sort(none)
			if len(none) > 0 {
				fmt.Fprintf(cover, "%s: %s\n", path, strings.Join(none, ", "))
			}
		}
	}
	return out.Bytes()
}

// goldenTraces keeps the counterexample of every known-failing scenario
// as a person reads it, from the searches of TestGoldenVerdicts (shown),
// which searched them all if every.
func goldenTraces(t *testing.T, shown map[string]*checker.Trace, every bool) {
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			cx, ok := shown[strings.ReplaceAll(p.Path(), "/", "-")+"-"+s.Name]
			if !ok && !every {
				continue
			}
			require.NotNil(t, cx, "%s/%s", p.Path(), s.Name)
			var out bytes.Buffer
			checker.Render(&out, cx)
			golden(t, filepath.Join("traces", p.Name+"-"+s.Name+".txt"), out.Bytes())
		}
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./internal/regress -update to create it")
	if string(want) != string(got) {
		t.Fatalf("%s changed; if intended, run go test ./internal/regress -update and review the diff:\n%s", name, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the first lines in which want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var diff []string
	for i := 0; i < max(len(w), len(g)) && len(diff) < 20; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			diff = append(diff, fmt.Sprintf("line %d\n  want: %s\n  got:  %s", i+1, wl, gl))
		}
	}
	return strings.Join(diff, "\n")
}

// withoutPartialOrder searches sc again with every step of every state
// explored, where r is a search reduced by partial order, and requires the
// same verdicts, a counterexample wherever the full search has one, the
// same quiescent states (as many: a reduced search meets each once) and
// the same message figures; it returns the golden line of the reduction:
// the states r explored of those there are, and the counterexamples'
// lengths where they differ, or why it did not reduce.
func withoutPartialOrder(t *testing.T, p *suite.Protocol, sc *suite.Scenario, opt checker.Options, r *checker.Result) string {
	if !strings.HasPrefix(r.PartialOrder, "partial order: ") {
		return "no partial-order reduction: " + strings.TrimPrefix(r.PartialOrder, "none: ")
	}
	opt.Reduce = checker.ReduceNone
	full, err := suite.Exhaustive(context.Background(), p, sc, opt)
	require.NoError(t, err)
	require.Equal(t, full.Verdict, r.Verdict, "%s %s: the verdict without partial order", p.Path(), sc.Name)
	var longer []string
	for i, pr := range r.Properties {
		fp := full.Properties[i]
		require.Equal(t, fp.Verdict, pr.Verdict, "%s %s: %s without partial order", p.Path(), sc.Name, pr.Name)
		require.Equal(t, fp.Counterexample == nil, pr.Counterexample == nil, "%s %s: %s's counterexample without partial order", p.Path(), sc.Name, pr.Name)
		if pr.Counterexample != nil && len(pr.Counterexample.Events) != len(fp.Counterexample.Events) {
			longer = append(longer, fmt.Sprintf("%s in %d steps, not %d", pr.Name, len(pr.Counterexample.Events), len(fp.Counterexample.Events)))
		}
	}
	if r.Cut == checker.CutNone && !r.Stopped && !r.StoppedFirst && full.Cut == checker.CutNone && !full.Stopped && !full.StoppedFirst {
		require.Equal(t, full.Stats.Quiescent, r.Stats.Quiescent, "%s %s: the quiescent states without partial order", p.Path(), sc.Name)
	}
	// (kinds are listed in the order the search met them)
	byKind := func(ms []checker.MessageRange) []checker.MessageRange {
		return slices.SortedFunc(slices.Values(ms), func(a, b checker.MessageRange) int { return strings.Compare(a.Kind, b.Kind) })
	}
	require.Equal(t, byKind(full.Messages), byKind(r.Messages), "%s %s: the figures without partial order", p.Path(), sc.Name)
	line := fmt.Sprintf("%s; %d states of %d (%.1f×)", r.PartialOrder, r.Stats.States, full.Stats.States, float64(full.Stats.States)/float64(r.Stats.States))
	if len(longer) > 0 {
		line += "; " + strings.Join(longer, ", ")
	}
	return line
}

// withoutReduction searches sc again with every world kept, where r is a
// search reduced by a declared symmetry, and requires the same verdicts,
// counterexamples as short and the same message figures; it returns the
// golden line of the reduction: the families r counted of the worlds
// there are, or why it did not reduce.
func withoutReduction(t *testing.T, p *suite.Protocol, sc *suite.Scenario, opt checker.Options, r *checker.Result) string {
	if r.Reduction.Kind != checker.SymmetryUsed {
		return r.Reduction.String()
	}
	opt.Reduce = checker.ReduceNone
	full, err := suite.Exhaustive(context.Background(), p, sc, opt)
	require.NoError(t, err)
	require.Equal(t, full.Verdict, r.Verdict, "%s %s: the verdict without the reduction", p.Path(), sc.Name)
	for i, pr := range r.Properties {
		fp := full.Properties[i]
		require.Equal(t, fp.Verdict, pr.Verdict, "%s %s: %s without the reduction", p.Path(), sc.Name, pr.Name)
		if pr.Counterexample != nil {
			require.Len(t, pr.Counterexample.Events, len(fp.Counterexample.Events), "%s %s: %s's counterexample", p.Path(), sc.Name, pr.Name)
		}
	}
	require.Equal(t, full.Messages, r.Messages, "%s %s: the figures without the reduction", p.Path(), sc.Name)
	return fmt.Sprintf("%s: %d families of %d worlds (%.1f×)", r.Reduction, r.Stats.States, full.Stats.States, float64(full.Stats.States)/float64(r.Stats.States))
}

// charts keeps the Mermaid sequence diagram of every counterexample a
// shipped scenario shows, one file each under testdata/mermaid, and
// requires that each diagram draws exactly the trace's deliveries and
// losses, in order, between the right lifelines.
func charts(t *testing.T, shown map[string]*checker.Trace, every bool) {
	dir := filepath.Join("..", "..", "testdata", "mermaid")
	for _, name := range slices.Sorted(maps.Keys(shown)) {
		tr := shown[name]
		require.NotNil(t, tr, "%s shows no counterexample", name)
		var b bytes.Buffer
		require.NoError(t, msc.Mermaid(&b, msc.New(tr), name+": "+tr.Property+" fails"))
		requireArrows(t, name, tr, b.String())
		golden(t, filepath.Join("mermaid", name+".mmd"), b.Bytes())
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.mmd"))
	require.NoError(t, err)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".mmd")
		if _, ok := shown[name]; !ok && every {
			if *update {
				require.NoError(t, os.Remove(f))
				continue
			}
			t.Errorf("%s: no shipped scenario shows this counterexample any more (-update removes it)", f)
		}
	}
}

// arrow is a Mermaid message line: "n0->>n1: 3. election (sent at 1)".
var arrow = regexp.MustCompile(`^    n(\d+)(->>|-x|--x)n(\d+): (?:(\d+)\. )?(lost: )?(.*)$`)

// requireArrows checks that the diagram's solid arrows are the trace's
// deliveries and losses, step by step.
func requireArrows(t *testing.T, name string, tr *checker.Trace, diagram string) {
	type drawn struct {
		from, to, step int
		lost           bool
	}
	var got, want []drawn
	for line := range strings.SplitSeq(diagram, "\n") {
		m := arrow.FindStringSubmatch(line)
		if m == nil || m[2] == "--x" { // --x: still in flight, not an event
			continue
		}
		from, _ := strconv.Atoi(m[1])
		to, _ := strconv.Atoi(m[3])
		step, _ := strconv.Atoi(m[4])
		got = append(got, drawn{from, to, step, m[2] == "-x"})
	}
	for i, ev := range tr.Events {
		if ev.Kind == "deliver" || ev.Kind == "lose" {
			want = append(want, drawn{ev.From, ev.Node, i + 1, ev.Kind == "lose"})
		}
	}
	require.Equal(t, want, got, "%s: the diagram's arrows are not the trace's deliveries", name)
}
