package static

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
	"github.com/vigil-check/vigil/protocols/work"
)

// Description tells vigil's tools about static work sharing: the properties
// it claims, its parameters and the scenarios, each with the verdict it
// must give, that show where its assumptions hold and where they break.
// Package protocols lists it among the protocols vigil ships.
var Description = family.Sharing(&suite.Protocol{
	Name:    "static",
	Summary: "static work sharing: node 0 divides the tasks among the workers up front and analyses their results",
	Source:  works.Elections + ", \"Static sharing\"",
	Claims:  []string{"all-results", "results-once"},
	Compile: suite.Compiler[State, Msg]("work/static", Protocol{}, work.Validate("work/static")),
	Scenarios: []suite.Scenario{
		{Name: "no-crash", N: 4, Expect: checker.Pass,
			Why:      "without failures every share is computed and every result reaches the analyser once: N-1 shares and K results",
			Messages: "share 3, result 3"},
		{Name: "worker-crash", N: 3, Crashes: 1, Params: family.Tasks(2), Expect: checker.Fail, Shows: "all-results",
			Why: "nothing recovers a crashed worker's share: \"A crashed machine will mean missing results\" (the lecture notes Elections)"},
		{Name: "duplicate", N: 3, Duplicates: 1, Params: family.Tasks(2), Expect: checker.Fail, Shows: "results-once",
			Why: "the network duplicates a result and the analyser counts it twice: static sharing keeps no record of what came in (Vlassov and Montelius: retransmission must \"avoid duplication of messages\")"},
	},
})
