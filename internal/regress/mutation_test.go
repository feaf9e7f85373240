package regress

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/handlers"
	"github.com/vigil-check/vigil/internal/mutate"
	"github.com/vigil-check/vigil/protocols"
)

var (
	mutation   = flag.Bool("mutate", false, "run the mutation check of the protocols' handler code (minutes)")
	mutateOnly = flag.String("mutate-only", "", "with -mutate, only the mutants of files whose path contains this, or of the one line FILE:LINE names (the golden is not compared)")
	unitsOnly  = flag.Bool("mutate-units", false, "with -mutate and -mutate-only, judge property mutants by the unit tests alone, without the scenarios (seconds: for writing the tables)")
)

const module = "github.com/vigil-check/vigil"

// scenarioResult is a line of vigil check --all -json.
type scenarioResult struct {
	Protocol   string                 `json:"protocol"`
	Scenario   string                 `json:"scenario"`
	Verdict    checker.Verdict        `json:"verdict"`
	Failed     []string               `json:"failed"`
	Unexpected string                 `json:"unexpected"`
	Cut        checker.Cut            `json:"cut"`
	Stats      checker.Stats          `json:"stats"`
	Messages   []checker.MessageRange `json:"messages"`
	Coverage   *checker.Coverage      `json:"coverage"`
}

// graph is what a scenario's result says of its state graph: two mutants
// whose every scenario gives the same are taken as one.
type stateGraph struct {
	States, Transitions, Quiescent int64
	Depth                          int
	Messages                       []checker.MessageRange
	Events                         []checker.EventCount
}

func (r scenarioResult) graph() stateGraph {
	g := stateGraph{States: r.Stats.States, Transitions: r.Stats.Transitions, Quiescent: r.Stats.Quiescent, Depth: r.Stats.Depth, Messages: r.Messages}
	if r.Coverage != nil {
		g.Events = r.Coverage.Events
	}
	return g
}

// TestMutation applies every one-line mutation of the catalogues (see
// package mutate) to the protocols' handler code and to the code of the
// properties, one at a time.
//
// A handler mutant runs the scenarios of the protocols that execute the
// mutated line. It is killed by a verdict (a scenario's verdict is not the
// one expected, a handler fails, or a search no longer ends within its
// time), or by an asserted figure (Scenario.Messages) alone; one that
// leaves every scenario's state graph as it was (states, transitions,
// depth, quiescent states, message figures, event coverage) is equivalent
// under the scenarios. Any other survives: a rule whose slip no verdict
// would catch.
//
// A property mutant is killed by a unit test of the package that holds it
// (its accept and reject tables), or else by a verdict of a scenario that
// executes the mutated line. One that neither kills survives, unless
// testdata/mutation.equivalent explains why no run can tell it from the
// original.
//
// testdata/mutation.golden keeps the tallies, the survivors and the
// equivalent mutants: a new survivor fails the test, and so does one that
// a new scenario or test kills, until the golden is updated and the change
// seen in review.
func TestMutation(t *testing.T) {
	if !*mutation {
		t.Skip("minutes of builds and searches: run with -mutate (CI does)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(root)) // the schema and the builds work from the module's root
	defer func() { require.NoError(t, os.Chdir(wd)) }()

	// The protocols' packages, but those that only tests import (named
	// like checktest: multicasttest, mutextest), whose code no scenario runs.
	var dirs []string
	require.NoError(t, filepath.WalkDir("protocols", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && !strings.HasSuffix(d.Name(), "test") {
			dirs = append(dirs, filepath.ToSlash(p))
		}
		return err
	}))
	schema, err := mutate.Build(module, dirs, append(slices.Clone(dirs), "properties"))
	require.NoError(t, err)
	if *mutateOnly != "" {
		schema.Mutants = slices.DeleteFunc(schema.Mutants, func(m mutate.Mutant) bool {
			if strings.Contains(*mutateOnly, ":") {
				return !strings.HasSuffix(fmt.Sprintf("%s:%d", m.File, m.Line), *mutateOnly)
			}
			return !strings.Contains(m.File, *mutateOnly)
		})
	}
	explained, err := readEquivalents(filepath.Join("testdata", "mutation.equivalent"))
	require.NoError(t, err)
	c := newMutationCheck(t, root, schema)

	if !*unitsOnly || *mutateOnly == "" {
		c.scenarios() // before the clock of any mutant starts
	}
	outcomes := make([]outcome, len(schema.Mutants))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				m := schema.Mutants[i]
				start := time.Now()
				if m.Kind == mutate.Property {
					outcomes[i] = c.judgeProperty(m, explained)
				} else {
					outcomes[i] = c.judgeHandler(m)
				}
				outcomes[i].took = time.Since(start)
				if caught := outcomes[i].caught; len(caught) > 0 {
					t.Logf("mutant %s shows failing: %s", mutantKey(m), strings.Join(caught, ", "))
				}
			}
		})
	}
	for i := range schema.Mutants {
		if i%50 == 0 {
			t.Logf("mutant %d of %d", i+1, len(schema.Mutants))
		}
		next <- i
	}
	close(next)
	wg.Wait()
	c.observationsOnly(outcomes)

	var handlerOutcomes, propertyOutcomes []outcome
	for _, o := range outcomes {
		if o.mutant.Kind == mutate.Property {
			propertyOutcomes = append(propertyOutcomes, o)
		} else {
			handlerOutcomes = append(handlerOutcomes, o)
		}
	}
	tally := handlerTally(handlerOutcomes)
	tally = append(tally, '\n')
	tally = append(tally, propertyTally(propertyOutcomes, explained)...)
	tally = append(append(tally, '\n'), claimsTally(handlerOutcomes)...)
	t.Log(string(tally))
	// the slowest mutants are where CI's time goes
	slowest := slices.SortedFunc(slices.Values(outcomes), func(a, b outcome) int { return cmp.Compare(b.took, a.took) })
	for _, o := range slowest[:min(15, len(slowest))] {
		t.Logf("slow: %.1fs %s (%s: %s)", o.took.Seconds(), mutantKey(o.mutant), o.kind, o.because)
	}
	for _, o := range outcomes {
		if o.kind == "survived" {
			t.Logf("survivor %s:%d %s: %s", o.mutant.File, o.mutant.Line, o.mutant.Op, o.because)
		}
	}
	if *mutateOnly == "" {
		// a new survivor, or a survivor killed, changes the golden
		require.NoError(t, os.Chdir(wd))
		golden(t, "mutation.golden", tally)
		for key := range explained {
			require.True(t, slices.ContainsFunc(propertyOutcomes, func(o outcome) bool { return o.kind == "equivalent" && mutantKey(o.mutant) == key }),
				"testdata/mutation.equivalent explains %q, which is no longer a surviving mutant", key)
		}
	}
}

// outcome is what became of one mutant.
type outcome struct {
	mutant mutate.Mutant
	// kind: "verdict", "figure", "equivalent", "observation", "survived",
	// "unexecuted" for handler mutants; "unit", "verdict", "equivalent",
	// "survived" for property mutants
	kind    string
	because string
	// caught: for a handler mutant, the claims ("protocol property") a
	// scenario caught failing that it does not fail without the mutant
	caught []string
	// took is how long its runs took, which CI's budget is made of
	took time.Duration
}

// mutantKey names a mutant as the golden and the equivalents file do:
// lines move with every edit, so by the file and the code.
func mutantKey(m mutate.Mutant) string { return fmt.Sprintf("%s %s: %s", m.File, m.Op, m.Code) }

// mutationCheck holds the builds of a mutation check and, computed when
// first needed, what the scenarios of the original do.
type mutationCheck struct {
	t          *testing.T
	tmp        string
	bin        string     // vigil, with every mutant
	handlerBin string     // vigil, with the handler mutants alone
	unit       []unitTest // the test binaries of the packages with property code

	once     sync.Once
	executes map[string][]string         // "file:line" → the protocols whose scenarios run it
	base     map[string][]scenarioResult // protocol → its scenarios' results without a mutant
	budget   map[string]int64            // protocol → the states a mutant's search may explore

	own map[string][]stateGraph // protocol → its own state graphs, with no property
}

// unitTest is a package's test binary, built with every mutant.
type unitTest struct{ dir, bin string }

// newMutationCheck builds vigil and the property packages' tests with the
// mutants of schema, in one overlay.
func newMutationCheck(t *testing.T, root string, schema *mutate.Schema) *mutationCheck {
	c := &mutationCheck{t: t, tmp: t.TempDir(), own: map[string][]stateGraph{}}
	all := c.overlay(root, "all", schema.Files)
	c.bin = filepath.Join(c.tmp, "vigil-mutants")
	out, err := exec.Command("go", "build", "-overlay", all, "-o", c.bin, "./cmd/vigil").CombinedOutput()
	require.NoError(t, err, "%s", out)
	// The handler mutants run the scenarios of a build without the
	// property mutants' switches in the monitors, which every step of a
	// search calls: a tenth of its time.
	handlerFiles := map[string][]byte{}
	propertyDirs := map[string]bool{}
	for _, m := range schema.Mutants {
		if m.Kind == mutate.Property {
			propertyDirs[path.Dir(m.File)] = true
			continue
		}
		switches := path.Join(path.Dir(m.File), "zz_vigil_mutant.go")
		handlerFiles[m.File], handlerFiles[switches] = schema.Files[m.File], schema.Files[switches]
	}
	c.handlerBin = filepath.Join(c.tmp, "vigil-handler-mutants")
	out, err = exec.Command("go", "build", "-overlay", c.overlay(root, "handlers", handlerFiles), "-o", c.handlerBin, "./cmd/vigil").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for i, dir := range slices.Sorted(maps.Keys(propertyDirs)) {
		bin := filepath.Join(c.tmp, fmt.Sprintf("unit%d.test", i))
		out, err := exec.Command("go", "test", "-c", "-overlay", all, "-o", bin, "./"+dir).CombinedOutput()
		require.NoError(t, err, "%s", out)
		c.unit = append(c.unit, unitTest{dir: filepath.Join(root, filepath.FromSlash(dir)), bin: bin})
	}
	return c
}

// overlay writes a go build -overlay file named name that replaces each
// of files (module-relative) by its content, and returns its path.
func (c *mutationCheck) overlay(root, name string, files map[string][]byte) string {
	dir := filepath.Join(c.tmp, name)
	require.NoError(c.t, os.Mkdir(dir, 0o755))
	overlay := map[string]map[string]string{"Replace": {}}
	for i, file := range slices.Sorted(maps.Keys(files)) {
		dst := filepath.Join(dir, fmt.Sprintf("%d-%s", i, path.Base(file)))
		require.NoError(c.t, os.WriteFile(dst, files[file], 0o644))
		overlay["Replace"][filepath.Join(root, filepath.FromSlash(file))] = dst
	}
	ov, err := json.Marshal(overlay)
	require.NoError(c.t, err)
	out := filepath.Join(dir, "overlay.json")
	require.NoError(c.t, os.WriteFile(out, ov, 0o644))
	return out
}

// A mutant's search of a scenario may explore budgetFactor times the
// states of the protocol's largest search without a mutant, and at least
// budgetFloor, before it is cut: a mutant that makes the state space
// explode is killed by that cut ("the search no longer ends") in seconds,
// and by the same count on any machine, so that what its runs show
// failing on the way (the golden's claims) is the same everywhere. The
// two minutes of -time are a net under that bound, not a bound met.
const (
	budgetFactor = 5
	budgetFloor  = 100_000
)

// scenarios computes, once, which protocols execute each line, what their
// scenarios give without a mutant, and the budget of a mutant's searches.
func (c *mutationCheck) scenarios() {
	c.once.Do(func() {
		c.executes = linesByProtocol(c.t, c.tmp)
		c.base, c.budget = map[string][]scenarioResult{}, map[string]int64{}
		for _, p := range protocols.All() {
			res, why := runMutant(c.handlerBin, 0, p.Path(), 0)
			require.Empty(c.t, why, "%s without a mutant", p.Path())
			c.base[p.Path()] = res
			c.budget[p.Path()] = budgetFloor
			for _, r := range res {
				c.budget[p.Path()] = max(c.budget[p.Path()], budgetFactor*r.Stats.States)
			}
		}
	})
}

func (c *mutationCheck) protocolsExecuting(m mutate.Mutant) []string {
	c.scenarios()
	return c.executes[fmt.Sprintf("%s:%d", m.File, m.Line)]
}

// judgeHandler runs the scenarios of the protocols that execute a handler
// mutant's line.
func (c *mutationCheck) judgeHandler(m mutate.Mutant) outcome {
	o := outcome{mutant: m, kind: "equivalent"}
	ps := c.protocolsExecuting(m)
	if len(ps) == 0 {
		o.kind = "unexecuted"
	}
	for _, p := range ps {
		res, why := runMutant(c.handlerBin, m.ID, p, c.budget[p])
		o.caught = append(o.caught, newlyFailed(c.base[p], res)...)
		if why != "" {
			return outcome{mutant: m, kind: "verdict", because: p + ": " + why, caught: o.caught}
		}
		if kind, because := judgeMutant(c.base[p], res); kind != "" {
			if kind == "verdict" {
				return outcome{mutant: m, kind: kind, because: because, caught: o.caught}
			}
			if o.kind != "figure" {
				o.kind, o.because = kind, because
			}
		}
	}
	return o
}

// newlyFailed lists, as "protocol property", the properties res fails in
// a scenario where base, the original's results, does not.
func newlyFailed(base, res []scenarioResult) []string {
	var out []string
	for i, r := range res {
		for _, name := range r.Failed {
			if i >= len(base) || !slices.Contains(base[i].Failed, name) {
				out = append(out, r.Protocol+" "+name)
			}
		}
	}
	return out
}

// claimsTally is the golden's account of the claims the handler mutants
// (deliberately broken protocols) show failing: for each claim of each
// protocol, how many mutants' runs a scenario catches failing it, and the
// first. TestEveryClaimIsSeenFailing reads it, with the scenarios and the
// broken variants, so that each claim is seen failing on a real run.
func claimsTally(outcomes []outcome) []byte {
	mutants := map[string][]mutate.Mutant{}
	for _, o := range outcomes {
		for _, c := range slices.Compact(slices.Sorted(slices.Values(o.caught))) {
			mutants[c] = append(mutants[c], o.mutant)
		}
	}
	var tally bytes.Buffer
	fmt.Fprintln(&tally, claimsHeader)
	for _, p := range protocols.All() {
		for _, claim := range claimsOf(p) {
			ms := mutants[p.Path()+" "+claim]
			fmt.Fprintf(&tally, "  %s %s: %d", p.Path(), claim, len(ms))
			if len(ms) > 0 {
				slices.SortFunc(ms, func(a, b mutate.Mutant) int { return a.ID - b.ID })
				fmt.Fprintf(&tally, ", e.g. %s", mutantKey(ms[0]))
			}
			fmt.Fprintln(&tally)
		}
	}
	return tally.Bytes()
}

// claimsHeader opens the golden's section on the claims.
const claimsHeader = "claims the handler mutants' runs show failing (protocol claim: how many mutants a scenario catches failing it, and the first):"

// claimsOf is every property protocol p claims, whoever initiates.
func claimsOf(p *suite.Protocol) []string {
	return slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(p.Claims), p.PartialClaims...))))
}

// judgeProperty runs the unit tests of the packages with property code
// on a property mutant, and if they all pass, the scenarios of the
// protocols that execute its line.
func (c *mutationCheck) judgeProperty(m mutate.Mutant, explained map[string]string) outcome {
	for _, u := range c.unit {
		cmd := mutantCommand(u.bin, m.ID, "-test.timeout=10s")
		cmd.Dir = u.dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return outcome{mutant: m, kind: "unit", because: firstFailure(out)}
		}
	}
	var executing []string
	if !*unitsOnly || *mutateOnly == "" {
		executing = c.protocolsExecuting(m)
	}
	for _, p := range executing {
		res, why := runMutant(c.bin, m.ID, p, c.budget[p])
		if why != "" {
			return outcome{mutant: m, kind: "verdict", because: p + ": " + why}
		}
		if kind, because := judgeMutant(c.base[p], res); kind == "verdict" || kind == "figure" {
			return outcome{mutant: m, kind: "verdict", because: because}
		}
	}
	if why, ok := explained[mutantKey(m)]; ok {
		return outcome{mutant: m, kind: "equivalent", because: why}
	}
	return outcome{mutant: m, kind: "survived", because: "no unit test fails and no scenario's verdict moves"}
}

// firstFailure is the first test a test binary's output says failed.
func firstFailure(out []byte) string {
	for line := range strings.Lines(string(out)) {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok {
			return strings.TrimSpace(name)
		}
	}
	return firstLine(string(out))
}

// observationsOnly reclassifies the handler survivors whose protocol runs
// as the original's in every scenario, explored with no monitor in the
// worlds: they changed only what the nodes report to the monitors, no rule
// of the protocol, and no verdict.
func (c *mutationCheck) observationsOnly(outcomes []outcome) {
	for i, o := range outcomes {
		if o.kind != "survived" || o.mutant.Kind != mutate.Handler {
			continue
		}
		same := true
		for _, p := range c.protocolsExecuting(o.mutant) {
			if c.own[p] == nil {
				g, ok := protocolGraphs(c.handlerBin, 0, p, c.base[p])
				require.True(c.t, ok, "%s without a mutant, with no property", p)
				c.own[p] = g
			}
			if g, ok := protocolGraphs(c.handlerBin, o.mutant.ID, p, c.base[p]); !ok || !reflect.DeepEqual(g, c.own[p]) {
				same = false
				break
			}
		}
		if same {
			outcomes[i].kind = "observation"
		}
	}
}

// handlerTally is the golden's account of the handler mutants.
func handlerTally(outcomes []outcome) []byte {
	count := map[string]int{}
	var tally bytes.Buffer
	var survivors []string
	for _, o := range outcomes {
		count[o.kind]++
		switch o.kind {
		case "survived", "unexecuted":
			survivors = append(survivors, fmt.Sprintf("%s (%s)", mutantKey(o.mutant), o.kind))
		}
	}
	live := len(outcomes) - count["equivalent"] - count["observation"]
	fmt.Fprintf(&tally, "%d mutants of the handler code: %d killed by a verdict, %d by an asserted figure alone, %d equivalent under the scenarios, %d change only the observations, %d survived\n",
		len(outcomes), count["verdict"], count["figure"], count["equivalent"], count["observation"], count["survived"]+count["unexecuted"])
	fmt.Fprintf(&tally, "kill rate of the non-equivalent: %.1f%% by a verdict alone, %.1f%% with the figures\n",
		pct(count["verdict"], live), pct(count["verdict"]+count["figure"], live))
	fmt.Fprintln(&tally, "\nsurvivors (a state graph changes, and no verdict or asserted figure):")
	for _, s := range survivors {
		fmt.Fprintf(&tally, "  %s\n", s)
	}
	listKind(&tally, "\nchange only the observations (the protocol's own state graph is the original's in every scenario; no verdict moves):", outcomes, "observation")
	listKind(&tally, "\nequivalent under the scenarios (no scenario's state graph changes):", outcomes, "equivalent")
	return tally.Bytes()
}

// listKind writes heading to tally, then a line naming each mutant of
// outcomes that is of kind.
func listKind(tally *bytes.Buffer, heading string, outcomes []outcome, kind string) {
	fmt.Fprintln(tally, heading)
	for _, o := range outcomes {
		if o.kind == kind {
			fmt.Fprintf(tally, "  %s\n", mutantKey(o.mutant))
		}
	}
}

// propertyTally is the golden's account of the property mutants, with a
// line per file.
func propertyTally(outcomes []outcome, explained map[string]string) []byte {
	count := map[string]int{}
	perFile := map[string]map[string]int{}
	for _, o := range outcomes {
		count[o.kind]++
		if perFile[o.mutant.File] == nil {
			perFile[o.mutant.File] = map[string]int{}
		}
		perFile[o.mutant.File][o.kind]++
	}
	var tally bytes.Buffer
	fmt.Fprintf(&tally, "%d mutants of the property code: %d killed by a unit test, %d by a scenario's verdict, %d equivalent (explained), %d survived\n",
		len(outcomes), count["unit"], count["verdict"], count["equivalent"], count["survived"])
	fmt.Fprintln(&tally, "\nper file (killed by a unit test, by a verdict; equivalent; survived):")
	for _, f := range slices.Sorted(maps.Keys(perFile)) {
		k := perFile[f]
		fmt.Fprintf(&tally, "  %-48s %4d %4d; %3d; %3d\n", f, k["unit"], k["verdict"], k["equivalent"], k["survived"])
	}
	listKind(&tally, "\nsurvivors (no unit test fails, no scenario's verdict moves):", outcomes, "survived")
	fmt.Fprintln(&tally, "\nequivalent (testdata/mutation.equivalent says why no run can tell them from the original):")
	for _, o := range outcomes {
		if o.kind == "equivalent" {
			fmt.Fprintf(&tally, "  %s\n    %s\n", mutantKey(o.mutant), explained[mutantKey(o.mutant)])
		}
	}
	return tally.Bytes()
}

// readEquivalents reads the property mutants explained as equivalent: a
// line naming the mutant as the golden does (file, operator, code), then
// indented lines saying why; # starts a comment.
func readEquivalents(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	key := ""
	for n, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case line[0] == ' ' || line[0] == '\t':
			if key == "" {
				return nil, fmt.Errorf("%s:%d: a reason with no mutant above it", file, n+1)
			}
			out[key] = strings.TrimSpace(out[key] + " " + strings.TrimSpace(line))
		default:
			key = line
			if _, dup := out[key]; dup {
				return nil, fmt.Errorf("%s:%d: %s explained twice", file, n+1, key)
			}
			out[key] = ""
		}
	}
	for k, why := range out {
		if why == "" {
			return nil, fmt.Errorf("%s: %s has no reason", file, k)
		}
	}
	return out, nil
}

func pct(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}

// judgeMutant compares a mutant's results for one protocol with the
// original's: "verdict" if a scenario's verdict is not the one expected
// (or its search was cut), "figure" if only an asserted message figure
// differs, "survived" if a state graph changed with neither, "" if
// nothing changed.
func judgeMutant(base, res []scenarioResult) (kind, because string) {
	changed := ""
	for i, r := range res {
		switch {
		case r.Cut != checker.CutNone:
			return "verdict", fmt.Sprintf("%s %s: the search no longer ends (cut by %s)", r.Protocol, r.Scenario, r.Cut)
		case r.Unexpected != "" && !strings.HasPrefix(r.Unexpected, "expected messages"):
			return "verdict", fmt.Sprintf("%s %s: %s", r.Protocol, r.Scenario, r.Unexpected)
		case r.Unexpected != "":
			kind, because = "figure", fmt.Sprintf("%s %s: %s", r.Protocol, r.Scenario, r.Unexpected)
		case i < len(base) && !reflect.DeepEqual(r.graph(), base[i].graph()) && changed == "":
			changed = fmt.Sprintf("%s %s: the state graph changed", r.Protocol, r.Scenario)
		}
	}
	if kind == "" && changed != "" {
		return "survived", changed
	}
	return kind, because
}

// runMutant runs every scenario of protocol p with mutant id switched on,
// each search cut after maxStates states (0: no bound) or two minutes, and
// returns the results, or why there are none (a failure to run is a kill:
// a handler that panics, a search out of memory).
func runMutant(bin string, id int, p string, maxStates int64) ([]scenarioResult, string) {
	cmd := mutantCommand(bin, id, "check", "--all", p, "-json", "-time", "120s", "-max-states", strconv.FormatInt(maxStates, 10))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var res []scenarioResult
	if jerr := json.Unmarshal(stdout.Bytes(), &res); jerr != nil {
		return nil, fmt.Sprintf("no result (%v): %s", err, firstLine(stderr.String()))
	}
	for _, r := range res {
		if r.Verdict == checker.Error {
			return res, fmt.Sprintf("%s %s: a handler failed", r.Protocol, r.Scenario)
		}
	}
	return res, ""
}

// mutantCommand is vigil (bin) run with args and mutant id switched on
// (0: none).
func mutantCommand(bin string, id int, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), mutate.Env+"="+strconv.Itoa(id))
	return cmd
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// protocolGraphs explores every scenario of protocol p with mutant id
// switched on and no property (-props none), so that no monitor is in the
// worlds, and returns each one's state graph: the protocol's own. A
// scenario whose search with its properties (base, the original's) fails
// them may stop early: its graph is compared to the depth that search
// reached. It reports false if a search faulted or was cut other than by
// a depth bound.
func protocolGraphs(bin string, id int, p string, base []scenarioResult) ([]stateGraph, bool) {
	proto, err := protocols.Lookup(p)
	if err != nil || len(base) != len(proto.Scenarios) {
		return nil, false
	}
	var graphs []stateGraph
	for i, sc := range proto.Scenarios {
		args := []string{"check", p, "-scenario", sc.Name, "-props", "none", "-json", "-time", "60s"}
		if base[i].Verdict == checker.Fail {
			args = append(args, "-depth", strconv.Itoa(base[i].Stats.Depth))
		}
		out, _ := mutantCommand(bin, id, args...).Output() // exit 2 at the depth bound
		var r scenarioResult
		if json.Unmarshal(out, &r) != nil || r.Verdict != checker.Pass || r.Cut != checker.CutNone && r.Cut != checker.CutDepth {
			return nil, false
		}
		graphs = append(graphs, r.graph())
	}
	return graphs, true
}

// linesByProtocol maps "file:line" of the protocols' code to the
// protocols whose scenarios execute it, from a build of vigil with
// coverage run on each protocol's scenarios.
func linesByProtocol(t *testing.T, tmp string) map[string][]string {
	bin := filepath.Join(tmp, "vigil-cover")
	out, err := exec.Command("go", "build", "-cover", "-coverpkg=./cmd/vigil,./protocols/...,./properties/...", "-o", bin, "./cmd/vigil").CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := map[string][]string{}
	for i, p := range protocols.All() {
		covdir := filepath.Join(tmp, fmt.Sprintf("cov%d", i))
		require.NoError(t, os.Mkdir(covdir, 0o755))
		cmd := exec.Command(bin, "check", "--all", p.Path())
		cmd.Env = append(os.Environ(), "GOCOVERDIR="+covdir)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		profile := filepath.Join(tmp, fmt.Sprintf("cov%d.txt", i))
		out, err = exec.Command("go", "tool", "covdata", "textfmt", "-i="+covdir, "-o="+profile).CombinedOutput()
		require.NoError(t, err, "%s", out)
		blocks, err := handlers.ReadProfile(profile)
		require.NoError(t, err)
		seen := map[string]bool{}
		for _, b := range blocks {
			if b.Count == 0 {
				continue
			}
			rel := strings.TrimPrefix(b.File, module+"/")
			for l := b.From; l <= b.To; l++ {
				key := fmt.Sprintf("%s:%d", rel, l)
				if !seen[key] {
					seen[key] = true
					lines[key] = append(lines[key], p.Path())
				}
			}
		}
	}
	return lines
}
