package twopc_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
)

// Two-phase commit is atomic and valid, and ends, while nothing crashes.
func TestTwoPhaseCommit(t *testing.T) {
	checktest.Check(t, twopc.Description, suite.Scenario{N: 4})
	checktest.Check(t, twopc.Description, suite.Scenario{N: 8, Channels: model.Unordered},
		checktest.Random(checker.RandomOptions{Walks: 500}))
}

// The description holds together by the rule of a registry and the kit.
func TestDescription(t *testing.T) {
	if err := twopc.Description.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Every scenario gives the verdict it expects.
func TestScenarios(t *testing.T) { checktest.Scenarios(t, twopc.Description) }

// Scenarios may be written as text, each run in vigil check's flags, as
// vigil's own protocols keep theirs; a mistake is named by its line.
func TestScenariosAsText(t *testing.T) {
	const text = `# twopc's scenarios, the first vigil check's default

no-crash: -n 4
expect: pass
messages: total 7..9, canCommit? 3

coordinator-crash: -n 3 -crashes 1 -channels unordered -no-votes 0
expect: fail termination
why: the coordinator crashes while a participant is prepared: it may
  not decide alone and blocks (ch. 17.3.1)
`
	d := *twopc.Description
	d.Scenarios = nil
	checktest.Scenarios(t, d.MustAddScenarios(text))
	if len(d.Scenarios) != 2 || d.Scenarios[1].Crashes != 1 || d.Scenarios[1].Params["no-votes"] != 0 {
		t.Fatalf("scenarios read as %+v", d.Scenarios)
	}
	_, err := suite.ParseScenarios("no-crash: -n 4 -votes 2\nexpect: pass\n", d.Params)
	if err == nil || !strings.HasPrefix(err.Error(), "line 1: ") || !strings.Contains(err.Error(), "-votes") {
		t.Fatalf("an unknown flag: %v", err)
	}
}

// The textbook's weakness: a coordinator crash blocks prepared
// participants. Atomicity and validity still hold.
func TestBlocksWhenTheCoordinatorCrashes(t *testing.T) {
	sc := suite.Scenario{N: 3, Crashes: 1, Props: []string{"atomicity", "commit-validity", "termination"}}
	cx := checktest.Fails(t, twopc.Description, sc, "termination")
	if cx == nil {
		return
	}
	if last := cx.Events[len(cx.Events)-1]; !strings.Contains(cx.Detail, "prepared") {
		t.Errorf("the counterexample should end with a prepared participant, got %q after %v", cx.Detail, last)
	}
	if got := cx.Events[0].Observed; len(got) != 0 && got[0] == "" {
		t.Errorf("observations print by name, got %v", got)
	}
}

// A coordinator that commits on a majority of yes votes breaks validity.
func TestHastyCoordinator(t *testing.T) {
	hasty := *twopc.Description
	hasty.Name = "twopc-hasty"
	hasty.Compile = suite.Compiler("commit/twopc-hasty", twopc.Protocol{Hasty: true}, nil)
	hasty.Binary = "" // commit-vigil does not hold the variant
	cx := checktest.Fails(t, &hasty, suite.Scenario{N: 4}, "commit-validity")
	if cx != nil && !strings.Contains(cx.Detail, "voted") {
		t.Errorf("detail %q", cx.Detail)
	}
}

// A commit is reachable, and its witness is the shortest run to one: the
// coordinator asks both participants, both vote yes, and the second yes
// commits (2 canCommit?, 2 votes, the yes that decides).
func TestSomeRunCommits(t *testing.T) {
	r := checktest.Check(t, twopc.Description, suite.Scenario{N: 3, Props: []string{"committed"}})
	pr := r.Property("committed")
	if pr == nil || !pr.Sometimes || pr.Witness == nil || len(pr.Witness.Events) != 6 {
		t.Fatalf("committed: %+v", pr)
	}
}

// Where every vote is no, no run commits: commit-validity holds, but only
// because what it speaks of never happens, and the result says so.
func TestVacuousCommitValidity(t *testing.T) {
	sc := suite.Scenario{N: 3, Params: map[string]int{"yes-votes": 0}, Props: []string{"commit-validity"}}
	r := checktest.Check(t, twopc.Description, sc)
	if len(r.Vacuous) != 1 || r.Vacuous[0].Property != "commit-validity" || r.Vacuous[0].Trigger != "committed" {
		t.Fatalf("vacuous passes: %+v", r.Vacuous)
	}
	if r := checktest.Check(t, twopc.Description, suite.Scenario{N: 3, Props: []string{"commit-validity"}}); len(r.Vacuous) != 0 {
		t.Fatalf("a run commits, yet the pass is called vacuous: %+v", r.Vacuous)
	}
}

// The coordinator counts Yes votes, not voters: a Yes delivered twice
// commits before the other participant voted, so set channels, which
// deliver any message any number of times, are refused, by the library
// and by this module's vigil binary.
func TestNeedsExactlyOnce(t *testing.T) {
	checktest.Fails(t, twopc.Description, suite.Scenario{N: 3, Duplicates: 1}, "commit-validity")
	_, err := suite.Compile(twopc.Description, &suite.Scenario{N: 3, Channels: model.Set})
	if !errors.Is(err, model.ErrNetwork) || !strings.Contains(err.Error(), "counts Yes votes") {
		t.Fatalf("set channels: %v", err)
	}
	var r suite.Registry
	r.MustRegister(twopc.Description)
	var out, errOut strings.Builder
	if code := cli.Main(&r, []string{"check", "twopc", "-n", "3", "-channels", "set"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "exactly-once") {
		t.Fatalf("exit %d, %q", code, errOut.String())
	}
}

// rapid draws sizes, channels and a crash budget; atomicity and validity
// hold on every drawn schedule.
func TestRapid(t *testing.T) {
	checktest.Rapid(t, twopc.Description, checktest.Space{
		Base: suite.Scenario{Props: []string{"atomicity", "commit-validity"}},
		MinN: 1, MaxN: 7, Channels: true, Crashes: 1,
	})
}

// The participants are interchangeable: the exhaustive search explores
// one world per family of renamings, with the verdicts, counterexamples
// and message figures of the search of every world.
func TestSymmetryReduces(t *testing.T) {
	for _, sc := range []suite.Scenario{{N: 5}, {N: 4, Crashes: 1}, {N: 4, Channels: model.Unordered}} {
		m, err := suite.Compile(twopc.Description, &sc)
		if err != nil {
			t.Fatal(err)
		}
		full := checker.Exhaustive(context.Background(), m, checker.Options{Reduce: checker.ReduceNone, Messages: true})
		reduced := checker.Exhaustive(context.Background(), m, checker.Options{Messages: true})
		if reduced.Reduction.Kind != checker.SymmetryUsed || !strings.HasPrefix(reduced.Reduction.Detail, "n1 n2 n3") || reduced.Stats.States >= full.Stats.States {
			t.Errorf("%+v: %q, %d states of %d", sc, reduced.Reduction.String(), reduced.Stats.States, full.Stats.States)
		}
		for p := range full.Properties {
			if f, r := full.Properties[p], reduced.Properties[p]; f.Verdict != r.Verdict || (f.Counterexample == nil) != (r.Counterexample == nil) {
				t.Errorf("%+v: %s is %v in full, %v reduced", sc, f.Name, f.Verdict, r.Verdict)
			}
		}
		if fmt.Sprint(full.Messages) != fmt.Sprint(reduced.Messages) {
			t.Errorf("%+v: messages %v in full, %v reduced", sc, full.Messages, reduced.Messages)
		}
		t.Logf("N=%d crashes=%d %v: %d families of %d worlds", sc.N, sc.Crashes, sc.Channels, reduced.Stats.States, full.Stats.States)
	}
}

type step = checktest.Step[twopc.State, twopc.Msg]

var handlers = checktest.Handlers[twopc.State, twopc.Msg]{Protocol: twopc.Protocol{}, Config: model.Config{N: 3}}

func voted(d twopc.Decision) model.Obs   { return model.Obs{Kind: twopc.Voted, Arg: int(d)} }
func decided(d twopc.Decision) model.Obs { return model.Obs{Kind: twopc.Decided, Arg: int(d)} }
func cancel(j model.NodeID) checktest.TimerEffect {
	return checktest.TimerEffect{Timer: twopc.VoteTimer(j)}
}

// A participant asked canCommit? votes: Yes leaves it prepared, No aborts
// it at once.
func TestVote(t *testing.T) {
	toCoordinator := func(m twopc.MsgType) []model.Sent[twopc.Msg] {
		return []model.Sent[twopc.Msg]{{To: twopc.Coordinator, Msg: twopc.Msg{Type: m}}}
	}
	handlers.Do(t, []step{
		{Name: "yes: prepared", Self: 1, In: twopc.State{Phase: twopc.Asked}, Action: twopc.VoteYes,
			Want: twopc.State{Phase: twopc.Prepared, Vote: twopc.Commit},
			Sent: toCoordinator(twopc.Yes), Observed: []model.Obs{voted(twopc.Commit)}},
		{Name: "no: aborted", Self: 2, In: twopc.State{Phase: twopc.Asked}, Action: twopc.VoteNo,
			Want: twopc.State{Phase: twopc.Done, Vote: twopc.Abort, Decision: twopc.Abort},
			Sent: toCoordinator(twopc.No), Observed: []model.Obs{voted(twopc.Abort), decided(twopc.Abort)}},
	})
}

// The coordinator commits on the last Yes and aborts on the first No,
// telling every participant and cancelling the timers on their votes.
func TestCoordinatorDecides(t *testing.T) {
	toAll := func(m twopc.MsgType) []model.Sent[twopc.Msg] {
		return []model.Sent[twopc.Msg]{{To: 1, Msg: twopc.Msg{Type: m}}, {To: 2, Msg: twopc.Msg{Type: m}}}
	}
	handlers.Receive(t, []step{
		{Name: "the last yes: commit", In: twopc.State{Yes: 1}, From: 2, Msg: twopc.Msg{Type: twopc.Yes},
			Want: twopc.State{Phase: twopc.Done, Decision: twopc.Commit, Yes: 2}, Sent: toAll(twopc.DoCommit),
			Timers: []checktest.TimerEffect{cancel(2), cancel(1), cancel(2)}, Observed: []model.Obs{decided(twopc.Commit)}},
		{Name: "a yes, one to come: counted", From: 1, Msg: twopc.Msg{Type: twopc.Yes},
			Want: twopc.State{Yes: 1}, Timers: []checktest.TimerEffect{cancel(1)}},
		{Name: "a no: abort", From: 1, Msg: twopc.Msg{Type: twopc.No},
			Want: twopc.State{Phase: twopc.Done, Decision: twopc.Abort}, Sent: toAll(twopc.DoAbort),
			Timers: []checktest.TimerEffect{cancel(1), cancel(1), cancel(2)}, Observed: []model.Obs{decided(twopc.Abort)}},
	})
}

// byzantine is two-phase commit whose traitors (-traitors) may send either
// decision in place of the other.
type byzantine struct{ twopc.Protocol }

func (byzantine) Forge(_ *model.Env, _ model.NodeID, m twopc.Msg) []twopc.Msg {
	switch m.Type {
	case twopc.DoCommit:
		return []twopc.Msg{m, {Type: twopc.DoAbort}}
	case twopc.DoAbort:
		return []twopc.Msg{m, {Type: twopc.DoCommit}}
	}
	return []twopc.Msg{m}
}

// Two-phase commit trusts its coordinator: a traitor coordinator tells one
// participant to commit and another to abort. Without Forge, traitors are
// refused.
func TestTraitorCoordinatorBreaksAtomicity(t *testing.T) {
	byz := *twopc.Description
	byz.Name = "twopc-byzantine"
	byz.Compile = suite.Compiler("commit/twopc-byzantine", byzantine{}, nil)
	byz.Binary = "" // commit-vigil does not hold the variant
	sc := suite.Scenario{N: 3, Traitors: 1, Props: []string{"atomicity"}}
	cx := checktest.Fails(t, &byz, sc, "atomicity")
	if cx != nil && !slices.ContainsFunc(cx.Events, func(e checker.TraceStep) bool { return e.Kind == "traitor" }) {
		t.Errorf("the counterexample shows no traitor: %+v", cx.Events)
	}
	if _, err := suite.Compile(twopc.Description, &sc); !errors.Is(err, model.ErrNoForger) {
		t.Errorf("traitors without Forge: %v", err)
	}
}
