package emergent

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/internal/family"
	"github.com/vigil-check/vigil/protocols/internal/works"
)

// Description tells vigil's tools about the emergent election: the
// properties it claims, its parameters and the scenarios, each with the
// verdict it must give, that show where its assumptions hold and where they
// break. Package protocols lists it among the protocols vigil ships.
var Description = family.Election(&suite.Protocol{
	Name:    "emergent",
	Summary: "Anthony's emergent election: a self-sized slave pool watches the master and only the slaves elect",
	Source:  works.Anthony,
	// the highest-ranked slave wins, not the highest live node
	Claims: []string{"unique-leader", "agreement", "termination", "live-leader", "pool-size"},
	Params: []suite.Param{
		{Name: properties.PoolMinParam, Default: 1, Doc: "the slave pool's lower limit: idle nodes promote themselves below it"},
		{Name: properties.PoolMaxParam, Default: 2, Doc: "the slave pool's upper limit: slaves demote themselves above it"},
	},
	Compile: suite.Compiler[State, Msg]("election/emergent", Protocol{}, nil),
	Scenarios: []suite.Scenario{
		{Name: "master-crash", N: 5, Crashes: 1, Params: map[string]int{properties.PoolMinParam: 2, properties.PoolMaxParam: 3}, Expect: checker.Pass,
			Why:      "with a perfect failure detector a pool of two or three slaves emerges, and only its slaves elect one new master when the master crashes",
			Messages: "slave-hello 8..12, slave-ack 6..11, master 0..4, candidate 0..3"},
		{Name: "async", N: 5, Crashes: 1, Timing: model.Async, MaxDepth: 8, Expect: checker.Fail,
			Props: []string{"unique-leader", "agreement"}, Shows: "unique-leader", Violates: []string{"agreement"},
			Why: "a late master heartbeat is taken for a dead master: a slave elects itself while the master lives (Anthony: discourage the candidate state under network instability)"},
		{Name: "lost-hello", N: 4, Losses: 1, Params: map[string]int{properties.PoolMinParam: 1, properties.PoolMaxParam: 1}, Expect: checker.Pass,
			Why:      "a lost hello leaves a node unaware of the slave that sent it, so it promotes too: the pool overshoots pool-max, and the slave with pool-max slaves above it demotes and says bye (Anthony's pool bounds)",
			Messages: "slave-hello 3..6, slave-ack 2..6, slave-bye 0..3"},
		{Name: "recovery", N: 4, Crashes: 1, Recoveries: 1, Expect: checker.Fail, Shows: "agreement",
			Why: "a master that crashes and restarts comes back idle under its old identifier: never two masters, but a node its successor's announcement has not reached yet still follows the restarted node, alive again"},
		{Name: "two-crashes", N: 4, Crashes: 2, Params: map[string]int{properties.PoolMinParam: 2, properties.PoolMaxParam: 3}, Expect: checker.Pass,
			Why:      "the master and then its successor crash: the slaves vote again, the highest live slave wins, and a late announcement of a replaced master is ignored",
			Messages: "slave-hello 3..9, slave-ack 1..8, master 0..6, candidate 0..5"},
		{Name: "loss", N: 3, Crashes: 1, Losses: 1, Params: map[string]int{properties.PoolMinParam: 2, properties.PoolMaxParam: 3}, Expect: checker.Fail, Shows: "unique-leader", Violates: []string{"agreement", "pool-size"},
			Why: "a lost message between two slaves: one takes the other for crashed, and when the master crashes each slave, alone in its pool as it sees it, becomes master (the detector assumes reliable links)"},
		{Name: "lost-hello-crash", N: 3, Crashes: 1, Losses: 1, Params: map[string]int{properties.PoolMinParam: 1, properties.PoolMaxParam: 1}, Expect: checker.Pass,
			Why:      "a lost hello makes a second slave join a pool of one: it demotes, stops watching the master and says bye, and when the master crashes the other slave elects itself alone; where the loss takes the new master's announcement instead, an idle node takes the silent slave for crashed, and promotes without waiting on it: its hello is acknowledged by the new master, whom it learns",
			Messages: "total 2..16, slave-hello 2..6, slave-ack 0..5, slave-bye 0..2, master 0..2, candidate 0..1"},
		{Name: "restart-pool", N: 3, Crashes: 1, Recoveries: 1, Params: map[string]int{properties.PoolMinParam: 2, properties.PoolMaxParam: 2}, Expect: checker.Fail, Shows: "agreement",
			Why: "the master restarts where pool-min 2 makes every other node a slave: a slave that hears the restarted master's hello stands to replace it, an idle node only forgets it (only slaves elect) and promotes in its turn, so the pool fills again; as in recovery only agreement fails"},
		{Name: "restart-twice", N: 2, Crashes: 2, Recoveries: 1, Expect: checker.Pass,
			Why: "two nodes: the master crashes and restarts, and either node may crash again: the slave that hears the restarted master's hello stands to replace it and stops watching it, the restarted node wins the election it joins, and after a second crash the survivor leads; with no third node to learn late, every claim holds"},
		{Name: "alone", N: 1, Crashes: 1, Recoveries: 1, Expect: checker.Pass,
			Why: "a lone node that crashes and restarts has no one to wait for: it joins the pool and leads again at once"},
		{Name: "partition", N: 3, Partitions: 1, Params: map[string]int{properties.PoolMinParam: 2, properties.PoolMaxParam: 2}, Expect: checker.Fail,
			Shows: "termination", Violates: []string{"unique-leader", "agreement", "live-leader", "pool-size"},
			Why: "the network splits the two slaves from the master: a slave whose master timer runs out stands and sends its candidacy, and if the network heals before the other's runs out, that one watches a master alive again and never stands, so the candidate waits for it for ever, believing in no master (termination fails); where both stand while cut off, they elect a second master (unique-leader fails): only slaves elect, and they take a cut-off master for a dead one"},
	},
})
