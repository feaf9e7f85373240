package dynamic

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/work"
)

// Description tells vigil's tools about dynamic work sharing: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Sharing(&suite.Protocol{
	Name:    "dynamic",
	Summary: "dynamic work sharing: a coordinator hands tasks to empty machines, re-issues a crashed worker's, appoints a new analyser; the bully algorithm replaces the coordinator",
	Source:  works.Elections + ", \"Dynamic sharing\"; " + works.Garcia + ", as presented in the same notes",
	Claims:  []string{"all-results", "results-once", "unique-leader"},
	Params: []suite.Param{{Name: DedupParam, Default: 1, Values: []string{"off", "on"},
		Doc: "whether the analyser drops a result it counted already"}},
	Compile: suite.Compiler[State, Msg]("work/dynamic", Protocol{}, work.Validate("work/dynamic")),
	Scenarios: []suite.Scenario{
		{Name: "crash", N: 3, Crashes: 1, Params: family.Tasks(2), Props: []string{"all-results", "results-once", "unique-leader", "agreement", "termination"}, Expect: checker.Pass,
			Why:      "any one node crashes at any point: the coordinator hands a crashed worker's task to an empty machine, has a crashed analyser's results computed again for a new one, and a crashed coordinator is replaced by the bully algorithm (the Elections notes: solving 3, 4 and 1); every live node ends following one live coordinator",
			Messages: "task 2..5, result 2..4, done 2..4, appoint 0..1, election 0..3, answer 0..1, holding 0..1, coordinator 0..2"},
		{Name: "crash-n4", N: 4, Crashes: 1, Params: family.Tasks(3), Expect: checker.Pass,
			Why:      "the same with two workers besides the analyser and three tasks: a new coordinator asks the analyser what it holds and hands out the rest",
			Messages: "task 3..7, result 3..6, done 3..6, appoint 0..1, election 0..8, answer 0..4, holding 0..1, coordinator 0..5"},
		{Name: "more-tasks", N: 3, Crashes: 1, Params: family.Tasks(3), Expect: checker.Pass,
			Why:      "three tasks for two workers: the coordinator keeps the third until a worker reports done (it computes none itself while another node lives); a coordinator that crashes before it hands out the last leaves a worker holding its job when the new one hands it the next, and the worker computes both, in turn; at worst, 27 messages, every task computed for the crashed coordinator and again for its successor, whose analyser held none of the results yet",
			Messages: "total 9..27, task 3..7, result 3..6, done 3..6, appoint 0..1, election 0..3, answer 0..1, holding 0..1, coordinator 0..2"},
		{Name: "two-crashes", N: 3, Crashes: 2, Params: family.Tasks(2), Expect: checker.Pass,
			Why:      "the analyser a coordinator appointed after a crash may crash too: the coordinator watches each analyser it appoints, and the last live node ends up computing, analysing and coordinating alone",
			Messages: "task 2..8, result 2..6, done 2..6, appoint 0..4, election 0..5, answer 0..1, holding 0..2, coordinator 0..2"},
		{Name: "slow-worker", N: 3, Timing: model.Async, Params: map[string]int{properties.TasksParam: 1, DedupParam: 0},
			Props: []string{"results-once"}, MaxDepth: 12, Expect: checker.Fail, Shows: "results-once",
			Why: "with an unreliable detector the coordinator takes a slow worker for crashed and hands its task out again: both results reach the analyser, which counts the task twice unless it drops copies (the default)"},
		{Name: "loss", N: 3, Losses: 1, Params: family.Tasks(1), Props: []string{"all-results", "results-once", "unique-leader"}, Expect: checker.Fail, Shows: "all-results",
			Why: "a result lost on its way to the analyser: the coordinator watches for crashed machines, not lost messages, and the worker reported done, so the job ends without it (the Elections notes: the coordinator \"checks the status of machines and determines of one has crashed\")"},
		{Name: "recovery", N: 3, Crashes: 1, Recoveries: 1, Params: family.Tasks(2), Expect: checker.Fail,
			Shows: "unique-leader", Violates: []string{"all-results"},
			Why: "a crashed coordinator that restarts bullies its way back while its successor coordinates, as in bully's sync-recovery: two coordinators, and a job handed over twice may end without all results"},
		{Name: "deposed-coordinator", N: 3, Crashes: 2, Recoveries: 1, Params: family.Tasks(1), Expect: checker.Fail,
			Shows: "unique-leader", Violates: []string{"all-results"},
			Why: "the successor of a crashed coordinator hands the task out, and is deposed when the first one restarts: it lets the job go and stops watching its worker, whose crash is then the restarted coordinator's concern alone; a worker that crashes and restarts before its coordinator notices has lost its job for good, so the task may never be computed"},
		{Name: "stale-holding", N: 3, Crashes: 3, Recoveries: 1, Params: family.Tasks(1), Expect: checker.Fail,
			Shows: "unique-leader", Violates: []string{"all-results"},
			Why:      "the coordinator appoints a second analyser when the first crashes, and crashes itself before the answer comes; restarted, it appoints the lowest node again, and the answer to its old appointment, still in flight, is not the new analyser's: it waits for the one it appointed, or for its crash, before it hands anything out, so no run hands out more than 8 tasks (10 if it took the stale answer); as in recovery the restarted coordinator bullies its way back, and three crashes can leave no node alive",
			Messages: "total 1..41, task 1..8, result 0..5, done 0..5, appoint 0..9, election 0..9, coordinator 0..6, holding 0..5, answer 0..4"},
	},
}, properties.UniqueLeader, properties.Agreement, properties.Termination)
