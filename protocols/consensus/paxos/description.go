package paxos

import (
	_ "embed"

	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description describes single-decree Paxos, safe with acceptors on stable
// storage and the highest-numbered value rule, and live where a majority
// lives and a perfect failure detector picks the proposer that goes on.
var Description = family.Consensus(&suite.Protocol{
	Name:    "paxos",
	Summary: "Lamport's single-decree Paxos: prepare and promise, then accept and accepted; a majority of acceptors chooses one value",
	Source:  works.Lamport,
	Params: []suite.Param{
		{Name: ProposersParam, Default: 2, Doc: "how many nodes, the first ones, propose (node i proposes value i+1)"},
		{Name: BallotsParam, Default: 1, Doc: "ballots each proposer may start, the first at start-up, the others on its retry timer (0: no bound)"},
		{Name: AcceptorParam, Default: Stable, Values: []string{"stable", "forgetful"},
			Doc: "whether an acceptor keeps its promise and accepted proposal across a crash (forgetful: a bug)"},
		{Name: ValueParam, Default: Highest, Values: []string{"highest", "own"},
			Doc: "the value a proposer asks to accept: that of the highest-numbered proposal promised, or always its own (own: a bug)"},
		{Name: ReportParam, Default: ReportAccepted, Values: []string{"accepted", "promised"},
			Doc: "what a promise reports: the highest-numbered proposal accepted, or the number promised with the value accepted (promised: a bug)"},
	},
	Compile: suite.Compiler[State, Msg]("consensus/paxos", Protocol{}, Validate),
}).MustAddScenarios(scenarios)

//go:embed scenarios.txt
var scenarios string
