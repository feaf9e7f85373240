package regress

import (
	"bytes"
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

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/handlers"
	"github.com/vigil-check/vigil/internal/mutate"
	"github.com/vigil-check/vigil/protocols"
)

var (
	mutation   = flag.Bool("mutate", false, "run the mutation check of the protocols' handler code (minutes)")
	mutateOnly = flag.String("mutate-only", "", "with -mutate, only the mutants of files whose path contains this, or of the one line FILE:LINE names (the golden is not compared)")
)

const module = "github.com/vigil-check/vigil"

// scenarioResult is a line of vigil check --all -json.
type scenarioResult struct {
	Protocol   string                 `json:"protocol"`
	Scenario   string                 `json:"scenario"`
	Verdict    checker.Verdict        `json:"verdict"`
	Unexpected string                 `json:"unexpected"`
	Cut        string                 `json:"cut"`
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

// TestMutation applies every one-line mutation of the catalogue (see
// package mutate) to the protocols' handler code, one at a time, and runs
// the scenarios of the protocols that execute the mutated line. A mutant is
// killed by a verdict (a scenario's verdict is not the one expected, a
// handler fails, or a search no longer ends within its time), or by an
// asserted figure (Scenario.Messages) alone; one that leaves every
// scenario's state graph as it was (states, transitions, depth, quiescent
// states, message figures, event coverage) is equivalent under the
// scenarios. Any other survives: a rule whose slip no verdict would catch.
// testdata/mutation.golden keeps the tally, the survivors and the
// equivalent mutants: a new survivor fails the test, and so does one that
// a new scenario kills, until the golden is updated and the change seen in
// review.
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

	var dirs []string
	require.NoError(t, filepath.WalkDir("protocols", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, filepath.ToSlash(p))
		}
		return err
	}))
	schema, err := mutate.Build(module, dirs)
	require.NoError(t, err)
	if *mutateOnly != "" {
		schema.Mutants = slices.DeleteFunc(schema.Mutants, func(m mutate.Mutant) bool {
			if strings.Contains(*mutateOnly, ":") {
				return !strings.HasSuffix(fmt.Sprintf("%s:%d", m.File, m.Line), *mutateOnly)
			}
			return !strings.Contains(m.File, *mutateOnly)
		})
	}
	tmp := t.TempDir()

	// the protocols that execute each line, from a build with coverage
	executes := linesByProtocol(t, tmp)

	// one build holds every mutant
	overlay := map[string]map[string]string{"Replace": {}}
	for i, file := range slices.Sorted(maps.Keys(schema.Files)) {
		dst := filepath.Join(tmp, fmt.Sprintf("%d-%s", i, path.Base(file)))
		require.NoError(t, os.WriteFile(dst, schema.Files[file], 0o644))
		overlay["Replace"][filepath.Join(root, filepath.FromSlash(file))] = dst
	}
	ov, err := json.Marshal(overlay)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "overlay.json"), ov, 0o644))
	bin := filepath.Join(tmp, "vigil-mutants")
	out, err := exec.Command("go", "build", "-overlay", filepath.Join(tmp, "overlay.json"), "-o", bin, "./cmd/vigil").CombinedOutput()
	require.NoError(t, err, "%s", out)

	base := map[string][]scenarioResult{}
	for _, p := range protocols.All() {
		res, why := runMutant(bin, 0, p.Path())
		require.Empty(t, why, "%s without a mutant", p.Path())
		base[p.Path()] = res
	}

	type outcome struct {
		mutant  mutate.Mutant
		kind    string // "verdict", "figure", "equivalent", "observation", "survived", "unexecuted"
		because string
	}
	outcomes := make([]outcome, len(schema.Mutants))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				m := schema.Mutants[i]
				o := outcome{mutant: m, kind: "equivalent"}
				ps := executes[fmt.Sprintf("%s:%d", m.File, m.Line)]
				if len(ps) == 0 {
					o.kind = "unexecuted"
				}
				for _, p := range ps {
					res, why := runMutant(bin, m.ID, p)
					if why != "" {
						o.kind, o.because = "verdict", p+": "+why
						break
					}
					if kind, because := judgeMutant(base[p], res); kind != "" {
						if o.kind != "figure" || kind == "verdict" {
							o.kind, o.because = kind, because
						}
						if kind == "verdict" {
							break
						}
					}
				}
				outcomes[i] = o
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

	// A survivor whose protocol runs as the original's in every scenario,
	// explored with no monitor in the worlds, changed only what the nodes
	// report to the monitors: no rule of the protocol, and no verdict.
	own := map[string][]stateGraph{}
	for i, o := range outcomes {
		if o.kind != "survived" {
			continue
		}
		same := true
		for _, p := range executes[fmt.Sprintf("%s:%d", o.mutant.File, o.mutant.Line)] {
			if own[p] == nil {
				g, ok := protocolGraphs(bin, 0, p, base[p])
				require.True(t, ok, "%s without a mutant, with no property", p)
				own[p] = g
			}
			if g, ok := protocolGraphs(bin, o.mutant.ID, p, base[p]); !ok || !reflect.DeepEqual(g, own[p]) {
				same = false
				break
			}
		}
		if same {
			outcomes[i].kind = "observation"
		}
	}

	count := map[string]int{}
	var tally bytes.Buffer
	var survivors []string
	for _, o := range outcomes {
		count[o.kind]++
		switch o.kind {
		case "survived", "unexecuted":
			// lines move with every edit: the golden names the file and the code
			survivors = append(survivors, fmt.Sprintf("%s %s: %s (%s)", o.mutant.File, o.mutant.Op, o.mutant.Code, o.kind))
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
	fmt.Fprintln(&tally, "\nchange only the observations (the protocol's own state graph is the original's in every scenario; no verdict moves):")
	for _, o := range outcomes {
		if o.kind == "observation" {
			fmt.Fprintf(&tally, "  %s %s: %s\n", o.mutant.File, o.mutant.Op, o.mutant.Code)
		}
	}
	fmt.Fprintln(&tally, "\nequivalent under the scenarios (no scenario's state graph changes):")
	for _, o := range outcomes {
		if o.kind == "equivalent" {
			fmt.Fprintf(&tally, "  %s %s: %s\n", o.mutant.File, o.mutant.Op, o.mutant.Code)
		}
	}
	t.Log(tally.String())
	for _, o := range outcomes {
		if o.kind == "survived" {
			t.Logf("survivor %s:%d %s: %s", o.mutant.File, o.mutant.Line, o.mutant.Op, o.because)
		}
	}
	if *mutateOnly == "" {
		// a new survivor, or a survivor killed, changes the golden
		require.NoError(t, os.Chdir(wd))
		golden(t, "mutation.golden", tally.Bytes())
	}
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
		case r.Cut != "":
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

// runMutant runs every scenario of protocol p with mutant id switched on
// and returns the results, or why there are none (a failure to run is a
// kill: a handler that panics, a search out of memory).
func runMutant(bin string, id int, p string) ([]scenarioResult, string) {
	cmd := mutantCommand(bin, id, "check", "--all", p, "-json", "-time", "60s")
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
		if json.Unmarshal(out, &r) != nil || r.Verdict != checker.Pass || r.Cut != "" && r.Cut != "depth" {
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
	out, err := exec.Command("go", "build", "-cover", "-coverpkg=./cmd/vigil,./protocols/...", "-o", bin, "./cmd/vigil").CombinedOutput()
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
