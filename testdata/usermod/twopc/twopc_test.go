package twopc_test

import (
	"strings"
	"testing"

	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
)

// Two-phase commit is atomic and valid, and ends, while nothing crashes.
func TestTwoPhaseCommit(t *testing.T) {
	checktest.Check(t, twopc.Description, suite.Scenario{N: 4})
	checktest.Check(t, twopc.Description, suite.Scenario{N: 8, Channels: model.Unordered},
		checktest.Random(checker.RandomOptions{Walks: 500}))
}

// Every scenario gives the verdict it expects.
func TestScenarios(t *testing.T) { checktest.Scenarios(t, twopc.Description) }

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
	cx := checktest.Fails(t, &hasty, suite.Scenario{N: 4}, "commit-validity")
	if cx != nil && !strings.Contains(cx.Detail, "voted") {
		t.Errorf("detail %q", cx.Detail)
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
